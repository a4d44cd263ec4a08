import Foundation
import Testing

/// Issue 11, class 7: another application's file, a schema no dashboard wrote and a damaged
/// file are refused with 74 by every command, before anything is written: the file stays byte
/// for byte the same and no `-wal`, `-shm` or `-journal` is left beside it.
@Suite("Hardening: foreign, unknown and damaged databases", .sqliteFiles)
struct HardeningDatabaseTests {
    /// Every command that opens the database, as run on `db.sqlite`.
    static let commands: [[String]] = [
        ["import", "courses.csv"], ["check", "courses.csv"], ["report", "grid"], ["report", "list", "--format", "json"],
        ["status"], ["audit"], ["batches", "list"], ["batches", "show", "1"], ["categorize"],
        ["reclassify", "t1", "--to", "today", "--reason", "hand"], ["revert", "1"],
    ]

    static let foreignError = """
        dashboard: error: db.sqlite is not a dashboard database (it holds tables of another application); it was left unchanged
        dashboard: hint: point --db (or DASHBOARD_DB) at the dashboard's database, or at a new file

        """

    /// A sandbox with the valid input files and a database imported from them.
    private func importedSandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let result = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"])
        #expect(result.exitCode == 0, "\(result)")
        return sandbox
    }

    private func sqlite(_ sandbox: Sandbox, _ sql: String) throws {
        let result = try sandbox.runTool("sqlite3", ["db.sqlite", sql])
        #expect(result.exitCode == 0, "\(result)")
    }

    /// Runs each command on the sandbox's db.sqlite and expects `stderr`, exit 74, and the file
    /// and the folder exactly as they were.
    private func expectRefusedByEveryCommand(
        _ sandbox: Sandbox, stderr: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let bytes = try sandbox.read("db.sqlite")
        let listing = try sandbox.listing()
        for command in Self.commands {
            let result = try sandbox.run(["--db", "db.sqlite"] + command)
            #expect(result == CommandResult(exitCode: 74, stdout: "", stderr: stderr), "\(command)", sourceLocation: sourceLocation)
            #expect(try sandbox.read("db.sqlite") == bytes, "\(command) changed the file", sourceLocation: sourceLocation)
            #expect(try sandbox.listing() == listing, "\(command) left files behind", sourceLocation: sourceLocation)
        }
    }

    @Test func anotherApplicationsFileIsRefusedByEveryCommandAndLeftByteForByte() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        try sqlite(sandbox, "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes(body) VALUES ('keep me');")
        try expectRefusedByEveryCommand(sandbox, stderr: Self.foreignError)
    }

    @Test func anotherApplicationsFileInWALModeLeavesNoWALOrSHMBehind() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        try sqlite(sandbox, "PRAGMA journal_mode = WAL; CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('keep me');")
        #expect(try sandbox.listing() == ["courses.csv", "db.sqlite", "tasks.csv"])
        try expectRefusedByEveryCommand(sandbox, stderr: Self.foreignError)
    }

    @Test func aFileMarkedByAnotherApplicationIsRefusedEvenWithoutTables() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        try sqlite(sandbox, "PRAGMA application_id = 1234;")
        // Named for what it is: another application's mark (it holds no table).
        try expectRefusedByEveryCommand(
            sandbox,
            stderr: """
                dashboard: error: db.sqlite is not a dashboard database (it carries another application's mark, application_id 1234); it was left unchanged
                dashboard: hint: point --db (or DASHBOARD_DB) at the dashboard's database, or at a new file

                """)
    }

    @Test func nightlyRefusesAnotherApplicationsFileAndADamagedOneWithoutWritingReports() throws {
        let sandbox = try Sandbox()
        try sandbox.write("in/courses.csv", Fixtures.courses)
        try sqlite(sandbox, "CREATE TABLE notes(body TEXT);")
        let bytes = try sandbox.read("db.sqlite")
        let foreign = try sandbox.run(["--db", "db.sqlite", "nightly", "--imports", "in", "--reports", "out"])
        #expect(foreign == CommandResult(exitCode: 74, stdout: "", stderr: Self.foreignError))
        #expect(try sandbox.read("db.sqlite") == bytes)
        #expect(try sandbox.listing() == ["db.sqlite", "in"])
        let imported = try importedSandbox()
        try imported.write("in/courses.csv", Fixtures.courses)
        try imported.write("db.sqlite", bytes: try imported.read("db.sqlite").prefix(4096))
        let damaged = try imported.run(["--db", "db.sqlite", "nightly", "--imports", "in", "--reports", "out"])
        #expect(damaged.exitCode == 74)
        #expect(damaged.stderr.hasPrefix("dashboard: error: the database file is damaged: db.sqlite: "), "\(damaged)")
    }

    @Test func aDashboardFileWithUserVersionMinusOneIsRefusedUnchanged() throws {
        let sandbox = try importedSandbox()
        try sqlite(sandbox, "PRAGMA user_version = -1;")
        try expectRefusedByEveryCommand(
            sandbox,
            stderr: """
                dashboard: error: db.sqlite has schema version -1, which no dashboard writes; it was left unchanged
                dashboard: hint: restore the last backup of the database

                """)
    }

    @Test func aDashboardFileWithUserVersionZeroAndItsTablesIsRefusedUnchanged() throws {
        let sandbox = try importedSandbox()
        try sqlite(sandbox, "PRAGMA user_version = 0; PRAGMA application_id = 0;")
        try expectRefusedByEveryCommand(sandbox, stderr: Self.foreignError)
        try sqlite(sandbox, "PRAGMA application_id = 1146308674;")
        try expectRefusedByEveryCommand(
            sandbox,
            stderr: """
                dashboard: error: db.sqlite has schema version 0, which no dashboard writes; it was left unchanged
                dashboard: hint: restore the last backup of the database

                """)
    }

    @Test func aNewDatabaseIsMarkedAndAnEmptyFileIsInitialised() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        try sandbox.write("db.sqlite", "")
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv"]).exitCode == 0)
        let mark = try sandbox.runTool("sqlite3", ["db.sqlite", "PRAGMA application_id; PRAGMA user_version;"])
        #expect(mark.stdout == "1146308674\n14\n")
    }

    @Test func aVersionThreeDatabaseIsReadAsItIsAndMarkedByTheFirstWrite() throws {
        let sandbox = try importedSandbox()
        try sqlite(sandbox, "PRAGMA application_id = 0; PRAGMA user_version = 3;")
        let bytes = try sandbox.read("db.sqlite")
        let report = try sandbox.run(["--db", "db.sqlite", "report", "list", "--format", "csv"])
        #expect(report.exitCode == 0, "\(report)")
        #expect(report.stdout.contains("t1,Lab report"))
        #expect(try sandbox.read("db.sqlite") == bytes, "a read-only command never marks the file")
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv"]).exitCode == 0)
        let mark = try sandbox.runTool("sqlite3", ["db.sqlite", "PRAGMA application_id; PRAGMA user_version; SELECT count(*) FROM tasks;"])
        #expect(mark.stdout == "1146308674\n14\n3\n")
    }

    // MARK: - Damaged files

    static let damagedHint = "dashboard: hint: restore the last backup of the database; `dashboard verify` tells what is wrong\n"

    @Test(arguments: [["import", "courses.csv"], ["report", "list"], ["status"], ["check", "courses.csv"]])
    func aTruncatedDatabaseIsDamagedNotABug(_ command: [String]) throws {
        let sandbox = try importedSandbox()
        try sandbox.write("db.sqlite", bytes: try sandbox.read("db.sqlite").prefix(4096))
        // A truncated copy comes alone: without the -wal and -shm the writer keeps (issue 13).
        try FileManager.default.removeItem(atPath: sandbox.path("db.sqlite-wal"))
        try FileManager.default.removeItem(atPath: sandbox.path("db.sqlite-shm"))
        let bytes = try sandbox.read("db.sqlite")
        let result = try sandbox.run(["--db", "db.sqlite"] + command)
        #expect(
            result
                == CommandResult(
                    exitCode: 74, stdout: "",
                    stderr: "dashboard: error: the database file is damaged: db.sqlite: database disk image is malformed\n"
                        + Self.damagedHint))
        #expect(try sandbox.read("db.sqlite") == bytes)
        #expect(try sandbox.listing() == ["courses.csv", "db.sqlite", "tasks.csv"])
    }

    @Test(arguments: [["import", "tasks.csv"], ["report", "list"], ["report", "grid", "--format", "html"], ["categorize"]])
    func aDatabaseWithAGarbagePageIsDamagedNotABug(_ command: [String]) throws {
        let sandbox = try importedSandbox()
        var bytes = try sandbox.read("db.sqlite")
        let pageSize = 16384
        #expect(bytes.count > 8 * pageSize)
        // Every page but the first (the schema) and the last, overwritten with a pattern.
        for i in pageSize..<(bytes.count - pageSize) { bytes[i] = UInt8(truncatingIfNeeded: i * 37 &+ 11) }
        try sandbox.write("db.sqlite", bytes: bytes)
        let result = try sandbox.run(["--db", "db.sqlite"] + command)
        #expect(result.exitCode == 74, "\(result)")
        #expect(result.stderr.hasPrefix("dashboard: error: the database file is damaged: "), "\(result)")
        #expect(result.stderr.hasSuffix(Self.damagedHint), "\(result)")
        #expect(!result.stderr.contains("bug"))
        #expect(try sandbox.read("db.sqlite") == bytes)
    }
}
