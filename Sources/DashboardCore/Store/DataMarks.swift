import Foundation

/// The owner of `data_marks` and of the write triggers: what the dashboard can prove about
/// the data it did not just read.
///
/// Two proofs (issue 15):
/// - **No data changed since a committed import** (SPEC §5: an identical re-import may skip
///   the comparison only then). Every INSERT or DELETE of a task or course row, and every
///   UPDATE of one of their data columns, moves `data` by one through a trigger, whoever
///   writes (a dashboard command, a hand edit in the sqlite3 shell). A committed import records
///   `data` after its writes, the schema version (`PRAGMA schema_version`: dropping a trigger
///   moves it) and its plan options; the next import of the same files with the same plan
///   options may skip reading and comparing the rows only if both are still those recorded.
/// - **Every stored value and bucket is as the dashboard wrote it** (the grid may then count
///   settled buckets as stored: `GridCounts`). `writes` moves with `data`, with every UPDATE
///   of a stored bucket and with every write of an override (a pin decides a bucket). Each
///   dashboard writer of data or buckets (an import, an approval, a categorization, an
///   override, a revert) checks at its start that `writes` is still what the last one left
///   (`trusted`), else someone else wrote: the data is no longer known `clean`; at its end it
///   leaves `trusted = writes`. A database migrated to this schema with tasks in it starts not
///   clean (its values may hold an old hand edit); a committed sync of courses and tasks that
///   rejected no row compares and rewrites every live row, and makes it clean again (its
///   counts per course and bucket counted afresh).
///
/// The importer turns triggers off on its own connection while it writes (a trigger per row
/// costs 0.8 s a million rows) and moves the marks once. What no proof can see: a writer that
/// turns SQLite's triggers off on its own connection (the shell's `.dbconfig enable_trigger
/// off`) or sets the marks by hand; docs/operations.md says so.
enum DataMarks {
    static let schemaSQL: String = {
        let task = "task_id, course_id, title, student_id, due, priority, completed, assignment_id, deleted_batch, created_batch"
        let course = "course_id, code, title, term, teacher, timezone, deleted_batch"
        let data = "UPDATE data_marks SET data = data + 1, writes = writes + 1 WHERE id = 1;"
        let bucket = "UPDATE data_marks SET writes = writes + 1 WHERE id = 1;"
        var sql = """
            CREATE TABLE IF NOT EXISTS data_marks (
                id      INTEGER PRIMARY KEY CHECK (id = 1),
                data    INTEGER NOT NULL,
                writes  INTEGER NOT NULL,
                trusted INTEGER NOT NULL,
                clean   INTEGER NOT NULL CHECK (clean IN (0, 1))
            );
            INSERT OR IGNORE INTO data_marks (id, data, writes, trusted, clean)
            VALUES (1, 0, 0, 0, CASE WHEN EXISTS (SELECT 1 FROM tasks) THEN 0 ELSE 1 END);
            CREATE TRIGGER IF NOT EXISTS tasks_bucket_written AFTER UPDATE OF bucket ON tasks BEGIN \(bucket) END;
            CREATE TRIGGER IF NOT EXISTS overrides_inserted AFTER INSERT ON overrides BEGIN \(bucket) END;
            CREATE TRIGGER IF NOT EXISTS overrides_deleted AFTER DELETE ON overrides BEGIN \(bucket) END;
            CREATE TRIGGER IF NOT EXISTS overrides_updated AFTER UPDATE ON overrides BEGIN \(bucket) END;

            """
        for (table, columns) in [("tasks", task), ("courses", course)] {
            sql += """
                CREATE TRIGGER IF NOT EXISTS \(table)_data_inserted AFTER INSERT ON \(table) BEGIN \(data) END;
                CREATE TRIGGER IF NOT EXISTS \(table)_data_deleted AFTER DELETE ON \(table) BEGIN \(data) END;
                CREATE TRIGGER IF NOT EXISTS \(table)_data_updated AFTER UPDATE OF \(columns) ON \(table) BEGIN \(data) END;

                """
        }
        return sql
    }()

    /// The start of a dashboard writer's transaction: a write since the last one's end (a
    /// writer that is not the dashboard) means the values are no longer known clean.
    static func beginTrustedWrite(_ database: Database) throws {
        guard try hasMarks(database) else { return }
        try database.run("UPDATE data_marks SET clean = 0 WHERE id = 1 AND writes <> trusted")
    }

