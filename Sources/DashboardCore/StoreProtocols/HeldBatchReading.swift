/// The read side of the store for a held batch's detail (`dashboard batches show ID`): what
/// approving it would insert, update and delete, row by row.
///
/// Policy: the held rows are planned against the database as it is now by the very plan
/// `ImportWriting.approveHeld` applies (SQLite: `StagingArea.planHeld`), in one snapshot;
/// nothing is written (the plan lives in temporary tables, rolled back). Rows are streamed in
/// id order and paged by the store (`limit`), so memory stays bounded whatever the batch's size.
package protocol HeldBatchReading {
    /// Plans held batch `batchID` now and calls `body` with the plan, valid only inside `body`.
    /// - Throws: `ImportFailure.notHeld` when the batch is not held (or does not exist).
    func readHeldPlan<T>(batchID: Int, _ body: (any HeldPlanReading) throws -> T) throws -> T
}

/// A held batch planned against the database as it is now (see `HeldBatchReading`).
package protocol HeldPlanReading {
    /// The counts approving would record, the number of changes of each kind and action.
    var summary: HeldPlanSummary { get }

    /// Calls `body` with the first `limit` changes of `kind` and `action` (0: all), in id
    /// order, one at a time.
    func forEachChange(
        _ kind: FileKind, _ action: PlannedChange.Action, limit: Int, _ body: (PlannedChange) throws -> Void
    ) throws
}
