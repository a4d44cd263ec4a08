import CSQLite
import Foundation
import Testing

@testable import DashboardCore

/// A database file replaced, deleted or cut short, or its `-wal`/`-shm` deleted or replaced,
/// while a connection writes or reads it (`DatabaseFileWatch`): the write is rolled back, no
/// file at the path is left with another file's `-wal`, and nothing reads as a success.
@Suite("Store: files replaced or cut short under a connection")
struct DatabaseFileWatchTests {
    private func folder() throws -> String {
        let dir = TestFolders.path("dashboard-watch")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A dashboard database at `path` with `courses` courses (C1, C2, …), checkpointed into the
    /// file (its `-wal` empty).
    private func database(_ path: String, courses: Int) throws {
        let store = try Store(path: path)
        try addCourses(store, from: 1, count: courses)
        try store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    private func addCourses(_ store: Store, from first: Int, count: Int) throws {
        try store.database.inTransaction(.immediate) {
            for n in first..<(first + count) {
                try store.database.run("INSERT INTO courses (course_id, code, title) VALUES (?, ?, 'Course')", ["C\(n)", "C\(n)"])
            }
            return .commit
        }
    }

    /// The course ids of the file at `path`, read by a fresh read-only store (which also checks
    /// every page).
    private func courseIDs(_ path: String) throws -> [String] {
        let store = try Store(readOnlyPath: path)
        return try store.database.rows("SELECT course_id FROM courses ORDER BY course_id").compactMap { $0.first?.text }
    }

    private func size(_ path: String) -> Int? { DatabaseFileWatch.key(path)?.bytes }

    /// The change a failure carries.
    private func change(_ body: () throws -> Void) -> DatabaseFileChange? {
        do {
            try body()
        } catch let error as SQLiteError {
            return error.filesChanged
        } catch {
            Issue.record("unexpected error \(error)")
        }
        return nil
    }

    @Test("a file moved over the database during a write: rolled back, the -wal emptied, the new file intact and alone")
    func replacedBeforeCommit() throws {
        let dir = try folder()
        let path = dir + "/db.sqlite"
        try database(path, courses: 3)
        try database(dir + "/backup.sqlite", courses: 1)
        try FileManager.default.linkItem(atPath: path, toPath: dir + "/old.sqlite")
        let store = try Store(path: path)
        let found = change {
            try store.database.inTransaction(.immediate) {
                try store.database.run("INSERT INTO courses (course_id, code, title) VALUES ('NEW', 'NEW', 'New')")
                #expect(rename(dir + "/backup.sqlite", path) == 0)
                return .commit
            }
        }
        #expect(found == DatabaseFileChange(kind: .replaced, moment: .beforeCommit, walSettled: true))
        #expect(size(path + "-wal") == 0)
        // Nothing more is written through this connection (a failure record would land in the old file).
        #expect(throws: SQLiteError.self) { try addCourses(store, from: 9, count: 1) }
        #expect(try courseIDs(path) == ["C1"])
        #expect(try courseIDs(dir + "/old.sqlite") == ["C1", "C2", "C3"])
        let error = Store.classify(SQLiteError(code: SQLITE_IOERR, message: "", filesChanged: found), path: "db.sqlite")
        #expect(
            error.description
                == "db.sqlite was replaced by another file while this command wrote to it; everything the command wrote was rolled back")
    }

    @Test("a database deleted during a write: rolled back, named as deleted")
    func removedBeforeCommit() throws {
        let dir = try folder()
        let path = dir + "/db.sqlite"
        try database(path, courses: 2)
        let store = try Store(path: path)
        let found = change {
            try store.database.inTransaction(.immediate) {
                try store.database.run("INSERT INTO courses (course_id, code, title) VALUES ('NEW', 'NEW', 'New')")
                #expect(unlink(path) == 0)
                return .commit
            }
        }
        #expect(found?.kind == .removed)
        #expect(found?.moment == .beforeCommit)
        #expect(
            found?.words(path: "db.sqlite")
                == "db.sqlite was deleted while this command wrote to it; everything the command wrote was rolled back")
    }

    @Test("the -wal deleted during a write: rolled back, and what earlier commits left in it is copied into the file first")
    func walRemovedBeforeCommit() throws {
        let dir = try folder()
        let path = dir + "/db.sqlite"
        try database(path, courses: 1)
        let store = try Store(path: path)
        // A committed transaction whose pages are still in the -wal only.
        try addCourses(store, from: 2, count: 2)
        #expect((size(path + "-wal") ?? 0) > 0)
        let found = change {
            try store.database.inTransaction(.immediate) {
                try store.database.run("INSERT INTO courses (course_id, code, title) VALUES ('NEW', 'NEW', 'New')")
                #expect(unlink(path + "-wal") == 0)
                return .commit
            }
        }
        #expect(found == DatabaseFileChange(kind: .sideFileRemoved(suffix: "-wal"), moment: .beforeCommit, walSettled: true))
        // The earlier commit survives in the file; the refused one is nowhere.
        #expect(try courseIDs(path) == ["C1", "C2", "C3"])
    }

