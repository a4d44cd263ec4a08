import Foundation
import Testing

@testable import DashboardCore

@Suite("Store: file, settings and migrations")
struct StoreTests {
    private func tempPath(_ name: String = "db.sqlite") throws -> String {
        let dir = TestFolders.path("dashboard-store")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir + "/" + name
    }

    @Test("a new database file is created 0600, in WAL mode, with foreign keys and the current schema")
    func creation() throws {
        let path = try tempPath()
        let old = umask(0)
        defer { umask(old) }
        let store = try Store(path: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try store.database.scalar("PRAGMA journal_mode")?.text == "wal")
        #expect(try store.database.int("PRAGMA foreign_keys") == 1)
        #expect(try store.database.int("PRAGMA synchronous") == 2)
        #expect(store.schemaVersion == Schema.currentVersion)
        #expect(Schema.currentVersion == 14)
        let tables = try store.database.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap {
            $0.first?.text
        }
        #expect(
            tables == [
                "audit", "batch_births", "batch_counts", "batch_files", "batch_problems", "batches", "course_buckets", "course_history",
                "courses", "data_marks", "held_courses",
                "held_rejected", "held_tasks", "overrides", "settings", "settings_log", "sqlite_sequence", "task_history", "tasks",
            ])
    }

    /// Two first imports into one new file at once: one of them opens the file while the other
    /// still reads its header in rollback mode. Those locks last milliseconds and neither process
    /// is a writer yet, so opening waits for them instead of failing as busy (under load, both
    /// imports once exited 75 and nobody imported).
    @Test("opening a new database waits for another process's opening locks, then applies the caller's timeout")
    func openingWaitsForOpeningLocks() throws {
        let path = try tempPath()
        let locked = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        Thread {
            // Another process's open: a shared lock on the new file, held for 0.3 s.
            defer { released.signal() }
            guard let other = try? Database(path: path, mode: .readWriteCreate),
                (try? other.execute("BEGIN")) != nil, (try? other.int("SELECT count(*) FROM sqlite_schema")) != nil
            else {
                locked.signal()
                return
            }
            locked.signal()
            Thread.sleep(forTimeInterval: 0.3)
            try? other.execute("COMMIT")
        }.start()
        locked.wait()
        let store = try Store(path: path, busyTimeout: 0)
        released.wait()
        #expect(store.schemaVersion == Schema.currentVersion)
        #expect(try store.database.scalar("PRAGMA journal_mode")?.text == "wal")
        // From then on the caller's timeout (0): a held write lock refuses the next write at once.
        let holder = try Database(path: path, mode: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        defer { try? holder.execute("ROLLBACK") }
        let started = Date()
        #expect(throws: SQLiteError.self) { try store.database.execute("BEGIN IMMEDIATE") }
        #expect(Date().timeIntervalSince(started) < Store.openingGraceSeconds / 2)
    }

    @Test("reopening a current database migrates nothing")
    func reopen() throws {
        let path = try tempPath()
        _ = try Store(path: path)
        let again = try Store(path: path)
        #expect(again.schemaVersion == Schema.currentVersion)
    }

    @Test("a database from a newer version is refused and left byte for byte unchanged")
    func newerSchema() throws {
        let path = try tempPath()
        do {
            let db = try Database(path: path)
            // A newer dashboard marks its files (see StoreIdentity).
            try db.execute("CREATE TABLE future(x); PRAGMA user_version = 99; PRAGMA application_id = \(StoreIdentity.applicationID);")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: StoreError.newerSchema(path: path, found: 99, supported: Schema.currentVersion)) {
            _ = try Store(path: path)
        }
        #expect(throws: StoreError.newerSchema(path: path, found: 99, supported: Schema.currentVersion)) {
            _ = try Store(readOnlyPath: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("a directory given as the database is refused with its own error")
    func directory() throws {
        let path = try tempPath()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(throws: StoreError.isDirectory(path: path)) { _ = try Store(path: path) }
        #expect(StoreError.isDirectory(path: path).description == "\(path) is a directory, not a database file")
    }

    @Test("a file that is not SQLite is refused as notADatabase and not modified")
    func notADatabase() throws {
        let path = try tempPath()
        let junk = Data(repeating: 0x41, count: 4096)
        try junk.write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.notADatabase(path: path)) { _ = try Store(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == junk)
    }

    @Test("opening read-only never creates a file")
    func readOnlyMissing() throws {
        let path = try tempPath()
        #expect(throws: StoreError.missing(path: path)) { _ = try Store(readOnlyPath: path) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("foreign keys refuse a task whose course does not exist")
    func foreignKeys() throws {
        let store = try Store(path: try tempPath())
        #expect(throws: SQLiteError.self) {
            try store.database.run("INSERT INTO tasks (task_id, course_id, title) VALUES ('T1', 'nope', 'x')")
        }
    }

    @Test("a transaction rethrows the body's error after rolling back")
    func transactionRollback() throws {
        struct Boom: Error {}
        let store = try Store(path: try tempPath())
        #expect(throws: Boom.self) {
            try store.database.inTransaction {
                try store.database.run("INSERT INTO courses (course_id, code, title) VALUES ('C1', 'C1', 't')")
                throw Boom()
            }
        }
        #expect(try store.database.int("SELECT count(*) FROM courses") == 0)
        #expect(!store.database.isInTransaction)
    }

    @Test("SQLite errors carry the extended code, SQLite's message and the SQL")
    func sqliteErrorContext() throws {
        let store = try Store(path: try tempPath())
        do {
            try store.database.run("SELECT nope FROM courses")
            Issue.record("bad SQL ran")
        } catch let error as SQLiteError {
            #expect(error.code == 1)
            #expect(error.message == "no such column: nope")
            #expect(error.sql == "SELECT nope FROM courses")
        }
    }
}
