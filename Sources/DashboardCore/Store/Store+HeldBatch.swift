/// `HeldBatchReading` on SQLite: the held batch planned by `StagingArea.planHeld` in one
/// deferred transaction that is rolled back (the plan lives in temporary tables; a read-only
/// connection may write those).
extension Store: HeldBatchReading {
    package func readHeldPlan<T>(batchID: Int, _ body: (any HeldPlanReading) throws -> T) throws -> T {
        var result: T?
        try database.inTransaction(.deferred) {
            guard let held = try BatchLog.batch(database, id: batchID), held.status == .held else {
                throw ImportFailure.notHeld(batchID: batchID, status: try BatchLog.batch(database, id: batchID)?.status)
            }
            let staging = try StagingArea(database: database)
            let dropped = try staging.planHeld(held)
            let summary = HeldPlanSummary(
                counts: try staging.heldCounts(held, dropped: dropped.count),
                totals: [.courses: try staging.plannedTotals(.courses), .tasks: try staging.plannedTotals(.tasks)],
                droppedTasks: dropped.count, newerBatches: try BatchLog.dataBatches(database, after: batchID))
            result = try body(SQLiteHeldPlan(staging: staging, summary: summary))
            try staging.clear()
            return .rollback
        }
        guard let result else { throw InternalError.readReturnedNothing }
        return result
    }
}

/// A held batch's plan in the staging area of the reading connection.
private struct SQLiteHeldPlan: HeldPlanReading {
    let staging: StagingArea
    let summary: HeldPlanSummary

    func forEachChange(
        _ kind: FileKind, _ action: PlannedChange.Action, limit: Int, _ body: (PlannedChange) throws -> Void
    ) throws {
        try staging.forEachPlannedChange(kind, action, limit: limit, body)
    }
}