    @Test("the -shm replaced during a write: rolled back")
    func shmReplacedBeforeCommit() throws {
        let dir = try folder()
        let path = dir + "/db.sqlite"
        try database(path, courses: 1)
        let store = try Store(path: path)
        let found = change {
            try store.database.inTransaction(.immediate) {
                try store.database.run("INSERT INTO courses (course_id, code, title) VALUES ('NEW', 'NEW', 'New')")
                #expect(unlink(path + "-shm") == 0)
                FileManager.default.createFile(atPath: path + "-shm", contents: Data(count: 32768))
                return .commit
            }
        }
        #expect(found?.kind == .sideFileReplaced(suffix: "-shm"))
        #expect(try courseIDs(path) == ["C1"])
    }

    @Test("a file cut short during a write: rolled back, nothing copied into it, named as damage")
    func truncatedBeforeCommit() throws {
        let dir = try folder()
        let path = dir + "/db.sqlite"
        try database(path, courses: 2)
        let store = try Store(path: path)
        let before = try #require(size(path))
        let found = change {
            try store.database.inTransaction(.immediate) {
                try store.database.run("INSERT INTO courses (course_id, code, title) VALUES ('NEW', 'NEW', 'New')")
                #expect(truncate(path, 16384) == 0)
                return .commit
            }
        }
        #expect(found == DatabaseFileChange(kind: .truncated(bytes: 16384, seen: before), moment: .beforeCommit, walSettled: nil))
        #expect(found?.damagesTheFile == true)
        #expect(size(path) == 16384)
    }

    @Test("the -wal cut short during a write: rolled back, nothing of it copied into the file")
    func walTruncatedBeforeCommit() throws {
        let dir = try folder()
        let path = dir + "/db.sqlite"
        try database(path, courses: 1)
        let store = try Store(path: path)
        try addCourses(store, from: 2, count: 1)
        let fileBefore = try Data(contentsOf: URL(fileURLWithPath: path))
        let found = change {
            try store.database.inTransaction(.immediate) {
                try store.database.run("INSERT INTO courses (course_id, code, title) VALUES ('NEW', 'NEW', 'New')")
                #expect(truncate(path + "-wal", 0) == 0)
                return .commit
            }
        }
        #expect(found == DatabaseFileChange(kind: .walTruncated, moment: .beforeCommit, walSettled: nil))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == fileBefore)
    }

