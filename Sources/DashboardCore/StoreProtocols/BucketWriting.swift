import Foundation

/// The write side of the store for `dashboard categorize` (and `nightly`'s categorize step).
///
/// Policy: the store reads the live tasks whose stored bucket may be wrong, lets
/// `Categorizer.decide` say what each becomes (the store decides nothing), and writes every
/// change and its audit entry in one write transaction, entries in task-id order. Values only:
/// the as-of, the zone and the actor in, a `CategorizeResult` out.
package protocol BucketWriting: AnyObject {
    /// One pass with no batch behind it (every entry has cause `time`), in its own write
    /// transaction; `clock` stamps the entries once the write lock is held.
    /// - Throws: `StoreError` (`busy` when another writer holds the lock).
    func categorize(asOf: Date, defaultTimeZone: TimeZone, actor: String, clock: any Clock) throws(StoreError) -> CategorizeResult
}
