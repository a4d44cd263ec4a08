import Foundation

/// What `Verifier` reads differently on PostgreSQL: the server keeps its own pages whole (no
/// statement checks them as SQLite's `integrity_check` does), so the integrity step checks that
/// the dashboard's schema is whole instead: every table, and every trigger that enforces a
/// reference of `tasks` or keeps the marks and counts, present and enabled. The references are
/// the declared foreign keys (`pg_constraint`) and those of `tasks` its triggers enforce
/// (`PGSchema.taskReferences`); values are shown as SQLite's `quote` shows them.
extension Verifier {
    /// The references of `tasks` that triggers check, as the foreign keys SQLite declares them.
    static let triggerReferences: [(column: String, parent: String, target: String)] = [
        ("course_id", "courses", "course_id"), ("deleted_batch", "batches", "batch_id"), ("changed_batch", "batches", "batch_id"),
        ("created_batch", "batches", "batch_id"),
    ]

    /// The schema of a PostgreSQL database, whole: each missing table or trigger (or one a hand
    /// disabled) is a problem. Returns false when a table is missing (the checks that read it
    /// cannot run).
    static func postgresSchema(_ database: Database, _ found: (VerificationProblem) throws -> Void) throws -> Bool {
        let tables = Set(
            try database.rows("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").compactMap { $0.first?.text })
        var whole = true
        for table in PGSchema.tables.map(\.name) + ["dashboard_schema"] where !tables.contains(table) {
            whole = false
            try found(VerificationProblem(table: "", key: "", column: "", value: "missing table \(table)", rule: "the dashboard's schema"))
        }
        guard whole else { return false }
        let triggers = Dictionary(
            try database.rows(
                """
                SELECT t.tgname, t.tgenabled::text FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
                JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND NOT t.tgisinternal
                """
            ).compactMap { row -> (String, String)? in
                guard let name = row.first?.text, let enabled = row.last?.text else { return nil }
                return (name, enabled)
            }, uniquingKeysWith: { a, _ in a })
        for name in PGSchema.triggerNames(withPrints: try RowPrints.kept(database)) {
            switch triggers[name] {
            case nil:
                try found(
                    VerificationProblem(table: "", key: "", column: "", value: "missing trigger \(name)", rule: "the dashboard's schema"))
            case "D":
                try found(
                    VerificationProblem(table: "", key: "", column: "", value: "disabled trigger \(name)", rule: "the dashboard's schema"))
            default: break
            }
        }
        return true
    }

    /// The tables whose references are checked, by name.
    static func tableNames(_ database: Database) throws -> [String] {
        let sql =
            database.dialect == .sqlite
            ? "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name"
            : "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename COLLATE \"C\""
        return try database.rows(sql).compactMap { $0.first?.text }
    }

    /// The references of `table`: (parent table, column, parent column).
    static func references(_ database: Database, _ table: String) throws -> [(parent: String, column: String, target: String)] {
        guard database.dialect == .postgres else {
            let references = try database.prepare("SELECT \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?)")
            let r = try references.columnPositions
            let (parentColumn, fromColumn, toColumn) = (try r.position("table"), try r.position("from"), try r.position("to"))
            var foreign: [(parent: String, column: String, target: String)] = []
            try references.forEachRow([table]) { row in
                guard let parent = row.string(parentColumn), let column = row.string(fromColumn), let target = row.string(toColumn)
                else { return }
                foreign.append((parent, column, target))
            }
            return foreign
        }
        var foreign = try database.rows(
            """
            SELECT p.relname, a.attname, pa.attname FROM pg_constraint k
            JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
            JOIN pg_attribute pa ON pa.attrelid = k.confrelid AND pa.attnum = k.confkey[1]
            WHERE k.contype = 'f' AND n.nspname = current_schema() AND c.relname = ? ORDER BY k.conname
            """, [table]
        ).map { (parent: $0[0].text ?? "", column: $0[1].text ?? "", target: $0[2].text ?? "") }
        if table == "tasks" { foreign += triggerReferences.map { (parent: $0.parent, column: $0.column, target: $0.target) } }
        return foreign
    }

    /// The SQL text of a table's key for the row `c`: its primary key columns joined with `/`.
    static func keyExpression(_ database: Database, _ table: String) throws -> String {
        let sql =
            database.dialect == .sqlite
            ? "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk"
            : """
            SELECT a.attname FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, place) ON true
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
            WHERE i.indisprimary AND n.nspname = current_schema() AND c.relname = ? ORDER BY k.place
            """
        let columns = try database.rows(sql, [table]).compactMap { $0.first?.text }
        guard !columns.isEmpty else { return database.dialect == .sqlite ? "c.rowid" : "c.ctid::text" }
        return columns.map { "c.\(quoted($0))" }.joined(separator: " || '/' || ")
    }

    /// The SQL of a value as SQLite's `quote` shows it: text quoted, a number as it is, NULL.
    static func shown(_ database: Database, _ column: String) -> String {
        guard database.dialect == .postgres else { return "quote(\(column))" }
        return
            "CASE WHEN \(column) IS NULL THEN 'NULL' WHEN pg_typeof(\(column)) = 'text'::regtype THEN quote_literal(\(column)) ELSE CAST(\(column) AS text) END"
    }
}
