import Foundation
import Testing

/// Issue 13, part 2: everything the program creates gets the mode its umask gives, without any
/// bit for others: files `0666 & ~umask & ~0007`, folders `0777 & ~umask & ~0007`. The database,
/// its `-wal` and `-shm` (SQLite gives them the database file's mode), `--rejects`, report files
/// and folders (`--out` and its missing parents) and the nightly folders.
@Suite("Modes follow the umask, never world-accessible")
struct UmaskModesTests {
    /// umask → (file mode, folder mode).
    static let cases: [(String, Int, Int)] = [
        ("022", 0o640, 0o750), ("027", 0o640, 0o750), ("077", 0o600, 0o700), ("000", 0o660, 0o770),
    ]

    static let badTasks = "task_id,course_id,title\nt1,bio,One\nt2,nope,Two\n"

    @Test(.sqliteFiles, arguments: cases)
    func theDatabaseItsSideFilesAndTheRejectsFileGetTheUmasksModeWithoutOthers(_ mask: String, _ file: Int, _ folder: Int) throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write("bad.csv", Self.badTasks)
        let result = try sandbox.run(umask: mask, ["--db", "db.sqlite", "import", "--rejects", "rejects.csv", "courses.csv", "bad.csv"])
        #expect(result.exitCode == 65, "\(result)")
        for name in ["db.sqlite", "db.sqlite-wal", "db.sqlite-shm", "rejects.csv"] {
            #expect(try sandbox.mode(name) == file, "umask \(mask): \(name)")
        }
    }

    @Test(arguments: cases)
    func reportFilesAndTheFoldersCreatedForThemGetTheUmasksModeWithoutOthers(_ mask: String, _ file: Int, _ folder: Int) throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(umask: "077", ["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        let result = try sandbox.run(umask: mask, ["--db", "db.sqlite", "report", "list", "--format", "html", "--out", "out/sub"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(try sandbox.mode("out") == folder, "umask \(mask): out")
        #expect(try sandbox.mode("out/sub") == folder, "umask \(mask): out/sub")
        let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("out/sub")).sorted()
        #expect(files.count == 3, "\(files)")
        for name in files { #expect(try sandbox.mode("out/sub/" + name) == file, "umask \(mask): \(name)") }
    }

    @Test(.sqliteFiles, arguments: cases)
    func theNightlyJobsDatabaseFoldersAndReportsGetTheUmasksModeWithoutOthers(_ mask: String, _ file: Int, _ folder: Int) throws {
        let sandbox = try Sandbox()
        try sandbox.write("imports/courses.csv", Fixtures.courses)
        try sandbox.write("imports/tasks.csv", Fixtures.tasks)
        let result = try sandbox.run(umask: mask, ["--db", "db.sqlite", "nightly", "--imports", "imports", "--reports", "reports"])
        #expect(result.exitCode == 0, "\(result)")
        for name in ["db.sqlite", "db.sqlite-wal", "db.sqlite-shm"] { #expect(try sandbox.mode(name) == file, "umask \(mask): \(name)") }
        #expect(try sandbox.mode("reports") == folder, "umask \(mask): reports")
        #expect(try sandbox.mode("reports/2026-11-29") == folder, "umask \(mask): the dated folder")
        let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("reports/2026-11-29")).sorted()
        #expect(files.contains("index.html"), "\(files)")
        for name in files {
            let expected = FileManager.default.isDirectory(sandbox.path("reports/2026-11-29/" + name)) ? folder : file
            #expect(try sandbox.mode("reports/2026-11-29/" + name) == expected, "umask \(mask): \(name)")
        }
    }

    @Test(.sqliteFiles) func aDatabaseThatExistsKeepsItsOwnModeWhateverTheUmask() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(umask: "077", ["--db", "db.sqlite", "import", "courses.csv"]).exitCode == 0)
        #expect(try sandbox.run(umask: "000", ["--db", "db.sqlite", "import", "tasks.csv"]).exitCode == 0)
        for name in ["db.sqlite", "db.sqlite-wal", "db.sqlite-shm"] { #expect(try sandbox.mode(name) == 0o600, "\(name)") }
    }
}

extension FileManager {
    /// True when `path` is a folder (not following a link).
    fileprivate func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
