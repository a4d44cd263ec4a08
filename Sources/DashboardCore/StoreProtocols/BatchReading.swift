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

    /// The newest committed imports (committed, or committed and reverted since), newest first.
    func committedImports(limit: Int) throws -> [BatchRecord]

    /// Per course, the changes since the import `afterBatch` (`Overnight`): live tasks created by
    /// a later batch, and distinct tasks with an audit entry recorded after that batch's import
    /// whose as-of is after `asOfAfter` and at most `asOfThrough` (UTC timestamps as batches keep
    /// them), by kind. Courses without changes are left out.
    func changeCounts(afterBatch: Int, asOfAfter: String, asOfThrough: String) throws -> [String: CourseChanges]
}
