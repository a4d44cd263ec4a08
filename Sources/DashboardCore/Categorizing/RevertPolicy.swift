import Foundation

/// What a revert may undo and what it records: the decisions of `dashboard revert`, as pure
/// code over values. The store (`AuditWriting`) reads what they need and writes what they say.
package enum RevertPolicy {
    /// A task as a revert sees it before and after: its course, its stored bucket
    /// (`deletedBucketName` when deleted) and the override in force.
    package struct TaskState: Sendable, Equatable {
        package var courseID: String
        package var bucketName: String
        package var override: Int?

        package init(courseID: String, bucketName: String, override: Int?) {
            self.courseID = courseID
            self.bucketName = bucketName
            self.override = override
        }
    }

    /// What `BucketPolicy.effective` needs of one live task.
    package struct PolicyInputs: Sendable, Equatable {
        package var due: String
        package var state: SubmissionState
        package var timeZone: String
        package var override: StoredOverride?

        package init(due: String, state: SubmissionState, timeZone: String, override: StoredOverride?) {
            self.due = due
            self.state = state
            self.timeZone = timeZone
            self.override = override
        }
    }

    /// Whether `entry` may be reverted.
    /// - Parameters:
    ///   - latestRevertInForce: the entry's last revert, when that revert has not itself been
    ///     reverted (then the entry is already undone).
    ///   - blocking: later entries (not `time`) of the same task.
    /// - Throws: `AuditError`: a `time` entry, one already reverted, or one with later changes
    ///   (unless `force`).
    package static func checkEntry(
        _ entry: AuditEntry, latestRevertInForce: Int?, blocking: [(id: Int, cause: AuditCause)], force: Bool
    ) throws(AuditError) {
        if entry.cause == .time { throw .timeEntry(entry.id) }
        if let last = latestRevertInForce { throw .alreadyReverted(entry: entry.id, by: last) }
        if !blocking.isEmpty, !force { throw .blockedEntry(entry: entry.id, task: entry.taskID, blocking: blocking) }
    }

    /// What a group's revert does: the entries to undo (each with what it goes past) and the
    /// reverting entries of those already undone, which are left as they are.
    /// - Parameter entries: the group's entries, each with its last revert still in force (nil
    ///   when it is not undone) and its later entries (not `time`).
    /// - Throws: `AuditError`: every entry already undone, or later changes to a task of the
    ///   group (unless `force`), naming every blocked entry.
    package static func checkGroup(
        _ groupID: Int, entries: [(entry: AuditEntry, latestRevertInForce: Int?, blocking: [(id: Int, cause: AuditCause)])], force: Bool
    ) throws(AuditError) -> (undo: [(entry: AuditEntry, blocking: [(id: Int, cause: AuditCause)])], alreadyUndone: [Int]) {
        var undo: [(entry: AuditEntry, blocking: [(id: Int, cause: AuditCause)])] = []
        var alreadyUndone: [Int] = []
        var blocked: [AuditError.GroupBlock] = []
        for item in entries {
            if let revert = item.latestRevertInForce {
                alreadyUndone.append(revert)
                continue
            }
            if item.entry.cause == .time { throw .timeEntry(item.entry.id) }
            if !item.blocking.isEmpty, !force {
                blocked.append(AuditError.GroupBlock(entry: item.entry.id, task: item.entry.taskID, blocking: item.blocking))
            }
            undo.append((item.entry, item.blocking))
        }
        if undo.isEmpty { throw .groupAlreadyReverted(group: groupID, by: alreadyUndone) }
        if !blocked.isEmpty { throw .blockedGroup(group: groupID, blocked: blocked) }
        return (undo, alreadyUndone)
    }

    /// The reason each entry of a group's revert records.
    package static func groupEntryReason(_ groupID: Int, _ entry: AuditEntry, blocking: [(id: Int, cause: AuditCause)]) -> String {
        var reason = "revert of group \(groupID), entry \(entry.id) (\(entry.cause.rawValue))"
        if !blocking.isEmpty { reason += "; forced past entries \(blocking.map { String($0.id) }.joined(separator: ", "))" }
        return reason
    }

    /// The reason an entry's revert records (stored in the audit log and the revert batch).
    package static func entryReason(_ entry: AuditEntry, blocking: [(id: Int, cause: AuditCause)]) -> String {
        var reason = "revert of entry \(entry.id) (\(entry.cause.rawValue))"
        if !blocking.isEmpty { reason += "; forced past entries \(blocking.map { String($0.id) }.joined(separator: ", "))" }
        return reason
    }

    /// Whether reverting `entry` puts back the override in force before it: when the entry
    /// changed it (an override, a revert, or an import that cleared one). Other entries leave
    /// today's override alone, even when forced past it.
    package static func restoresOverride(_ entry: AuditEntry) -> Bool {
        entry.cause == .override || entry.cause == .revert
            || (entry.cause == .import && !entry.conflict && entry.overrideBefore != nil)
    }

    /// The counts of an entry's revert batch, from the change it made to the task.
    package static func counts(ofChange change: String?) -> ImportCounts {
        var counts = ImportCounts()
        switch change {
        case "delete": counts.deleted = 1
        case "restore": counts.inserted = 1
        default: counts.updated = 1
        }
        return counts
    }

    /// The bucket a task has after a revert: `BucketPolicy.effective` (its override in force
    /// wins), nil for a deleted task.
    package static func bucket(_ inputs: PolicyInputs?, asOf: Date, defaultTimeZone: TimeZone) -> String? {
        guard let inputs else { return nil }
        var zones = CourseZones(asOf: asOf, defaultTimeZone: defaultTimeZone)
        return BucketPolicy.effective(
            due: inputs.due, state: inputs.state, override: inputs.override, at: zones.local(inputs.timeZone)
        ).bucket.rawValue
    }

    /// Whether a batch may be reverted (`lastRevert` is read only for a reverted batch).
    /// - Throws: `AuditError`: already reverted, not committed, or later batches changed its
    ///   rows (unless `force`).
    package static func checkBatch(
        _ batchID: Int, status: BatchStatus, lastRevert: () throws -> Int, blocking: [Int], force: Bool
    ) throws {
        if status == .reverted { throw AuditError.batchAlreadyReverted(batch: batchID, by: try lastRevert()) }
        guard status == .committed else { throw AuditError.batchNotRevertible(batchID, status) }
        if !blocking.isEmpty, !force { throw AuditError.blockedBatch(batch: batchID, blocking: blocking) }
    }

    /// The reason a batch's revert records.
    package static func batchReason(_ batchID: Int, blocking: [Int]) -> String {
        var reason = "revert of batch \(batchID)"
        if !blocking.isEmpty { reason += "; forced past batches \(blocking.map(String.init).joined(separator: ", "))" }
        return reason
    }

    /// The status and reason of the `step`-th batch (from 0) down a chain of reverts that
    /// revert batch `revertBatch` reached: each undoes the one before, so the batch the revert
    /// reverted is in effect again, the one that batch reverted is undone again, and so on.
    package static func chainStatus(step: Int, revertBatch: Int) -> (BatchStatus, String) {
        step % 2 == 0 ? (.committed, "re-applied by batch \(revertBatch)") : (.reverted, "reverted again by batch \(revertBatch)")
    }
}
