import Testing

@testable import DashboardCore

@Suite("HeaderLayout: column names and aliases", .storeIndependent)
struct ColumnNameTests {
    @Test(
        "header cells match case-insensitively, ignoring spaces, _ and -",
        arguments: [
            ("Due Date", "duedate"), ("COURSE_ID", "courseid"), ("task-id", "taskid"), ("\u{00A0}Title\u{00A0}", "title"),
            ("Due\tDate", "duedate"), (" Is_Completed ", "iscompleted"), ("Fälligkeit", "fälligkeit"),
        ])
    func matchingKey(header: String, key: String) {
        #expect(Column.matchingKey(header) == key)
    }

    @Test(
        "documented aliases name their column",
        arguments: [
            ("course_id", Column.courseID), ("Course ID", .courseID), ("course", .courseID), ("title", .title), ("Name", .title),
            ("Task Title", .title), ("assignment", .title), ("code", .code), ("short_name", .code), ("semester", .term),
            ("instructor", .teacher), ("TZ", .timezone), ("Time Zone", .timezone), ("task_id", .taskID), ("Task", .taskID),
            ("Student ID", .studentID), ("learner_id", .studentID), ("due date", .due), ("Deadline", .due), ("Due-At", .due),
            ("prio", .priority), ("done", .completed), ("Finished", .completed), ("is_completed", .completed),
        ])
    func alias(header: String, column: Column) {
        #expect(Column.named(header) == column)
    }

    @Test("every alias names exactly one column, its canonical name first")
    func aliasTable() {
        var owners: [String: [Column]] = [:]
        for column in Column.allCases {
            #expect(column.aliases.first == Column.matchingKey(column.rawValue), "\(column)")
            for alias in column.aliases {
                owners[alias, default: []].append(column)
                #expect(Column.named(alias) == column, "\(alias)")
                #expect(Column.matchingKey(alias) == alias, "alias \(alias) is not in matching form")
            }
        }
        #expect(owners.filter { $0.value.count > 1 }.isEmpty)
    }

    @Test("other names are unknown", arguments: ["notes", "id", "", "due_date_2", "student name", "titles"])
    func unknown(header: String) {
        #expect(Column.named(header) == nil)
    }

    @Test(
        "the file name is only a hint for the kind",
        arguments: [
            ("courses.csv", FileKind?.some(.courses)), ("Course-List.CSV", .courses), ("my_tasks_2024.csv", .tasks),
            ("TASKS.csv", .tasks), ("data.csv", nil), ("export.txt", nil),
        ])
    func kindHint(fileName: String, kind: FileKind?) {
        #expect(HeaderLayout.kindHint(fileName: fileName) == kind)
    }
}

@Suite("HeaderLayout: kinds and columns", .storeIndependent)
struct HeaderLayoutTests {
    @Test("a header with task_id is a tasks file; columns may come in any order")
    func tasksFile() throws {
        let layout = try HeaderLayout(header: ["Title", "Due Date", " Task ID ", "notes", "Course", "PRIORITY"], file: "x.csv")
        #expect(layout.kind == .tasks)
        #expect(layout.indexes == [.title: 0, .due: 1, .taskID: 2, .courseID: 4, .priority: 5])
        #expect(layout.unknownColumns == ["notes"])
        #expect(layout.fieldCount == 6)
        #expect(layout.headerLine == 1)
    }

    @Test("a header with course_id and title but no task_id is a courses file")
    func coursesFile() throws {
        let layout = try HeaderLayout(header: ["course_id", "title", "teacher", "time zone", "code", "term"], file: "x.csv")
        #expect(layout.kind == .courses)
        #expect(layout.indexes == [.courseID: 0, .title: 1, .teacher: 2, .timezone: 3, .code: 4, .term: 5])
        #expect(layout.unknownColumns == [])
    }

    @Test("columns of the other kind are unknown (trimmed) and not mapped")
    func otherKindColumnsUnknown() throws {
        let tasks = try HeaderLayout(header: ["task_id", "course_id", "title", " Teacher ", "x", "code"], file: "t.csv")
        #expect(tasks.indexes == [.taskID: 0, .courseID: 1, .title: 2])
        #expect(tasks.unknownColumns == ["Teacher", "x", "code"])
        let courses = try HeaderLayout(header: ["due", "course_id", "title", "completed"], file: "c.csv")
        #expect(courses.kind == .courses)
        #expect(courses.indexes == [.courseID: 1, .title: 2])
        #expect(courses.unknownColumns == ["due", "completed"])
    }

