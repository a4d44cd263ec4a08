import Foundation

/// The read side of the store for the batch log: `dashboard batches list|show`, `status`, and
/// the facts a report states (`ReportSource.facts`). Values only: `BatchRecord`,
/// `ImportProblem`, `StoreStatus`.
package protocol BatchReading: SnapshotReading {
    /// Calls `body` with each batch, newest first (`limit` < 0: all), one at a time, with its
    /// counts and files.
    func forEachBatch(limit: Int, _ body: (BatchRecord) throws -> Void) throws

    /// One batch, or nil.
    func batch(id: Int) throws -> BatchRecord?

    /// The newest batch whose status is one of `statuses`, or nil.
    func newestBatch(statusIn statuses: Set<BatchStatus>) throws -> BatchRecord?

    /// Calls `body` with each problem recorded for a batch (of `severity`, when given), in file
    /// order, one at a time (bounded memory whatever their number).
    func forEachProblem(batchID: Int, severity: ProblemSeverity?, _ body: (ImportProblem) throws -> Void) throws

    /// The summary `dashboard status` prints.
    func status() throws -> StoreStatus
}
