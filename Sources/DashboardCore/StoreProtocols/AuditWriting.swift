import Foundation

/// A teacher's override, as `ManualOverride` hands it to the store: the reason already checked.
package struct OverrideRequest {
    package var taskID: String
    package var bucket: Bucket
    /// The reason, trimmed and within `ManualOverride.reasonCharacterLimit`.
    package var reason: String
    /// The end as given (`--until`), parsed by `ManualOverride.expiry` against the course's zone.
    package var until: String?
    package var actor: String
    package var asOf: Date
    package var defaultTimeZone: TimeZone
    /// Stamps the entry once the write lock is held.
    package var clock: any Clock
}

/// A bulk override, as `ManualOverride.reclassify(selection:…)` hands it to the store: the
/// reason already checked.
package struct BulkOverrideRequest {
    package var selection: BulkSelection
    /// The reason, trimmed and within `ManualOverride.reasonCharacterLimit`.
    package var reason: String
    package var actor: String
    /// The preview's token (`--confirm`): the selection must still be the previewed one; nil
    /// applies to the selection as it is.
    package var confirm: String?
    /// Stamps the entries once the write lock is held.
    package var clock: any Clock
}

/// A revert of one audit entry, one batch or one group, as `Reverter` hands it to the store.
package struct RevertRequest {
    /// The entry id (`revertEntry`), the batch id (`revertBatch`) or the group id (`revertGroup`).
    package var id: Int
    package var force: Bool
    package var actor: String
    package var asOf: Date
    package var defaultTimeZone: TimeZone
    /// Stamps the entries and the revert batch.
    package var clock: any Clock
}

/// The write side of the store for the audit log's own commands: `dashboard reclassify` and
/// `dashboard revert`.
///
/// Policy: each call is one write transaction, all or nothing. The store reads what the
/// decision needs and writes what it decided; the decisions are the pure types' of
/// `Categorizing/`: `ManualOverride.expiry` (when the override ends, refused if passed),
/// `RevertPolicy` (what a revert may undo, its reason, which override comes back, a chain of
/// reverts' statuses) and `Categorizer.decide` (the buckets after a batch revert). Values only.
package protocol AuditWriting: AnyObject {
    /// Pins a task's bucket and records the `override` entry (the override it replaces is
    /// remembered in `override_before`).
    /// - Returns: the new entry.
    func pinOverride(_ request: OverrideRequest) throws(AuditError) -> AuditEntry

    /// Undoes one audit entry (`RevertPolicy.checkEntry`), recording a `revert` entry and,
    /// when the entry's batch changed the task's data, a revert batch.
    func revertEntry(_ request: RevertRequest) throws(AuditError) -> RevertResult

    /// Undoes a whole batch as a revert batch of its own, one `revert` entry per changed task.
    func revertBatch(_ request: RevertRequest) throws(AuditError) -> RevertResult

    /// Selects the tasks of a bulk reclassification (`BulkReclassify.plan`, under the write
    /// lock), refuses when the selection is not the previewed one (`BulkReclassify.check`), and
    /// pins every task not skipped, one `override` entry each, all under one new group id
    /// (the largest so far plus one), in one write transaction.
    /// - Returns: the plan applied, with its group and each pinned task's entry.
    func pinOverrides(_ request: BulkOverrideRequest) throws(AuditError) -> BulkPlan

    /// Undoes every entry of a group not already undone (`RevertPolicy.checkGroup`), one
    /// `revert` entry per task, all under one new group id, in one write transaction.
    func revertGroup(_ request: RevertRequest) throws(AuditError) -> RevertResult
}
