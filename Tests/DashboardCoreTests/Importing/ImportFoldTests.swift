import Testing

@testable import DashboardCore

/// `ImportFold`: what each read row means, the counts it keeps and the problems it words,
/// without a database.
@Suite("ImportFold: read rows become counts, problems and rows to write")
struct ImportFoldTests {
    private func fold(_ kind: FileKind = .tasks, valid: [String: String] = ["C1": "UTC"]) -> ImportFold {
        ImportFold(file: "t.csv", kind: kind, problems: ProblemSpool(), validCourses: valid, counts: ImportCounts(), rowsSoFar: 0)
    }

    private func messages(_ spool: ProblemSpool) throws -> [String] {
        var all: [String] = []
        try spool.forEachProblem { all.append("\($0.line) \($0.code.rawValue) \($0.message)") }
        return all
    }

    @Test("blank lines become one warning when the next row comes, and are not read rows")
    func blankRun() throws {
        var fold = fold()
        var run = Importer.RunState(options: ImportOptions())
        fold.problems.startGroup(sortedByLine: true)
        _ = try fold.take(.blankLine(line: 2), run: &run)
        _ = try fold.take(.blankLine(line: 3), run: &run)
        let task = TaskRecord(taskID: "T1", courseID: "C1", title: "Essay")
        let action = try fold.take(.record(line: 4, outcome: .task(task), identity: "T1", bucket: .undated), run: &run)
        guard case .task(let pending) = action else {
            Issue.record("expected a task to write, got \(action)")
            return
        }
        #expect(pending.task == task && pending.bucket == "undated" && pending.line == 4 && pending.row == 3)
        #expect(try messages(fold.problems) == ["2 blank_row 2 blank rows (lines 2–3) were skipped"])
        #expect(fold.counts.read == 1 && fold.fileRows == 1 && fold.counts.rejected == 0)
    }

    @Test("a task whose course is unknown is rejected and its id remembered")
    func unknownCourse() throws {
        var fold = fold()
        var run = Importer.RunState(options: ImportOptions())
        fold.problems.startGroup(sortedByLine: true)
        let task = TaskRecord(taskID: "T9", courseID: "C9", title: "Lab")
        let action = try fold.take(.record(line: 2, outcome: .task(task), identity: "T9", bucket: nil), run: &run)
        guard case .rejected(.tasks, let id) = action else {
            Issue.record("expected a rejected id, got \(action)")
            return
        }
        #expect(id == "T9")
        #expect(try messages(fold.problems) == ["2 unknown_course course \"C9\" is not in the database or in this import"])
        #expect(fold.counts.read == 1 && fold.counts.rejected == 1)
    }

    @Test("a row the writer found repeated is a warning, one with other values an error that rejects it")
    func repeats() throws {
        var fold = fold()
        fold.problems.startGroup(sortedByLine: true)
        try fold.written(.repeatOf(file: "t.csv", line: 2), id: "T1", idColumn: "task_id", line: 5, row: 4)
        try fold.written(.conflictsWith(file: "a.csv", line: 3), id: "T2", idColumn: "task_id", line: 6, row: 5)
        #expect(
            try messages(fold.problems) == [
                "5 duplicate_row this row repeats line 2 exactly and was imported once",
                "6 duplicate_id task_id \"T2\" was already used on a.csv line 3 with different values; the first row was kept",
            ])
        #expect(fold.counts.rejected == 1)
    }

    @Test("a row that breaks the quoting rules is rejected and counted as unidentified")
    func malformedQuote() throws {
        var fold = fold()
        var run = Importer.RunState(options: ImportOptions())
        fold.problems.startGroup(sortedByLine: true)
        _ = try fold.take(.malformedQuote(line: 7, text: "a\"b"), run: &run)
        try fold.finish()
        #expect(run.unidentified[.tasks] == 1 && fold.counts.rejected == 1 && fold.counts.read == 1)
        #expect(fold.problems.count == 1)
    }

    @Test("a repeated header is a warning naming its line and the header's, not a read row; a blank run before it ends first")
    func repeatedHeader() throws {
        var fold = fold()
        var run = Importer.RunState(options: ImportOptions())
        fold.problems.startGroup(sortedByLine: true)
        var layout = try HeaderLayout(header: ["task_id", "course_id", "title"], file: "t.csv")
        layout.headerLine = 2
        try fold.header(layout)
        _ = try fold.take(.blankLine(line: 3), run: &run)
        let action = try fold.take(.record(line: 4, outcome: .repeatedHeader, identity: nil, bucket: nil), run: &run)
        guard case .none = action else {
            Issue.record("expected nothing to write, got \(action)")
            return
        }
        _ = try fold.take(.record(line: 5, outcome: .repeatedHeader, identity: nil, bucket: nil), run: &run)
        try fold.finish()
        #expect(
            try messages(fold.problems) == [
                "3 blank_row line 3 is blank and was skipped", "4 repeated_header line 4 repeats the header (line 2) and was skipped",
                "5 repeated_header line 5 repeats the header (line 2) and was skipped",
            ])
        #expect(fold.counts == ImportCounts() && fold.fileRows == 0 && run.unidentified.isEmpty)
    }

    @Test("another header is a file error naming its line, its columns and the file's")
    func otherHeader() throws {
        var fold = fold()
        var run = Importer.RunState(options: ImportOptions())
        try fold.header(try HeaderLayout(header: ["task_id", "course_id", "title"], file: "t.csv"))
        let other = try HeaderLayout(header: ["course_id", "title", "code"], file: "t.csv")
        do {
            _ = try fold.take(.record(line: 9, outcome: .otherHeader(other), identity: nil, bucket: nil), run: &run)
            Issue.record("expected a file error")
        } catch ImportFailure.fileProblem(let problem, nil) {
            #expect(problem.code == .mismatchedHeader && problem.line == 9 && problem.row == 0)
            #expect(
                problem.message
                    == "line 9 is the header of a courses file (course_id, title, code) inside a tasks file: the rows after it "
                    + "cannot be read with the header on line 1 (task_id, course_id, title)")
        }
    }
}
