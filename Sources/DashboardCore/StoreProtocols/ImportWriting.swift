import Foundation

/// The write side of the store for imports: `dashboard import`, `check`, `nightly`'s import,
/// and the held batches of `dashboard batches` (`approve`, `discard`, and `show`'s preview of
/// what approving would do).
///
/// Policy: one import is one write transaction, all or nothing; a run that is not recorded
/// (`record` false: `dashboard check`) writes nothing at all, not even a batch. The counts,
/// problems and the bucket of each row are decided above the store (`ImportFold`,
/// `RowNormalizer`, `BucketPolicy`, `Categorizer.decide`). Values only: `InputFile`s and
/// `ImportOptions` in, `ImportResult`, `BatchRecord` or counts out, `ImportFailure` thrown.
package protocol ImportWriting: AnyObject {
    /// Imports `files` as one batch (or only checks them when `record` is false).
    /// - Parameter progress: called now and then while files are read (a progress bar).
    func importFiles(
        _ files: [InputFile], options: ImportOptions, record: Bool, clock: any Clock, progress: ((ImportProgress) -> Void)?
    ) throws(ImportFailure) -> ImportResult

    /// Applies a held batch, planned again against the data as it is now, as a new batch.
    func approveHeld(
        batchID: Int, asOf: Date, actor: String, timeZone: TimeZone, force: Bool, clock: any Clock
    ) throws(ImportFailure) -> ImportResult

    /// Drops a held batch's rows; the batch stays recorded as `discarded`.
    func discardHeld(batchID: Int, actor: String, clock: any Clock) throws(ImportFailure) -> BatchRecord

    /// What approving held batch `batchID` would do now, per kind; writes nothing.
    func previewHeld(batchID: Int) throws -> [FileKind: ImportCounts]
}
