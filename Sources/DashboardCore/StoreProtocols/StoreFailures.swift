import Foundation

/// A store names its own failures: what went wrong below the boundary (SQLite: a result code
/// and message) becomes a `StoreError` above it (`busy`, `damaged`, …), so that the code above
/// never sees the store's error types.
package protocol StoreFailures: AnyObject {
    /// The `StoreError` that `error`, thrown by one of this store's calls, stands for.
    func storeError(for error: any Error) -> StoreError
}

/// What `NightlyJob` needs of a store: an import, a categorize pass, the reads of every report.
package typealias NightlyStore = ImportWriting & BucketWriting & ReportReading & BatchReading & SettingsReading & TeacherReading
    & StoreFailures & Interruptible
