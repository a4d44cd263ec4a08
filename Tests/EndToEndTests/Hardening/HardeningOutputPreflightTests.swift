import DashboardCore
import Foundation
import Testing

/// Issue 27, item 4: every name a run will write is checked before its first write. A folder at
/// `index.<ext>` was found only after the course pages were written (74, a partial report);
/// now a folder, FIFO, socket, device or a link to one at any name of the set (course pages,
/// indexes, teachers' folders and their pages, nightly's dated folder and `latest`) is refused
/// with 64 before anything is read or written, and a folder of the set that cannot be written
/// into (a link, another user's) with 74, also before: every file is left as it was.
@Suite struct HardeningOutputPreflightTests {
    static let hint = "dashboard: hint: give another folder, or remove what is in the way; nothing was read or written\n"
    static let okafor = ByTeacherReportTests.okafor

    /// Runs `arguments`, expects `code`, `message` and `hint`, and no file changed anywhere.
    static func expectRefused(
        _ sandbox: Sandbox, _ arguments: [String], _ code: Int32, _ message: String, hint: String = Self.hint,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try HardeningOutputPathTests.state(sandbox)
        let result = try sandbox.run(arguments)
        #expect(
            result == CommandResult(exitCode: code, stdout: "", stderr: "dashboard: error: " + message + "\n" + hint),
            sourceLocation: sourceLocation)
        #expect(try HardeningOutputPathTests.state(sandbox) == before, "nothing may be written", sourceLocation: sourceLocation)
    }

    static func notRegular(_ said: String, _ name: String, _ kind: String) -> String {
        "\(said) would write \(name) there, which is not a regular file (\(kind)); dashboard replaces only regular files"
    }

    @Test func aFolderOrAFIFOAtAnIndexIsRefusedBeforeAnyCoursePage() throws {
        let sandbox = try HardeningOutputPathTests.imported()
        try FileManager.default.createDirectory(atPath: sandbox.path("out/index.html"), withIntermediateDirectories: true)
        #expect(mkfifo(sandbox.path("out/index.md"), 0o600) == 0)
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "report", "grid", "--format", "html", "--out", "out"], 64,
            Self.notRegular("--out out", "index.html", "a folder"))
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "report", "list", "--format", "markdown", "--out", "out"], 64,
            Self.notRegular("--out out", "index.md", "a FIFO (named pipe)"))
        #expect(try HardeningSafeFileTests.listing(sandbox, "out") == ["index.html", "index.md"])
    }

    @Test func aFolderAtACoursePagesNameIsRefusedBeforeAnyPage() throws {
        let sandbox = try HardeningOutputPathTests.imported()
        let page = ReportFileNames.course("bio", ext: "csv")
        try FileManager.default.createDirectory(atPath: sandbox.path("out/" + page), withIntermediateDirectories: true)
        try sandbox.write("out/index.csv", "last night's\n")
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "report", "grid", "--format", "csv", "--out", "out"], 64,
            Self.notRegular("--out out", page, "a folder"))
        #expect(try HardeningSafeFileTests.listing(sandbox, "out") == [page, "index.csv"])
    }

    @Test func aFolderAtATeachersIndexIsRefusedBeforeAnyPage() throws {
        let sandbox = try ByTeacherReportTests.school()
        try FileManager.default.createDirectory(atPath: sandbox.path("out/\(Self.okafor)/index.html"), withIntermediateDirectories: true)
        let arguments = ["--db", "db.sqlite", "report", "grid", "--format", "html", "--out", "out", "--by-teacher"]
        try Self.expectRefused(sandbox, arguments, 64, Self.notRegular("--out out", Self.okafor + "/index.html", "a folder"))
        // A folder at the index of teachers, the same.
        try FileManager.default.removeItem(atPath: sandbox.path("out/\(Self.okafor)/index.html"))
        try FileManager.default.createDirectory(atPath: sandbox.path("out/teachers/index.html"), withIntermediateDirectories: true)
        try Self.expectRefused(sandbox, arguments, 64, Self.notRegular("--out out", "teachers/index.html", "a folder"))
        // Without --by-teacher, teachers/ is not written, so not in the way.
        let whole = try sandbox.run(["--db", "db.sqlite", "report", "grid", "--format", "html", "--out", "out"])
        #expect(whole.exitCode == 0, "\(whole)")
    }

    @Test func aLinkAtTheTeachersFolderIsRefusedBeforeAnyPage() throws {
        let sandbox = try ByTeacherReportTests.school()
        try FileManager.default.createDirectory(atPath: sandbox.path("out"), withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: sandbox.path("elsewhere"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("out/teachers"), withDestinationPath: "../elsewhere")
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "report", "grid", "--format", "json", "--out", "out", "--by-teacher"], 74,
            "cannot write reports to out: out/teachers is a symbolic link, and dashboard never writes through one",
            hint: "dashboard: hint: give the folder the link points to, or remove the link\n")
        #expect(try HardeningSafeFileTests.listing(sandbox, "out") == ["teachers"])
    }

    @Test func nightlyRefusesAFolderAtATeachersPageBeforeTheImport() throws {
        let sandbox = try Sandbox()
        try sandbox.write("drop/courses.csv", ByTeacherReportTests.courses)
        try sandbox.write("drop/tasks.csv", ByTeacherReportTests.tasks)
        let page = "\(Self.okafor)/" + ReportFileNames.course("eng", ext: "md")
        try FileManager.default.createDirectory(atPath: sandbox.path("reports/2026-11-29/" + page), withIntermediateDirectories: true)
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "nightly", "--imports", "drop"], 64,
            Self.notRegular("--reports reports: the folder reports/2026-11-29", page, "a folder"))
        #expect(!sandbox.exists("db.sqlite"), "nothing was imported")
    }

    @Test func nightlyRefusesAReportsFolderThatIsALinkBeforeTheImport() throws {
        let sandbox = try Sandbox()
        try sandbox.write("drop/courses.csv", Fixtures.courses)
        try FileManager.default.createDirectory(atPath: sandbox.path("data/reports"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("reports"), withDestinationPath: "data/reports")
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "nightly", "--imports", "drop"], 74,
            "cannot write reports to reports: reports is a symbolic link, and dashboard never writes through one; nothing was imported",
            hint: "dashboard: hint: give the folder the link points to, or remove the link\n")
        #expect(!sandbox.exists("db.sqlite"), "nothing was imported")
        // The folder it points to is given: the night is written.
        let night = try sandbox.run(["--db", "db.sqlite", "nightly", "--imports", "drop", "--reports", "data/reports"])
        #expect(night.exitCode == 0, "\(night)")
    }

    /// The one rule: every file and folder a real run writes is a name the check reads
    /// (`ReportSetLayout.mayWrite`), so no name a writer adds can escape the check unseen.
    @Test func everyNameARunWritesIsOneTheCheckReads() throws {
        let sandbox = try ByTeacherReportTests.school()
        let night = try sandbox.run(["--db", "db.sqlite", "nightly", "--imports", "none"])
        #expect(night.exitCode == 66, "no export arrived: \(night)")
        var seen: [String] = []
        for name in try FileManager.default.subpathsOfDirectory(atPath: sandbox.path("reports/2026-11-29")) {
            #expect(NightlyJob.layout.mayWrite(name), "nightly wrote \(name)")
            seen.append(name)
        }
        #expect(seen.count > 30 && seen.contains("teachers/index.csv"), "\(seen.sorted())")
        for format in ReportFormat.allCases {
            let out = "out-" + format.rawValue
            let report = try sandbox.run(["--db", "db.sqlite", "report", "list", "--format", format.rawValue, "--out", out, "--by-teacher"])
            #expect(report.exitCode == 0, "\(report)")
            let layout = ReportSetLayout(formats: [format], byTeacher: true)
            for name in try FileManager.default.subpathsOfDirectory(atPath: sandbox.path(out)) {
                #expect(layout.mayWrite(name), "report --format \(format.rawValue) wrote \(name)")
            }
        }
    }
}
