import Foundation
import Testing

@testable import DashboardCore

@Suite("Report file names and writing a report set", .storeIndependent)
struct ReportFileNameTests {
    static let longID = String(repeating: "a", count: 300)

    @Test(
        "a course's file name is safe whatever its id holds",
        arguments: [
            ("../../x", "course-x-9cdf6a50.html"),
            ("a/b\\c", "course-a-b-c-7e65aa1c.html"),
            ("CON", "course-con-a3dbc4b6.html"),
            ("nul", "course-nul-99e62427.html"),
            ("..", "course-x-5ec1f7e7.html"),
            (".hidden", "course-hidden-16924190.html"),
            ("", "course-x-e3b0c442.html"),
            ("日本語", "course-x-77710aed.html"),
            ("Ünïcödé", "course-n-c-d-39af95d0.html"),
            ("Math-101", "course-math-101-de0c3fe8.html"),
            (longID, "course-" + String(repeating: "a", count: 36) + "-9835fa6b.html"),
        ])
    func courseName(id: String, expected: String) {
        #expect(ReportFileNames.course(id, ext: "html") == expected)
    }

    static let hostileIDs = [
        "../../x", "a/b\\c", "CON", "nul", "..", ".", ".hidden", "", " ", "日本語", "Ünïcödé", longID, "index", "/etc/passwd",
        "a\u{0}b", "C:\\Windows\\x", String(repeating: "a", count: 39) + "-bcd", String(repeating: "ab-", count: 30),
        "Math-101", "math-101", "math_101", "math 101", "MATH 101",
    ]

    @Test("every name has the documented shape, no separator, and distinct ids get distinct names", arguments: ReportFormat.allCases)
    func shape(format: ReportFormat) throws {
        let ext = format.fileExtension
        let pattern = try Regex("^course-[a-z0-9-]+-[0-9a-f]{8}\\.\(ext)$")
        let names = Self.hostileIDs.map { ReportFileNames.course($0, ext: ext) }
        for (id, name) in zip(Self.hostileIDs, names) {
            #expect(name.wholeMatch(of: pattern) != nil, "\(id) → \(name)")
            #expect(!name.contains("/") && !name.contains("\\") && !name.hasPrefix("."), "\(id) → \(name)")
            #expect(name != ReportFileNames.index(ext))
            #expect(ReportFileNames.slug(id).count <= 36, "\(id) → \(name)")
        }
        #expect(Set(names).count == Self.hostileIDs.count)
    }

    @Test("no name is longer than 60 characters", arguments: ReportFormat.allCases)
    func length(format: ReportFormat) {
        for id in Self.hostileIDs {
            let name = ReportFileNames.course(id, ext: format.fileExtension)
            #expect(name.count <= 60, "\(id) → \(name)")
        }
    }

    @Test("ids differing only in case or punctuation get distinct names")
    func distinct() {
        let ids = ["Math-101", "math-101", "math_101", "math 101", "MATH 101"]
        let names = ids.map { ReportFileNames.course($0, ext: "csv") }
        #expect(Set(names.map { $0.prefix(16) }) == ["course-math-101-"])
        #expect(Set(names).count == ids.count)
    }

    // MARK: - Writing a set

    /// Remembers what would be written, in order.
    final class MemoryFileSystem: ReportFileSystem {
        var directories: [String] = []
        var files: [(directory: String, name: String, contents: String)] = []

        func ensureDirectory(_ path: String) throws { directories.append(path) }

        func write(_ contents: String, name: String, in directory: String) throws {
            files.append((directory, name, contents))
        }
    }

    /// Three courses with hostile ids, the last without tasks.
    static let source = [
        ReportCourse(course: ReportSample.course("../../x", code: "A", title: "Up"), tasks: [ReportSample.task("T1", "../../x", "One")]),
        ReportCourse(course: ReportSample.course("CON", code: "B", title: "Device"), tasks: [ReportSample.task("T2", "CON", "Two")]),
        ReportCourse(course: ReportSample.course("a/b\\c", code: "C", title: "Slashes"), tasks: []),
    ]

