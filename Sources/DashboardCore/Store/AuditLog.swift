import Foundation

/// Filters of `dashboard audit`.
package struct AuditFilter: Sendable {
    package var taskIDs: [String] = []
    package var courseIDs: [String] = []
    package var causes: [AuditCause] = []
    /// Only entries recorded at or after this instant.
    package var since: Date?
    package var conflictsOnly = false
    package var batchID: Int?
    /// Only the entries of this bulk group (`reclassify … --yes`, `revert --group`).
    package var groupID: Int?

    package init() {}
}

/// Appends to and reads the audit log. The log is append-only: SQLite triggers refuse any
/// UPDATE or DELETE of an entry, and a revert is a new entry pointing at the one it reverts.
enum AuditLog {
    struct NewEntry {
        var taskID: String
        var courseID: String
        var from: String
        var to: String
        var cause: AuditCause
        var reason = ""
        var batchID: Int?
        var revertsEntry: Int?
        var conflict = false
        var overrideUntil = ""
        var overrideBefore: Int?
        /// The bulk group (schema 6); nil for every entry but a bulk change's.
        var groupID: Int?
    }

    @discardableResult
    static func append(_ entry: NewEntry, in database: Database, recordedAt: Date, asOf: Date, actor: String) throws -> Int {
        try database.int(
            """
            INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor, reason,
                               batch_id, reverts_entry, conflict, override_until, override_before, group_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING entry_id
            """,
            [
                Timestamp.text(recordedAt), Timestamp.text(asOf), entry.taskID, entry.courseID, entry.from, entry.to,
                entry.cause.rawValue, actor, entry.reason, entry.batchID, entry.revertsEntry, entry.conflict,
                entry.overrideUntil, entry.overrideBefore, entry.groupID,
            ])
    }

    /// The columns an entry is decoded from. The task's title comes from its row (a deleted
    /// task keeps it; '' when the row is gone). `group_id` exists from schema 6 on: a read-only
    /// reader of an older file (it never migrates) reads NULL instead.
    static func columns(_ database: Database) throws -> String {
        let group = try hasGroups(database) ? "a.group_id" : "NULL AS group_id"
        let revertedBy = database.sql.revertedByList
        return """
            a.entry_id, a.recorded_at, a.as_of, a.task_id, a.course_id, a.from_bucket, a.to_bucket, a.cause, a.actor, a.reason,
            a.batch_id, a.reverts_entry, a.conflict, a.override_until, a.override_before, \(group),
            coalesce((SELECT t.title FROM tasks t WHERE t.task_id = a.task_id), '') AS task_title,
            \(revertedBy) AS reverted_by
            """
    }

    /// Whether the file's audit log has the `group_id` column (schema 6 and later).
    static func hasGroups(_ database: Database) throws -> Bool {
        try database.hasColumn("audit", "group_id")
    }

    static func entries(_ database: Database, filter: AuditFilter) throws -> [AuditEntry] {
        var result: [AuditEntry] = []
        try forEachEntry(database, filter: filter) { result.append($0) }
        return result
    }

    /// Calls `body` with each entry matching `filter`, oldest first, one row at a time
    /// (bounded memory whatever the size of the log).
    static func forEachEntry(_ database: Database, filter: AuditFilter, limit: Int? = nil, _ body: (AuditEntry) throws -> Void) throws {
        var conditions: [String] = []
        var values: [SQLBindable] = []
        if !filter.taskIDs.isEmpty {
            conditions.append("a.task_id IN (\(Array(repeating: "?", count: filter.taskIDs.count).joined(separator: ", ")))")
            values += filter.taskIDs as [SQLBindable]
        }
        if !filter.courseIDs.isEmpty {
            conditions.append("a.course_id IN (\(Array(repeating: "?", count: filter.courseIDs.count).joined(separator: ", ")))")
            values += filter.courseIDs as [SQLBindable]
        }
        if !filter.causes.isEmpty {
            conditions.append("a.cause IN (\(Array(repeating: "?", count: filter.causes.count).joined(separator: ", ")))")
            values += filter.causes.map(\.rawValue) as [SQLBindable]
        }
        if let since = filter.since {
            conditions.append("a.recorded_at >= ?")
            values.append(Timestamp.text(since))
        }
        if filter.conflictsOnly { conditions.append("a.conflict = 1") }
        if let batch = filter.batchID {
            conditions.append("a.batch_id = ?")
            values.append(batch)
        }
        if let group = filter.groupID {
            // An older file has no groups: no entry is of any.
            guard try hasGroups(database) else { return }
            conditions.append("a.group_id = ?")
            values.append(group)
        }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let statement = try database.prepare(
            "SELECT \(try columns(database)) FROM audit a \(whereClause) ORDER BY a.entry_id\(limit.map { " LIMIT \(max(0, $0))" } ?? "")")
        let decoder = try EntryDecoder(try statement.columnPositions)
        try statement.forEachRow(values) { row in try body(decoder.entry(row)) }
    }

