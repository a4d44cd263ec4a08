import Foundation
import Testing

/// Issue 11, class 8: inputs that are not regular files. An entry of an import folder that is
/// not a regular file is never opened: it fails the run as `unreadable_file` (exit 65, nothing
/// imported) without blocking. A FIFO named on the command line is read as a stream.
@Suite struct HardeningNonRegularInputTests {
    /// What to plant as `drop/x.csv`, and the words the refusal uses for it.
    enum Planted: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case fifo, socket, folder, danglingSymlink, symlinkLoop, characterDevice

        var testDescription: String { rawValue }

        var words: String {
            switch self {
            case .fifo: return "it is a FIFO (named pipe), not a regular file"
            case .socket: return "it is a socket, not a regular file"
            case .folder: return "it is a folder, not a regular file"
            case .danglingSymlink: return "it is a symbolic link that points to nothing (gone.csv)"
            case .symlinkLoop: return "it is a loop of symbolic links"
            case .characterDevice: return "it is a character device, not a regular file"
            }
        }

        func plant(at path: String, in sandbox: Sandbox) throws {
            let fm = FileManager.default
            switch self {
            case .fifo: try #require(mkfifo(path, 0o644) == 0)
            case .socket:
                let made = try sandbox.runTool(
                    "python3", ["-c", "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", path])
                try #require(made.exitCode == 0, "\(made)")
            case .folder: try fm.createDirectory(atPath: path, withIntermediateDirectories: false)
            case .danglingSymlink: try fm.createSymbolicLink(atPath: path, withDestinationPath: "gone.csv")
            case .symlinkLoop:
                try fm.createSymbolicLink(atPath: path, withDestinationPath: "x.csv")
            case .characterDevice: try fm.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
            }
        }
    }

    @Test(arguments: Planted.allCases)
    func anEntryOfTheFolderThatIsNotAFileFailsTheRunWithoutBlocking(_ planted: Planted) throws {
        let sandbox = try Sandbox()
        try sandbox.write("drop/courses.csv", Fixtures.courses)
        try planted.plant(at: sandbox.path("drop/x.csv"), in: sandbox)
        let result = try sandbox.launch(["--db", "db.sqlite", "import", "--format", "json", "drop"], timeout: 30).finish()
        #expect(result.exitCode == 65, "\(result)")
        let output = try JSON.object(result.stdout)
        let problem = try #require(output["file_error"] as? [String: Any], "\(result)")
        #expect(problem["code"] as? String == "unreadable_file")
        #expect(problem["file"] as? String == "drop/x.csv")
        #expect(problem["message"] as? String == "\(planted.words); it was not read")
        #expect(output["status"] as? String == "failed")
        // The whole run failed: not even the good courses file was imported.
        #expect(try DatabaseSnapshot.int(sandbox.path("db.sqlite"), "SELECT count(*) FROM courses") == 0)
    }

    @Test func aFIFOInTheDropFolderDoesNotHangCheckOrNightly() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        let before = try DatabaseSnapshot.dump(sandbox.path("db.sqlite"), table: "tasks")
        try sandbox.write("imports/tasks.csv", Fixtures.tasks)
        try #require(mkfifo(sandbox.path("imports/x.csv"), 0o644) == 0)

        let check = try sandbox.launch(["--db", "db.sqlite", "check", "imports"], timeout: 30).finish()
        #expect(check.exitCode == 65, "\(check)")
        #expect(
            check.stderr.contains(
                "dashboard: error: imports/x.csv:1: it is a FIFO (named pipe), not a regular file; it was not read [unreadable_file]; nothing was imported"
            ), "\(check.stderr)")

        let nightly = try sandbox.launch(["--db", "db.sqlite", "nightly", "--imports", "imports", "--reports", "reports"], timeout: 60)
            .finish()
        #expect(nightly.exitCode == 65, "\(nightly)")
        #expect(nightly.stderr.contains("imports/x.csv:1: it is a FIFO (named pipe), not a regular file"), "\(nightly.stderr)")
        #expect(try DatabaseSnapshot.dump(sandbox.path("db.sqlite"), table: "tasks") == before)
    }

    @Test(.sqliteFiles, arguments: [["status"], ["import", "courses.csv"], ["report", "list"]])
    func aDatabasePathThatIsAFIFOIsRefusedWithoutBlocking(_ arguments: [String]) throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try #require(mkfifo(sandbox.path("db.sqlite"), 0o644) == 0)
        let result = try sandbox.launch(["--db", "db.sqlite"] + arguments, timeout: 30).finish()
        #expect(result.exitCode == 74, "\(result)")
        #expect(result.stderr.hasPrefix("dashboard: error: db.sqlite is not a dashboard database"), "\(result.stderr)")
    }

    @Test func aFIFONamedOnTheCommandLineIsReadAsAStream() throws {
        let sandbox = try Sandbox()
        let fifo = sandbox.path("courses.csv")
        try #require(mkfifo(fifo, 0o644) == 0)
        let run = try sandbox.launch(["--db", "db.sqlite", "import", "courses.csv"], timeout: 30)
        // Opening the FIFO for writing waits for the reader, as a writer to a named pipe does.
        let writer = open(fifo, O_WRONLY | O_CLOEXEC)
        try #require(writer >= 0)
        let failed = FileManagerWriter.write(writer, Fixtures.courses)
        close(writer)
        #expect(failed == 0)
        let result = try run.finish()
        #expect(result.exitCode == 0, "\(result)")
        #expect(try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT course_id FROM courses ORDER BY 1") == "bio\nhis\n")
        // The batch names the FIFO as it was given.
        #expect(try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT path FROM batch_files") == "courses.csv\n")
    }
}

/// Writes a whole string to a descriptor (the test's side of a FIFO).
enum FileManagerWriter {
    static func write(_ fd: Int32, _ text: String) -> Int32 {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            bytes = bytes.dropFirst(n)
        }
        return 0
    }
}
