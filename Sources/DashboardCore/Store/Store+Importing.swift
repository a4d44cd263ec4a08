import Foundation

/// `ImportWriting` and `StoreVerifying` on SQLite: the import's orchestration (`Importer`,
/// with `StagingArea` and `DirectTaskWriter`) and `Verifier` run on this store's connection.
extension Store: ImportWriting, StoreVerifying {
    package func importFiles(
        _ files: [InputFile], options: ImportOptions, record: Bool, clock: any Clock, progress: ((ImportProgress) -> Void)?
    ) throws(ImportFailure) -> ImportResult {
        let importer = Importer(store: self, clock: clock)
        importer.progress = progress
        return try importer.run(files: files, options: options, record: record)
    }

    package func approveHeld(
        batchID: Int, asOf: Date, actor: String, timeZone: TimeZone, force: Bool, clock: any Clock
    ) throws(ImportFailure) -> ImportResult {
        try Importer(store: self, clock: clock).approve(batchID: batchID, asOf: asOf, actor: actor, timeZone: timeZone, force: force)
    }

    package func discardHeld(batchID: Int, actor: String, clock: any Clock) throws(ImportFailure) -> BatchRecord {
        try Importer(store: self, clock: clock).discard(batchID: batchID, actor: actor)
    }

    package func previewHeld(batchID: Int) throws -> [FileKind: ImportCounts] {
        try Importer(store: self).preview(heldBatchID: batchID)
    }

    package func verify(report: (VerificationProblem) -> Void) throws {
        do {
            _ = try Verifier.verify(database, report: report)
        } catch {
            // A page SQLite cannot read ends the checks: it is the problem to report.
            let classified = Store.classify(error, path: path)
            guard case .damaged = classified else { throw error }
            throw classified
        }
    }
}

extension Store: StoreFailures {
    package func storeError(for error: any Error) -> StoreError {
        Store.classify(error, path: path)
    }
}
