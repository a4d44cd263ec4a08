/// The fold of one file's read rows into counts and problems.
///
/// It decides, row by row, what a read row means (a blank run, a rejected row, a course or a
/// task to write) and keeps the file's counts; it never touches the database: what is to be
/// written comes back as an `Action` for the importer to hand to its writer, and what the
/// writer found (a repeated id) comes back in through `written(_:)`. The words of every
/// problem are `ImportMessages`'.
///
/// Problems go straight to the run's spool (never a per-file array: a file of 1,000,000
/// rejected rows must not hold them in memory), listed by line within the file.
struct ImportFold {
    /// What the importer is to do with a row the fold took.
    enum Action {
        case none
        /// Stage a valid course (its outcome comes back through `written`).
        case course(CourseRecord, line: Int, row: Int)
        /// Write a valid task with its bucket.
        case task(StagingArea.PendingTask)
        /// Remember the id of a rejected row (a sync must not delete its live row).
        case rejected(FileKind, id: String)
    }

    let file: String
    let kind: FileKind
    let problems: ProblemSpool
    /// Course id → time zone of the courses a task may reference (tasks files only).
    let validCourses: [String: String]
    private(set) var counts: ImportCounts
    /// Rows of the file that were not blank.
    private(set) var fileRows = 0
    /// Valid rows written so far in the run (for the progress bar).
    private(set) var rowsSoFar: Int
    private var row = 0
    private var blankRun: (line: Int, row: Int, count: Int, lastLine: Int)?
    /// The file's header, once `header(_:)` has read it.
    private var layout: HeaderLayout?
    private var headerLine: Int { layout?.headerLine ?? 1 }

    init(file: String, kind: FileKind, problems: ProblemSpool, validCourses: [String: String], counts: ImportCounts, rowsSoFar: Int) {
        self.file = file
        self.kind = kind
        self.problems = problems
        self.validCourses = validCourses
        self.counts = counts
        self.rowsSoFar = rowsSoFar
    }

    /// Reports the columns of the header that no field uses (one warning for all of them).
    mutating func header(_ layout: HeaderLayout) throws {
        self.layout = layout
        guard !layout.unknownColumns.isEmpty else { return }
        try problems.append(ImportMessages.unknownColumns(layout.unknownColumns, kind: kind, file: file, headerLine: layout.headerLine))
    }

    /// Takes one read row (not `.progress`, which the importer shows itself).
    mutating func take(_ item: ReadRow, run: inout Importer.RunState) throws -> Action {
        switch item {
        case .progress:
            return .none
        case .blankLine(let line):
            row += 1
            extendBlankRun(line)
            return .none
        case .malformedQuote(let line, let text):
            row += 1
            try startRow()
            try reject([ImportMessages.malformedQuote(text)], line: line)
            run.unidentified[kind, default: 0] += 1
            return .none
        case .candidate:
            // The importer looks candidates up first (`UnchangedRows`) and hands over the
            // prepared row of each one it did not skip.
            throw InternalError.unexpected("a candidate row reached the fold")
        case .record(let line, let outcome, let identity, let bucket, let course, let print):
            row += 1
            switch outcome {
            case .blank:
                extendBlankRun(line)
                return .none
            case .repeatedHeader:
                // Not data: not read, not rejected; a warning naming the line.
                try flushBlankRun()
                try problems.append(ImportMessages.repeatedHeader(file: file, line: line, row: row, headerLine: headerLine))
                return .none
            case .otherHeader(let other):
                // The reading thread stops at such a row (`RowReader`); said the same way here.
                throw ImportFailure.fileProblem(
                    ImportMessages.mismatchedHeader(other, of: layout ?? other, file: file, line: line, value: ""), batchID: nil)
            case .rejected(let fieldProblems):
                try startRow()
                // Every problem of the row at once: an unknown course too.
                var all = fieldProblems
                if let course, validCourses[course] == nil {
                    all.append(ImportMessages.unknownCourse(course, ownRowRejected: run.rejectedCourses.contains(course)))
                }
                try reject(all, line: line)
                rowsSoFar += 1
                guard let id = identity else {
                    run.unidentified[kind, default: 0] += 1
                    return .none
                }
                if kind == .courses { run.rejectedCourses.insert(id) }
                return .rejected(kind, id: id)
            case .course(let course):
                try startRow()
                rowsSoFar += 1
                return .course(course, line: line, row: row)
            case .task(let task):
                try startRow()
                guard let bucket else {
                    try reject(
                        [ImportMessages.unknownCourse(task.courseID, ownRowRejected: run.rejectedCourses.contains(task.courseID))],
                        line: line)
                    return .rejected(.tasks, id: task.taskID)
                }
                rowsSoFar += 1
                return .task(StagingArea.PendingTask(task: task, bucket: bucket.rawValue, file: file, line: line, row: row, print: print))
            }
        }
    }

    /// Takes a row found unchanged by its print (`UnchangedRows`): read, valid, not written.
    mutating func takeUnchanged() throws {
        row += 1
        try startRow()
        rowsSoFar += 1
    }

    /// Takes what the writer found when it wrote a row: a repeat of an id written before is a
    /// warning (an exact repeat, imported once) or an error (other values; the first row kept).
    mutating func written(_ outcome: StagingArea.StageOutcome, id: String, idColumn: String, line: Int, row: Int) throws {
        switch outcome {
        case .staged: break
        case .repeatOf(let firstFile, let firstLine):
            try problems.append(
                ImportMessages.repeatedRow(file: file, line: line, row: row, idColumn: idColumn, id: id, first: (firstFile, firstLine)))
        case .conflictsWith(let firstFile, let firstLine):
            counts.rejected += 1
            try problems.append(
                ImportMessages.conflictingRow(file: file, line: line, row: row, idColumn: idColumn, id: id, first: (firstFile, firstLine)))
        }
    }

    /// Ends the file: a blank run still open becomes its warning.
    mutating func finish() throws {
        try flushBlankRun()
    }

    // MARK: - Rows

    /// Starts a row that is not blank: ends a blank run before it, counts it as read.
    private mutating func startRow() throws {
        try flushBlankRun()
        fileRows += 1
        counts.read += 1
    }

    private mutating func reject(_ fieldProblems: [FieldProblem], line: Int) throws {
        counts.rejected += 1
        for problem in fieldProblems {
            try problems.append(problem.located(file: file, line: line, row: row))
        }
    }

    private mutating func extendBlankRun(_ line: Int) {
        if let current = blankRun {
            blankRun = (current.line, current.row, current.count + 1, line)
        } else {
            blankRun = (line, row, 1, line)
        }
    }

    private mutating func flushBlankRun() throws {
        guard let run = blankRun else { return }
        blankRun = nil
        try problems.append(ImportMessages.blankRows(file: file, line: run.line, row: run.row, count: run.count, lastLine: run.lastLine))
    }
}
