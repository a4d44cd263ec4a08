import Foundation

extension Importer {
    /// Applies a batch that the delete guard held (`dashboard batches approve ID`).
    ///
    /// Policy: the held rows are planned again against the database as it is now (the counts
    /// may differ from when the batch was held), applied without the guard, and the batch
    /// becomes `committed` with the approval's as-of. Held tasks whose course no longer exists
    /// are rejected as `unknown_course`.
    /// - Throws: `ImportFailure.notHeld` for a batch that is not held; `.store` on failure.
    public func approve(
        batchID: Int, asOf: Date, actor: String, timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current, overrideManual: Bool = false
    ) throws(ImportFailure) -> ImportResult {
        var result: ImportResult?
        do {
            try store.database.inTransaction(.immediate) {
                let database = store.database
                guard let batch = try BatchLog.batch(database, id: batchID), batch.status == .held else {
                    throw ImportFailure.notHeld(batchID: batchID, status: try BatchLog.batch(database, id: batchID)?.status)
                }
                let staging = try StagingArea(database: database)
                try staging.restage(heldBatchID: batchID)
                let kinds = Set(batch.counts.keys)
                let syncCourses = batch.mode == .sync && kinds.contains(.courses)
                var problems = try BatchLog.problems(database, batchID: batchID)
                var counts = batch.counts
                let valid = try staging.validCourseIDs(syncingCourses: syncCourses)
                var orphans: [(String, String, String, Int)] = []
                try database.cached("SELECT task_id, course_id, file, line FROM stage_tasks ORDER BY file, line").forEachRow { row in
                    let course = row.string(1) ?? ""
                    if !valid.contains(course) { orphans.append((row.string(0) ?? "", course, row.string(2) ?? "", row.int(3))) }
                }
                for (taskID, course, file, line) in orphans {
                    try database.run("DELETE FROM stage_tasks WHERE task_id = ?", [taskID])
                    counts[.tasks, default: ImportCounts()].rejected += 1
                    problems.append(
                        ImportProblem(
                            code: .unknownCourse, file: file, line: line, row: 0, column: "course_id", value: course,
                            message: "course \"\(course)\" was deleted after this batch was held",
                            hint: "import the course again, then the task"))
                }
                try staging.plan(syncCourses: syncCourses, syncTasks: batch.mode == .sync && kinds.contains(.tasks))
                try staging.fillPlannedCounts(&counts, kinds: kinds)
                try staging.apply(batchID: batchID)
                let categorized = try Categorizer.pass(
                    database,
                    context: Categorizer.PassContext(
                        asOf: asOf, defaultTimeZone: timeZone, actor: actor, recordedAt: clock.now(), batchID: batchID, planCause: .import,
                        planReason: "", overrideManual: overrideManual))
                try BatchLog.record(database, batchID: batchID, counts: counts, files: batch.files, problems: problems)
                let reason =
                    "approved by \(actor.isEmpty ? "unknown" : actor) (held because: \(batch.reason.components(separatedBy: "; nothing was changed").first ?? batch.reason))"
                try database.run(
                    "UPDATE batches SET status = 'committed', reason = ?, as_of = ?, finished_at = ? WHERE batch_id = ?",
                    [reason, Timestamp.text(asOf), Timestamp.text(clock.now()), batchID])
                try StagingArea.dropHeld(batchID: batchID, in: database)
                try staging.clear()
                result = ImportResult(
                    batchID: batchID, status: .committed, mode: batch.mode, asOf: Timestamp.text(asOf), counts: counts,
                    files: batch.files, problems: problems, reason: reason, categorized: categorized)
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
    public func discard(batchID: Int, actor: String) throws(ImportFailure) -> BatchRecord {
        var record: BatchRecord?
        do {
            try store.database.inTransaction(.immediate) {
                let database = store.database
                guard let batch = try BatchLog.batch(database, id: batchID), batch.status == .held else {
                    throw ImportFailure.notHeld(batchID: batchID, status: try BatchLog.batch(database, id: batchID)?.status)
                }
                try StagingArea.dropHeld(batchID: batchID, in: database)
                let reason =
                    "discarded by \(actor.isEmpty ? "unknown" : actor) (held because: \(batch.reason.components(separatedBy: "; nothing was changed").first ?? batch.reason))"
                try database.run(
                    "UPDATE batches SET status = 'discarded', reason = ? WHERE batch_id = ?", [reason, batchID])
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
