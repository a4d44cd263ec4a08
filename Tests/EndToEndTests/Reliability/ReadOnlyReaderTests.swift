import Foundation
import Testing

/// Issue 13, part 1: a teacher who can read, but not write, the database file and its folder runs
/// every read command (`report`, `status`, `audit`, `batches list|show`, `check`, `verify`) and
/// gets the owner's output byte for byte, while no import runs and while a writer holds the
/// write lock (then both read the last committed state); nothing is created in the folder.
///
/// The database is made as root (the service user) with umask 027 in a folder of group 65534
/// (0750, files 0640), and read as uid 65534 of group 65534 through `setpriv`: no user is
/// created on the machine. Runs only as root (a user cannot read as another uid).
@Suite("Read-only readers", .sqliteFiles, .enabled(if: geteuid() == 0, "needs root: the reader runs as another uid through setpriv"))
struct ReadOnlyReaderTests {
    static let group: gid_t = 65534
    static let readerIDs = ["--reuid=65534", "--regid=65534", "--clear-groups"]

    /// The read commands, as a teacher would run them.
    static let commands: [[String]] = [
        ["status"], ["status", "--format", "json"], ["report", "grid"], ["report", "grid", "--format", "html"],
        ["report", "list", "--format", "json"], ["report", "list", "--format", "csv"], ["audit"], ["audit", "--format", "json"],
        ["batches", "list"], ["batches", "show", "1"], ["check", "courses.csv", "tasks.csv"],
        ["check", "--format", "json", "--mode", "sync", "courses.csv"], ["verify"], ["audit", "--group", "1"],
        // A bulk reclassify's preview writes nothing: a reader may run it.
        ["reclassify", "--course", "bio", "--to", "upcoming", "--reason", "snow day", "--format", "json"],
    ]

    /// A sandbox whose `srv/db.sqlite` the owner (root) imported with umask 027, in a folder of
    /// the reader's group (0750), and a copy of the binary any uid can run (`bin/dashboard`).
    static func sharedDatabase() throws -> Sandbox {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        // Other tests of this process change the umask for a moment: every mode is set here.
        for path in [sandbox.directory.deletingLastPathComponent().path, sandbox.directory.path] { #expect(chmod(path, 0o755) == 0) }
        for name in ["courses.csv", "tasks.csv"] { #expect(chmod(sandbox.path(name), 0o644) == 0) }
        try FileManager.default.createDirectory(atPath: sandbox.path("bin"), withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: try DashboardBinary.url().path, toPath: sandbox.path("bin/dashboard"))
        #expect(chmod(sandbox.path("bin"), 0o755) == 0 && chmod(sandbox.path("bin/dashboard"), 0o755) == 0)
        try FileManager.default.createDirectory(atPath: sandbox.path("srv"), withIntermediateDirectories: false)
        let imported = try sandbox.run(umask: "027", ["--db", "srv/db.sqlite", "import", "courses.csv", "tasks.csv"])
        #expect(imported.exitCode == 0, "\(imported)")
        let moved = try sandbox.run(umask: "027", ["--db", "srv/db.sqlite", "--as-of", "2026-12-02T12:00:00Z", "categorize"])
        #expect(moved.exitCode == 0, "\(moved)")
        #expect(chmod(sandbox.path("srv"), 0o750) == 0)
        for name in ["srv", "srv/db.sqlite", "srv/db.sqlite-wal", "srv/db.sqlite-shm"] {
            #expect(chown(sandbox.path(name), 0, group) == 0, "\(name)")
        }
        return sandbox
    }

    /// Runs `dashboard ARGS` on `srv/db.sqlite` as the reader (uid and gid 65534).
    static func asReader(_ sandbox: Sandbox, _ command: [String]) throws -> CommandResult {
        try sandbox.runTool("setpriv", readerIDs + [sandbox.path("bin/dashboard"), "--db", "srv/db.sqlite"] + command)
    }

    /// Runs `dashboard ARGS` on `srv/db.sqlite` as the owner.
    static func asOwner(_ sandbox: Sandbox, _ command: [String]) throws -> CommandResult {
        try sandbox.run(umask: "027", ["--db", "srv/db.sqlite"] + command)
    }

    /// The names in `srv` with their owners, sorted.
    static func folder(_ sandbox: Sandbox) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: sandbox.path("srv")).sorted().map { name in
            var info = stat()
            guard lstat(sandbox.path("srv/" + name), &info) == 0 else { return name + " (gone)" }
            return "\(name) uid \(info.st_uid)"
        }
    }

