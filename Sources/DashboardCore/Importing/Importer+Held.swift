import Foundation

extension Importer {
    /// Applies a batch that the delete guard held (`dashboard batches approve ID`).
    ///
    /// Policy: the held rows are planned again against the database as it is now (the counts
    /// may differ from when the batch was held) and applied without the guard, as a new batch
    /// (command `approve`, `approved_from` the held one), so batch order stays commit order.
    /// The held batch becomes `approved`. Approval is refused when another batch committed after
    /// the held one (its files are then older than the data), unless `force`. Held tasks whose
    /// course no longer exists are rejected as `unknown_course`.
    /// - Throws: `ImportFailure.notHeld` for a batch that is not held, `.staleHeld` when newer
    ///   batches committed since; `.store` on failure.
    package func approve(
        batchID: Int, asOf: Date, actor: String, timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current,
        overrideManual: Bool = false, force: Bool = false
    ) throws(ImportFailure) -> ImportResult {
        var result: ImportResult?
        do {
            try store.database.inTransaction(.immediate) {
                let database = store.database
                try DataMarks.beginTrustedWrite(database)
                guard let held = try BatchLog.batch(database, id: batchID), held.status == .held else {
                    throw ImportFailure.notHeld(batchID: batchID, status: try BatchLog.batch(database, id: batchID)?.status)
                }
                let newer = try BatchLog.dataBatches(database, after: batchID)
                if !newer.isEmpty, !force { throw ImportFailure.staleHeld(batchID: batchID, newer: newer) }

                // The same plan `batches show` lists (`StagingArea.planHeld`).
                let staging = try StagingArea(database: database)
                let dropped = try staging.planHeld(held)
                // The held batch's problems, then the new ones, through a spool (bounded memory).
                let problems = ProblemSpool()
                problems.startGroup(sortedByLine: false)
                try BatchLog.forEachProblem(database, batchID: batchID) { try problems.append($0) }
                for (_, course, file, line) in dropped {
                    try problems.append(ImportMessages.courseDeletedWhileHeld(course, file: file, line: line))
                }
                let counts = try staging.heldCounts(held, dropped: dropped.count)

                var options = ImportOptions()
                options.mode = held.mode
                options.asOf = asOf
                options.actor = actor
                options.maxDelete = DeleteLimit(held.maxDelete) ?? options.maxDelete
                let newID = try BatchLog.begin(database, command: "approve", startedAt: clock.now(), options: options)
                try BatchLog.setApprovedFrom(database, batchID: newID, heldBatchID: batchID)
                // As an import writes its plan (`Importer.run`): the staged buckets first (held
                // rows keep none), the moves recorded from them, births counted per bucket.
                try staging.applyCourses(batchID: newID)
                try staging.computeStagedBuckets(asOf: asOf, defaultTimeZone: timeZone)
                let context = Categorizer.PassContext(
                    asOf: asOf, defaultTimeZone: timeZone, actor: actor, recordedAt: clock.now(), batchID: newID, planCause: .import,
                    planReason: "", overrideManual: overrideManual, planBucketsRecorded: true)
                let recorded = try CategorizePass.recordStagedBuckets(database, plan: staging.importPlan, context: context)
                try staging.applyTasks(batchID: newID)
                var categorized = try CategorizePass.run(database, plan: staging.importPlan, context: context)
                for (cause, count) in recorded where count > 0 {
                    categorized.byCause[cause, default: 0] += count
                    categorized.entries += count
                }
                var reason = "approval of held batch \(batchID) (held because: \(held.heldBecause))"
                if !newer.isEmpty { reason += "; forced past newer batches \(newer.map(String.init).joined(separator: ", "))" }
                try BatchLog.record(database, batchID: newID, counts: counts, files: held.files, problems: problems)
                try BatchLog.finish(database, batchID: newID, status: .committed, reason: reason, finishedAt: clock.now())
                try BatchLog.finish(
                    database, batchID: batchID, status: .approved, reason: "approved by \(actor); applied as batch \(newID)",
                    finishedAt: clock.now())
                try StagingArea.dropHeld(batchID: batchID, in: database)
                try staging.clear()
                try DataMarks.endTrustedWrite(database)
                result = ImportResult(
                    batchID: newID, status: .committed, mode: held.mode, asOf: Timestamp.text(asOf), counts: counts,
                    files: held.files, problemSpool: problems, reason: reason, categorized: categorized)
                return .commit
            }
        } catch let failure as ImportFailure {
            throw failure
        } catch {
            throw .store(Store.classify(error, path: store.path), batchID: batchID)
        }
        guard let result else { throw .notHeld(batchID: batchID, status: nil) }
        return result
    }

    /// Drops a held batch (`dashboard batches discard ID`): its rows are deleted and the
    /// batch is kept as `discarded`.
    package func discard(batchID: Int, actor: String) throws(ImportFailure) -> BatchRecord {
        var record: BatchRecord?
        do {
            try store.database.inTransaction(.immediate) {
                let database = store.database
                guard let batch = try BatchLog.batch(database, id: batchID), batch.status == .held else {
                    throw ImportFailure.notHeld(batchID: batchID, status: try BatchLog.batch(database, id: batchID)?.status)
                }
                try StagingArea.dropHeld(batchID: batchID, in: database)
                let reason =
                    "discarded by \(actor.isEmpty ? "unknown" : actor) (held because: \(batch.heldBecause))"
                try BatchLog.setStatus(database, batchID: batchID, .discarded, reason: reason)
                record = try BatchLog.batch(database, id: batchID)
                return .commit
            }
        } catch let failure as ImportFailure {
            throw failure
        } catch {
            throw .store(Store.classify(error, path: store.path), batchID: batchID)
        }
        guard let record else { throw .notHeld(batchID: batchID, status: nil) }
        return record
    }
}
