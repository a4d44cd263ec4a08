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

// MARK: - Reads a revert decides by

extension AuditLog {
    /// The entries after `entryID` of task `taskID` that a revert of it would go past (every
    /// cause but `time`), oldest first.
    static func laterEntries(of taskID: String, after entryID: Int, in database: Database) throws -> [(id: Int, cause: AuditCause)] {
        var blocking: [(id: Int, cause: AuditCause)] = []
        let later = try database.cached(
            "SELECT entry_id, cause FROM audit WHERE task_id = ? AND entry_id > ? AND cause <> 'time' ORDER BY entry_id")
        let (laterID, laterCause) = (try later.columnPositions.position("entry_id"), try later.columnPositions.position("cause"))
        try later.forEachRow([taskID, entryID]) { row in
            blocking.append((row.int(laterID), AuditCause(rawValue: row.string(laterCause) ?? "") ?? .time))
        }
        return blocking
    }

    /// The overrides batch `batchID` cleared (`import --override-manual`) and that are still
    /// lifted: each task with the entry of the override it had, in entry order.
    static func overridesCleared(byBatch batchID: Int, in database: Database) throws -> [(task: String, entry: Int)] {
        var cleared: [(task: String, entry: Int)] = []
        let clearedBy = try database.cached(
            """
            SELECT a.task_id, a.override_before FROM audit a
            WHERE a.batch_id = ? AND a.cause = 'import' AND a.conflict = 0 AND a.override_before IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM overrides o WHERE o.task_id = a.task_id)
            ORDER BY a.entry_id
            """)
        let c = try clearedBy.columnPositions
        let (clearedTask, before) = (try c.position("task_id"), try c.position("override_before"))
        try clearedBy.forEachRow([batchID]) { cleared.append((($0.string(clearedTask) ?? ""), $0.int(before))) }
        return cleared
    }
}
