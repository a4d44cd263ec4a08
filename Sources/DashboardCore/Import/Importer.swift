import Foundation

/// Progress of a running import, for a progress bar.
public struct ImportProgress: Sendable {
    /// What the run is doing: reading files, or planning and writing the batch.
    public enum Phase: Sendable { case reading, writing }
    public var phase: Phase = .reading
    public var bytesRead: Int
    public var bytesTotal: Int
    public var rows: Int
    public var file: String
}

/// Imports course and task files into the store as one all-or-nothing batch.
///
/// The run, in order: read every header (to apply courses before tasks) → take the write lock
/// → stream each file through the CSV reader and the row normalizer into staging tables →
/// plan inserts, updates and deletes against the database → check the delete guard → write
/// (or hold, or roll back for a dry run) → record the batch. Nothing is committed unless
/// everything is.
public final class Importer {
    public let store: Store
    let clock: Clock
    /// Called now and then while files are read.
    public var progress: ((ImportProgress) -> Void)?

    public init(store: Store, clock: Clock = SystemClock()) {
        self.store = store
        self.clock = clock
    }

    private var database: Database { store.database }

    /// Imports `files` (`dashboard import`), or only checks them (`record` false: `dashboard
    /// check`, which writes nothing at all).
    /// - Returns: the batch's result; rejected rows are in it (the run still succeeded).
    /// - Throws: `ImportFailure` when nothing could be committed.
    public func run(files: [InputFile], options: ImportOptions, record: Bool = true) throws(ImportFailure) -> ImportResult {
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
        let ordered = layouts.filter { $0.layout.kind == .courses } + layouts.filter { $0.layout.kind == .tasks }
        let kinds = Set(ordered.map(\.layout.kind))

        var result: ImportResult?
        do {
            // `check` takes no write lock: it only reads the last committed state.
            var timer = PhaseTimer()
            try database.inTransaction(record ? .immediate : .deferred) {
                let staging = try StagingArea(database: database)
                let batchID = record ? try BatchLog.begin(database, command: "import", startedAt: startedAt, options: options) : nil
                run.batchID = batchID
                for (file, layout) in ordered where layout.kind == .courses {
                    try readFile(file, layout: layout, staging: staging, direct: nil, validCourses: [:], run: &run)
                }
                let taskFiles = ordered.filter { $0.layout.kind == .tasks }
                var direct: DirectTaskWriter?
                if !taskFiles.isEmpty {
                    let validCourses = try staging.validCourses(syncingCourses: options.mode == .sync && kinds.contains(.courses))
                    // Into a database without tasks, tasks are written directly (see
                    // DirectTaskWriter), unless the courses alone would hold the batch.
                    // (The course plan is checked on a copy of the run: its counts are set by the
                    // final plan, and a run failing before that records none.)
                    var coursePlanRun = run
                    if let batchID, !options.dryRun, !options.forceStaging, try DirectTaskWriter.applies(to: database),
                        try plan(staging: staging, kinds: kinds.intersection([.courses]), options: options, run: &coursePlanRun)
                            .guardReason == nil
                    {
                        let before = run
                        let problemsBefore = run.problems.mark
                        try database.execute("SAVEPOINT direct_tasks")
                        do {
                            // Courses first, so that every task insert finds its course.
                            try staging.applyCourses(batchID: batchID)
                            let writer = try DirectTaskWriter(database: database, batchID: batchID)
                            for (file, layout) in taskFiles {
                                try readFile(file, layout: layout, staging: staging, direct: writer, validCourses: validCourses, run: &run)
                            }
                            try writer.flush()
                            try database.execute("RELEASE direct_tasks")
                            direct = writer
                        } catch is DirectTaskWriter.Repeated {
                            // A repeated id: read the tasks again through the staging tables.
                            try database.execute("ROLLBACK TO direct_tasks; RELEASE direct_tasks")
                            run = before
                            try run.problems.truncate(to: problemsBefore)
                        }
                    }
                    if direct == nil {
                        for (file, layout) in taskFiles {
                            try readFile(file, layout: layout, staging: staging, direct: nil, validCourses: validCourses, run: &run)
                        }
                    }
                }
                timer.mark("read, normalize, stage")
                timer.note("waiting for the reader", nanoseconds: run.waitedForReader)
                timer.note("reader's CPU time", nanoseconds: run.readerCPU)
                progress?(ImportProgress(phase: .writing, bytesRead: run.bytesBefore, bytesTotal: run.bytesTotal, rows: run.rows, file: ""))
                let planned = try plan(staging: staging, kinds: kinds, options: options, run: &run, directTasks: direct?.inserted)
                timer.mark("plan")
                result = planned.result
                let hasRejects = run.counts.values.contains { $0.rejected > 0 }
                if options.strict, hasRejects {
                    return .rollback
                }
                if options.dryRun || !record {
                    if let guardReason = planned.guardReason {
                        result?.reason = "a real import would be held: " + guardReason
                    }
                    return .rollback
                }
                guard let batchID else { return .rollback }
                if let guardReason = planned.guardReason {
                    // Only a sync that deletes tasks can hold once tasks were written directly,
                    // and there were none to delete.
                    guard direct == nil else {
                        throw ImportFailure.store(
                            .sqlite(SQLiteError(code: 1, message: "internal: a direct import cannot be held")), batchID: nil)
                    }
                    try staging.hold(batchID: batchID)
                    let reason =
                        guardReason
                        + "; nothing was changed. Review it with `dashboard batches show \(batchID)`, then `dashboard batches approve \(batchID)` or `dashboard batches discard \(batchID)`"
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
                let recorded = try Categorizer.recordStagedBuckets(database, context: context)
                timer.mark("record staged buckets")
                if let direct {
                    // The courses were applied before the tasks.
                    try direct.finish(recordedAt: context.recordedAt, asOf: options.asOf, actor: options.actor)
                } else {
                    try staging.apply(batchID: batchID)
                }
                timer.mark("apply")
                defer { timer.mark("categorize and record") }
                var categorized: CategorizeResult
                if let direct {
                    // Every live task is one this run inserted, with its bucket as of now.
                    categorized = CategorizeResult()
                    categorized.tasks = direct.inserted
                } else {
                    categorized = try Categorizer.pass(database, context: context)
                }
                for (cause, count) in recorded where count > 0 {
                    categorized.byCause[cause, default: 0] += count
                    categorized.entries += count
                }
                if let direct, direct.inserted > 0 {
                    categorized.byCause[.import, default: 0] += direct.inserted
                    categorized.entries += direct.inserted
                }
                result?.categorized = categorized
                try BatchLog.record(database, batchID: batchID, counts: run.counts, files: run.files, problems: run.problems)
                try BatchLog.finish(database, batchID: batchID, status: .committed, reason: "", finishedAt: clock.now())
                result?.status = .committed
                return .commit
            }
            timer.mark("commit")
        } catch {
            throw recordFailure(error, startedAt: startedAt, options: options, record: record, run: run)
        }
        try? StagingArea(database: database).clear()
        guard var final = result else {
            throw ImportFailure.store(.sqlite(SQLiteError(code: 1, message: "the import produced no result")), batchID: nil)
        }
        if options.strict, final.total.rejected > 0 {
            final.status = .failed
            final.reason = "--strict: \(final.total.rejected) row(s) rejected, nothing was imported"
            final.batchID = record ? recordOutcome(final, startedAt: startedAt, options: options) : nil
            throw ImportFailure.strictRejected(final)
        }
        if options.dryRun || !record {
            final.status = .dryRun
            final.batchID = record ? recordOutcome(final, startedAt: startedAt, options: options) : nil
        }
        return final
    }

    // MARK: - Reading one file

    /// Per-run bookkeeping.
    struct RunState {
        let options: ImportOptions
        var batchID: Int?
        var counts: [FileKind: ImportCounts] = [:]
        var files: [ImportedFile] = []
        /// Rejected rows and warnings, spooled out of memory when there are many.
        var problems = ProblemSpool()
        var bytesBefore = 0
        var bytesTotal = 0
        var rows = 0
        /// Rejected rows whose id could not be read (wrong field count, broken quotes), per kind.
        var unidentified: [FileKind: Int] = [:]
        /// Course ids whose row was rejected in this run.
        var rejectedCourses: Set<String> = []
        /// Time the writing thread spent waiting for the reading thread (for the trace).
        var waitedForReader: UInt64 = 0
        /// CPU time of the reading threads.
        var readerCPU: UInt64 = 0
    }

    private func readFile(
        _ file: InputFile, layout: HeaderLayout, staging: StagingArea, direct: DirectTaskWriter?, validCourses: [String: String],
        run: inout RunState
    ) throws {
        let bytesBefore = run.bytesBefore
        let bytesTotal = run.bytesTotal
        var rowsSoFar = run.rows
        let kind = layout.kind
        var counts = run.counts[kind] ?? ImportCounts()
        // Problems go straight to the run's spool (never a per-file array: a file of 1,000,000
        // rejected rows must not hold them in memory); listed by line within the file.
        let problems = run.problems
        problems.startGroup(sortedByLine: true)
        let warningsBefore = problems.warningCount
        // A file that fails part way adds none of its problems, as it adds none of its counts.
        let fileMark = problems.mark
        var fileDone = false
        defer { if !fileDone { try? problems.truncate(to: fileMark) } }
        // Unknown columns are reported once per file, all in one warning (a header of 100,000
        // stray columns is one problem, not 100,000).
        let unknown = layout.unknownColumns
        if !unknown.isEmpty {
            let shown = unknown.prefix(10).map { $0.isEmpty ? "(no name)" : "\"\($0)\"" }.joined(separator: ", ")
            let more = unknown.count > 10 ? " and \(unknown.count - 10) more" : ""
            let message: String
            if unknown.count == 1 {
                message =
                    unknown[0].isEmpty
                    ? "a column without a name was ignored"
                    : "column \"\(unknown[0])\" is not used by a \(kind.rawValue) file and was ignored"
            } else {
                message = "\(unknown.count) columns are not used by a \(kind.rawValue) file and were ignored: \(shown)\(more)"
            }
            try problems.append(
                ImportProblem(
                    code: .unknownColumn, file: file.path, line: layout.headerLine, row: 0, column: unknown.count == 1 ? unknown[0] : "",
                    value: unknown.count == 1 ? "" : unknown.joined(separator: ","), message: message,
                    hint:
                        "nothing to do if that is expected; rename \(unknown.count == 1 ? "it" : "a column") if it should be one of: \(kind.columns.map(\.rawValue).joined(separator: ", "))"
                ))
        }
        var row = 0
        var fileRows = 0
        var blankRun: (line: Int, row: Int, count: Int, lastLine: Int)?

        func flushBlankRun() throws {
            guard let run = blankRun else { return }
            blankRun = nil
            let message =
                run.count == 1
                ? "line \(run.line) is blank and was skipped"
                : "\(run.count) blank rows (lines \(run.line)–\(run.lastLine)) were skipped"
            try problems.append(
                ImportProblem(
                    code: .blankRow, file: file.path, line: run.line, row: run.row, message: message,
                    hint: "remove blank lines from the export, or ignore this warning"))
        }
        func reject(_ fieldProblems: [FieldProblem], line: Int, row: Int) throws {
            counts.rejected += 1
            for fp in fieldProblems {
                try problems.append(fp.located(file: file.path, line: line, row: row))
            }
        }
        func stageOutcome(_ outcome: StagingArea.StageOutcome, id: String, idColumn: String, line: Int, row: Int) throws {
            switch outcome {
            case .staged: break
            case .repeatOf(let firstFile, let firstLine):
                let place = firstFile == file.path ? "line \(firstLine)" : "\(firstFile) line \(firstLine)"
                try problems.append(
                    ImportProblem(
                        code: .duplicateRow, file: file.path, line: line, row: row, column: idColumn, value: id,
                        message: "this row repeats \(place) exactly and was imported once",
                        hint: "remove the repeated row from the export, or ignore this warning"))
            case .conflictsWith(let firstFile, let firstLine):
                let place = firstFile == file.path ? "line \(firstLine)" : "\(firstFile) line \(firstLine)"
                counts.rejected += 1
                try problems.append(
                    ImportProblem(
                        code: .duplicateID, file: file.path, line: line, row: row, column: idColumn, value: id,
                        message: "\(idColumn) \"\(id)\" was already used on \(place) with different values; the first row was kept",
                        hint: "give each row its own \(idColumn), or remove the outdated row"))
            }
        }

        // One thread reads and normalizes, this one writes: the two overlap.
        let reader = RowReader(file: file, layout: layout, options: run.options, validCourses: kind == .tasks ? validCourses : [:])
        reader.start()
        do {
            while true {
                let waitStart = DispatchTime.now().uptimeNanoseconds
                guard let batch = reader.handoff.take() else { break }
                run.waitedForReader += DispatchTime.now().uptimeNanoseconds - waitStart
                for item in batch {
                    switch item {
                    case .progress(let bytes):
                        progress?(ImportProgress(bytesRead: bytesBefore + bytes, bytesTotal: bytesTotal, rows: rowsSoFar, file: file.path))
                    case .blankLine(let line):
                        row += 1
                        if let current = blankRun {
                            blankRun = (current.line, current.row, current.count + 1, line)
                        } else {
                            blankRun = (line, row, 1, line)
                        }
                    case .malformedQuote(let line, let text):
                        try flushBlankRun()
                        row += 1
                        fileRows += 1
                        counts.read += 1
                        try reject(
                            [
                                FieldProblem(
                                    code: .malformedQuote, column: "", value: text,
                                    message:
                                        "the row breaks the quoting rules (a quote inside an unquoted value, or text after a closing quote)",
                                    hint: "put the whole value in quotes and double every quote inside it: \"say \"\"hi\"\"\"")
                            ], line: line, row: row)
                        run.unidentified[kind, default: 0] += 1
                    case .record(let line, let outcome, let identity, let bucket, let course):
                        row += 1
                        switch outcome {
                        case .blank:
                            if let current = blankRun {
                                blankRun = (current.line, current.row, current.count + 1, line)
                            } else {
                                blankRun = (line, row, 1, line)
                            }
                            continue
                        case .rejected(let fieldProblems):
                            try flushBlankRun()
                            fileRows += 1
                            counts.read += 1
                            // Every problem of the row at once: an unknown course too.
                            var all = fieldProblems
                            if let course, validCourses[course] == nil {
                                all.append(unknownCourse(course, ownRowRejected: run.rejectedCourses.contains(course)))
                            }
                            try reject(all, line: line, row: row)
                            if let id = identity {
                                try staging.markRejected(kind, id: id)
                                if kind == .courses { run.rejectedCourses.insert(id) }
                            } else {
                                run.unidentified[kind, default: 0] += 1
                            }
                        case .course(let course):
                            try flushBlankRun()
                            fileRows += 1
                            counts.read += 1
                            try stageOutcome(
                                try staging.stage(course, file: file.path, line: line), id: course.courseID, idColumn: "course_id",
                                line: line, row: row)
                        case .task(let task):
                            try flushBlankRun()
                            fileRows += 1
                            counts.read += 1
                            guard let bucket else {
                                try reject(
                                    [unknownCourse(task.courseID, ownRowRejected: run.rejectedCourses.contains(task.courseID))], line: line,
                                    row: row)
                                try staging.markRejected(.tasks, id: task.taskID)
                                continue
                            }
                            if let direct {
                                try direct.insert(task, bucket: bucket.rawValue)
                            } else {
                                let pending = StagingArea.PendingTask(
                                    task: task, bucket: bucket.rawValue, file: file.path, line: line, row: row)
                                for (repeated, outcome) in try staging.stage(pending) {
                                    try stageOutcome(
                                        outcome, id: repeated.task.taskID, idColumn: "task_id", line: repeated.line, row: repeated.row)
                                }
                            }
                        }
                        rowsSoFar += 1
                    }
                }
            }
        } catch {
            reader.handoff.cancel()
            reader.handoff.waitUntilFinished()
            throw error
        }
        let read = reader.outcome
        run.readerCPU += read.cpuNanoseconds
        if let failure = read.failure { throw failure }
        try flushBlankRun()
        try direct?.flush()
        for (repeated, outcome) in try staging.flushTasks() {
            try stageOutcome(outcome, id: repeated.task.taskID, idColumn: "task_id", line: repeated.line, row: repeated.row)
        }
        // Repeats are found when their statement runs, after later rows' problems: the spool
        // lists this file's problems by line (file order).
        counts.warnings += problems.warningCount - warningsBefore
        fileDone = true
        run.counts[kind] = counts
        run.files.append(ImportedFile(path: file.path, kind: kind, size: read.bytesRead, sha256: read.sha256, rows: fileRows))
        run.bytesBefore += read.bytesRead
        run.rows = rowsSoFar
    }

    /// The `unknown_course` problem of a tasks row (valid or not) whose course is neither in the
    /// database nor valid in this run.
    private func unknownCourse(_ courseID: String, ownRowRejected: Bool) -> FieldProblem {
        FieldProblem(
            code: .unknownCourse, column: "course_id", value: courseID,
            message: ownRowRejected
                ? "course \"\(courseID)\" is not in the database and its own row in this import was rejected"
                : "course \"\(courseID)\" is not in the database or in this import",
            hint: ownRowRejected
                ? "fix the course's row (see its error), then import again"
                : "import the course first (or in the same run), or correct the course_id")
    }

    // MARK: - Planning

    /// - Parameter directTasks: the tasks written directly (`DirectTaskWriter`), if so: they
    ///   are all inserts, and no task was there to delete.
    private func plan(
        staging: StagingArea, kinds: Set<FileKind>, options: ImportOptions, run: inout RunState, directTasks: Int? = nil
    ) throws -> (result: ImportResult, guardReason: String?) {
        let sync = options.mode == .sync
        try staging.plan(
            syncCourses: sync && kinds.contains(.courses), syncTasks: sync && kinds.contains(.tasks) && directTasks == nil,
            coursesApplied: directTasks != nil)
        try staging.fillPlannedCounts(&run.counts, kinds: kinds)
        if let directTasks {
            var counts = run.counts[.tasks] ?? ImportCounts()
            counts.inserted = directTasks
            counts.updated = 0
            counts.unchanged = 0
            counts.deleted = 0
            run.counts[.tasks] = counts
        }
        var guardReasons: [String] = []
        // With tasks written directly, the courses were checked (and applied) before them: the
        // live count the limit compares with has changed since.
        for kind in FileKind.allCases where !(directTasks != nil && kind == .courses) {
            let deleted = run.counts[kind]?.deleted ?? 0
            guard deleted > 0 else { continue }
            if let unidentified = run.unidentified[kind], unidentified > 0 {
                guardReasons.append(
                    "\(unidentified) \(kind.rawValue) row(s) were too broken to read their ids (wrong field count or quotes), so a sync cannot tell whether the \(deleted) \(kind.rawValue) it would delete are really gone"
                )
                continue
            }
            let live = try staging.liveCount(kind)
            if !options.maxDelete.allows(deleted: deleted, live: live) {
                let share = live > 0 ? " (\(Int((Double(deleted) * 100 / Double(live)).rounded()))%)" : ""
                guardReasons.append(
                    "sync would delete \(deleted) of \(live) \(kind.rawValue)\(share), more than --max-delete \(options.maxDelete)")
            }
        }
        let result = ImportResult(
            batchID: run.batchID, status: .committed, mode: options.mode, asOf: Timestamp.text(options.asOf),
            counts: run.counts, files: run.files, problemSpool: run.problems, reason: "", categorized: nil)
        return (result, guardReasons.isEmpty ? nil : guardReasons.joined(separator: "; "))
    }

    // MARK: - Recording outcomes that commit no data

    /// Records a failed batch (after the rollback) and returns the failure to throw.
    private func recordFailure(
        _ error: Error, startedAt: Date, options: ImportOptions, record: Bool, run: RunState
    ) -> ImportFailure {
        var failure: ImportFailure
        switch error {
        case let f as ImportFailure: failure = f
        case let s as StoreError: failure = .store(s, batchID: nil)
        case let e as SQLiteError: failure = .store(Store.classify(e, path: store.path), batchID: nil)
        default: failure = .store(.sqlite(SQLiteError(code: 1, message: "\(error)")), batchID: nil)
        }
        if case .store(.busy, _) = failure { return failure }
        // A damaged file gets no clean-up and no failure record: nothing more is written to it
        // (the connection is also query-only by then, see `Database.sawDamage`).
        if case .store(.damaged, _) = failure { return failure }
        guard !database.sawDamage else { return failure }
        try? StagingArea(database: database).clear()
        guard record else { return failure }
        let problems = run.problems
        if case .fileProblem(let problem, _) = failure {
            problems.startGroup(sortedByLine: false)
            try? problems.append(problem)
        }
        let result = ImportResult(
            batchID: nil, status: .failed, mode: options.mode, asOf: Timestamp.text(options.asOf), counts: run.counts,
            files: run.files, problemSpool: problems, reason: failure.description, categorized: nil)
        guard let id = recordOutcome(result, startedAt: startedAt, options: options) else { return failure }
        switch failure {
        case .fileProblem(let p, _): failure = .fileProblem(p, batchID: id)
        case .store(let s, _): failure = .store(s, batchID: id)
        case .inputUnreadable(let path, let reason, _): failure = .inputUnreadable(path: path, reason: reason, batchID: id)
        default: break
        }
        return failure
    }

    /// Records a batch that wrote no data (failed or dry run); nil when even that fails
    /// (a full disk, a read-only file), which never hides the original failure.
    private func recordOutcome(_ result: ImportResult, startedAt: Date, options: ImportOptions) -> Int? {
        var id: Int?
        try? database.inTransaction(.immediate) {
            let batchID = try BatchLog.begin(database, command: "import", startedAt: startedAt, options: options, status: result.status)
            try BatchLog.record(database, batchID: batchID, counts: result.counts, files: result.files, problems: result.problemSpool)
            try BatchLog.finish(database, batchID: batchID, status: result.status, reason: result.reason, finishedAt: clock.now())
            id = batchID
            return .commit
        }
        return id
    }
}
