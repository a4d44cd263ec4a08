import Foundation
import Testing

/// Issue 11, class 7 (second review): a file judged foreign, or damaged, is never written to,
/// side files included. Another application's live WAL database (its data only in the `-wal`),
/// a stray `-wal` of another database beside ours, and a damaged file that a command's failure
/// path would record into are all refused with 74, the main file and its `-wal` byte for byte
/// the same and no `-shm` created; our own database whose last commits live only in its `-wal`
/// (a crashed writer) still opens.
@Suite("Hardening: side files of foreign and damaged databases", .sqliteFiles)
struct HardeningDatabaseSideFileTests {
    /// Every command that opens the database.
    static let commands: [[String]] = [
        ["import", "courses.csv"], ["check", "courses.csv"], ["report", "grid"], ["report", "list", "--format", "json"],
        ["status"], ["audit"], ["batches", "list"], ["batches", "show", "1"], ["categorize"], ["verify"],
        ["reclassify", "t1", "--to", "today", "--reason", "hand"], ["revert", "1"],
        ["nightly", "--imports", "in", "--reports", "out"],
    ]

    /// Copies a database that another application holds open, with its data only in its `-wal`,
    /// to `name` and `name-wal` (the sqlite3 shell copies while its connection is open).
    private func copyLiveWALDatabase(_ sandbox: Sandbox, to name: String, pageSize: Int) throws {
        let result = try sandbox.runTool(
            "sqlite3",
            [
                "live.sqlite", "PRAGMA page_size = \(pageSize); PRAGMA journal_mode = WAL;",
                "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('keep me'), ('and me');",
                ".shell cp live.sqlite \(name); cp live.sqlite-wal \(name)-wal",
            ])
        #expect(result.exitCode == 0, "\(result)")
        try FileManager.default.removeItem(atPath: sandbox.path("live.sqlite"))
        #expect(try sandbox.read(name + "-wal").count > 4096, "the data must be in the -wal")
    }

    /// Runs every command on `db` and expects exit 74 with `stderr`, `db` and `db-wal` byte for
    /// byte the same and the folder's listing unchanged (no `-shm`, no report).
    private func expectRefused(
        _ sandbox: Sandbox, _ db: String, stderr: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let main = try sandbox.read(db)
        let wal = try sandbox.read(db + "-wal")
        let listing = try sandbox.listing()
        for command in Self.commands {
            let result = try sandbox.run(["--db", db] + command)
            #expect(result == CommandResult(exitCode: 74, stdout: "", stderr: stderr), "\(command)", sourceLocation: sourceLocation)
            #expect(try sandbox.read(db) == main, "\(command) changed \(db)", sourceLocation: sourceLocation)
            #expect(try sandbox.read(db + "-wal") == wal, "\(command) changed \(db)-wal", sourceLocation: sourceLocation)
            #expect(try sandbox.listing() == listing, "\(command) left files behind", sourceLocation: sourceLocation)
        }
    }

    private func inputs() throws -> Sandbox {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        try sandbox.write("in/courses.csv", Fixtures.courses)
        return sandbox
    }

    @Test func anotherApplicationsLiveWALDatabaseIsRefusedAndNeitherFileIsTouched() throws {
        let sandbox = try inputs()
        try copyLiveWALDatabase(sandbox, to: "app2.sqlite", pageSize: 4096)
        #expect(try sandbox.read("app2.sqlite").count == 4096, "the main file alone holds no table")
        try expectRefused(
            sandbox, "app2.sqlite",
            stderr: """
                dashboard: error: app2.sqlite is not a dashboard database (it holds tables of another application); it was left unchanged
                dashboard: hint: point --db (or DASHBOARD_DB) at the dashboard's database, or at a new file

                """)
    }

    @Test(arguments: [4096, 16384])
    func aStrayWALOfAnotherDatabaseBesideOursIsRefusedAndOurDataKept(_ pageSize: Int) throws {
        let sandbox = try inputs()
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        try copyLiveWALDatabase(sandbox, to: "other.sqlite", pageSize: pageSize)
        // Our writer keeps an empty -wal and the -shm (issue 13): the stray one takes the -wal's place.
        try FileManager.default.removeItem(atPath: sandbox.path("db.sqlite-wal"))
        try FileManager.default.removeItem(atPath: sandbox.path("db.sqlite-shm"))
        try FileManager.default.moveItem(atPath: sandbox.path("other.sqlite-wal"), toPath: sandbox.path("db.sqlite-wal"))
        try FileManager.default.removeItem(atPath: sandbox.path("other.sqlite"))
        try expectRefused(
            sandbox, "db.sqlite",
            stderr: """
                dashboard: error: db.sqlite-wal holds pages of another database, not of db.sqlite; both files were left unchanged
                dashboard: hint: move the stray -wal file away (keep a copy), then run the command again; `dashboard verify` checks the database

                """)
        try FileManager.default.removeItem(atPath: sandbox.path("db.sqlite-wal"))
        let report = try sandbox.run(["--db", "db.sqlite", "report", "list", "--format", "csv"])
        #expect(report.exitCode == 0, "\(report)")
        #expect(report.stdout.contains("t1,Lab report"), "our data is intact")
    }