    /// Every read command as the reader: the owner's stdout, stderr and exit code.
    static func expectReaderSeesWhatTheOwnerSees(_ sandbox: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for command in commands {
            let owner = try asOwner(sandbox, command)
            let reader = try asReader(sandbox, command)
            #expect(owner.exitCode == 0 || command[0] == "check", "\(command): \(owner)", sourceLocation: sourceLocation)
            #expect(reader == owner, "\(command)", sourceLocation: sourceLocation)
        }
    }

    @Test func everyReadCommandGivesTheReaderTheOwnersOutputAndCreatesNothing() throws {
        let sandbox = try Self.sharedDatabase()
        let before = try Self.folder(sandbox)
        #expect(before == ["db.sqlite uid 0", "db.sqlite-shm uid 0", "db.sqlite-wal uid 0"])
        // The writer kept its -wal, cut to 0 bytes as it closed: no import's worth of pages left.
        #expect(try sandbox.read("srv/db.sqlite-wal").isEmpty)
        let data = try sandbox.read("srv/db.sqlite")
        let status = try Self.asOwner(sandbox, ["batches", "list"])
        try Self.expectReaderSeesWhatTheOwnerSees(sandbox)
        #expect(try Self.folder(sandbox) == before)
        #expect(try sandbox.read("srv/db.sqlite") == data)
        // check recorded nothing: the batches are those of the import.
        #expect(try Self.asOwner(sandbox, ["batches", "list"]) == status)
        #expect(try Self.asReader(sandbox, ["report", "grid"]).stdout.contains("BIO 101"))
    }

    @Test func whileAWriterHoldsTheLockTheReaderReadsTheLastCommittedState() throws {
        let sandbox = try Self.sharedDatabase()
        let before = try Self.folder(sandbox)
        let holder = try WriteLockHolder(sandbox, database: "srv/db.sqlite")
        defer { holder.release() }
        // Committed (only in the -wal: no checkpoint), then a write transaction left open.
        try holder.hold(
            committed: "UPDATE courses SET title = 'Biology, renamed' WHERE course_id = 'bio';",
            uncommitted: "UPDATE courses SET title = 'Never committed' WHERE course_id = 'his';")
        #expect(try sandbox.read("srv/db.sqlite-wal").count > 0, "the committed change must live in the -wal")
        try Self.expectReaderSeesWhatTheOwnerSees(sandbox)
        let grid = try Self.asReader(sandbox, ["report", "grid"])
        #expect(grid.stdout.contains("Biology, renamed"), "\(grid)")
        #expect(!grid.stdout.contains("Never committed"), "\(grid)")
        // A writer is really there: an import as the owner finds the database busy.
        #expect(try Self.asOwner(sandbox, ["import", "courses.csv"]).exitCode == 75)
        #expect(try Self.folder(sandbox) == before)
    }

