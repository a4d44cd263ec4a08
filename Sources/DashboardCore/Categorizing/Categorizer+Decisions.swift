import Foundation

/// A live task a pass looks at, as stored: what `Categorizer.decide` needs of it.
package struct PassCandidate: Sendable {
    package var taskID: String
    package var courseID: String
    package var due: String
    /// The task's state as stored (`TaskRecord.storedState`).
    package var state: SubmissionState
    /// The stored bucket.
    package var bucket: String
    /// The course's time zone as stored (`CourseZones` resolves it).
    package var timeZone: String
    /// The override stored for the task, if any: the entry that set it and what it pins.
    package var overrideEntry: Int?
    package var override: StoredOverride?
    /// What the pass's plan does to the task (`insert`, `update`, `restore`), nil when the
    /// plan does not name it.
    package var change: String?

    package init(
        taskID: String, courseID: String, due: String, state: SubmissionState, bucket: String, timeZone: String, overrideEntry: Int?,
        override: StoredOverride?, change: String?
    ) {
        self.taskID = taskID
        self.courseID = courseID
        self.due = due
        self.state = state
        self.bucket = bucket
        self.timeZone = timeZone
        self.overrideEntry = overrideEntry
        self.override = override
        self.change = change
    }
}

/// One change a pass records: the task's new stored bucket, its audit entry, and whether its
/// override goes. The store writes the bucket (unless `to` is `deletedBucketName`), lifts the
/// override when `clearOverride`, and appends one entry per change, by task id.
package struct BucketChange: Sendable, Equatable {
    package var taskID: String
    package var courseID: String
    package var from: String
    package var to: String
    package var cause: AuditCause
    package var reason: String
    package var conflict: Bool
    package var overrideBefore: Int?
    package var clearOverride: Bool
    /// The entry names the pass's batch (the task is in its plan).
    package var withBatch: Bool
}

extension Categorizer {
    /// The entry of a task the pass's plan deletes: cause `delete` after an import, the plan's
    /// cause otherwise; the task keeps its override until it is restored.
    package static func deleted(
        taskID: String, courseID: String, bucket: String, overrideEntry: Int?, context: PassContext
    ) -> BucketChange {
        BucketChange(
            taskID: taskID, courseID: courseID, from: bucket, to: deletedBucketName,
            cause: context.planCause == .import ? .delete : context.planCause, reason: context.planReason, conflict: false,
            overrideBefore: overrideEntry, clearOverride: false, withBatch: true)
    }

    /// What the pass does to one task: nil when nothing changes, else the change to record.
    ///
    /// Policy: the bucket is `BucketPolicy.effective`'s as of the pass. An expired override is
    /// cleared. An import that changes a task an override pins records a conflict and keeps the
    /// override, unless told to override manual pins (`overrideManual`), which clears it and
    /// gives the task its computed bucket; an import that says `excused` for a task excused by
    /// hand agrees with the teacher (SPEC §11): the override stays, with no conflict. A task
    /// outside the plan gets cause `time`; a restored one `restore`. The reasons are stored in
    /// the audit log in plain words (`ImportOverrideReason`), read back in either wording.
    package static func decide(
        _ task: PassCandidate, context: PassContext, zones: inout CourseZones, result: inout CategorizeResult
    ) -> BucketChange? {
        let effective = BucketPolicy.effective(
            due: task.due, state: task.state, override: task.overrideEntry == nil ? nil : task.override,
            at: zones.local(task.timeZone))
        let change = task.change
        var target = effective.bucket.rawValue
        var cause: AuditCause = change == nil ? .time : context.planCause
        var reason = change == nil ? "" : context.planReason
        var conflict = false
        var clear = false
        if let overrideEntry = task.overrideEntry {
            let pinned = task.override?.bucket ?? ""
            switch effective.pin {
            case .expired:
                clear = true
                result.expiredOverrides += 1
                if change == nil { reason = "override #\(overrideEntry) (pinned to \(pinned)) expired at \(task.override?.until ?? "")" }
            case .inForce where change == "update" || change == "restore":
                if context.overrideManual && context.planCause == .import {
                    clear = true
                    result.clearedOverrides += 1
                    target = effective.computed.rawValue
                    reason = ImportOverrideReason.cleared(entry: overrideEntry, pinned: pinned).stored
                } else if context.planCause == .import, !(pinned == Bucket.excused.rawValue && effective.computed == .excused) {
                    conflict = true
                    result.conflicts += 1
                    reason = ImportOverrideReason.kept(entry: overrideEntry, pinned: pinned).stored
                }
            case .inForce, .invalid, .none:
                break
            }
        }
        var from = task.bucket
        if change == "insert" { from = "" }
        if change == "restore" {
            from = deletedBucketName
            if context.planCause == .import { cause = .restore }
        }
        guard from != target || conflict || clear else { return nil }
        return BucketChange(
            taskID: task.taskID, courseID: task.courseID, from: from, to: target, cause: cause, reason: reason, conflict: conflict,
            overrideBefore: task.overrideEntry, clearOverride: clear, withBatch: change != nil)
    }
}
