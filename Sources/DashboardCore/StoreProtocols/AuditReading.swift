import Foundation

/// The read side of the store for the audit log (`dashboard audit`). Values only:
/// `AuditFilter` in, `AuditEntry` out.
public protocol AuditReading: SnapshotReading {
    /// Calls `body` with each entry matching `filter`, oldest first, one at a time (bounded
    /// memory whatever the size of the log).
    func forEachAuditEntry(_ filter: AuditFilter, _ body: (AuditEntry) throws -> Void) throws
}