    /// The end of a dashboard writer's transaction: its writes are the dashboard's; `revalidated`
    /// when it compared and rewrote every live row (a clean-making sync).
    /// Data made clean again also gets its counts per course and bucket counted afresh
    /// (`CourseBuckets.rebuild`: a writer no trigger saw may have left them wrong).
    static func endTrustedWrite(_ database: Database, revalidated: Bool = false) throws {
        guard try hasMarks(database) else { return }
        if revalidated, try database.int("SELECT clean FROM data_marks WHERE id = 1") == 0 {
            try CourseBuckets.rebuild(database)
            try database.run("UPDATE data_marks SET clean = 1 WHERE id = 1")
        }
        try database.run("UPDATE data_marks SET trusted = writes WHERE id = 1")
    }

    /// True when no one but the dashboard has written since it last did, and every value it did
    /// not write itself is known valid.
    static func valuesHold(_ database: Database) throws -> Bool {
        guard try hasMarks(database) else { return false }
        return try database.int("SELECT count(*) FROM data_marks WHERE id = 1 AND writes = trusted AND clean = 1") == 1
    }

    /// True when every stored value is as the dashboard wrote it (`clean`, once the running
    /// writer's `beginTrustedWrite` has looked for another writer).
    static func isClean(_ database: Database) throws -> Bool {
        guard try hasMarks(database) else { return false }
        return try database.int("SELECT clean FROM data_marks WHERE id = 1") == 1
    }

    static func hasMarks(_ database: Database) throws -> Bool {
        try database.hasTable("data_marks")
    }

    /// What a committed import recorded: the basis of a later shortcut.
    struct Basis: Equatable {
        var batchID: Int
        var dataMark: Int
        var schemaMark: Int
        var planOptions: String
    }

    /// The data mark now, or nil in a file without marks (before schema 8).
    static func current(_ database: Database) throws -> Int? {
        guard try hasMarks(database) else { return nil }
        var mark: Int?
        let statement = try database.cached("SELECT data FROM data_marks WHERE id = 1")
        try statement.forEachRow { mark = $0.int(0) }
        return mark
    }

    /// Moves the marks once (the importer's writes, which fire no trigger).
    static func bump(_ database: Database) throws {
        try database.run("UPDATE data_marks SET data = data + 1, writes = writes + 1 WHERE id = 1")
    }

    /// Records on batch `batchID` the mark as it is now, the schema version and `planOptions`.
    static func record(_ database: Database, batchID: Int, planOptions: String) throws {
        try database.run(
            """
            UPDATE batches SET data_mark = (SELECT data FROM data_marks WHERE id = 1), schema_mark = ?2, plan_options = ?3
            WHERE batch_id = ?1
            """, [batchID, try schemaMark(database), planOptions])
    }

    /// The newest committed import, when it recorded marks that still hold: no data written
    /// and no schema changed since. nil otherwise (or in a file without marks).
    static func provenUnchanged(_ database: Database) throws -> Basis? {
        guard let mark = try current(database) else { return nil }
        var basis: Basis?
        let statement = try database.cached(
            """
            SELECT batch_id, command, status, data_mark, schema_mark, plan_options FROM batches
            WHERE data_mark IS NOT NULL ORDER BY batch_id DESC LIMIT 1
            """)
        let c = try statement.columnPositions
        let (id, command, status) = (try c.position("batch_id"), try c.position("command"), try c.position("status"))
        let (data, schema, options) = (try c.position("data_mark"), try c.position("schema_mark"), try c.position("plan_options"))
        try statement.forEachRow { row in
            guard row.string(command) == "import", row.string(status) == BatchStatus.committed.rawValue else { return }
            basis = Basis(
                batchID: row.int(id), dataMark: row.int(data), schemaMark: row.int(schema), planOptions: row.string(options) ?? "")
        }
        guard let basis, basis.dataMark == mark, basis.schemaMark == (try schemaMark(database)) else { return nil }
        return basis
    }

    /// A number that moves when the schema does, a trigger dropped among others: SQLite's
    /// `PRAGMA schema_version`; on PostgreSQL, a hash of the triggers that keep the marks
    /// (`PGSchema.schemaMark`).
    static func schemaMark(_ database: Database) throws -> Int {
        try database.int(database.sql.schemaMarkSQL)
    }
}
