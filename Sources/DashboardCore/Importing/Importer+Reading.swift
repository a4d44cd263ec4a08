import Foundation

extension Importer {
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
        /// Steps of the reading phase timed on their own, for the trace (`UnchangedRows.steps`).
        var steps: [(name: String, nanoseconds: UInt64)] = []
    }

    /// How reading one file ended.
    enum FileReadOutcome {
        case read
        /// The direct writer met a repeated task id (`TaskWriteOutcome.needsStagedPath`).
        case needsStagedPath
    }

    /// Reads the task files through `writer`: the direct one inside a savepoint, so that a
    /// repeated id (which only the staging tables can report, with the first row's line) can
    /// undo every row it wrote and read the files again through `staging`.
    ///
    /// Why the path cannot be decided entirely before reading: whether a task id repeats is
    /// known only from the rows themselves, and finding out first would read every file twice
    /// (or hold every id in memory), a cost the first import of a school (the benchmarked
    /// run) pays for a case that almost never happens. So the choice is made up front
    /// (`ImportPath.choose`) and the rows can overturn it once, by a value, not an error.
    ///
    /// The staged path skips the rows it finds unchanged by their print (`UnchangedRows`) when
    /// `skipping` says it may, inside a savepoint too: what only the full path can report (a
    /// repeat in a later file of a row skipped in an earlier one; a repeat within a file is
    /// staged after its skipped row, `stageSkippedRows`) reads the files again with every row
    /// staged. The savepoint stays open when rows were skipped: the caller ends it
    /// (`endSkipping`) after the plan, which a held batch needs whole.
    /// - Returns: the path the tasks were written by, and where the skipping run started when
    ///   rows were skipped (its savepoint still open).
    func readTasks(
        _ files: [(file: InputFile, layout: HeaderLayout)], path: ImportPath, staging: StagingArea, batchID: Int?,
        validCourses: [String: String], skipping: Bool, run: inout RunState
    ) throws -> (writer: ImportWriter, skipped: SkipStart?) {
        let printing: PrintMode = try batchID != nil && RowPrints.kept(database) ? .attach : .none
        if path == .direct, let batchID {
            let before = run
            let problemsBefore = run.problems.mark
            try database.execute("SAVEPOINT direct_tasks")
            // Courses first, so that every task insert finds its course.
            try staging.applyCourses(batchID: batchID)
            let writer = try DirectTaskWriter(database: database, batchID: batchID)
            var outcome = FileReadOutcome.read
            for (file, layout) in files where outcome == .read {
                outcome = try readFile(
                    file, layout: layout, staging: staging, writer: writer, validCourses: validCourses, printing: printing, run: &run)
            }
            if outcome == .read {
                try database.execute("RELEASE direct_tasks")
                return (writer, nil)
            }
            try database.execute("ROLLBACK TO direct_tasks; RELEASE direct_tasks")
            run = before
            try run.problems.truncate(to: problemsBefore)
        }
        if path == .staged, skipping {
            let before = SkipStart(run: run, problems: run.problems.mark)
            try staging.numberFiles(files.map(\.file.path))
            try database.execute("SAVEPOINT skipping_tasks")
            let unchanged = try UnchangedRows(database: database)
            var outcome = FileReadOutcome.read
            for (file, layout) in files where outcome == .read {
                outcome = try readFile(
                    file, layout: layout, staging: staging, writer: staging, validCourses: validCourses, printing: .candidates,
                    unchanged: unchanged, run: &run)
            }
            let seenAll = outcome == .read ? try unchanged.markUnseen() : false
            run.steps += unchanged.steps
            if seenAll {
                staging.skippedUnchanged = unchanged.skipped
                staging.largestSlot = unchanged.largestSlot
                return (staging, before)
            }
            try undoSkipping(before, staging: staging, run: &run)
        }
        for (file, layout) in files {
            _ = try readFile(
                file, layout: layout, staging: staging, writer: staging, validCourses: validCourses, printing: printing, run: &run)
        }
        return (staging, nil)
    }

    /// Stages the rows of `file` that were skipped but whose id the file repeats, then the
    /// repeats: each skipped row with the stored values its print proved, at the line where the
    /// file has it again (the first row of that id whose print is the stored one; the file is
    /// read once more, without normalizing), so that the staging tables report each repeat with
    /// the first row's line, as when every row is staged.
    /// - Returns: false when a skipped row is not in this file (an earlier file's): the run
    ///   needs the full path.
    private func stageSkippedRows(
        of repeats: [StagingArea.PendingTask], file: InputFile, layout: HeaderLayout, options: ImportOptions,
        unchanged: UnchangedRows, preparer: inout RecordPreparer, writer: ImportWriter, written: (TaskWriteOutcome) throws -> Bool
    ) throws -> Bool {
        var wanted: [String: (task: TaskRecord, print: RowPrint, slot: Int)] = [:]
        for repeated in repeats where wanted[repeated.task.taskID] == nil {
            guard let skipped = try unchanged.skippedTask(repeated.task.taskID) else { return false }
            wanted[repeated.task.taskID] = skipped
        }
        var lines: [String: Int] = [:]
        guard let printer = RowPrinter(layout: layout, dateOrder: options.dateOrder), let taskIDIndex = layout.indexes[.taskID] else {
            return false
        }
        var readerOptions = FileReading.readerOptions(options)
        readerOptions.fieldBytes = options.readsBytes
        let reader = CSVReader(source: try file.open(), options: readerOptions)
        var header = true
        do {
            try reader.read { event in
                guard case .record(let record) = event else { return }
                if header {
                    header = false
                    return
                }
                guard lines.count < wanted.count, taskIDIndex < record.fieldCount else { return }
                let id = record.field(taskIDIndex)
                guard lines[id] == nil, let skipped = wanted[id], printer.print(record) == skipped.print else { return }
                lines[id] = record.line
            }
        } catch let error as CSVFileError {
            throw FileReading.fileFailure(error, file: file, batchID: nil, wording: options.wording)
        }
        guard lines.count == wanted.count else { return false }
        // A skipped row comes before its first repeat; a row found after it is a copy in this
        // file of a row skipped in an earlier one (whose line only the full path has).
        var firstRepeat: [String: Int] = [:]
        for repeated in repeats where firstRepeat[repeated.task.taskID] == nil { firstRepeat[repeated.task.taskID] = repeated.line }
        if lines.contains(where: { $0.value >= firstRepeat[$0.key] ?? 0 }) { return false }
        // The skipped rows in the order of their lines, then the repeats in theirs.
        for (id, line) in lines.sorted(by: { $0.value < $1.value }) {
            guard let skipped = wanted[id] else { continue }
            let first = StagingArea.PendingTask(
                task: skipped.task, bucket: preparer.bucket(of: skipped.task), file: file.path, line: line, row: 0,
                print: skipped.print)
            guard try written(try writer.write(first)) else { return false }
            unchanged.restaged(slot: skipped.slot)
        }
        for repeated in repeats {
            guard try written(try writer.write(repeated)) else { return false }
        }
        return true
    }

    /// Where a run that skips rows started: what undoing it restores.
    struct SkipStart {
        var run: RunState
        var problems: ProblemSpool.Mark
    }

    /// Ends the savepoint of a run that skipped rows, keeping what it staged.
    func endSkipping() throws {
        try database.execute("RELEASE skipping_tasks")
    }

    /// Undoes the reading of a run that skipped rows, back to its savepoint (which it ends).
    func undoSkipping(_ start: SkipStart, staging: StagingArea, run: inout RunState) throws {
        try database.execute("ROLLBACK TO skipping_tasks; RELEASE skipping_tasks")
        run = start.run
        try run.problems.truncate(to: start.problems)
        staging.discardPending()
        staging.skippedUnchanged = nil
        staging.largestSlot = nil
    }

    /// Reads one file: one thread reads and normalizes, this one folds the rows
    /// (`ImportFold`) and hands the valid ones to `writer` (courses always to `staging`).
    /// - Parameters:
    ///   - printing: what the reading thread does with the rows' prints (`PrintMode`).
    ///   - unchanged: the run's lookup of unchanged rows, when it skips them (`.candidates`).
    func readFile(
        _ file: InputFile, layout: HeaderLayout, staging: StagingArea, writer: ImportWriter, validCourses: [String: String],
        printing: PrintMode = .none, unchanged: UnchangedRows? = nil, run: inout RunState
    ) throws -> FileReadOutcome {
        let problems = run.problems
        problems.startGroup(sortedByLine: true)
        let warningsBefore = problems.warningCount
        // A file that fails part way adds none of its problems, as it adds none of its counts.
        let fileMark = problems.mark
        var fileDone = false
        defer { if !fileDone { try? problems.truncate(to: fileMark) } }
        var fold = ImportFold(
            file: file.path, kind: layout.kind, problems: problems, validCourses: layout.kind == .tasks ? validCourses : [:],
            counts: run.counts[layout.kind] ?? ImportCounts(), rowsSoFar: run.rows)
        try fold.header(layout)

        func written(_ outcome: TaskWriteOutcome) throws -> Bool {
            guard case .written(let repeats) = outcome else { return false }
            for (repeated, found) in repeats {
                try fold.written(found, id: repeated.task.taskID, idColumn: "task_id", line: repeated.line, row: repeated.row)
            }
            return true
        }

        // Candidates the lookup does not find unchanged are prepared here, as the reader would.
        var preparer = RecordPreparer(file: file.path, layout: layout, options: run.options, validCourses: fold.validCourses)
        let taskIDIndex = layout.indexes[.taskID] ?? 0
        let reader = RowReader(
            file: file, layout: layout, options: run.options, validCourses: fold.validCourses,
            printing: unchanged == nil && printing == .candidates ? .attach : printing)
        reader.start()
        var outcome = FileReadOutcome.read
        var repeatsOfSkipped: [StagingArea.PendingTask] = []
        do {
            reading: while true {
                let waitStart = DispatchTime.now().uptimeNanoseconds
                guard let batch = reader.handoff.take() else { break }
                run.waitedForReader += DispatchTime.now().uptimeNanoseconds - waitStart
                for var item in batch {
                    if case .candidate(let record, let print) = item {
                        guard let unchanged else { throw InternalError.unexpected("a candidate row without a lookup") }
                        switch try unchanged.match(taskID: record.field(taskIDIndex), print: print) {
                        case .unchanged:
                            try fold.takeUnchanged()
                            continue
                        case .differs:
                            item = try preparer.prepare(record, print: print)
                        }
                    }
                    if case .progress(let bytes) = item {
                        progress?(
                            ImportProgress(
                                bytesRead: run.bytesBefore + bytes, bytesTotal: run.bytesTotal, rows: fold.rowsSoFar, file: file.path))
                        continue
                    }
                    switch try fold.take(item, run: &run) {
                    case .none: break
                    case .rejected(let kind, let id):
                        // Rejected ids keep a sync from deleting their live rows; tasks written
                        // directly go into a database without tasks, where none is deleted (and
                        // PostgreSQL's direct rows stream in a COPY no other statement may cut).
                        if kind == .tasks, writer.path == .direct { break }
                        try staging.markRejected(kind, id: id)
                    case .course(let course, let line, let row):
                        try fold.written(
                            try staging.stage(course, file: file.path, line: line), id: course.courseID, idColumn: "course_id",
                            line: line, row: row)
                    case .task(let task):
                        if let unchanged, !(try unchanged.noteStaged(taskID: task.task.taskID)) {
                            // A repeat of a skipped row: staged after it, at the file's end.
                            repeatsOfSkipped.append(task)
                            continue
                        }
                        guard try written(try writer.write(task)) else {
                            outcome = .needsStagedPath
                            break reading
                        }
                    }
                }
            }
            if outcome == .needsStagedPath {
                // A repeat early in a long file stops the reading thread.
                reader.handoff.cancel()
                reader.handoff.waitUntilFinished()
                return outcome
            }
        } catch {
            reader.handoff.cancel()
            reader.handoff.waitUntilFinished()
            throw error
        }
        let read = reader.outcome
        run.readerCPU += read.cpuNanoseconds
        if let failure = read.failure { throw failure }
        if let unchanged, !repeatsOfSkipped.isEmpty {
            guard
                try stageSkippedRows(
                    of: repeatsOfSkipped, file: file, layout: layout, options: run.options, unchanged: unchanged,
                    preparer: &preparer, writer: writer, written: written)
            else { return .needsStagedPath }
        }
        try fold.finish()
        // Repeats are found when their statement runs, after later rows' problems: the spool
        // lists this file's problems by line (file order).
        guard try written(try writer.endOfFile()) else { return .needsStagedPath }
        if writer !== staging {
            _ = try written(try staging.endOfFile())
        }
        var counts = fold.counts
        counts.warnings += problems.warningCount - warningsBefore
        fileDone = true
        run.counts[layout.kind] = counts
        run.files.append(ImportedFile(path: file.path, kind: layout.kind, size: read.bytesRead, sha256: read.sha256, rows: fold.fileRows))
        run.bytesBefore += read.bytesRead
        run.rows = fold.rowsSoFar
        return .read
    }
}
