import Foundation

/// What the store knows of a task's birth: the batch that created it (schema 7 on; tasks
/// created before have `import` entries instead) and the task as it is now.
package struct TaskBirth: Sendable, Equatable {
    package var taskID: String
    package var courseID: String
    package var title: String
    package var batchID: Int
    /// When the creating batch finished (else started), and its as-of and actor.
    package var recordedAt: String
    package var asOf: String
    package var actor: String
    /// The task's stored bucket now.
    package var storedBucket: String

    package init(
        taskID: String, courseID: String, title: String, batchID: Int, recordedAt: String, asOf: String, actor: String,
        storedBucket: String
    ) {
        self.taskID = taskID
        self.courseID = courseID
        self.title = title
        self.batchID = batchID
        self.recordedAt = recordedAt
        self.asOf = asOf
        self.actor = actor
        self.storedBucket = storedBucket
    }
}

/// The audit log records moves, not births (SPEC §6): a task's first bucket, when a batch
/// inserts it, is no entry. `audit --task` shows the birth as a line derived from the task's
/// creating batch, marked as derived. Pure.
///
/// Policy: the birth's bucket is the `from` of the task's first stored entry (every move after
/// the birth is an entry, so the first one starts where the birth left the task), or the task's
/// stored bucket when it has no entry yet. The line has no entry id; its cause is `import`, its
/// batch the creating batch, its times and actor that batch's.
package enum AuditBirth {
    /// The derived entry of `birth`, given the task's first stored entry (nil when it has none).
    package static func entry(_ birth: TaskBirth, firstEntry: AuditEntry?) -> AuditEntry {
        var entry = AuditEntry(
            id: 0, recordedAt: birth.recordedAt, asOf: birth.asOf, taskID: birth.taskID, courseID: firstEntry?.courseID ?? birth.courseID,
            fromBucket: "", toBucket: firstEntry?.fromBucket ?? birth.storedBucket, cause: .import, actor: birth.actor,
            reason: "", batchID: birth.batchID, revertsEntry: nil, revertedBy: [], conflict: false, overrideUntil: "",
            overrideBefore: nil)
        entry.taskTitle = birth.title
        entry.derived = true
        return entry
    }

    /// Whether `filter` keeps a derived birth entry as it would keep a stored one.
    package static func allows(_ entry: AuditEntry, _ filter: AuditFilter) -> Bool {
        if !filter.taskIDs.isEmpty, !filter.taskIDs.contains(entry.taskID) { return false }
        if !filter.courseIDs.isEmpty, !filter.courseIDs.contains(entry.courseID) { return false }
        if !filter.causes.isEmpty, !filter.causes.contains(entry.cause) { return false }
        if let since = filter.since, let at = Timestamp.parse(entry.recordedAt, timeZone: TimeZone(identifier: "UTC") ?? .current),
            at < since
        {
            return false
        }
        if filter.conflictsOnly || filter.groupID != nil { return false }
        if let batch = filter.batchID, batch != entry.batchID { return false }
        return true
    }

    /// Every entry `filter` keeps, the derived births of its `--task` values first (in the
    /// order given), then the stored entries oldest first: what `audit` lists.
    package static func forEachEntry(_ log: any AuditReading, _ filter: AuditFilter, _ body: (AuditEntry) throws -> Void) throws {
        if !filter.taskIDs.isEmpty {
            for birth in try log.births(of: filter.taskIDs) {
                var own = AuditFilter()
                own.taskIDs = [birth.taskID]
                var first: AuditEntry?
                try log.forEachAuditEntry(own, limit: 1) { first = $0 }
                let derived = entry(birth, firstEntry: first)
                if allows(derived, filter) { try body(derived) }
            }
        }
        try log.forEachAuditEntry(filter, body)
    }
}