    static func entry(_ database: Database, id: Int) throws -> AuditEntry? {
        var found: AuditEntry?
        let statement = try database.cached("SELECT \(try columns(database)) FROM audit a WHERE a.entry_id = ?")
        let decoder = try EntryDecoder(try statement.columnPositions)
        try statement.forEachRow([id]) { found = decoder.entry($0) }
        return found
    }

    /// Decodes an entry from a row of `columns`, by column name (resolved once per statement).
    private struct EntryDecoder {
        let id, recordedAt, asOf, taskID, courseID, from, to, cause, actor, reason: Int
        let batchID, revertsEntry, conflict, overrideUntil, overrideBefore, revertedBy, groupID, taskTitle: Int

        init(_ c: ColumnPositions) throws {
            (id, recordedAt, asOf) = (try c.position("entry_id"), try c.position("recorded_at"), try c.position("as_of"))
            (taskID, courseID) = (try c.position("task_id"), try c.position("course_id"))
            (from, to, cause) = (try c.position("from_bucket"), try c.position("to_bucket"), try c.position("cause"))
            (actor, reason, batchID) = (try c.position("actor"), try c.position("reason"), try c.position("batch_id"))
            (revertsEntry, conflict) = (try c.position("reverts_entry"), try c.position("conflict"))
            (overrideUntil, overrideBefore) = (try c.position("override_until"), try c.position("override_before"))
            (revertedBy, groupID, taskTitle) = (try c.position("reverted_by"), try c.position("group_id"), try c.position("task_title"))
        }

        func entry(_ row: Row) -> AuditEntry {
            AuditEntry(
                id: row.int(id), recordedAt: row.string(recordedAt) ?? "", asOf: row.string(asOf) ?? "",
                taskID: row.string(taskID) ?? "", courseID: row.string(courseID) ?? "", fromBucket: row.string(from) ?? "",
                toBucket: row.string(to) ?? "", cause: AuditCause(rawValue: row.string(cause) ?? "") ?? .time,
                actor: row.string(actor) ?? "", reason: row.string(reason) ?? "",
                batchID: row.isNull(batchID) ? nil : row.int(batchID), revertsEntry: row.isNull(revertsEntry) ? nil : row.int(revertsEntry),
                revertedBy: (row.string(revertedBy) ?? "").split(separator: ",").compactMap { Int($0) }.sorted(),
                conflict: row.int(conflict) == 1, overrideUntil: row.string(overrideUntil) ?? "",
                overrideBefore: row.isNull(overrideBefore) ? nil : row.int(overrideBefore), taskTitle: row.string(taskTitle) ?? "",
                groupID: row.isNull(groupID) ? nil : row.int(groupID))
        }
    }

    /// Makes the override set by entry `entryID` the one in force on `task`.
    static func pinOverride(
        task: String, entryID: Int, bucket: String, until: String, reason: String, actor: String, in database: Database
    ) throws {
        try database.run(
            """
            INSERT INTO overrides (task_id, entry_id, bucket, until, reason, actor) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (task_id) DO UPDATE SET entry_id = excluded.entry_id, bucket = excluded.bucket, until = excluded.until,
                reason = excluded.reason, actor = excluded.actor
            """, [task, entryID, bucket, until, reason, actor])
    }
}
