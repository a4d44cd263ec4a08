import Foundation

/// The one thing every read side of a store shares: a consistent snapshot.
///
/// Policy: everything a command reads inside one `read` sees the same data, whatever another
/// process commits meanwhile (SQLite: one deferred transaction, which WAL keeps at the state of
/// its first read). A report reads its courses and their tasks in one `read`, so its counts and
/// its rows always agree. Reads outside `read` each see the latest commit.
///
/// This protocol, `ReportReading`, `BatchReading` and `AuditReading` are the boundary between
/// the pure core (normalizing, the bucket policy, the report pipeline and renderers, the command
/// line) and a store (docs/architecture.md, "The store boundary"): only value types cross it,
/// and no SQL text is written above it.
package protocol SnapshotReading {
    /// Runs `body` in one read snapshot and returns what it returns; `body`'s errors are
    /// rethrown after the snapshot is let go.
    func read<T>(_ body: () throws -> T) throws -> T
}
