import Foundation

/// The SQLite store's read side: `Store` implements the read protocols of the store boundary
/// (docs/architecture.md, "The store boundary"). The SQL of each table stays with its owner
/// (`BatchLog` for the batches, `AuditLog` for the audit log, `Store+ReportReading` for the
/// report's reads of courses, tasks and overrides).
extension Store: SnapshotReading {
    /// One deferred transaction: the first read fixes the snapshot (WAL), and nothing is
    /// written, so it ends with a commit that writes nothing. Inside a write transaction (a
    /// bulk `reclassify` selects its tasks under the write lock), that transaction is the
    /// snapshot: `body` runs in it.
    package func read<T>(_ body: () throws -> T) throws -> T {
        if database.isInTransaction { return try body() }
        var result: T?
        try database.inTransaction(.deferred) {
            result = try body()
            return .commit
        }
        // What was read came from the file the store opened: it must still be the one at the path.
        try database.checkFilesAfterReading()
        // The transaction's body always sets the result before it commits.
        guard let result else { throw InternalError.readReturnedNothing }
        return result
    }
}

extension Store: BatchReading {
    package func newestBatch(statusIn statuses: Set<BatchStatus>) throws -> BatchRecord? {
        guard !statuses.isEmpty else { return nil }
        let sorted = statuses.map(\.rawValue).sorted()
        let marks = Array(repeating: "?", count: sorted.count).joined(separator: ", ")
        return try BatchLog.batches(database, where: "status IN (\(marks))", sorted, limit: 1).first
    }
}

extension Store: AuditReading {}
