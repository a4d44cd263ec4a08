/// How `Verifier` reads an SQLite file: `PRAGMA integrity_check` first, the foreign keys it
/// declares (`pragma_foreign_key_list`), and each value's own type (`typeof`): SQLite stores any
/// type in any column.
extension SQLiteStoreSQL {
    /// `PRAGMA integrity_check`: SQLite's own words for each damaged page or index. The rules
    /// run after it whatever it found.
    func checkStructure(_ database: Database, _ found: (VerificationProblem) throws -> Void) throws -> Bool {
        try database.prepare("PRAGMA integrity_check").forEachRow { row in
            // One row may hold several lines, under a `*** in database main ***` heading.
            for line in (row.string(0) ?? "").split(separator: "\n") where line != "ok" && !line.hasPrefix("*** ") {
                try found(VerificationProblem(table: "", key: "", column: "", value: String(line), rule: "SQLite integrity check"))
            }
        }
        return true
    }

    var tableNamesSQL: String { "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name" }

    func references(_ database: Database, _ table: String) throws -> [(parent: String, column: String, target: String)] {
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

    var primaryKeyColumnsSQL: String { "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk" }

    var rowIdentity: String { "c.rowid" }

    func shown(_ column: String) -> String { "quote(\(column))" }

    func typeIsNot(_ type: String, _ column: String) -> String { "typeof(\(column)) <> '\(type)'" }

    func isText(_ column: String) -> String { "typeof(\(column)) = 'text'" }
}
