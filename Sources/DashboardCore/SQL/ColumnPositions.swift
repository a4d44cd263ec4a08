/// The positions of a statement's result columns, by name: rows are decoded by column name,
/// with the names resolved once per statement rather than once per row (a pass may read a
/// million rows).
///
/// A decoder asks for each column it reads (`position(_:)`); a name the statement does not
/// return is a bug in the program (`InternalError.unknownColumn`), found the first time the
/// statement runs.
///
/// Every read of two columns or more decodes by name; one-column reads (`SELECT count(*)`, a
/// list of ids, `Database.scalar`) are read by position (`row.int(0)`): there is no other
/// column to confuse. A computed column gets an alias (`count(*) AS n`) so it has a name.
package struct ColumnPositions {
    private let positions: [String: Int]
    private let sql: String

    package init(_ statement: Statement) throws {
        var positions: [String: Int] = [:]
        for (i, name) in try statement.columnNames().enumerated() {
            // The first column of a name wins (aliases make names unique where it matters).
            if positions[name] == nil { positions[name] = i }
        }
        self.positions = positions
        sql = statement.sql
    }

    /// The position of column `name`.
    /// - Throws: `InternalError.unknownColumn` when the statement returns no such column.
    package func position(_ name: String) throws -> Int {
        guard let position = positions[name] else { throw InternalError.unknownColumn(name, sql: sql) }
        return position
    }

    /// The position of a column the statement may not select (a column newer than the file).
    package func optionalPosition(_ name: String) -> Int? { positions[name] }
}

extension Statement {
    /// The positions of this statement's result columns by name.
    package var columnPositions: ColumnPositions { get throws { try ColumnPositions(self) } }
}