    @Test("an empty header cell is an unknown column")
    func emptyHeaderCell() throws {
        let layout = try HeaderLayout(header: ["task_id", "course_id", "title", ""], file: "t.csv")
        #expect(layout.unknownColumns == [""])
        #expect(layout.fieldCount == 4)
    }

    @Test("course_id and title read as tasks when the file name says tasks and no course-only column is present")
    func fileNameHintDecidesAmbiguousHeader() throws {
        let problem = #expect(throws: ImportProblem.self) {
            try HeaderLayout(header: ["course_id", "title", "due"], file: "tasks.csv", fileNameHint: .tasks)
        }
        #expect(problem?.code == .missingColumn)
        #expect(problem?.column == "task_id")
        let courses = try HeaderLayout(header: ["course_id", "title", "teacher"], file: "tasks.csv", fileNameHint: .tasks)
        #expect(courses.kind == .courses)
        let hinted = try HeaderLayout(header: ["course_id", "title"], file: "courses.csv", fileNameHint: .courses)
        #expect(hinted.kind == .courses)
    }

    @Test("a header naming neither kind is unknown_file_kind, quoting its first six cells")
    func unknownFileKind() {
        #expect(
            throws: ImportProblem(
                code: .unknownFileKind, file: "data.csv", line: 1, row: 0, value: "a,b,c,d,e,f",
                message: "the header names neither a courses file (course_id, title) nor a tasks file (task_id, course_id, title)",
                hint: "the first line must be the header; name the columns as in docs/formats.md")
        ) {
            try HeaderLayout(header: ["a", "b", "c", "d", "e", "f", "g"], file: "data.csv")
        }
        let titleOnly = #expect(throws: ImportProblem.self) { try HeaderLayout(header: ["title", "due"], file: "data.csv") }
        #expect(titleOnly?.code == .unknownFileKind)
        #expect(titleOnly?.value == "title,due")
    }

    @Test(
        "a missing required column is missing_column naming it and its accepted names",
        arguments: [
            (["task_id", "course_id"], FileKind?.none, "tasks", Column.title),
            (["task_id", "title", "due"], nil, "tasks", .courseID),
            (["title", "teacher"], .courses, "courses", .courseID),
            (["course_id", "code"], .courses, "courses", .title),
            (["title", "priority"], .tasks, "tasks", .taskID),
        ])
    func missingColumn(header: [String], hint: FileKind?, kind: String, column: Column) {
        #expect(
            throws: ImportProblem(
                code: .missingColumn, file: "f.csv", line: 1, row: 0, column: column.rawValue,
                message: "the \(kind) file has no \(column.rawValue) column",
                hint: "add a \(column.rawValue) column (accepted names: \(column.aliases.joined(separator: ", ")))")
        ) {
            try HeaderLayout(header: header, file: "f.csv", fileNameHint: hint)
        }
    }

    @Test(
        "a column named twice, directly or through an alias, is duplicate_column",
        arguments: [
            (["task_id", "course_id", "title", "Task ID"], Column.taskID, "Task ID", 1, 4),
            (["task_id", "due", "course_id", "title", "deadline"], .due, "deadline", 2, 5),
            (["course_id", "title", "name"], .title, "name", 2, 3),
            (["done", "task_id", "course_id", "title", " completed "], .completed, "completed", 1, 5),
        ])
    func duplicateColumn(header: [String], column: Column, value: String, first: Int, second: Int) {
        #expect(
            throws: ImportProblem(
                code: .duplicateColumn, file: "f.csv", line: 1, row: 0, column: column.rawValue, value: value,
                message: "column \(column.rawValue) appears twice (fields \(first) and \(second))",
                hint: "keep one of the two columns, or rename the other")
        ) {
            try HeaderLayout(header: header, file: "f.csv")
        }
    }

    @Test("file-level header problems have file-level codes and Frictionless label types")
    func problemCodes() {
        #expect(ProblemCode.missingColumn.isFileLevel && ProblemCode.duplicateColumn.isFileLevel && ProblemCode.unknownFileKind.isFileLevel)
        #expect(ProblemCode.unknownColumn.severity == .warning)
        #expect(!ProblemCode.unknownColumn.isFileLevel)
        #expect(
            [ProblemCode.missingColumn, .duplicateColumn, .unknownColumn, .unknownFileKind].map(\.frictionlessType)
                == ["missing-label", "duplicate-label", "extra-label", "schema-error"])
    }
}
