import Foundation
import Testing

@testable import DashboardCore

/// The dashboard's mark (`PRAGMA application_id`), files from before it, and the files the
/// store refuses before writing a byte.
@Suite("Store: whose file a database is")
struct StoreIdentityTests {
    private func tempPath() throws -> String {
        let dir = TestFolders.path("dashboard-identity")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir + "/db.sqlite"
    }

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    private func sideFiles(_ path: String) -> [String] {
        ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: path + $0) }
    }

    /// A file as a version 3 dashboard left it: today's schema less the mark and migration 6's columns.
    private func versionThreeDatabase() throws -> String {
        let path = try tempPath()
        do {
            let store = try Store(path: path)
            try store.database.execute(
                """
                INSERT INTO batches (batch_id, command, started_at, as_of, mode, status) VALUES (1, 'import', 't', 't', 'merge', 'committed');
                INSERT INTO courses (course_id, code, title) VALUES ('C1', 'C1', 'Course');
                INSERT INTO tasks (task_id, course_id, title, priority, changed_batch, bucket) VALUES ('T1', 'C1', 'Task', 'high', 1, 'undated');
                DROP INDEX audit_by_group;
                ALTER TABLE audit DROP COLUMN group_id;
                ALTER TABLE tasks DROP COLUMN assignment_id;
                ALTER TABLE task_history DROP COLUMN assignment_id;
                ALTER TABLE held_tasks DROP COLUMN assignment_id;
                PRAGMA application_id = 0;
                PRAGMA user_version = 3;
                """)
        }
        return path
    }

    @Test("a new database carries the mark from its first transaction on")
    func newFileIsMarked() throws {
        let store = try Store(path: try tempPath())
        #expect(try store.database.int("PRAGMA application_id") == 0x4453_4842)
        #expect(try store.database.int("PRAGMA user_version") == Schema.currentVersion)
    }

    @Test("migration 4 only sets the mark")
    func migrationFourIsTheMark() {
        guard case .sql(let text) = Schema.migrations[3] else {
            Issue.record("migration 4 is SQL")
            return
        }
        #expect(text == "PRAGMA application_id = 1146308674")
    }

    @Test("a version 3 file without the mark is ours: opened for writing it is migrated and marked, rows kept")
    func versionThreeIsMarked() throws {
        let path = try versionThreeDatabase()
        do {
            let reader = try Store(readOnlyPath: path)
            #expect(try reader.database.int("PRAGMA application_id") == 0)
            #expect(try reader.database.int("SELECT count(*) FROM tasks") == 1)
        }
        let store = try Store(path: path)
        #expect(try store.database.int("PRAGMA application_id") == StoreIdentity.applicationID)
        #expect(store.schemaVersion == Schema.currentVersion)
        #expect(try store.database.rows("SELECT task_id, priority, bucket FROM tasks") == [["T1", "high", "undated"]])
        #expect(try store.database.scalar("PRAGMA integrity_check")?.text == "ok")
    }

    @Test("a version 1 file is refused by a read-only open (it has no buckets yet), and migrated by a writing one")
    func versionOneNeedsAWriter() throws {
        let path = try tempPath()
        do {
            let db = try Database(path: path)
            guard case .sql(let first) = Schema.migrations[0] else {
                Issue.record("migration 1 is SQL")
                return
            }
            try db.execute(first + "; PRAGMA user_version = 1;")
        }
        let before = try bytes(path)
        #expect(throws: StoreError.olderSchema(path: path, found: 1)) { _ = try Store(readOnlyPath: path) }
        #expect(try bytes(path) == before)
        let store = try Store(path: path)
        #expect(store.schemaVersion == Schema.currentVersion)
        #expect(try store.database.int("PRAGMA application_id") == StoreIdentity.applicationID)
    }

    @Test("the tables each schema version holds are read from the migrations")
    func tablesByVersion() {
        #expect(Schema.tables(through: 0).isEmpty)
        #expect(Schema.tables(through: 1).count == 11)
        #expect(Schema.tables(through: 3) == Schema.tables(through: 1).union(["audit", "overrides"]))
        #expect(Schema.tables(through: -5).isEmpty)
    }

    /// Each file is refused with `expected` by both opens, and left exactly as it was.
    @Test(
        "files that are not ours, or not a schema we know, are refused before anything is written",
        arguments: [
            ("CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes(body) VALUES ('hi');", "foreign"),
            ("PRAGMA journal_mode = WAL; CREATE TABLE notes(body TEXT);", "foreign"),
            ("PRAGMA application_id = 1234;", "mark 1234"),
            ("PRAGMA user_version = 7;", "unknown 7"),
            ("PRAGMA user_version = 2; CREATE TABLE tasks(x);", "foreign"),
            ("PRAGMA user_version = -1;", "unknown -1"),
            ("PRAGMA user_version = -2147483648; PRAGMA application_id = 1146308674;", "unknown -2147483648"),
            ("PRAGMA application_id = 1146308674; CREATE TABLE tasks(x);", "unknown 0"),
        ])
    func refused(_ sql: String, _ expected: String) throws {
        let path = try tempPath()
        do { try Database(path: path).execute(sql) }
        let before = try bytes(path)
        for open in [{ _ = try Store(path: path) }, { _ = try Store(readOnlyPath: path) }] as [() throws -> Void] {
            do {
                try open()
                Issue.record("opened \(sql)")
            } catch let error as StoreError {
                switch error {
                case .foreign(let p): #expect(expected == "foreign" && p == path, "\(error)")
                case .foreignMark(let p, let mark): #expect(expected == "mark \(mark)" && p == path, "\(error)")
                case .unknownSchema(let p, let found): #expect(expected == "unknown \(found)" && p == path, "\(error)")
                default: Issue.record("\(sql): \(error)")
                }
            }
            #expect(try bytes(path) == before, "\(sql)")
            #expect(sideFiles(path) == [], "\(sql)")
        }
    }

    @Test("a version 0 dashboard file with its tables (user_version reset by hand) is refused as not ours")
    func versionZeroWithOurTables() throws {
        let path = try versionThreeDatabase()
        do { try Database(path: path).execute("PRAGMA user_version = 0") }
        let before = try bytes(path)
        #expect(throws: StoreError.foreign(path: path)) { _ = try Store(path: path) }
        #expect(try bytes(path) == before)
    }

    @Test("a marked file that lost one of its tables is damaged, for both opens")
    func missingTableIsDamage() throws {
        let path = try tempPath()
        do { try Store(path: path).database.execute("PRAGMA foreign_keys = OFF; DROP TABLE overrides; DROP TABLE held_tasks;") }
        let damaged = StoreError.damaged(path: path, detail: "missing table held_tasks, overrides")
        #expect(throws: damaged) { _ = try Store(path: path) }
        #expect(throws: damaged) { _ = try Store(readOnlyPath: path) }
    }

    @Test("an empty file, or an SQLite file with no tables, is initialised")
    func blankFiles() throws {
        let empty = try tempPath()
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        #expect(throws: StoreError.empty(path: empty)) { _ = try Store(readOnlyPath: empty) }
        #expect(try Store(path: empty).schemaVersion == Schema.currentVersion)
        let blank = try tempPath()
        do { try Database(path: blank).execute("PRAGMA page_size = 4096; VACUUM;") }
        #expect(try Store(path: blank).schemaVersion == Schema.currentVersion)
    }

    @Test("SQLite's corrupt and not-a-database errors on a file with SQLite's header are 'damaged'")
    func damagedClassification() throws {
        let path = try versionThreeDatabase()
        let corrupt = SQLiteError(code: 11, message: "database disk image is malformed")
        #expect(Store.classify(corrupt, path: path) == .damaged(path: path, detail: "database disk image is malformed"))
        let notADB = SQLiteError(code: 26, message: "file is not a database")
        #expect(Store.classify(notADB, path: path) == .damaged(path: path, detail: "file is not a database"))
        let text = try tempPath()
        try Data("hello, world\n".utf8).write(to: URL(fileURLWithPath: text))
        #expect(Store.classify(notADB, path: text) == .notADatabase(path: text))
    }

    @Test("a real read from the database that is NaN, infinite or beyond Int64 is no integer, and no trap")
    func hugeRealsAreNotIntegers() {
        #expect(SQLValue.real(.nan).integer == nil)
        #expect(SQLValue.real(.infinity).integer == nil)
        #expect(SQLValue.real(1e300).integer == nil)
        #expect(SQLValue.real(-2.5).integer == -2)
    }

    @Test("sums of counts read back from the database saturate instead of trapping")
    func countSumsSaturate() {
        let huge = ImportCounts(read: Int.max, inserted: Int.min, updated: 1, unchanged: 0, deleted: 0, rejected: 0, warnings: 0)
        let sum = huge + huge
        #expect(sum.read == Int.max)
        #expect(sum.inserted == Int.min)
        #expect(sum.updated == 2)
    }
}
