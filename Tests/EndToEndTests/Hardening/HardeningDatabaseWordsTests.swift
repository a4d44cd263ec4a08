import Foundation
import Testing

/// Issue 11, class 10 for `--db`: a database path is described as what it is. A file the user
/// cannot read is "cannot read the database PATH: …" (74) for every command, never "missing"
/// or an empty report; a dangling link or a loop of links is named as such (74) and nothing is
/// created through it; an empty file holds no data yet (66 for `status`); a tableless file with
/// a schema version no dashboard wrote says so.
@Suite("Hardening: clear words for the database path", .sqliteFiles)
struct HardeningDatabaseWordsTests {
    static let commands: [[String]] = [
        ["status"], ["report", "grid", "--format", "json"], ["report", "list"], ["audit"], ["batches", "list"], ["verify"],
        ["check", "courses.csv"], ["import", "courses.csv"], ["categorize"], ["revert", "1"],
    ]

    @Test func aDatabaseTheUserCannotReadIsNamedAsSuchByEveryCommand() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        // Other tests of this process set the umask for a moment (SafeFolderTests, StoreTests):
        // the inputs and the sandbox's folders are made readable by others explicitly, so that
        // only the database is what the other user cannot read.
        #expect(chmod(sandbox.directory.deletingLastPathComponent().path, 0o755) == 0)
        #expect(chmod(sandbox.path("courses.csv"), 0o644) == 0)
        #expect(chmod(sandbox.path("tasks.csv"), 0o644) == 0)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv"]).exitCode == 0)
        #expect(chmod(sandbox.path("db.sqlite"), 0o600) == 0)
        let bytes = try sandbox.read("db.sqlite")
        let listing = try sandbox.listing()
        let binary = try DashboardBinary.url().path
        for command in Self.commands {
            // Root reads every file: run as nobody then (the folder and binary are world-readable).
            let result: CommandResult
            if geteuid() == 0 {
                #expect(chmod(sandbox.directory.path, 0o777) == 0)
                result = try sandbox.runTool(
                    "setpriv",
                    ["--reuid", "65534", "--regid", "65534", "--clear-groups", binary, "--db", sandbox.path("db.sqlite")] + command)
            } else {
                #expect(chmod(sandbox.path("db.sqlite"), 0o000) == 0)
                result = try sandbox.run(["--db", sandbox.path("db.sqlite")] + command)
            }
            #expect(result.exitCode == 74, "\(command): \(result)")
            #expect(
                result.stderr == """
                    dashboard: error: cannot read the database \(sandbox.path("db.sqlite")): Permission denied
                    dashboard: hint: check the file's permissions and owner (and those of its folders)

                    """, "\(command)")
            #expect(result.stdout == "", "\(command)")
            #expect(chmod(sandbox.path("db.sqlite"), 0o600) == 0)
            #expect(try sandbox.read("db.sqlite") == bytes)
            #expect(try sandbox.listing() == listing)
        }
    }

    @Test(arguments: [
        ("nowhere.sqlite", "is a symbolic link that points to nothing (nowhere.sqlite)"), ("db.sqlite", "is a loop of symbolic links"),
    ])
    func aDanglingOrLoopingLinkIsNamedAndNothingIsCreatedThroughIt(_ target: String, _ words: String) throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("db.sqlite"), withDestinationPath: target)
        let listing = try sandbox.listing()
        for command in Self.commands {
            let result = try sandbox.run(["--db", "db.sqlite"] + command)
            #expect(
                result
                    == CommandResult(
                        exitCode: 74, stdout: "",
                        stderr: """
                            dashboard: error: db.sqlite \(words)
                            dashboard: hint: point --db (or DASHBOARD_DB) at the database file itself, or fix the link

                            """), "\(command)")
            #expect(try sandbox.listing() == listing, "\(command) created a file")
        }
    }

    @Test func anEmptyFileHoldsNoDataYetAndStaysEmpty() throws {
        let sandbox = try Sandbox()
        try sandbox.write("db.sqlite", "")
        let status = try sandbox.run(["--db", "db.sqlite", "status"])
        #expect(status.exitCode == 66)
        #expect(
            status.stdout
                == "No data imported yet: db.sqlite holds no data yet (an empty database).\nNext step: dashboard import imports/\n")
        let audit = try sandbox.run(["--db", "db.sqlite", "audit"])
        #expect(
            audit
                == CommandResult(
                    exitCode: 66, stdout: "",
                    stderr: """
                        dashboard: error: db.sqlite holds no data yet (an empty database)
                        dashboard: hint: import data first: `dashboard import imports/`

                        """))
        #expect(try sandbox.read("db.sqlite").isEmpty)
        #expect(try sandbox.listing() == ["db.sqlite"])
    }

    @Test func aTablelessFileWithAnUnknownSchemaVersionSaysSo() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.runTool("sqlite3", ["db.sqlite", "PRAGMA user_version = 7;"]).exitCode == 0)
        let bytes = try sandbox.read("db.sqlite")
        for command in Self.commands {
            let result = try sandbox.run(["--db", "db.sqlite"] + command)
            #expect(
                result
                    == CommandResult(
                        exitCode: 74, stdout: "",
                        stderr: """
                            dashboard: error: db.sqlite has schema version 7, which no dashboard writes; it was left unchanged
                            dashboard: hint: restore the last backup of the database

                            """), "\(command)")
            #expect(try sandbox.read("db.sqlite") == bytes)
        }
    }

    /// Issue 31: a file whose `overrides` table was rebuilt by hand with its rule spelled
    /// otherwise stops the upgrade to schema 14 with words that say so (74, never "this is a
    /// bug"); the file stays at 13 with its rows, and a read-only command still reads it.
    @Test func anUpgradeThatFindsATableChangedByHandStopsAndSaysWhatToDo() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        // Schema 13's rule, spelled as a hand rebuild with an IN list would.
        let rule = ["overdue", "today", "upcoming", "undated", "completed", "excused"].map { "bucket = ''\($0)''" }
        let edit = """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_schema SET sql = replace(sql, '\(rule.joined(separator: " OR "))',
              'bucket IN (''overdue'', ''today'', ''upcoming'', ''undated'', ''completed'')') WHERE name = 'overrides';
            PRAGMA writable_schema = RESET;
            PRAGMA user_version = 13;
            """
        #expect(try sandbox.runTool("sqlite3", ["db.sqlite", edit]).exitCode == 0)
        let schema = try sandbox.runTool("sqlite3", ["db.sqlite", "SELECT sql FROM sqlite_schema WHERE name = 'overrides'"]).stdout
        #expect(schema.contains("bucket IN ('overdue'"), "\(schema)")
        let before = try sandbox.run(["--db", "db.sqlite", "report", "grid", "--format", "json"])
        #expect(before.exitCode == 0, "\(before)")
        let result = try sandbox.run(["--db", "db.sqlite", "categorize"])
        #expect(
            result
                == CommandResult(
                    exitCode: 74, stdout: "",
                    stderr: """
                        dashboard: error: db.sqlite: table overrides does not hold the constraint that the upgrade to schema 14 \
                        rewrites (the table was changed by hand); the file was left at schema 13, unchanged
                        dashboard: hint: restore the last backup of the database from before the table was changed; `dashboard verify` \
                        tells what else is wrong (docs/operations.md, "Schema upgrades that stop")

                        """), "\(result)")
        #expect(try sandbox.runTool("sqlite3", ["db.sqlite", "PRAGMA user_version"]).stdout == "13\n")
        #expect(try sandbox.runTool("sqlite3", ["db.sqlite", "SELECT sql FROM sqlite_schema WHERE name = 'overrides'"]).stdout == schema)
        #expect(try sandbox.run(["--db", "db.sqlite", "report", "grid", "--format", "json"]) == before)
    }
}
