/// What `Verifier` reads of the schema itself, in each engine's words (`StoreSQL`): the tables,
/// their references and keys, and how a value is shown.
extension Verifier {
    /// The tables whose references are checked, by name.
    static func tableNames(_ database: Database) throws -> [String] {
        try database.rows(database.sql.tableNamesSQL).compactMap { $0.first?.text }
    }

    /// The references of `table`: (parent table, column, parent column).
    static func references(_ database: Database, _ table: String) throws -> [(parent: String, column: String, target: String)] {
        try database.sql.references(database, table)
    }

    /// The SQL text of a table's key for the row `c`: its primary key columns joined with `/`.
    static func keyExpression(_ database: Database, _ table: String) throws -> String {
        let columns = try database.rows(database.sql.primaryKeyColumnsSQL, [table]).compactMap { $0.first?.text }
        guard !columns.isEmpty else { return database.sql.rowIdentity }
        return columns.map { "c.\(quoted($0))" }.joined(separator: " || '/' || ")
    }

    /// The SQL of a value as SQLite's `quote` shows it: text quoted, a number as it is, NULL.
    static func shown(_ database: Database, _ column: String) -> String { database.sql.shown(column) }
}
