import Foundation

/// Progress of a running import, for a progress bar.
package struct ImportProgress: Sendable {
    /// What the run is doing: reading files, or planning and writing the batch.
    package enum Phase: Sendable { case reading, writing }
    package var phase: Phase = .reading
    package var bytesRead: Int
    package var bytesTotal: Int
    package var rows: Int
    package var file: String
}

/// Imports course and task files into the store as one all-or-nothing batch.
///
/// The run, in order: read every header (to apply courses before tasks) → take the write lock
/// → stream the course files into the staging tables → choose the path of the tasks
/// (`ImportPath`: direct or staged) → stream the task files through the fold (`ImportFold`)
/// into that path's writer (`ImportWriter`) → plan inserts, updates and deletes against the
/// database → check the delete guard → write (or hold, or roll back for a dry run) → record
/// the batch. Nothing is committed unless everything is.
///
/// This type is the orchestration only: the fold decides what rows mean, `ImportMessages`
/// words the problems, the writers and `StagingArea` own the SQL.
package final class Importer {
    package let store: Store
    let clock: Clock
    /// Called now and then while files are read.
    package var progress: ((ImportProgress) -> Void)?

    package init(store: Store, clock: Clock = SystemClock()) {
        self.store = store
        self.clock = clock
    }

    var database: Database { store.database }

    /// Imports `files` (`dashboard import`), or only checks them (`record` false: `dashboard
    /// check`, which writes nothing at all).
    /// - Returns: the batch's result; rejected rows are in it (the run still succeeded).
    /// - Throws: `ImportFailure` when nothing could be committed.
    package func run(files: [InputFile], options: ImportOptions, record: Bool = true) throws(ImportFailure) -> ImportResult {
        let startedAt = clock.now()
        var layouts: [(file: InputFile, layout: HeaderLayout)] = []
        var run = RunState(options: options)
        run.bytesTotal = files.reduce(0) { $0 + $1.size }
        do {
            for file in files {
                layouts.append((file, try FileReading.layout(of: file, options: options)))
            }
        } catch {
            throw recordFailure(error, startedAt: startedAt, options: options, record: record, run: run)
        }
        let courseFiles = layouts.filter { $0.layout.kind == .courses }
        let taskFiles = layouts.filter { $0.layout.kind == .tasks }
        let kinds = Set(layouts.map(\.layout.kind))

        var result: ImportResult?
        // The importer's writes fire no trigger: it moves the data mark itself (`DataMarks`).
        if record { database.setTriggersEnabled(false) }
        defer { if record { database.setTriggersEnabled(true) } }
        do {
            // `check` takes no write lock: it only reads the last committed state.
            var timer = PhaseTimer()
            try database.inTransaction(record ? .immediate : .deferred) {
                let staging = try StagingArea(database: database)
                if record { try DataMarks.beginTrustedWrite(database) }
                // The identical re-import, proven (Importer+Unchanged.swift): nothing to read.
                let readingOrder = (courseFiles + taskFiles).map(\.file)
                if record, !options.dryRun, let (_, earlier) = try unchangedBasis(readingOrder, options: options) {
                    timer.mark("prove unchanged since batch \(earlier.id)")
                    let batchID = try BatchLog.begin(database, command: "import", startedAt: startedAt, options: options)
                    result = try recordUnchanged(batchID: batchID, earlier: earlier, staging: staging, options: options)
                    try DataMarks.endTrustedWrite(database)
                    timer.mark("categorize and record")
                    return .commit
                }
                let batchID = record ? try BatchLog.begin(database, command: "import", startedAt: startedAt, options: options) : nil
                run.batchID = batchID
                for (file, layout) in courseFiles {
                    _ = try readFile(file, layout: layout, staging: staging, writer: staging, validCourses: [:], run: &run)
                }
                var writer: ImportWriter = staging
                var skipped: SkipStart?
                var validCourses: [String: String] = [:]
                if !taskFiles.isEmpty {
                    validCourses = try staging.validCourses(syncingCourses: options.mode == .sync && kinds.contains(.courses))
                    let path = try choosePath(staging: staging, kinds: kinds, options: options, record: record, run: run)
                    let maySkip = record && !options.compareEveryRow && path == .staged
                    let skipping = try maySkip && UnchangedRows.usable(database, validCourses: validCourses)
                    (writer, skipped) = try readTasks(
                        taskFiles, path: path, staging: staging, batchID: batchID, validCourses: validCourses, skipping: skipping,
                        run: &run)
                }
                timer.mark("read, normalize, stage")
                timer.note("waiting for the reader", nanoseconds: run.waitedForReader)
                timer.note("reader's CPU time", nanoseconds: run.readerCPU)
                for step in run.steps { timer.note(step.name, nanoseconds: step.nanoseconds) }
                progress?(ImportProgress(phase: .writing, bytesRead: run.bytesBefore, bytesTotal: run.bytesTotal, rows: run.rows, file: ""))
                var planned = try plan(staging: staging, kinds: kinds, options: options, run: &run, directTasks: writer.directInserts)
                if let start = skipped {
                    if planned.guardReason != nil, !options.dryRun {
                        // A held batch keeps every row of its files staged (`batches approve`
                        // plans them again): read them again, each one staged.
                        try undoSkipping(start, staging: staging, run: &run)
                        (writer, _) = try readTasks(
                            taskFiles, path: .staged, staging: staging, batchID: batchID, validCourses: validCourses, skipping: false,
                            run: &run)
                        planned = try plan(staging: staging, kinds: kinds, options: options, run: &run)
                    } else {
                        try endSkipping()
                    }
                }
                timer.mark("plan")
                result = planned.result
                if options.strict, run.counts.values.contains(where: { $0.rejected > 0 }) { return .rollback }
                if options.dryRun || !record {
                    if let guardReason = planned.guardReason { result?.reason = ImportMessages.wouldHold(guardReason) }
                    return .rollback
                }
                guard let batchID else { return .rollback }
                if let guardReason = planned.guardReason {
                    // Only a sync that deletes tasks can hold once tasks were written directly,
                    // and there were none to delete.
                    guard writer.path == .staged else { throw InternalError.directImportHeld }
                    try staging.hold(batchID: batchID)
                    let reason = ImportMessages.held(guardReason, batchID: batchID, wording: options.wording)
                    try BatchLog.record(database, batchID: batchID, counts: run.counts, files: run.files, problems: run.problems)
                    try BatchLog.finish(database, batchID: batchID, status: .held, reason: reason, finishedAt: clock.now())
                    result?.status = .held
                    result?.reason = reason
                    return .commit
                }
                let context = Categorizer.PassContext(
                    asOf: options.asOf, defaultTimeZone: options.timeZone, actor: options.actor, recordedAt: clock.now(),
                    batchID: batchID, planCause: .import, planReason: "", overrideManual: options.overrideManual,
                    planBucketsRecorded: true)
                // The buckets were computed while staging: their entries are recorded from the
                // plan before it is applied (the stored buckets are still the old ones).
                let recorded = try CategorizePass.recordStagedBuckets(database, plan: staging.importPlan, context: context)
                timer.mark("record staged buckets")
                try writer.apply(context: context)
                timer.mark("apply")
                defer { timer.mark("categorize and record") }
                var categorized = try writer.categorize(context: context)
                // The first import into a PostgreSQL database builds the course index after its
                // rows, whichever path wrote them (`PGSchema.indexes`).
                if database.sql.buildsCourseIndexAfterFirstImport { try database.sql.buildCourseIndex(database) }
                for (cause, count) in recorded where count > 0 {
                    categorized.byCause[cause, default: 0] += count
                    categorized.entries += count
                }
                result?.categorized = categorized
                try BatchLog.record(database, batchID: batchID, counts: run.counts, files: run.files, problems: run.problems)
                try BatchLog.finish(database, batchID: batchID, status: .committed, reason: "", finishedAt: clock.now())
                // Its writes fired no trigger: the mark moves once when it changed any data.
                if run.counts.values.contains(where: { $0.inserted + $0.updated + $0.deleted > 0 }) { try DataMarks.bump(database) }
                try DataMarks.record(database, batchID: batchID, planOptions: Self.planOptions(options))
                // A sync of courses and tasks that rejected nothing compared and rewrote every
                // live row: every value is one this run validated.
                let revalidated =
                    options.mode == .sync && kinds == [.courses, .tasks] && run.counts.values.allSatisfy { $0.rejected == 0 }
                try DataMarks.endTrustedWrite(database, revalidated: revalidated)
                // The first committed import gives the database its default zone (`Settings`).
                try Settings.recordIfMissing(
                    Settings.defaultTimeZone, value: TimeZoneCatalog.name(of: options.timeZone), actor: options.actor, at: clock.now(),
                    batchID: batchID, in: database)
                result?.status = .committed
                return .commit
            }
            timer.mark("commit")
        } catch {
            throw recordFailure(error, startedAt: startedAt, options: options, record: record, run: run)
        }
        try? StagingArea(database: database).clear()
        guard var final = result else {
            throw .store(.internalFailure(.importProducedNoResult), batchID: nil)
        }
        if options.strict, final.total.rejected > 0 {
            final.status = .failed
            final.reason = ImportMessages.strictRejected(final.total.rejected, wording: options.wording)
            final.batchID = record ? recordOutcome(final, startedAt: startedAt, options: options) : nil
            throw ImportFailure.strictRejected(final)
        }
        if options.dryRun || !record {
            final.status = .dryRun
            final.batchID = record ? recordOutcome(final, startedAt: startedAt, options: options) : nil
        }
        return final
    }

    /// The path of the run's tasks (`ImportPath.choose`), decided before any task is read:
    /// direct into a database without tasks, unless the courses alone would hold the batch.
    /// (The course plan is checked on a copy of the run: its counts are set by the final plan,
    /// and a run failing before that records none.)
    private func choosePath(
        staging: StagingArea, kinds: Set<FileKind>, options: ImportOptions, record: Bool, run: RunState
    ) throws -> ImportPath {
        let eligible = ImportPath.choose(
            recorded: record, options: options, databaseHasTasks: try LiveRows.hasTasks(database),
            coursesWouldHold: false)
        guard eligible == .direct else { return .staged }
        var coursePlanRun = run
        let coursesWouldHold =
            try plan(staging: staging, kinds: kinds.intersection([.courses]), options: options, run: &coursePlanRun).guardReason != nil
        return ImportPath.choose(recorded: record, options: options, databaseHasTasks: false, coursesWouldHold: coursesWouldHold)
    }
}