    @Test func aWritingCommandRunByAReaderStopsWith74AndChangesNothing() throws {
        let sandbox = try Self.sharedDatabase()
        let before = try Self.folder(sandbox)
        let data = try sandbox.read("srv/db.sqlite")
        for command in [["import", "courses.csv"], ["categorize"]] {
            #expect(
                try Self.asReader(sandbox, command)
                    == CommandResult(
                        exitCode: 74, stdout: "",
                        stderr: """
                            dashboard: error: cannot write the database: attempt to write a readonly database
                            dashboard: hint: check the file's permissions and the disk

                            """), "\(command)")
        }
        #expect(try Self.folder(sandbox) == before)
        #expect(try sandbox.read("srv/db.sqlite") == data)
    }

    @Test func aReaderWhoWouldHaveToCreateTheSideFilesIsRefusedAndCreatesNothing() throws {
        let sandbox = try Self.sharedDatabase()
        // As an older dashboard left the file: no -wal and -shm beside it.
        try FileManager.default.removeItem(atPath: sandbox.path("srv/db.sqlite-wal"))
        try FileManager.default.removeItem(atPath: sandbox.path("srv/db.sqlite-shm"))
        let before = try Self.folder(sandbox)
        let reason = "srv/db.sqlite-wal, which a reader of the database needs, is missing, and this user may not create it"
        for command in Self.commands {
            let result = try Self.asReader(sandbox, command)
            // check's JSON reports the failed run (docs/json.md); the other commands print nothing.
            let stdout =
                command.first == "check" && command.contains("json")
                ? "{\n  \"schema\": 1,\n  \"batch_id\": null,\n  \"status\": \"failed\",\n  \"reason\": \"\(reason)\",\n  \"file_error\": null\n}\n"
                : ""
            #expect(
                result
                    == CommandResult(
                        exitCode: 74, stdout: stdout,
                        stderr: """
                            dashboard: error: srv/db.sqlite-wal, which a reader of the database needs, is missing, and this user may not create it
                            dashboard: hint: the database's owner runs `dashboard status` once, which leaves the -wal and -shm files beside it (see docs/operations.md, read-only readers)

                            """), "\(command)")
        }
        #expect(try Self.folder(sandbox) == before)
        // The hint's next step: the owner's read leaves both files, with the database's group and mode.
        #expect(try Self.asOwner(sandbox, ["status"]).exitCode == 0)
        #expect(try Self.folder(sandbox) == ["db.sqlite uid 0", "db.sqlite-shm uid 0", "db.sqlite-wal uid 0"])
        for name in ["srv/db.sqlite-wal", "srv/db.sqlite-shm"] {
            var info = stat()
            #expect(lstat(sandbox.path(name), &info) == 0 && info.st_gid == Self.group && info.st_mode & 0o777 == 0o640, "\(name)")
        }
        try Self.expectReaderSeesWhatTheOwnerSees(sandbox)
    }

    @Test func aSideFileTheReaderCannotReadIsNamedWithTheSystemsWords() throws {
        let sandbox = try Self.sharedDatabase()
        #expect(chmod(sandbox.path("srv/db.sqlite-shm"), 0o600) == 0)
        let result = try Self.asReader(sandbox, ["status"])
        #expect(
            result
                == CommandResult(
                    exitCode: 74, stdout: "",
                    stderr: """
                        dashboard: error: cannot read srv/db.sqlite-shm, which a reader of the database needs: Permission denied
                        dashboard: hint: the database's owner gives the -wal and -shm files the database file's group and mode (see docs/operations.md, read-only readers)

                        """))
    }
}

/// A second process (the sqlite3 shell, as the owner) that commits a change and then holds the
/// write lock with a transaction left open, until released.
final class WriteLockHolder {
    private let process = Process()
    private let input = Pipe()
    private let sandbox: Sandbox

    init(_ sandbox: Sandbox, database: String) throws {
        self.sandbox = sandbox
        let searchPath = Sandbox.baseEnvironment["PATH"] ?? ""
        guard
            let shell = searchPath.split(separator: ":").map({ String($0) + "/sqlite3" })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { throw HarnessError("sqlite3 is not installed (not on PATH); the Makefile's deps target installs it") }
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = [database]
        process.currentDirectoryURL = sandbox.directory
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Commits `committed` (kept in the `-wal`: no checkpoint), then opens a write transaction
    /// with `uncommitted` and returns once the shell holds it.
    func hold(committed: String, uncommitted: String) throws {
        let marker = "holding-\(UUID().uuidString)"
        let script = """
            PRAGMA wal_autocheckpoint = 0;
            \(committed)
            BEGIN IMMEDIATE;
            \(uncommitted)
            .shell touch \(marker)

            """
        input.fileHandleForWriting.write(Data(script.utf8))
        let deadline = Date().addingTimeInterval(30)
        while !sandbox.exists(marker) {
            guard process.isRunning, Date() < deadline else { throw HarnessError("the sqlite3 shell never took the write lock") }
            usleep(10_000)
        }
        try FileManager.default.removeItem(atPath: sandbox.path(marker))
    }

    /// Rolls the open transaction back and ends the shell.
    func release() {
        guard process.isRunning else { return }
        input.fileHandleForWriting.write(Data("ROLLBACK;\n.quit\n".utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
