import Foundation

/// The identical re-import (SPEC §5): files whose bytes, paths and order are those of the last
/// committed import, with the same plan options, into data that no writer has changed since
/// (`DataMarks.provenUnchanged`), can only give that import's problems with every row
/// unchanged. Then the rows are neither read nor compared: the batch records the earlier
/// import's problems and counts (every valid row unchanged), and the time pass runs as after
/// any import. Without that proof the run reads and compares as always.
extension Importer {
    /// The plan options a shortcut must share with the import it relies on: everything that
    /// decides what the files' rows mean and what the plan does with them (not the as-of, the
    /// actor or the default zone: they decide buckets, which the time pass recomputes).
    static func planOptions(_ options: ImportOptions) -> String {
        [
            "mode=\(options.mode.rawValue)", "max_delete=\(options.maxDelete.description)", "strict=\(options.strict)",
            "override_manual=\(options.overrideManual)", "encoding=\(options.encoding.rawValue)",
            "delimiter=\(options.delimiter.map { String($0) } ?? "")", "date_order=\(options.dateOrder?.rawValue ?? "")",
        ].joined(separator: ";")
    }

    /// The committed import this run may rely on, with its files, or nil: the data is proven
    /// unchanged since it, its plan options are this run's, and this run's files are its files
    /// (same paths in the same order, each a regular file of the same size and SHA-256).
    /// Reads every file once to hash it, but only when everything else already matches.
    func unchangedBasis(_ files: [InputFile], options: ImportOptions) throws -> (basis: DataMarks.Basis, batch: BatchRecord)? {
        guard options.skipProvenUnchanged, !options.forceStaging, let basis = try DataMarks.provenUnchanged(database),
            basis.planOptions == Self.planOptions(options),
            let batch = try BatchLog.batch(database, id: basis.batchID), batch.files.count == files.count
        else { return nil }
        for (file, recorded) in zip(files, batch.files) {
            guard file.path == recorded.path, file.size == recorded.size, Self.isRegularFile(file.path) else { return nil }
        }
        for (file, recorded) in zip(files, batch.files) {
            guard try Self.sha256(of: file) == recorded.sha256 else { return nil }
        }
        return (basis, batch)
    }

    /// Writes batch `batchID` as the identical re-import of `earlier`: its files, its problems,
    /// its counts with every valid row unchanged; then the time pass. Inside the run's write
    /// transaction.
    func recordUnchanged(
        batchID: Int, earlier: BatchRecord, staging: StagingArea, options: ImportOptions
    ) throws -> ImportResult {
        let problems = ProblemSpool()
        problems.startGroup(sortedByLine: false)
        try BatchLog.forEachProblem(database, batchID: earlier.id) { try problems.append($0) }
        var counts: [FileKind: ImportCounts] = [:]
        for (kind, c) in earlier.counts {
            counts[kind] = ImportCounts(
                read: c.read, unchanged: c.inserted + c.updated + c.unchanged, rejected: c.rejected, warnings: c.warnings)
        }
        let context = Categorizer.PassContext(
            asOf: options.asOf, defaultTimeZone: options.timeZone, actor: options.actor, recordedAt: clock.now(), batchID: batchID,
            planCause: .import, planReason: "", overrideManual: options.overrideManual, planBucketsRecorded: true)
        let categorized = try CategorizePass.run(database, plan: staging.importPlan, context: context)
        try BatchLog.record(database, batchID: batchID, counts: counts, files: earlier.files, problems: problems)
        try BatchLog.finish(database, batchID: batchID, status: .committed, reason: "", finishedAt: clock.now())
        try DataMarks.record(database, batchID: batchID, planOptions: Self.planOptions(options))
        var result = ImportResult(
            batchID: batchID, status: .committed, mode: options.mode, asOf: Timestamp.text(options.asOf), counts: counts,
            files: earlier.files, problemSpool: problems, reason: "", categorized: categorized)
        result.unchangedSince = earlier.id
        return result
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The SHA-256 of a file's bytes, read a chunk at a time.
    static func sha256(of file: InputFile) throws -> String {
        let source = try file.open()
        let digest = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { break }
            buffer.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
        return digest.finalizeHex()
    }
}
