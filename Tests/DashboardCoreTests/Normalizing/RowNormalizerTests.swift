import Testing

@testable import DashboardCore

@Suite("RowNormalizer", .storeIndependent)
struct RowNormalizerTests {
    static let tasksHeader = ["task_id", "course_id", "title", "student_id", "due", "priority", "completed"]
    static let coursesHeader = ["course_id", "title", "code", "term", "teacher", "timezone"]

    static func tasks(dateOrder: DateOrder? = nil) throws -> RowNormalizer {
        RowNormalizer(layout: try HeaderLayout(header: tasksHeader, file: "tasks.csv"), dateOrder: dateOrder)
    }

    static func courses() throws -> RowNormalizer {
        RowNormalizer(layout: try HeaderLayout(header: coursesHeader, file: "courses.csv"))
    }

    /// A valid tasks row with one field replaced.
    static func taskRow(_ column: Int? = nil, _ value: String = "") -> [String] {
        var row = ["T1", "C1", "Essay", "s1", "2026-11-29", "high", "yes"]
        if let column { row[column] = value }
        return row
    }

    /// The problems of a rejected row (none when it was not rejected, which fails the test).
    static func problems(_ outcome: RowNormalizer.Outcome) -> [FieldProblem] {
        guard case .rejected(let problems) = outcome else {
            Issue.record("expected a rejected row, got \(outcome)")
            return []
        }
        return problems
    }

    // MARK: - Valid rows

