import Foundation

/// How `Verifier` reads a PostgreSQL database: its schema whole instead of an integrity check, the
/// declared foreign keys (`pg_constraint`) and the references of `tasks` its triggers enforce
/// (`PGSchema.taskReferences`), values shown as SQLite's `quote` shows them.
extension PostgreSQLStoreSQL {
    /// The references of `tasks` that triggers check, as the foreign keys SQLite declares them.
    static let triggerReferences: [(column: String, parent: String, target: String)] = [
        ("course_id", "courses", "course_id"), ("deleted_batch", "batches", "batch_id"), ("changed_batch", "batches", "batch_id"),
        ("created_batch", "batches", "batch_id"),
    ]

    /// The server keeps its own pages whole (no statement checks them as SQLite's
    /// `integrity_check` does), so the dashboard's schema is checked whole instead: each missing
    /// table or trigger (or one a hand disabled) is a problem. Returns false when a table is
    /// missing (the checks that read it cannot run).
    func checkStructure(_ database: Database, _ found: (VerificationProblem) throws -> Void) throws -> Bool {
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

    var tableNamesSQL: String {
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename COLLATE \"C\""
    }

    func references(_ database: Database, _ table: String) throws -> [(parent: String, column: String, target: String)] {
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
        if table == "tasks" { foreign += Self.triggerReferences.map { (parent: $0.parent, column: $0.column, target: $0.target) } }
        return foreign
    }

    var primaryKeyColumnsSQL: String {
        """
        SELECT a.attname FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, place) ON true
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
        WHERE i.indisprimary AND n.nspname = current_schema() AND c.relname = ? ORDER BY k.place
        """
    }

    var rowIdentity: String { "c.ctid::text" }

    func shown(_ column: String) -> String {
        "CASE WHEN \(column) IS NULL THEN 'NULL' WHEN pg_typeof(\(column)) = 'text'::regtype THEN quote_literal(\(column)) ELSE CAST(\(column) AS text) END"
    }

    /// Never: a typed column holds only its type.
    func typeIsNot(_ type: String, _ column: String) -> String { "false" }

    func isText(_ column: String) -> String { "true" }
}
