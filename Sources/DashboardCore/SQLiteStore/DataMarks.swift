import Foundation

/// The owner of `data_marks` and of the data triggers: the proof that no task or course data
/// changed since a committed import (SPEC §5: an identical re-import may skip the comparison
/// only when it can prove that no row changed since, by any writer).
///
/// Policy:
/// - every INSERT or DELETE of a task or course row, and every UPDATE of one of their data
///   columns (not a bucket: a categorization changes no data), moves the mark by one through
///   a trigger, whoever writes: a dashboard command, a hand edit in the sqlite3 shell;
/// - the importer turns triggers off on its own connection while it writes (a trigger per row
///   costs 0.8 s a million rows) and moves the mark once when it wrote any data;
/// - a committed import records the mark after its writes, the schema version
///   (`PRAGMA schema_version`: dropping a trigger or any other schema change moves it) and its
///   plan options; the next import of the same files (same SHA-256, same paths and order) with
///   the same plan options may skip reading and comparing the rows only if the mark and the
///   schema version are still those it recorded.
///
/// What it cannot see: a writer that turns SQLite's triggers off on its own connection (the
/// shell's `.dbconfig enable_trigger off`) and edits the data; docs/operations.md says so.
enum DataMarks {
    static let schemaSQL: String = {
        let task = "task_id, course_id, title, student_id, due, priority, completed, assignment_id, deleted_batch, created_batch"
        let course = "course_id, code, title, term, teacher, timezone, deleted_batch"
        let bump = "UPDATE data_marks SET data = data + 1 WHERE id = 1;"
        var sql = """
            CREATE TABLE IF NOT EXISTS data_marks (id INTEGER PRIMARY KEY CHECK (id = 1), data INTEGER NOT NULL);
            INSERT OR IGNORE INTO data_marks (id, data) VALUES (1, 0);

            """
        for (table, columns) in [("tasks", task), ("courses", course)] {
            sql += """
                CREATE TRIGGER IF NOT EXISTS \(table)_data_inserted AFTER INSERT ON \(table) BEGIN \(bump) END;
                CREATE TRIGGER IF NOT EXISTS \(table)_data_deleted AFTER DELETE ON \(table) BEGIN \(bump) END;
                CREATE TRIGGER IF NOT EXISTS \(table)_data_updated AFTER UPDATE OF \(columns) ON \(table) BEGIN \(bump) END;

                """
        }
        return sql
    }()

    /// What a committed import recorded: the basis of a later shortcut.
    struct Basis: Equatable {
        var batchID: Int
        var dataMark: Int
        var schemaMark: Int
        var planOptions: String
    }

    /// The mark now, or nil in a file without marks (before schema 8).
    static func current(_ database: Database) throws -> Int? {
        guard try database.int("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'data_marks'") == 1 else { return nil }
        var mark: Int?
        let statement = try database.cached("SELECT data FROM data_marks WHERE id = 1")
        try statement.forEachRow { mark = $0.int(0) }
        return mark
    }

    /// Moves the mark once (the importer's writes, which fire no trigger).
    static func bump(_ database: Database) throws {
        try database.run("UPDATE data_marks SET data = data + 1 WHERE id = 1")
    }

    /// Records on batch `batchID` the mark as it is now, the schema version and `planOptions`.
    static func record(_ database: Database, batchID: Int, planOptions: String) throws {
        try database.run(
            """
            UPDATE batches SET data_mark = (SELECT data FROM data_marks WHERE id = 1), schema_mark = ?2, plan_options = ?3
            WHERE batch_id = ?1
            """, [batchID, try database.int("PRAGMA schema_version"), planOptions])
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
        let c = statement.columnPositions
        let (id, command, status) = (try c.position("batch_id"), try c.position("command"), try c.position("status"))
        let (data, schema, options) = (try c.position("data_mark"), try c.position("schema_mark"), try c.position("plan_options"))
        try statement.forEachRow { row in
            guard row.string(command) == "import", row.string(status) == BatchStatus.committed.rawValue else { return }
            basis = Basis(
                batchID: row.int(id), dataMark: row.int(data), schemaMark: row.int(schema), planOptions: row.string(options) ?? "")
        }
        guard let basis, basis.dataMark == mark, basis.schemaMark == (try database.int("PRAGMA schema_version")) else { return nil }
        return basis
    }
}