    @Test("a tasks row is normalized: ids trimmed, title collapsed, values parsed")
    func validTask() throws {
        let outcome = try Self.tasks().normalize([" T1 ", "C1\u{00A0}", "  Essay \n\n draft ", " s1 ", " 2026-11-29T14:00 ", "High", " ✓ "])
        #expect(
            outcome
                == .task(
                    TaskRecord(
                        taskID: "T1", courseID: "C1", title: "Essay draft", studentID: "s1", due: "2026-11-29T14:00:00", priority: .high,
                        completed: true)))
    }

    @Test("a tasks file without optional columns gives undated, normal, open tasks")
    func optionalColumnsAbsent() throws {
        let normalizer = RowNormalizer(layout: try HeaderLayout(header: ["title", "course_id", "task_id"], file: "t.csv"))
        #expect(normalizer.normalize(["Quiz", "C1", "T9"]) == .task(TaskRecord(taskID: "T9", courseID: "C1", title: "Quiz")))
    }

    @Test("empty optional cells are undated, normal and open")
    func emptyOptionalCells() throws {
        #expect(
            try Self.tasks().normalize(["T1", "C1", "Essay", "", "", "", ""])
                == .task(TaskRecord(taskID: "T1", courseID: "C1", title: "Essay")))
    }

    @Test("a courses row is normalized; code defaults to the course id, time zone canonical")
    func validCourse() throws {
        let normalizer = try Self.courses()
        #expect(
            normalizer.normalize(["C1", " Intro  to\nSwift ", "", " 2026  Spring ", " Ada \t Lovelace ", "europe/berlin"])
                == .course(
                    CourseRecord(
                        courseID: "C1", code: "C1", title: "Intro to Swift", term: "2026 Spring", teacher: "Ada Lovelace",
                        timezone: "Europe/Berlin"))
        )
        #expect(
            normalizer.normalize(["C2", "Maths", " CS  101 ", "", "", ""])
                == .course(CourseRecord(courseID: "C2", code: "CS 101", title: "Maths")))
    }

    @Test("the title is put in NFC")
    func titleNFC() throws {
        guard case .task(let task) = try Self.tasks().normalize(Self.taskRow(2, "Cafe\u{301}")) else {
            Issue.record("not a task")
            return
        }
        #expect(scalars(task.title) == scalars("Caf\u{E9}"))
    }

    // MARK: - Blank rows

    @Test(
        "a row whose every field is empty or whitespace is blank, whatever its field count",
        arguments: [[""], ["", "", "", "", "", "", ""], ["  ", "\u{00A0}", "\t", "", "\n", "", " "], ["", ""]])
    func blankRows(fields: [String]) throws {
        #expect(try Self.tasks().normalize(fields) == .blank)
    }

    // MARK: - Row-level errors

    @Test("empty required values are missing_value, every one reported")
    func missingValues() throws {
        let problems = Self.problems(try Self.tasks().normalize(["  ", "", "\u{00A0}\n", "s1", "", "", ""]))
        #expect(
            problems == [
                FieldProblem(
                    code: .missingValue, column: "task_id", value: "  ", message: "task_id is empty",
                    hint: "every tasks row needs a task_id"),
                FieldProblem(
                    code: .missingValue, column: "course_id", value: "", message: "course_id is empty",
                    hint: "every tasks row needs a course_id"),
                FieldProblem(
                    code: .missingValue, column: "title", value: "\u{00A0}\n", message: "title is empty",
                    hint: "every tasks row needs a title"),
            ])
        let course = Self.problems(try Self.courses().normalize(["C1", " ", "", "", "", ""]))
        #expect(
            course == [
                FieldProblem(
                    code: .missingValue, column: "title", value: " ", message: "title is empty", hint: "every courses row needs a title")
            ])
    }

    @Test("a row with fewer fields than the header is wrong_field_count, Frictionless missing-cell")
    func tooFewFields() throws {
        let problem = FieldProblem(
            code: .wrongFieldCount, column: "", value: "T1,C1,not a date", message: "the row has 3 fields, the header has 7",
            hint: "a field is missing, or a quote is not closed on the line before", frictionlessType: "missing-cell")
        #expect(try Self.tasks().normalize(["T1", "C1", "not a date"]) == .rejected([problem]))
        let located = problem.located(file: "tasks.csv", line: 5, row: 4)
        #expect(located.frictionlessType == "missing-cell")
        #expect((located.file, located.line, located.row, located.code) == ("tasks.csv", 5, 4, .wrongFieldCount))
    }

    @Test("a row with more fields than the header is wrong_field_count, Frictionless extra-cell; no other check runs")
    func tooManyFields() throws {
        let fields = ["T1", "C1", "Essay", "s1", "tomorrow", "asap", "maybe", "extra"]
        let problem = FieldProblem(
            code: .wrongFieldCount, column: "", value: fields.joined(separator: ","), message: "the row has 8 fields, the header has 7",
            hint: "a value holds the delimiter: put it in double quotes", frictionlessType: "extra-cell")
        #expect(try Self.tasks().normalize(fields) == .rejected([problem]))
        #expect(problem.located(file: "t", line: 2, row: 1).frictionlessType == "extra-cell")
        #expect(ProblemCode.wrongFieldCount.frictionlessType == "extra-cell")
    }

    @Test("the value of a wrong_field_count is cut to 200 characters")
    func wrongFieldCountValueCut() throws {
        let problems = Self.problems(try Self.tasks().normalize([String(repeating: "a", count: 300)]))
        #expect(problems.map(\.value) == [String(repeating: "a", count: 200)])
    }

    @Test(
        "unparsable values are rejected with their code, column and raw value",
        arguments: [
            (4, "tomorrow", ProblemCode.invalidDate, "due"),
            (4, "11/29/2026", .ambiguousDate, "due"),
            (4, "1850-01-01", .implausibleDate, "due"),
            (5, "asap", .invalidPriority, "priority"),
            (6, "maybe", .invalidBoolean, "completed"),
        ])
    func invalidValue(column: Int, value: String, code: ProblemCode, name: String) throws {
        let problems = Self.problems(try Self.tasks().normalize(Self.taskRow(column, value)))
        #expect(problems.map(\.code) == [code])
        #expect(problems.map(\.column) == [name])
        #expect(problems.map(\.value) == [value])
        #expect(code.severity == .error && !code.isFileLevel)
    }

    @Test("a slashed date is accepted when a date order is given")
    func dateOrderGiven() throws {
        let outcome = try Self.tasks(dateOrder: .dmy).normalize(Self.taskRow(4, "29/11/2026"))
        #expect(
            outcome
                == .task(
                    TaskRecord(
                        taskID: "T1", courseID: "C1", title: "Essay", studentID: "s1", due: "2026-11-29", priority: .high, completed: true))
        )
    }

    @Test("an unknown time zone is invalid_timezone")
    func invalidTimezone() throws {
        let problems = Self.problems(try Self.courses().normalize(["C1", "Maths", "", "", "", "Mars/Olympus"]))
        #expect(
            problems == [
                FieldProblem(
                    code: .invalidTimezone, column: "timezone", value: "Mars/Olympus",
                    message: "\"Mars/Olympus\" is not an IANA time zone name",
                    hint: "use a name such as Europe/Berlin or America/New_York (not an abbreviation like PST)")
            ])
    }

    @Test("every problem of a row is reported, in column order")
    func allProblemsReported() throws {
        let problems = Self.problems(try Self.tasks().normalize(["T1", "", "Essay", "s1", "2026-02-30", "top", "nah"]))
        #expect(problems.map(\.code) == [.missingValue, .invalidDate, .invalidPriority, .invalidBoolean])
        #expect(problems.map(\.column) == ["course_id", "due", "priority", "completed"])
        let course = Self.problems(try Self.courses().normalize(["", "", "", "", "", "CET+1"]))
        #expect(course.map(\.code) == [.missingValue, .missingValue, .invalidTimezone])
    }

    // MARK: - Field length

    @Test("a field over 4 KiB (UTF-8 bytes) is value_too_long; exactly 4 KiB is accepted")
    func valueTooLong() throws {
        let normalizer = try Self.tasks()
        let limit = String(repeating: "a", count: 4096)
        #expect(
            normalizer.normalize(Self.taskRow(2, limit))
                == .task(
                    TaskRecord(
                        taskID: "T1", courseID: "C1", title: limit, studentID: "s1", due: "2026-11-29", priority: .high, completed: true)))
        let long = String(repeating: "é", count: 2049)  // 2049 characters, 4098 bytes
        #expect(
            Self.problems(normalizer.normalize(Self.taskRow(2, long)))
                == [
                    FieldProblem(
                        code: .valueTooLong, column: "title", value: String(repeating: "é", count: 80) + "…",
                        message: "the value is 4098 bytes long (the limit is 4096)",
                        hint: "shorten the value; a field this long is usually two fields merged by a quote")
                ])
    }

    @Test("value_too_long names each long stored field, ignores unknown columns, and the row's other problems still show")
    func valueTooLongEverywhere() throws {
        let normalizer = RowNormalizer(layout: try HeaderLayout(header: ["task_id", "notes", "course_id", "title", "due"], file: "t.csv"))
        let long = String(repeating: "x", count: 5000)
        let problems = Self.problems(normalizer.normalize([long, long, "C1", long, "not a date"]))
        // Issue 11: every problem of a row at once (a long value is not parsed, the others are).
        #expect(problems.map(\.code) == [.valueTooLong, .valueTooLong, .invalidDate])
        #expect(problems.map(\.column) == ["task_id", "title", "due"])
        #expect(problems.prefix(2).map(\.message) == Array(repeating: "the value is 5000 bytes long (the limit is 4096)", count: 2))
        // A long due is value_too_long only, not an invalid date as well.
        #expect(Self.problems(normalizer.normalize(["T1", "", "C1", "Essay", long])).map(\.code) == [.valueTooLong])
        // The course id of a rejected row is handed on (for unknown_course) only when it can be trusted.
        #expect(normalizer.courseReference(["T1", "", " C1 ", "Essay", long]) == "C1")
        #expect(normalizer.courseReference(["T1", "", long, "Essay", ""]) == nil)
        #expect(normalizer.courseReference(["T1", "", "", "Essay", ""]) == nil)
        #expect(normalizer.courseReference(["T1", "C1"]) == nil)
        // A long value in a column the product does not store is not a reason to reject the row.
        #expect(normalizer.normalize(["T1", long, "C1", "Essay", ""]) == .task(TaskRecord(taskID: "T1", courseID: "C1", title: "Essay")))
        #expect(RowNormalizer.maxFieldBytes == 4096)
    }
}