    /// Our own database whose mark and schema version were committed only into the `-wal` (the
    /// main file's header, alone, reads as another application's): SQLite's view is the truth.
    @Test func ourDatabaseWhoseMarkIsOnlyInItsWALStillOpens() throws {
        let sandbox = try inputs()
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        let unmark = try sandbox.runTool("sqlite3", ["db.sqlite", "PRAGMA application_id = 0; PRAGMA user_version = 0;"])
        #expect(unmark.exitCode == 0, "\(unmark)")
        let remark = try sandbox.runTool(
            "sqlite3",
            [
                "db.sqlite", "PRAGMA application_id = 1146308674; PRAGMA user_version = 5;",
                ".shell cp db.sqlite crashed.sqlite; cp db.sqlite-wal crashed.sqlite-wal",
            ])
        #expect(remark.exitCode == 0, "\(remark)")
        let report = try sandbox.run(["--db", "crashed.sqlite", "report", "list", "--format", "csv"])
        #expect(report.exitCode == 0, "\(report)")
        #expect(report.stdout.contains("t1,Lab report"))
        let again = try sandbox.run(["--db", "crashed.sqlite", "import", "courses.csv"])
        #expect(again.exitCode == 0, "\(again)")
        let mark = try sandbox.runTool("sqlite3", ["crashed.sqlite", "PRAGMA application_id; PRAGMA user_version;"])
        #expect(mark.stdout == "1146308674\n14\n")
    }

    /// A page of a table overwritten: each writing command fails with 74 "damaged", and its
    /// failure path (a failed batch, a staging clean-up) writes nothing into the file.
    @Test(arguments: [
        ("tasks", ["import", "tasks.csv"]), ("tasks", ["import", "--mode", "sync", "courses.csv", "tasks.csv"]),
        ("tasks", ["categorize"]), ("tasks", ["reclassify", "t1", "--to", "today", "--reason", "hand"]),
        ("audit", ["revert", "1"]), ("tasks", ["nightly", "--imports", "in", "--reports", "out"]),
    ])
    func aDamagedDatabaseGetsNoFailureRecord(_ table: String, _ command: [String]) throws {
        let sandbox = try inputs()
        try sandbox.write("many.csv", Fixtures.numberedTasks(28).replacingOccurrences(of: "t01,", with: "t1,"))
        try sandbox.write("in/tasks.csv", Fixtures.tasks)
        let first = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "many.csv"])
        #expect(first.exitCode == 0, "\(first)")
        let root = try sandbox.runTool("sqlite3", ["db.sqlite", "SELECT rootpage FROM sqlite_schema WHERE name = '\(table)'"])
        let page = try #require(Int(root.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        var bytes = try sandbox.read("db.sqlite")
        let pageSize = 16384
        for i in ((page - 1) * pageSize)..<(page * pageSize) { bytes[i] = 0xFF }
        try sandbox.write("db.sqlite", bytes: bytes)
        let listing = try sandbox.listing()
        let result = try sandbox.run(["--db", "db.sqlite"] + command)
        #expect(result.exitCode == 74, "\(result)")
        #expect(result.stderr.hasPrefix("dashboard: error: the database file is damaged: db.sqlite: "), "\(result)")
        #expect(try sandbox.read("db.sqlite") == bytes, "\(command) wrote into the damaged file")
        #expect(try sandbox.listing() == listing, "\(command) left files behind")
    }

    /// A held batch approved on a file whose `tasks` root page is overwritten. (`discard` reads
    /// no task: SQLite does not meet that page, so the damage is not seen and it succeeds.)
    @Test(arguments: [["batches", "approve", "2"]])
    func aHeldBatchIsNotAppliedToADamagedDatabase(_ command: [String]) throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", "course_id,title\nbio,Biology\n")
        try sandbox.write("tasks20.csv", Fixtures.numberedTasks(20))
        try sandbox.write("tasks10.csv", Fixtures.numberedTasks(10))
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks20.csv"]).exitCode == 0)
        let held = try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "courses.csv", "tasks10.csv"])
        #expect(held.exitCode == 65, "\(held)")
        let root = try sandbox.runTool("sqlite3", ["db.sqlite", "SELECT rootpage FROM sqlite_schema WHERE name = 'tasks'"])
        let page = try #require(Int(root.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        var bytes = try sandbox.read("db.sqlite")
        for i in ((page - 1) * 16384)..<(page * 16384) { bytes[i] = 0xFF }
        try sandbox.write("db.sqlite", bytes: bytes)
        let listing = try sandbox.listing()
        let result = try sandbox.run(["--db", "db.sqlite"] + command + ["--actor", "alice"])
        #expect(result.exitCode == 74, "\(result)")
        #expect(result.stderr.hasPrefix("dashboard: error: the database file is damaged: db.sqlite: "), "\(result)")
        #expect(try sandbox.read("db.sqlite") == bytes, "\(command) wrote into the damaged file")
        #expect(try sandbox.listing() == listing, "\(command) left files behind")
    }
}
