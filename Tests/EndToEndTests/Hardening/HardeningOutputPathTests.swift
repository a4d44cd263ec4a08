import Foundation
import Testing

/// Issue 11, class 1: nothing the program writes may replace what it reads or its database.
/// Every output path that is, or resolves to, the database (or its -wal/-shm/-journal) or an
/// input of the run is refused with 64 before anything is read or written, naming both paths.
@Suite struct HardeningOutputPathTests {
    static let hint = "dashboard: hint: write the output somewhere else; nothing was read or written\n"

    /// A sandbox with an imported database `db.sqlite`, the inputs, and the bytes of every file.
    static func imported() throws -> Sandbox {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        try sandbox.write("imports/courses.csv", Fixtures.courses)
        try sandbox.write("imports/tasks.csv", Fixtures.tasks)
        let result = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"])
        #expect(result.exitCode == 0, "\(result)")
        return sandbox
    }

    /// Every file under the sandbox with its bytes and mode (what "nothing changed" compares).
    static func state(_ sandbox: Sandbox) throws -> [String: String] {
        var state: [String: String] = [:]
        let fm = FileManager.default
        for name in try fm.subpathsOfDirectory(atPath: sandbox.directory.path) {
            let path = sandbox.path(name)
            let attributes = try fm.attributesOfItem(atPath: path)
            let mode = String((attributes[.posixPermissions] as? Int) ?? -1, radix: 8)
            if attributes[.type] as? FileAttributeType == .typeRegular {
                state[name] = mode + " " + (fm.contents(atPath: path)?.base64EncodedString() ?? "?")
            } else {
                state[name] = mode + " " + "\(attributes[.type] ?? "?")"
            }
        }
        return state
    }

