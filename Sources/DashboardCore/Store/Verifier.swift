import Foundation

/// Checks a dashboard database against its contract, reading only: SQLite's integrity check,
/// every foreign key, every stored value the program decodes (priority, completed, due,
/// bucket, time zone, override expiry, batch status and mode, counts), the audit chains and
/// the counts per course and bucket kept for the grid.
///
/// Policy: problems are reported one by one as they are found (never collected whole, so a
/// million bad rows cost no memory), in a fixed order: integrity, foreign keys, values, chains,
/// kept counts.
/// The rules are those of the code that reads the values back (`Priority`, `Bucket`,
/// `DueDate.canonical`, `TimeZone(identifier:)`), so whatever passes here, reports read as
/// written, and whatever fails, reports show as invalid.
package enum Verifier {
    /// Runs every check on `database`.
    /// - Parameter report: called once per problem, in order.
    /// - Returns: the number of problems found.
    /// - Throws: SQLite's error when the file cannot be read at all.
    @discardableResult
    package static func verify(_ database: Database, report: (VerificationProblem) throws -> Void) throws -> Int {
        var count = 0
        let found: (VerificationProblem) throws -> Void = { problem in
            count += 1
            try report(problem)
        }
        guard try database.sql.checkStructure(database, found) else { return count }
        try foreignKeys(database, found)
        try VerifierRules.values(database, found)
        try VerifierRules.chains(database, found)
        try counts(database, found)
        return count
    }

    /// The counts per course and bucket the grid reads (`CourseBuckets`) against the tasks.
    static func counts(_ database: Database, _ found: (VerificationProblem) throws -> Void) throws {
        try CourseBuckets.mismatches(database) { course, bucket, stored, actual in
            try found(
                VerificationProblem(
                    table: "course_buckets", key: course + "/" + bucket, column: "tasks", value: String(stored),
                    rule: "must be the course's live tasks in that bucket (\(actual)); written by a writer no trigger saw"))
        }
    }

    /// Every foreign key declared in the schema, checked row by row with the child's key.
    static func foreignKeys(_ database: Database, _ found: (VerificationProblem) throws -> Void) throws {
        for table in try tableNames(database) {
            let key = try keyExpression(database, table)
            for (parent, column, target) in try references(database, table) {
                let sql = """
                    SELECT \(key) AS row_key, \(shown(database, "c.\(quoted(column))")) AS shown FROM \(quoted(table)) c
                    WHERE c.\(quoted(column)) IS NOT NULL
                      AND NOT EXISTS (SELECT 1 FROM \(quoted(parent)) p WHERE p.\(quoted(target)) = c.\(quoted(column)))
                    ORDER BY 1
                    """
                let statement = try database.prepare(sql)
                let c = try statement.columnPositions
                let (keyColumn, shown) = (try c.position("row_key"), try c.position("shown"))
                try statement.forEachRow { row in
                    try found(
                        VerificationProblem(
                            table: table, key: row.string(keyColumn) ?? "", column: column, value: row.string(shown) ?? "",
                            rule: "must name an existing \(parent).\(target)"))
                }
            }
        }
    }

    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
