/// Set-based appends: many entries by one `INSERT … SELECT` (an import's or a pass's entries,
/// a million at a time). `AuditLog` builds the statement and names the columns; the caller
/// hands it the query whose rows become entries.
extension AuditLog {
    /// The columns a set-based append fills, in the order the source query's result columns
    /// must follow.
    static let appendColumns = """
        recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor, reason,
        batch_id, reverts_entry, conflict, override_until, override_before
        """

    /// Appends one entry per row of `source`, a `SELECT` (with its `FROM`, `WHERE`, `ORDER BY`:
    /// entry ids follow that order) whose result columns are `appendColumns`, in that order.
    /// - Returns: the number of entries appended.
    @discardableResult
    static func appendAll(selecting source: String, _ values: [SQLBindable], in database: Database) throws -> Int {
        try database.run("INSERT INTO audit (\(appendColumns))\n" + source, values)
        return database.changes
    }
}

// MARK: - Overrides

/// `overrides` belongs to the audit log: an override is the entry that set it
/// (`pinOverride`), and these are the only other writes to it.
extension AuditLog {
    /// Lifts the override of `task`, if any.
    static func liftOverride(task: String, in database: Database) throws {
        try database.run("DELETE FROM overrides WHERE task_id = ?", [task])
    }

    /// Lifts the override of every task `source` selects (a `SELECT task_id …`).
    static func liftOverrides(selecting source: String, in database: Database) throws {
        try database.run("DELETE FROM overrides WHERE task_id IN (\(source))")
    }
}
