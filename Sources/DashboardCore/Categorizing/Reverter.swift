import Foundation

/// What a revert did.
package struct RevertResult: Sendable {
    /// The batch recording the data the revert restored (nil when only an override changed).
    package var batchID: Int?
    /// The `revert` entries recorded (one for an entry revert; one per changed task for a batch).
    package var entries: [AuditEntry]
    /// Counts per kind for a batch revert.
    package var counts: [FileKind: ImportCounts]
    /// For a group revert: the group its `revert` entries form (revert it to re-apply).
    package var groupID: Int?
    /// For a group revert: the group's entries that were already undone, left as they are.
    package var alreadyUndone: [Int] = []

    package init(batchID: Int?, entries: [AuditEntry], counts: [FileKind: ImportCounts], groupID: Int? = nil) {
        self.groupID = groupID
        self.batchID = batchID
        self.entries = entries
        self.counts = counts
    }
}

/// `dashboard revert ENTRY` and `dashboard revert --batch ID`.
///
/// Every revert is itself recorded (a `revert` entry pointing at what it reverts, and a batch
/// of kind `revert` holding the values it replaced), so a revert can be reverted, which
/// re-applies the original. Nothing in the audit log is ever edited or deleted. What may be
/// reverted, and what a revert records, is `RevertPolicy`'s; the store (`AuditWriting`) reads
/// and writes.
package final class Reverter {
    package let store: any AuditWriting
    private let clock: Clock

    package init(store: any AuditWriting, clock: Clock = SystemClock()) {
        self.store = store
        self.clock = clock
    }

    /// Undoes one audit entry: an override goes back to the computed bucket (or the override
    /// before it), a deleted task is restored, an import's change to the task is undone, a
    /// revert is re-applied.
    /// - Throws: `AuditError`: a `time` entry, an entry already reverted, or one with later
    ///   changes to the same task (unless `force`).
    package func revert(entryID: Int, force: Bool, actor: String, asOf: Date, defaultTimeZone: TimeZone) throws(AuditError) -> RevertResult
    {
        try store.revertEntry(
            RevertRequest(id: entryID, force: force, actor: actor, asOf: asOf, defaultTimeZone: defaultTimeZone, clock: clock))
    }

    /// Undoes a whole batch: rows it inserted are tombstoned, rows it updated get their
    /// previous values back, rows it deleted are restored. The revert is a batch of its own
    /// (`reverts_batch`), logged entry by entry, and can itself be reverted.
    /// - Throws: `AuditError` for a batch that wrote nothing, one already reverted, or one
    ///   whose rows later batches changed again (unless `force`).
    package func revert(batchID: Int, force: Bool, actor: String, asOf: Date, defaultTimeZone: TimeZone) throws(AuditError) -> RevertResult
    {
        try store.revertBatch(
            RevertRequest(id: batchID, force: force, actor: actor, asOf: asOf, defaultTimeZone: defaultTimeZone, clock: clock))
    }

    /// Undoes a whole group (a bulk `reclassify`, or a group revert): each entry of it as
    /// `revert ENTRY` would, all in one transaction, the `revert` entries a group of their own
    /// (revert it to re-apply the group). Entries already undone one by one are left as they are.
    /// - Throws: `AuditError`: an unknown group, one whose every entry is already undone, or one
    ///   with later changes to its tasks (unless `force`, which goes past them all).
    package func revert(groupID: Int, force: Bool, actor: String, asOf: Date, defaultTimeZone: TimeZone) throws(AuditError) -> RevertResult
    {
        try store.revertGroup(
            RevertRequest(id: groupID, force: force, actor: actor, asOf: asOf, defaultTimeZone: defaultTimeZone, clock: clock))
    }
}
