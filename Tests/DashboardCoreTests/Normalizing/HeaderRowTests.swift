import Testing

@testable import DashboardCore

/// Data rows that are a header (`HeaderLayout.headerRow`, `RowNormalizer`): the file's own
/// header again is `repeatedHeader`, another layout's `otherHeader`; anything else stays data.
@Suite("HeaderLayout: rows that are a header", .storeIndependent)
struct HeaderRowTests {
    static let tasks = ["task_id", "course_id", "title", "due"]
    static let courses = ["course_id", "title", "code"]

    static func layout(_ header: [String], file: String = "t.csv") throws -> HeaderLayout {
        try HeaderLayout(header: header, file: file, fileNameHint: HeaderLayout.kindHint(fileName: file))
    }

    @Test(
        "the file's header again, however it is spelled, is the same header",
        arguments: [
            ["task_id", "course_id", "title", "due"], ["TASK_ID", "Course ID", "Title", "Due Date"],
            ["\u{FEFF}task_id", "course_id", "title", "due"], ["  task-id ", "course\u{A0}id", "title\r", "deadline"],
            ["task", "course", "name", "due at"], ["\u{200B}task_id", "course_id\u{2060}", "ti\u{AD}tle", "due"],
        ])
    func sameHeader(row: [String]) throws {
        #expect(try Self.layout(Self.tasks).headerRow(row) == .same)
        #expect(try RowNormalizer(layout: Self.layout(Self.tasks)).normalize(row) == .repeatedHeader)
    }

    @Test("a courses header again is the same header, and so is one whose ignored columns are named otherwise")
    func sameCoursesHeader() throws {
        let layout = try Self.layout(Self.courses, file: "courses.csv")
        #expect(layout.headerRow(["Course ID", "Course Name", "Short Name"]) == .same)
        let withIgnored = try Self.layout(["course_id", "title", "notes"], file: "courses.csv")
        #expect(withIgnored.headerRow(["course_id", "title", "remarks"]) == .same)
        #expect(withIgnored.headerRow(["course_id", "title", ""]) == .same)
    }

    @Test(
        "a header of another layout is another header: other order, other columns, more fields, the other kind",
        arguments: [
            (["course_id", "task_id", "title", "due"], FileKind.tasks, "course_id, task_id, title, due"),
            (["task_id", "course_id", "title", "priority"], .tasks, "task_id, course_id, title, priority"),
            (["task_id", "course_id", "title"], .tasks, "task_id, course_id, title"),
            (["task_id", "course_id", "title", "due", "notes"], .tasks, "task_id, course_id, title, due and 1 ignored field"),
            (["course_id", "title", "code", "term"], .courses, "course_id, title, code, term"),
            (["\u{FEFF}course_id", "title"], .courses, "course_id, title"),
            (["course_id", "C1", "title", ""], .courses, "course_id, title and 2 ignored fields"),
        ])
    func otherHeader(row: [String], kind: FileKind, columns: String) throws {
        let outcome = try Self.layout(Self.tasks).headerRow(row)
        guard case .other(let other)? = outcome else {
            Issue.record("expected another header, got \(String(describing: outcome))")
            return
        }
        #expect(other.kind == kind && other.columnList == columns)
        #expect(try RowNormalizer(layout: Self.layout(Self.tasks)).normalize(row) == .otherHeader(other))
    }

    @Test(
        "rows that only look like a header stay data",
        arguments: [
            // A real task whose course is called "course" and titled "Name": its task id names no column.
            ["T1", "course", "Name", "2026-11-29"],
            // Header words, but not every required column of a kind.
            ["task_id", "T1", "Essay", "due"], ["course_id", "C1", "Essay", ""], ["title", "due", "priority", "completed"],
            // A column named twice is no header.
            ["task_id", "course_id", "title", "title"],
            // Ordinary rows.
            ["T1", "C1", "Essay", "2026-11-29"], ["course", "C1", "Essay", ""], ["T1", "Course 101", "Course title", ""],
        ])
    func data(row: [String]) throws {
        #expect(try Self.layout(Self.tasks).headerRow(row) == nil)
    }

    @Test("in a courses file, a course literally called course and titled Name reads as the header: skipped, with a warning")
    func courseNamedLikeTheHeader() throws {
        let normalizer = RowNormalizer(layout: try Self.layout(["course_id", "title"], file: "courses.csv"))
        #expect(normalizer.normalize(["course", "Name"]) == .repeatedHeader)
        #expect(
            normalizer.normalize(["course", "Name of the course"])
                == .course(CourseRecord(courseID: "course", code: "course", title: "Name of the course")))
    }

    @Test(
        "mayNameCourseID is exact on ASCII and leaves other text to Column.named",
        arguments: [
            ("course_id", true), ("Course ID", true), ("COURSE-REF", true), ("course", true), (" course\t", true),
            ("\u{FEFF}course_id", true), ("course\u{A0}id", true), ("course_ids", false), ("courseid1", false), ("C1", false),
            ("courses", false), ("course title", false), ("course.id", false), ("", false), ("Reading quiz: chapter 4", false),
            ("cøurse", false), ("course\u{200B}ref", true),
        ])
    func mayNameCourseID(field: String, expected: Bool) {
        #expect(Column.mayNameCourseID(field) == expected)
        #expect(Column.mayNameCourseID(field) == (Column.named(field.trimmingUnicodeWhitespace()) == .courseID))
    }

    @Test("header names ignore invisible format characters, a second BOM included")
    func headerNamesIgnoreFormatCharacters() throws {
        #expect(Column.matchingKey("\u{FEFF}Task\u{200B}_ID\u{2060}") == "taskid")
        let layout = try HeaderLayout(header: ["\u{FEFF}task_id", "course_id", "title"], file: "t.csv")
        #expect(layout.kind == .tasks && layout.indexes[.taskID] == 0 && layout.unknownColumns.isEmpty)
    }
}
