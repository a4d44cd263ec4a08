import Foundation
import Testing

@testable import DashboardCore

/// Migration 3 respells the CHECK constraints that allow a list of three or more values
/// (`x IN ('a', 'b', 'c')` → `x = 'a' OR x = 'b' OR x = 'c'`): SQLite 3.40 builds a temporary
/// index for an IN list in a CHECK on every row written. Migration 14 widens one of them the
/// same way (an override may name `excused`).
@Suite("Store: migration 3 (value-list CHECK constraints)")
struct SchemaCheckMigrationTests {
    private func tempPath() throws -> String {
        let dir = TestFolders.path("dashboard-store")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir + "/db.sqlite"
    }

    /// A database as a build with migrations 1 and 2 only left it, with a row in each table
    /// migration 3 touches.
    private func versionTwoDatabase() throws -> String {
        let path = try tempPath()
        let db = try Database(path: path)
        try db.execute("PRAGMA journal_mode = WAL; PRAGMA page_size = 16384;")
        for migration in Schema.migrations.prefix(2) {
            guard case .sql(let statements) = migration else {
                Issue.record("migrations 1 and 2 are SQL")
                continue
            }
            try db.execute(statements)
        }
        try db.execute(
            """
            PRAGMA user_version = 2;
            INSERT INTO batches (batch_id, command, started_at, as_of, mode, status) VALUES (1, 'import', 't', 't', 'merge', 'committed');
            INSERT INTO courses (course_id, code, title) VALUES ('C1', 'C1', 'Course');
            INSERT INTO tasks (task_id, course_id, title, priority, changed_batch, bucket) VALUES ('T1', 'C1', 'Task', 'high', 1, 'undated');
            INSERT INTO course_history (batch_id, course_id, change, existed) VALUES (1, 'C1', 'insert', 0);
            INSERT INTO task_history (batch_id, task_id, change, existed) VALUES (1, 'T1', 'insert', 0);
            INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor, batch_id)
                VALUES ('t', 't', 'T1', 'C1', '', 'undated', 'import', 'me', 1);
            INSERT INTO overrides (task_id, entry_id, bucket, reason, actor) VALUES ('T1', 1, 'today', 'why', 'me');
            """)
        return path
    }

    private func schemaTexts(_ db: Database) throws -> [String] {
        try db.rows("SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_schema ORDER BY type, name").compactMap {
            $0.first?.text
        }
    }

    /// The opcodes of `EXPLAIN sql` on `db`, compiled now (an EXPLAIN runs no transaction, so a
    /// cached one would never notice a schema change).
    private func opcodes(_ db: Database, _ sql: String) throws -> [String] {
        try db.prepare("EXPLAIN " + sql).rows().compactMap { $0[1].text }
    }

    private let inserts = [
        "INSERT INTO batches (command, started_at, as_of, mode, status) VALUES ('import', 't', 't', 'merge', 'running')",
        "INSERT INTO tasks (task_id, course_id, title, priority) VALUES ('T9', 'C1', 'x', 'low')",
        "INSERT INTO course_history (batch_id, course_id, change, existed) VALUES (1, 'C9', 'update', 1)",
        "INSERT INTO task_history (batch_id, task_id, change, existed) VALUES (1, 'T9', 'delete', 1)",
        """
        INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor)
        VALUES ('t', 't', 'T9', 'C1', '', 'today', 'time', 'me')
        """,
        "INSERT INTO overrides (task_id, entry_id, bucket, reason, actor) VALUES ('T9', 1, 'overdue', 'r', 'me')",
    ]

    @Test("a new database has no CHECK with a list of three values or more, and writes its rows without a temporary index")
    func newDatabase() throws {
        let store = try Store(path: try tempPath())
        let texts = try schemaTexts(store.database)
        for check in Schema.respelledChecks {
            #expect(!texts.contains { $0.contains(check.inList) }, "still spelled as a list: \(check.inList)")
            #expect(texts.contains { $0.hasPrefix("table \(check.table):") && $0.contains(Self.current(check)) })
        }
        // The only IN lists left have two values (SQLite compiles those without a temporary index).
        let lists = texts.joined().components(separatedBy: " IN (").dropFirst().map { $0.prefix { $0 != ")" } }
        #expect(lists.allSatisfy { $0.components(separatedBy: ",").count == 2 }, "\(lists)")
        // The connection that ran the migration compiles the respelled constraints.
        for sql in inserts {
            #expect(!(try opcodes(store.database, sql)).contains("OpenEphemeral"), "\(sql)")
        }
        #expect(try store.database.scalar("PRAGMA integrity_check")?.text == "ok")
    }