    static func expectRefused(
        _ sandbox: Sandbox, _ arguments: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try state(sandbox)
        let result = try sandbox.run(arguments)
        #expect(
            result == CommandResult(exitCode: 64, stdout: "", stderr: "dashboard: error: " + message + "\n" + hint),
            sourceLocation: sourceLocation)
        #expect(try state(sandbox) == before, "nothing may change", sourceLocation: sourceLocation)
    }

    @Test(.sqliteFiles) func rejectsOverTheDatabaseIsRefusedForCheckAndImport() throws {
        let sandbox = try Self.imported()
        for command in ["check", "import"] {
            try Self.expectRefused(
                sandbox, ["--db", "db.sqlite", command, "--rejects", "db.sqlite", "tasks.csv"],
                "--rejects db.sqlite is the database db.sqlite; refusing to overwrite it")
        }
    }

    @Test(.sqliteFiles) func rejectsOverTheDatabaseFromTheEnvironmentOrTheDefaultIsRefused() throws {
        let sandbox = try Self.imported()
        try FileManager.default.copyItem(atPath: sandbox.path("db.sqlite"), toPath: sandbox.path("dashboard.sqlite"))
        try Self.expectRefused(
            sandbox, ["check", "--rejects", "./dashboard.sqlite", "tasks.csv"],
            "--rejects ./dashboard.sqlite is the database dashboard.sqlite; refusing to overwrite it")
        try FileManager.default.createDirectory(atPath: sandbox.path("sub"), withIntermediateDirectories: false)
        let before = try Self.state(sandbox)
        let result = try sandbox.run(
            ["import", "--rejects", "sub/../db.sqlite", "imports"], environment: ["DASHBOARD_DB": sandbox.path("db.sqlite")])
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.stderr.hasPrefix("dashboard: error: --rejects sub/../db.sqlite is the database \(sandbox.path("db.sqlite"));"))
        #expect(try Self.state(sandbox) == before)
    }

    @Test(.sqliteFiles) func rejectsOverTheJournalFilesIsRefused() throws {
        let sandbox = try Self.imported()
        let roles = [("-wal", "write-ahead log"), ("-shm", "shared-memory file"), ("-journal", "rollback journal")]
        for (suffix, role) in roles {
            // Whether the file exists now or not: SQLite may create it during the run.
            try Self.expectRefused(
                sandbox, ["--db", "db.sqlite", "check", "--rejects", "db.sqlite" + suffix, "tasks.csv"],
                "--rejects db.sqlite\(suffix) is the database's \(role) db.sqlite\(suffix); refusing to overwrite it")
        }
        try sandbox.write("db.sqlite-wal", "")
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "import", "--rejects", "db.sqlite-wal", "tasks.csv"],
            "--rejects db.sqlite-wal is the database's write-ahead log db.sqlite-wal; refusing to overwrite it")
    }

    @Test func rejectsOverAnInputFileIsRefused() throws {
        let sandbox = try Self.imported()
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "import", "--rejects", "tasks.csv", "courses.csv", "tasks.csv"],
            "--rejects tasks.csv is the input file tasks.csv; refusing to overwrite it")
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "check", "--rejects", "imports/courses.csv", "imports/"],
            "--rejects imports/courses.csv is the input file imports/courses.csv; refusing to overwrite it")
    }

    @Test(.sqliteFiles) func rejectsThroughASymbolicOrHardLinkToAProtectedFileIsRefused() throws {
        let sandbox = try Self.imported()
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("link.csv"), withDestinationPath: "db.sqlite")
        try FileManager.default.linkItem(atPath: sandbox.path("tasks.csv"), toPath: sandbox.path("hard.csv"))
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("dangling.csv"), withDestinationPath: "db.sqlite-journal")
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "check", "--rejects", "link.csv", "tasks.csv"],
            "--rejects link.csv is the database db.sqlite; refusing to overwrite it")
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "import", "--rejects", "hard.csv", "tasks.csv"],
            "--rejects hard.csv is the input file tasks.csv; refusing to overwrite it")
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "import", "--rejects", "dangling.csv", "tasks.csv"],
            "--rejects dangling.csv is the database's rollback journal db.sqlite-journal; refusing to overwrite it")
    }

    @Test(.sqliteFiles) func theJournalsOfADatabaseReachedThroughASymbolicLinkAreProtectedWhereSQLiteKeepsThem() throws {
        let sandbox = try Self.imported()
        try FileManager.default.createDirectory(atPath: sandbox.path("sub"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("sub/link.sqlite"), withDestinationPath: "../db.sqlite")
        try Self.expectRefused(
            sandbox, ["--db", "sub/link.sqlite", "check", "--rejects", "db.sqlite-wal", "tasks.csv"],
            "--rejects db.sqlite-wal is the database's write-ahead log \(sandbox.path("db.sqlite-wal")); refusing to overwrite it")
    }

    @Test func rejectsInsideAnInputFolderIsRefused() throws {
        let sandbox = try Self.imported()
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "import", "--rejects", "imports/rejects.csv", "imports"],
            "--rejects imports/rejects.csv is inside the input folder imports; the next run over that folder would read it as input")
    }

    @Test(.sqliteFiles) func reportOutOverTheDatabaseOrAReportNameThatIsTheDatabaseIsRefused() throws {
        let sandbox = try Self.imported()
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "report", "grid", "--format", "csv", "--out", "db.sqlite"],
            "--out db.sqlite is the database db.sqlite; refusing to overwrite it")
        // A hard link to the database at a name the report writes.
        try FileManager.default.createDirectory(atPath: sandbox.path("out"), withIntermediateDirectories: false)
        try FileManager.default.linkItem(atPath: sandbox.path("db.sqlite"), toPath: sandbox.path("out/index.csv"))
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "report", "list", "--format", "csv", "--out", "out"],
            "--out out would write index.csv there, which is the database db.sqlite; refusing to overwrite it")
        // A symbolic link to the database at a course file's name.
        try FileManager.default.createSymbolicLink(
            atPath: sandbox.path("out/course-bio-0f3b5e4a.md"), withDestinationPath: "../db.sqlite")
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "report", "grid", "--format", "markdown", "--out", "out/"],
            "--out out/ would write course-bio-0f3b5e4a.md there, which is the database db.sqlite; refusing to overwrite it")
    }

    @Test(.sqliteFiles) func reportOutWhoseIndexNameIsTheDatabaseItselfIsRefused() throws {
        let sandbox = try Self.imported()
        try FileManager.default.moveItem(atPath: sandbox.path("db.sqlite"), toPath: sandbox.path("index.json"))
        try Self.expectRefused(
            sandbox, ["--db", "index.json", "report", "grid", "--format", "json", "--out", "."],
            "--out . would write index.json there, which is the database index.json; refusing to overwrite it")
    }

    @Test func nightlyReportsIntoItsDropFolderIsRefused() throws {
        let sandbox = try Self.imported()
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "nightly", "--imports", "imports", "--reports", "imports"],
            "--reports imports is the input folder imports; its reports would be read as input by the next run")
        try FileManager.default.createDirectory(atPath: sandbox.path("reports"), withIntermediateDirectories: false)
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "nightly", "--imports", "imports/", "--reports", "reports/../imports"],
            "--reports reports/../imports is the input folder imports/; its reports would be read as input by the next run")
        // The dated folder (the as-of is 2026-11-29) is the drop folder.
        try FileManager.default.createDirectory(atPath: sandbox.path("reports/2026-11-29"), withIntermediateDirectories: true)
        try sandbox.write("reports/2026-11-29/tasks.csv", Fixtures.tasks)
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "nightly", "--imports", "reports/2026-11-29"],
            "--reports reports: the folder reports/2026-11-29 is the input folder reports/2026-11-29; its reports would be read as input by the next run"
        )
    }

    @Test(.sqliteFiles) func nightlyReportsOverTheDatabaseIsRefused() throws {
        let sandbox = try Self.imported()
        try FileManager.default.createDirectory(atPath: sandbox.path("reports/2026-11-29"), withIntermediateDirectories: true)
        try FileManager.default.linkItem(atPath: sandbox.path("db.sqlite"), toPath: sandbox.path("reports/2026-11-29/index.html"))
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "nightly", "--imports", "imports"],
            "--reports reports: the folder reports/2026-11-29 would write index.html there, which is the database db.sqlite; refusing to overwrite it"
        )
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "nightly", "--imports", "imports", "--reports", "db.sqlite"],
            "--reports db.sqlite is the database db.sqlite; refusing to overwrite it")
    }

    @Test func emptyOutputPathsAndRejectsNamingAFolderAreRefused() throws {
        let sandbox = try Self.imported()
        let emptyHint = "dashboard: hint: give a file or folder name; nothing was read or written\n"
        for (arguments, message) in [
            (["check", "--rejects", "", "tasks.csv"], "--rejects needs a path, not an empty string"),
            (["report", "grid", "--format", "csv", "--out", ""], "--out needs a path, not an empty string"),
            (["nightly", "--imports", "imports", "--reports", ""], "--reports needs a path, not an empty string"),
        ] {
            let result = try sandbox.run(["--db", "db.sqlite"] + arguments)
            #expect(result == CommandResult(exitCode: 64, stdout: "", stderr: "dashboard: error: \(message)\n" + emptyHint))
        }
        try FileManager.default.createDirectory(atPath: sandbox.path("out"), withIntermediateDirectories: false)
        let before = try Self.state(sandbox)
        let folder = try sandbox.run(["--db", "db.sqlite", "check", "--rejects", "out/", "tasks.csv"])
        #expect(
            folder
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr: "dashboard: error: --rejects out/ names a folder\ndashboard: hint: give a file name, like rejects.csv\n"))
        for name in ["..", "out", "."] {
            let dot = try sandbox.run(["--db", "db.sqlite", "check", "--rejects", name, "tasks.csv"])
            #expect(
                dot
                    == CommandResult(
                        exitCode: 64, stdout: "",
                        stderr: "dashboard: error: --rejects \(name) names a folder\ndashboard: hint: give a file name, like rejects.csv\n")
            )
        }
        #expect(try Self.state(sandbox) == before)
    }

    @Test func outputsBesideTheDatabaseAndTheInputsAreStillWritten() throws {
        let sandbox = try Self.imported()
        let check = try sandbox.run(["--db", "db.sqlite", "check", "--rejects", "imports-rejects.csv", "imports"])
        #expect(check.exitCode == 0, "\(check)")
        #expect(sandbox.exists("imports-rejects.csv"))
        let report = try sandbox.run(["--db", "db.sqlite", "report", "grid", "--format", "csv", "--out", "."])
        #expect(report.exitCode == 0, "\(report)")
        #expect(sandbox.exists("index.csv"))
        let nightly = try sandbox.run(["--db", "db.sqlite", "nightly", "--imports", "imports", "--reports", "."])
        #expect(nightly.exitCode == 0, "\(nightly)")
        #expect(sandbox.exists("2026-11-29/index.html"))
    }
}
