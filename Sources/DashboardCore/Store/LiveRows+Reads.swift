import Foundation

/// The reads of single tasks that the audit log's writers need (`dashboard reclassify`,
/// `dashboard revert`), decoded into values by column name: `LiveRows` owns `tasks` and
/// `courses`; the override's columns are read from `overrides` beside them.
extension LiveRows {
    /// The task `ManualOverride` pins, or nil when there is no such task.
    static func overrideTarget(_ taskID: String, in database: Database) throws -> ManualOverride.Target? {
        let statement = try database.cached(
            """
            SELECT t.course_id, t.bucket, t.deleted_batch IS NOT NULL AS deleted, c.timezone, o.entry_id
            FROM tasks t JOIN courses c ON c.course_id = t.course_id LEFT JOIN overrides o ON o.task_id = t.task_id
            WHERE t.task_id = ?
            """)
        let c = try statement.columnPositions
        let (course, current, deleted) = (try c.position("course_id"), try c.position("bucket"), try c.position("deleted"))
        let (timezone, pinned) = (try c.position("timezone"), try c.position("entry_id"))
        var found: ManualOverride.Target?
        try statement.forEachRow([taskID]) { row in
            found = ManualOverride.Target(
                courseID: row.string(course) ?? "", bucket: row.string(current) ?? "", deleted: row.int(deleted) == 1,
                timeZone: row.string(timezone) ?? "", previous: row.isNull(pinned) ? nil : row.int(pinned))
        }
        return found
    }

    /// A task as a revert sees it: its course, its stored bucket (`deletedBucketName` when it is
    /// deleted) and the override in force; nil when there is no such task.
    static func revertState(_ taskID: String, in database: Database) throws -> RevertPolicy.TaskState? {
        let statement = try database.cached(
            """
            SELECT t.course_id, CASE WHEN t.deleted_batch IS NOT NULL THEN ? ELSE t.bucket END AS bucket_name,
                   o.entry_id AS override_entry
            FROM tasks t LEFT JOIN overrides o ON o.task_id = t.task_id WHERE t.task_id = ?
            """)
        let c = try statement.columnPositions
        let (course, bucket, override) = (try c.position("course_id"), try c.position("bucket_name"), try c.position("override_entry"))
        var state: RevertPolicy.TaskState?
        try statement.forEachRow([deletedBucketName, taskID]) { row in
            state = RevertPolicy.TaskState(
                courseID: row.string(course) ?? "", bucketName: row.string(bucket) ?? "",
                override: row.isNull(override) ? nil : row.int(override))
        }
        return state
    }

    /// What `BucketPolicy.effective` needs of one live task (its due, state, course zone and
    /// override); nil when the task is deleted or missing.
    static func policyInputs(_ taskID: String, in database: Database) throws -> RevertPolicy.PolicyInputs? {
        let statement = try database.cached(
            """
            SELECT t.due, t.completed, t.status, t.deleted_batch IS NOT NULL AS deleted, c.timezone, o.bucket AS pinned_bucket,
                   o.until AS pinned_until
            FROM tasks t JOIN courses c ON c.course_id = t.course_id LEFT JOIN overrides o ON o.task_id = t.task_id
            WHERE t.task_id = ?
            """)
        let c = try statement.columnPositions
        let (due, completed, status, deleted, zone, pinned, until) = (
            try c.position("due"), try c.position("completed"), try c.position("status"), try c.position("deleted"),
            try c.position("timezone"),
            try c.position("pinned_bucket"), try c.position("pinned_until")
        )
        var inputs: RevertPolicy.PolicyInputs?
        try statement.forEachRow([taskID]) { row in
            guard row.int(deleted) == 0 else { return }
            inputs = RevertPolicy.PolicyInputs(
                due: row.string(due) ?? "", state: TaskRecord.storedState(status: row.value(status), completed: row.value(completed)),
                timeZone: row.string(zone) ?? "",
                override: row.string(pinned).map { StoredOverride(bucket: $0, until: row.string(until) ?? "") })
        }
        return inputs
    }
}