    @Test("a file moved over the database while a reader reads: the read fails, saying so")
    func replacedWhileReading() throws {
        let dir = try folder()
        let path = dir + "/db.sqlite"
        try database(path, courses: 3)
        try database(dir + "/backup.sqlite", courses: 1)
        let store = try Store(readOnlyPath: path)
        let found = change {
            _ = try store.read {
                let count = try store.database.int("SELECT count(*) FROM courses")
                #expect(rename(dir + "/backup.sqlite", path) == 0)
                return count
            }
        }
        #expect(found == DatabaseFileChange(kind: .replaced, moment: .reading))
        #expect(
            found?.words(path: "db.sqlite")
                == "db.sqlite was replaced by another file while this command read it: what it showed came from the file as it was before")
    }

    /// Writes the bytes of `source` over the file at `path` in place (its inode kept), as
    /// `cp source path` does.
    private func copyInPlace(_ source: String, over path: String) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let fd = open(path, O_WRONLY | O_TRUNC)
        #expect(fd >= 0)
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        #expect(written == bytes.count)
    }

    @Test("a backup copied over the database in place during a write: rolled back, nothing copied into it, named as damage")
    func overwrittenBeforeCommit() throws {
        let dir = try folder()
        let path = dir + "/db.sqlite"
        try database(path, courses: 3)
        try database(dir + "/backup.sqlite", courses: 1)
        let backup = try Data(contentsOf: URL(fileURLWithPath: dir + "/backup.sqlite"))
        let store = try Store(path: path)
        let inode = DatabaseFileWatch.key(path)
        let found = change {
            try store.database.inTransaction(.immediate) {
                try store.database.run("INSERT INTO courses (course_id, code, title) VALUES ('NEW', 'NEW', 'New')")
                try copyInPlace(dir + "/backup.sqlite", over: path)
                return .commit
            }
        }
        #expect(found == DatabaseFileChange(kind: .overwritten, moment: .beforeCommit, walSettled: nil))
        #expect(found?.damagesTheFile == true)
        #expect(
            found?.words(path: "db.sqlite")
                == "db.sqlite was overwritten in place by another file's bytes while this command wrote to it; everything the command wrote was rolled back"
        )
        // Same file, the backup's bytes, and nothing of the old -wal copied into them.
        #expect(DatabaseFileWatch.key(path) == inode)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == backup)
        // Nothing more commits through the connection.
        #expect(change { try self.addCourses(store, from: 9, count: 1) }?.kind == .overwritten)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == backup)
    }

    @Test("a backup copied over the database in place while a reader reads: the read fails, saying so")
    func overwrittenWhileReading() throws {
        let dir = try folder()
        let path = dir + "/db.sqlite"
        try database(path, courses: 3)
        try database(dir + "/backup.sqlite", courses: 1)
        let store = try Store(path: path)
        let found = change {
            _ = try store.read {
                let count = try store.database.int("SELECT count(*) FROM courses")
                try copyInPlace(dir + "/backup.sqlite", over: path)
                return count
            }
        }
        #expect(found == DatabaseFileChange(kind: .overwritten, moment: .reading))
    }

    @Test("status on a file replaced after the store opened it: the change, never the old file's counts")
    func statusChecksTheFilesAfterReading() throws {
        let dir = try folder()
        let path = dir + "/db.sqlite"
        try database(path, courses: 3)
        try database(dir + "/backup.sqlite", courses: 1)
        let store = try Store(path: path)
        #expect(try store.status().liveCourses == 3)
        #expect(rename(dir + "/backup.sqlite", path) == 0)
        let found = change { _ = try store.status() }
        #expect(found == DatabaseFileChange(kind: .replaced, moment: .reading))
    }

    @Test("a store opened on another file than the one judged is refused at open")
    func replacedWhileOpening() throws {
        let dir = try folder()
        let path = dir + "/db.sqlite"
        try database(path, courses: 1)
        try database(dir + "/other.sqlite", courses: 1)
        let judged = try #require(DatabaseFileWatch.key(dir + "/other.sqlite"))
        let database = try Database(path: path, mode: .readOnly)
        _ = try database.int("SELECT count(*) FROM courses")
        let found = change { try database.watchFiles(judged: judged) }
        #expect(found == DatabaseFileChange(kind: .replaced, moment: .opening))
    }

    @Test("commits, checkpoints by another connection, a reopened file and a link to it are no change")
    func ordinaryWorkIsNoChange() throws {
        let dir = try folder()
        let path = dir + "/db.sqlite"
        try database(path, courses: 1)
        #expect(symlink(path, dir + "/link.sqlite") == 0)
        let store = try Store(path: dir + "/link.sqlite")
        let reader = try Store(readOnlyPath: path)
        // More than the auto-checkpoint's 1,000 pages in one transaction, spilled and checkpointed.
        try store.database.inTransaction(.immediate) {
            let filler = String(repeating: "x", count: 3000)
            for n in 0..<6000 {
                try store.database.run("INSERT INTO courses (course_id, code, title) VALUES (?, 'K', ?)", ["K\(n)", filler])
            }
            return .commit
        }
        let other = try Database(path: path)
        try other.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try addCourses(store, from: 2, count: 1)
        #expect(try reader.read { try reader.database.int("SELECT count(*) FROM courses") } == 6002)
        try addCourses(store, from: 3, count: 1)
        #expect(try reader.read { try reader.database.int("SELECT count(*) FROM courses") } == 6003)
    }
}

/// The structural check of every page at open (`PageCheck`).
@Suite("Store: damaged pages are found at open")
struct PageCheckTests {
    private func damagedDatabase() throws -> (path: String, page: Int) {
        let dir = TestFolders.path("dashboard-pages")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/db.sqlite"
        var page = 0
        do {
            let store = try Store(path: path)
            try store.database.inTransaction(.immediate) {
                try store.database.execute(
                    """
                    INSERT INTO batches (batch_id, command, started_at, as_of, mode, status) VALUES (1, 'import', 't', 't', 'merge', 'committed');
                    INSERT INTO courses (course_id, code, title) VALUES ('C1', 'C1', 'Course');
                    """)
                for n in 0..<3000 {
                    try store.database.run(
                        "INSERT INTO tasks (task_id, course_id, title, priority, changed_batch, bucket) VALUES (?, 'C1', 'Task', 'normal', 1, 'undated')",
                        ["T\(n)"])
                }
                return .commit
            }
            try store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            // A leaf of the course index: no grid, status or count reads it.
            page = try store.database.int(
                "SELECT pageno FROM dbstat WHERE name = 'tasks_by_course' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1")
        }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: UInt64((page - 1) * 16384))
        try handle.write(contentsOf: Data((0..<16384).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
        try handle.close()
        return (path, page)
    }

    @Test("a read-only open and a writing open refuse a file with a malformed page of an index no query reads")
    func damagedIndexPageIsRefused() throws {
        let (path, page) = try damagedDatabase()
        let expected = StoreError.damaged(path: path, detail: "page \(page) (of tasks_by_course) is malformed")
        #expect(throws: expected) { _ = try Store(readOnlyPath: path) }
        #expect(throws: expected) { _ = try Store(path: path) }
        // verify opens it to report what is wrong.
        _ = try Store(readOnlyPath: path, checkPages: false)
    }
}
