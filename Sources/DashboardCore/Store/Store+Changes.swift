import Foundation

/// "What changed overnight" (`Overnight`): the counts, in SQL both engines run.
///
/// Policy, what bounds the reads: the audit entries after the last entry that the batch
/// `afterBatch` (or the newest batch before it that wrote entries) wrote, read from there by
/// entry id (the key: no scan of older entries), their as-of filtering out the earlier night's
/// categorize pass; the tasks of later batches by `created_batch`, one pass over the tasks
/// (no index of its own: a new index would cost every import's inserts).
extension Store {
    package func committedImports(limit: Int) throws -> [BatchRecord] {
        try BatchLog.batches(
            database, where: "status IN (?, ?)", [BatchStatus.committed.rawValue, BatchStatus.reverted.rawValue], limit: limit)
    }

    package func changeCounts(afterBatch: Int, asOfAfter: String, asOfThrough: String) throws -> [String: CourseChanges] {
        var result: [String: CourseChanges] = [:]
        // The last entry written by an import at or before the window's batch: every entry of
        // the window comes after it.
        let boundary = try database.int(
            """
            SELECT max(entry_id) FROM audit
            WHERE batch_id = (SELECT max(batch_id) FROM audit WHERE batch_id IS NOT NULL AND batch_id <= ?)
            """, [afterBatch])
        let entries = try database.prepare(
            """
            SELECT a.course_id,
                   count(DISTINCT CASE WHEN a.to_bucket = 'overdue' AND a.cause IN ('time', 'import') THEN a.task_id END),
                   count(DISTINCT CASE WHEN a.to_bucket = 'completed' THEN a.task_id END),
                   count(DISTINCT CASE WHEN a.cause = 'override' THEN a.task_id END),
                   count(DISTINCT CASE WHEN a.cause = 'revert' AND r.cause = 'override' THEN a.task_id END),
                   count(DISTINCT CASE WHEN a.to_bucket = 'deleted' THEN a.task_id END),
                   count(DISTINCT CASE WHEN a.to_bucket = 'to_grade' THEN a.task_id END),
                   count(DISTINCT CASE WHEN a.to_bucket = 'excused' THEN a.task_id END)
            FROM audit a LEFT JOIN audit r ON r.entry_id = a.reverts_entry
            WHERE a.entry_id > ? AND a.as_of > ? AND a.as_of <= ?
            GROUP BY a.course_id
            """)
        try entries.forEachRow([boundary, asOfAfter, asOfThrough]) { row in
            guard let course = row.string(0) else { return }
            var changes = CourseChanges()
            changes.nowOverdue = row.int(1)
            changes.completed = row.int(2)
            changes.pinned = row.int(3)
            changes.unpinned = row.int(4)
            changes.deleted = row.int(5)
            changes.handedIn = row.int(6)
            changes.excused = row.int(7)
            if !changes.isEmpty { result[course] = changes }
        }
        // Not through `tasks_by_course` (SQLite's `+course_id`): one pass over the table and a
        // small sort of the window's births took 0.08 s, the index walk 2.4 s a million tasks.
        let group = database.sql.unindexed("course_id")
        let born = try database.prepare(
            "SELECT course_id, count(*) FROM tasks WHERE created_batch > ? AND deleted_batch IS NULL GROUP BY \(group)")
        try born.forEachRow([afterBatch]) { row in
            guard let course = row.string(0), row.int(1) > 0 else { return }
            result[course, default: CourseChanges()].new = row.int(1)
        }
        return result
    }
}
