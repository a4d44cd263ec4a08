/// Why a task's bucket (or existence) changed.
public enum AuditCause: String, Sendable, CaseIterable, Codable {
    /// The clock moved on (`dashboard categorize`, or the end of an import for untouched tasks).
    case time
    /// An import changed the task (a task it inserts has no entry: a birth is not a move; a
    /// derived `import` line shows it, `AuditBirth`).
    case `import`
    /// A teacher pinned the bucket (`dashboard reclassify`).
    case override
    /// A sync import soft-deleted the task.
    case delete
    /// An import brought back a task a sync had deleted.
    case restore
    /// `dashboard revert` undid an entry or a batch.
    case revert
}

/// One entry of the append-only audit log.
///
/// `fromBucket` and `toBucket` are bucket names, or `""` (the task did not exist) and
/// `"deleted"` (the task is soft-deleted).
package struct AuditEntry: Sendable, Equatable {
    package var id: Int
    package var recordedAt: String
    package var asOf: String
    package var taskID: String
    package var courseID: String
    package var fromBucket: String
    package var toBucket: String
    package var cause: AuditCause
    package var actor: String
    package var reason: String
    /// The batch whose data change this entry records (an import, or a revert's own batch).
    package var batchID: Int?
    /// The entry this one reverts.
    package var revertsEntry: Int?
    /// The entries that revert this one (computed: the log itself is never edited).
    package var revertedBy: [Int]
    /// An import changed a task whose bucket a manual override pins; the override was kept.
    package var conflict: Bool
    /// For an override: when it expires (`2026-12-01` or an instant), empty for never.
    package var overrideUntil: String
    /// The override entry in force on this task before this entry, if any.
    package var overrideBefore: Int?
    /// The task's title, read from its row (a deleted task keeps its row, and its title); empty
    /// when the row is gone. Not part of the log itself: the title as it is now.
    package var taskTitle = ""
    /// The group of a bulk change (`reclassify` with selection options and `--yes`, or the
    /// `revert --group` that undid one): every entry of it shares the id; nil for other entries.
    package var groupID: Int?
    /// A line derived from the task's creating batch, not stored in the log (`AuditBirth`): it
    /// has no entry id (`id` 0) and cannot be reverted.
    package var derived = false
}

/// The pseudo-bucket of a soft-deleted task in the audit log.
package let deletedBucketName = "deleted"