    @Test("a version 2 database is migrated in place: same rows, the same schema as a new database, integrity ok")
    func versionTwo() throws {
        let path = try versionTwoDatabase()
        let before = try Database(path: path)
        let tables = ["batches", "tasks", "course_history", "task_history", "audit", "overrides"]
        let rowsBefore = try tables.map { try before.rows("SELECT * FROM \($0)") }
        // The columns the file had: the later migrations add some, holding their defaults.
        let columnsBefore = try tables.map { table in
            try before.rows("SELECT name FROM pragma_table_info('\(table)')").compactMap { $0.first?.text }
        }
        #expect(try opcodes(before, inserts[4]).contains("OpenEphemeral"))

        let store = try Store(path: path)
        #expect(store.schemaVersion == Schema.currentVersion)  // 3, then 4 (the mark)
        #expect(try store.database.scalar("PRAGMA integrity_check")?.text == "ok")
        let rowsAfter = try zip(tables, columnsBefore).map { table, columns in
            try store.database.rows("SELECT \(columns.joined(separator: ", ")) FROM \(table)")
        }
        #expect(rowsAfter == rowsBefore)
        #expect(try store.database.rows("SELECT assignment_id FROM tasks") == [[.text("")]])
        #expect(try store.database.rows("SELECT assignment_id FROM task_history") == [[.null]])
        #expect(try store.database.rows("SELECT group_id FROM audit") == [[.null]])
        let fresh = try Store(path: try tempPath())
        #expect(try schemaTexts(store.database) == (try schemaTexts(fresh.database)))
        for sql in inserts {
            #expect(!(try opcodes(store.database, sql)).contains("OpenEphemeral"), "\(sql)")
        }
        // Another connection that had read the old schema reads it again at its next
        // transaction (schema_version moved).
        #expect(try before.int("SELECT count(*) FROM audit") == 1)
        #expect(!(try opcodes(before, inserts[4])).contains("OpenEphemeral"))
    }

    @Test("a table whose text does not hold the expected constraint stops the migration: nothing changes, the file stays at version 2")
    func unexpectedText() throws {
        let path = try versionTwoDatabase()
        do {
            // Someone rebuilt `overrides` by hand with the rule spelled differently.
            let db = try Database(path: path)
            try db.execute(
                """
                PRAGMA foreign_keys = OFF;
                CREATE TABLE overrides_new (
                    task_id TEXT NOT NULL PRIMARY KEY REFERENCES tasks(task_id),
                    entry_id INTEGER NOT NULL REFERENCES audit(entry_id),
                    bucket TEXT NOT NULL CHECK (bucket in ('overdue','today','upcoming','undated','completed')),
                    until TEXT NOT NULL DEFAULT '', reason TEXT NOT NULL, actor TEXT NOT NULL) WITHOUT ROWID;
                INSERT INTO overrides_new SELECT * FROM overrides;
                DROP TABLE overrides;
                ALTER TABLE overrides_new RENAME TO overrides;
                """)
        }
        try expectMigrationStops(path, stayingAt: 2)
    }

    @Test("the respelled constraints refuse exactly what the lists refused")
    func sameRules() throws {
        let store = try Store(path: try tempPath())
        let db = store.database
        try db.execute(
            """
            INSERT INTO batches (batch_id, command, started_at, as_of, mode, status) VALUES (1, 'import', 't', 't', 'merge', 'committed');
            INSERT INTO courses (course_id, code, title) VALUES ('C1', 'C1', 'Course');
            INSERT INTO tasks (task_id, course_id, title) VALUES ('T1', 'C1', 'Task');
            INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor)
                VALUES ('t', 't', 'T1', 'C1', '', 'today', 'time', 'me');
            """)
        for check in Schema.respelledChecks {
            for value in check.values {
                #expect(try accepts(db, check, value), "\(check.table).\(check.column) refused \(value)")
            }
            for value in ["", "HIGH", "high ", "urgent", "Insert", "none"] where !check.values.contains(value) {
                #expect(!(try accepts(db, check, value)), "\(check.table).\(check.column) accepted \(value)")
            }
            #expect(!(try accepts(db, check, nil)), "\(check.table).\(check.column) accepted NULL")
        }
    }

    /// A respelled constraint as the current schema writes it: migration 3's spelling, or the
    /// later migration's that widened it (14: an override may name `excused`).
    static func current(_ check: Schema.ValueListCheck) -> String {
        var text = check.orChain
        for case .rewriteChecks(let rewrites) in Schema.migrations {
            for rewrite in rewrites where rewrite.table == check.table && rewrite.old == text { text = rewrite.new }
        }
        return text
    }

    /// The overrides' constraint before and after migration 14.
    static let bucketsBefore = Schema.ValueListCheck(
        table: "overrides", column: "bucket", values: ["overdue", "today", "upcoming", "undated", "completed"])
    static let bucketsAfter = Schema.ValueListCheck(
        table: "overrides", column: "bucket", values: ["overdue", "today", "upcoming", "undated", "completed", "excused"])

    /// A database as the release with schema 13 left it (the overrides' rule without
    /// `excused`), with one override (on T0; T1 is free for `accepts`): today's file with that
    /// rule written back by hand.
    private func versionThirteenDatabase() throws -> String {
        let path = try tempPath()
        do {
            let store = try Store(path: path)
            try store.database.execute(
                """
                INSERT INTO batches (batch_id, command, started_at, as_of, mode, status) VALUES (1, 'import', 't', 't', 'merge', 'committed');
                INSERT INTO courses (course_id, code, title) VALUES ('C1', 'C1', 'Course');
                INSERT INTO tasks (task_id, course_id, title) VALUES ('T0', 'C1', 'Pinned'), ('T1', 'C1', 'Task');
                INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor)
                    VALUES ('t', 't', 'T0', 'C1', '', 'today', 'override', 'me');
                INSERT INTO overrides (task_id, entry_id, bucket, reason, actor) VALUES ('T0', 1, 'today', 'why', 'me');
                """)
        }
        try rewriteOverridesRule(path, Self.bucketsAfter.orChain, to: Self.bucketsBefore.orChain)
        try Database(path: path).execute("PRAGMA user_version = 13")
        return path
    }