    static func reports() -> (grid: Report, list: Report) {
        func build(_ kind: Report.Kind) -> Report {
            ReportBuilder.build(
                kind, courses: source, facts: ReportSample.freshFacts, query: ReportQuery(), asOf: ReportSample.asOf,
                defaultTimeZone: ReportSample.utc)
        }
        return (build(.grid), build(.list))
    }

    @Test("a set is the index and one file per course, all in the given folder", arguments: ReportFormat.allCases)
    func writeSet(format: ReportFormat) throws {
        let ext = format.fileExtension
        let fileSystem = MemoryFileSystem()
        let (grid, list) = Self.reports()
        let names = try ReportSet.write(grid: grid, list: list, format: format, width: 100, to: "/srv/out", fileSystem: fileSystem)
        let courses = ["course-x-9cdf6a50.", "course-con-a3dbc4b6.", "course-a-b-c-7e65aa1c."].map { $0 + ext }
        #expect(names == ["index.\(ext)"] + courses)
        #expect(fileSystem.directories == ["/srv/out"])
        #expect(fileSystem.files.map(\.directory) == Array(repeating: "/srv/out", count: 4))
        #expect(fileSystem.files.map(\.name) == courses + ["index.\(ext)"])
    }

    @Test("the HTML index links every course page and every page links back")
    func htmlLinks() throws {
        let fileSystem = MemoryFileSystem()
        let (grid, list) = Self.reports()
        try ReportSet.write(grid: grid, list: list, format: .html, width: 100, to: "out", fileSystem: fileSystem)
        let index = try #require(fileSystem.files.last)
        for name in ["course-x-9cdf6a50.html", "course-con-a3dbc4b6.html", "course-a-b-c-7e65aa1c.html"] {
            #expect(index.contents.contains("<a href=\"\(name)\">"))
        }
        for page in fileSystem.files.dropLast() {
            #expect(page.contents.contains("<nav aria-label=\"Breadcrumb\"><a href=\"index.html\">All courses</a></nav>"))
        }
    }

    // MARK: - The real disk

    static func listing(_ path: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: path).sorted()
    }

    static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test("LocalReportFileSystem writes 0600 files inside the folder only, and over existing files")
    func localDisk() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("report-files-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let out = base + "/l1/l2/out"
        #expect(try Self.listing(base) == [])

        let disk = LocalReportFileSystem()
        try disk.ensureDirectory(out)
        #expect(try Self.mode(out) == 0o700)
        try "old".write(toFile: out + "/index.html", atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: out + "/index.html")

        let (grid, list) = Self.reports()
        let names = try ReportSet.write(grid: grid, list: list, format: .html, width: 100, to: out, fileSystem: disk)
        let expected = ["l1", "l1/l2", "l1/l2/out"] + names.map { "l1/l2/out/" + $0 }
        #expect(try Self.listing(base) == expected.sorted())
        for name in names {
            #expect(try Self.mode(out + "/" + name) == 0o600, "\(name)")
        }
        let index = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(index == ReportFormat.html.render(grid, width: 100, link: { ReportFileNames.course($0.courseID, ext: "html") }))

        // Writing the set again replaces every file and adds nothing.
        try ReportSet.write(grid: grid, list: list, format: .html, width: 100, to: out, fileSystem: disk)
        #expect(try Self.listing(base) == expected.sorted())
    }

    @Test("writing fails with the path and the reason")
    func failures() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("report-files-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: base) }
        try "x".write(toFile: base + "/file", atomically: false, encoding: .utf8)
        let disk = LocalReportFileSystem()
        #expect(
            throws: ReportWriteError(
                path: base + "/file", reason: "\(base)/file is a file, not a folder",
                hint: "give a path whose folders are folders, or remove what is in the way")
        ) {
            try disk.ensureDirectory(base + "/file")
        }
        #expect(
            throws: ReportWriteError(
                path: base + "/missing", reason: "the folder \(base)/missing does not exist",
                hint: "create the folder first, or give one that exists")
        ) {
            try disk.write("x", name: "index.html", in: base + "/missing")
        }
    }
}
