import Foundation

/// The read side of the store for the audit log (`dashboard audit`). Values only:
/// `AuditFilter` in, `AuditEntry` out.
package protocol AuditReading: SnapshotReading {
    /// Calls `body` with each entry matching `filter`, oldest first, one at a time (bounded
    /// memory whatever the size of the log).
    func forEachAuditEntry(_ filter: AuditFilter, _ body: (AuditEntry) throws -> Void) throws

    /// `forEachAuditEntry` with at most `limit` entries.
    func forEachAuditEntry(_ filter: AuditFilter, limit: Int, _ body: (AuditEntry) throws -> Void) throws

    /// The births of the tasks among `taskIDs` that record their creating batch (schema 7 on),
    /// in the order given; a task created before, or unknown, has none.
    func births(of taskIDs: [String]) throws -> [TaskBirth]
}