    @Test("migration 14 lets an override name excused, and nothing else changes: same rows, the schema of a new file")
    func versionThirteen() throws {
        let path = try versionThirteenDatabase()
        let before = try Database(path: path)
        #expect(try before.int("PRAGMA user_version") == 13)
        #expect(!(try accepts(before, Self.bucketsAfter, "excused")), "schema 13 refuses excused")
        let rows = try before.rows("SELECT * FROM overrides")
        let store = try Store(path: path)
        #expect(store.schemaVersion == Schema.currentVersion)
        #expect(try store.database.rows("SELECT * FROM overrides") == rows)
        #expect(try schemaTexts(store.database) == (try schemaTexts(try Store(path: try tempPath()).database)))
        for value in Self.bucketsAfter.values { #expect(try accepts(store.database, Self.bucketsAfter, value), "\(value)") }
        for value in ["to_grade", "Excused", "", "late"] { #expect(!(try accepts(store.database, Self.bucketsAfter, value)), "\(value)") }
        #expect(try store.database.scalar("PRAGMA integrity_check")?.text == "ok")
    }

    @Test("migration 14 on a file whose overrides were rebuilt by hand stops: the file stays at version 13, unchanged")
    func versionThirteenRebuilt() throws {
        let path = try versionThirteenDatabase()
        try rewriteOverridesRule(path, Self.bucketsBefore.orChain, to: Self.bucketsBefore.inList)
        try expectMigrationStops(path, stayingAt: 13)
    }

    /// Writes the `overrides` table's rule `old` as `new` in the file's schema text, as a hand
    /// edit would (the rows stay as they are).
    private func rewriteOverridesRule(_ path: String, _ old: String, to new: String) throws {
        let db = try Database(path: path)
        let cookie = try db.int("PRAGMA schema_version")
        try db.execute("PRAGMA writable_schema = ON")
        try db.run("UPDATE sqlite_schema SET sql = replace(sql, ?1, ?2) WHERE name = 'overrides'", [old, new])
        try db.execute("PRAGMA schema_version = \(cookie + 1); PRAGMA writable_schema = RESET")
    }

    /// Opening the file for writing fails on the overrides' rule, and the file stays at
    /// `version` with the same schema and its one override.
    private func expectMigrationStops(_ path: String, stayingAt version: Int) throws {
        let before = try schemaTexts(try Database(path: path))
        let outcome = Result { () throws(StoreError) -> Store in try Store(path: path) }
        guard case .failure(let error) = outcome else {
            Issue.record("the migration went through")
            return
        }
        #expect("\(error)".contains("table overrides does not hold the constraint"), "\(error)")
        let after = try Database(path: path)
        #expect(try after.int("PRAGMA user_version") == version)
        #expect(try schemaTexts(after) == before)
        #expect(try after.scalar("PRAGMA integrity_check")?.text == "ok")
        #expect(try after.int("SELECT count(*) FROM overrides") == 1)
    }

    /// Whether a row with `value` in the checked column is written (inside a rolled-back savepoint).
    private func accepts(_ db: Database, _ check: Schema.ValueListCheck, _ value: String?) throws -> Bool {
        let v = value.map { "'\($0)'" } ?? "NULL"
        let sql: String
        switch check.table {
        case "batches":
            sql = "INSERT INTO batches (command, started_at, as_of, mode, status) VALUES ('import', 't', 't', 'merge', \(v))"
        case "tasks": sql = "INSERT INTO tasks (task_id, course_id, title, priority) VALUES ('T2', 'C1', 'x', \(v))"
        case "course_history": sql = "INSERT INTO course_history (batch_id, course_id, change, existed) VALUES (1, 'C2', \(v), 0)"
        case "task_history": sql = "INSERT INTO task_history (batch_id, task_id, change, existed) VALUES (1, 'T2', \(v), 0)"
        case "audit":
            sql = """
                INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor)
                VALUES ('t', 't', 'T1', 'C1', '', 'today', \(v), 'me')
                """
        case "overrides": sql = "INSERT INTO overrides (task_id, entry_id, bucket, reason, actor) VALUES ('T1', 1, \(v), 'r', 'me')"
        default:
            Issue.record("no insert for \(check.table)")
            return false
        }
        try db.execute("SAVEPOINT probe")
        defer { try? db.execute("ROLLBACK TO probe; RELEASE probe;") }
        do {
            try db.execute(sql)
            return true
        } catch let error as SQLiteError {
            #expect(error.message.contains("CHECK constraint failed") || error.message.contains("NOT NULL constraint failed"), "\(error)")
            return false
        }
    }
}
