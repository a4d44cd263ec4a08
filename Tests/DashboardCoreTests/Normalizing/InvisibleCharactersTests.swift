import Testing

@testable import DashboardCore

/// Invisible format characters (Unicode Cf) in ids are `invisible_character`; free text keeps
/// them (`InvisibleCharacters`, `RowNormalizer`).
@Suite("InvisibleCharacters: format characters in ids", .storeIndependent)
struct InvisibleCharactersTests {
    static let tasksHeader = ["task_id", "course_id", "title", "student_id", "assignment_id", "due", "priority"]

    static func tasks() throws -> RowNormalizer {
        RowNormalizer(layout: try HeaderLayout(header: tasksHeader, file: "tasks.csv"))
    }

    static func courses() throws -> RowNormalizer {
        RowNormalizer(layout: try HeaderLayout(header: ["course_id", "title", "teacher", "code", "term"], file: "courses.csv"))
    }

    static func problems(_ outcome: RowNormalizer.Outcome) -> [FieldProblem] {
        guard case .rejected(let problems) = outcome else {
            Issue.record("expected a rejected row, got \(outcome)")
            return []
        }
        return problems
    }

    @Test(
        "one format character anywhere in an id is named with its code point, its name and its position",
        arguments: [
            ("\u{FEFF}C1", "U+FEFF (ZERO WIDTH NO-BREAK SPACE) at position 1"),
            ("C1\u{200B}", "U+200B (ZERO WIDTH SPACE) at position 3"),
            ("C\u{200C}1", "U+200C (ZERO WIDTH NON-JOINER) at position 2"),
            ("C\u{200D}1", "U+200D (ZERO WIDTH JOINER) at position 2"),
            ("\u{200E}C1", "U+200E (LEFT-TO-RIGHT MARK) at position 1"),
            ("C1\u{200F}", "U+200F (RIGHT-TO-LEFT MARK) at position 3"),
            ("C\u{202A}1", "U+202A (LEFT-TO-RIGHT EMBEDDING) at position 2"),
            ("C\u{202E}1", "U+202E (RIGHT-TO-LEFT OVERRIDE) at position 2"),
            ("C\u{2060}1", "U+2060 (WORD JOINER) at position 2"),
            ("C\u{2064}1", "U+2064 (INVISIBLE PLUS) at position 2"),
            ("C\u{2066}1", "U+2066 (LEFT-TO-RIGHT ISOLATE) at position 2"),
            ("C\u{2069}1", "U+2069 (POP DIRECTIONAL ISOLATE) at position 2"),
            ("C\u{AD}1", "U+00AD (SOFT HYPHEN) at position 2"),
            ("C\u{61C}1", "U+061C (ARABIC LETTER MARK) at position 2"),
            ("C\u{180E}1", "U+180E (MONGOLIAN VOWEL SEPARATOR) at position 2"),
            ("C1\u{E0041}", "U+E0041 (TAG LATIN CAPITAL LETTER A) at position 3"),
            (" C1\u{200B} ", "U+200B (ZERO WIDTH SPACE) at position 4"),
        ])
    func oneCharacter(raw: String, described: String) throws {
        let problems = Self.problems(try Self.courses().normalize([raw, "Biology", "", "", ""]))
        let code = described.prefix(while: { $0 != " " })
        let position = described.components(separatedBy: "at position ").last ?? ""
        #expect(
            problems == [
                FieldProblem(
                    code: .invisibleCharacter, column: "course_id", value: raw,
                    message: "course_id holds an invisible character: \(described)",
                    hint: "remove \(code) at position \(position) from the course_id in the export (it reads \"C1\" without it): "
                        + "an invisible character makes an id look like another one")
            ])
    }

    @Test("several are counted, the first three named")
    func several() throws {
        let raw = "\u{FEFF}T\u{200B}1\u{200B}\u{200B}"
        let problems = Self.problems(try Self.tasks().normalize([raw, "C1", "Essay", "", "", "", ""]))
        #expect(
            problems == [
                FieldProblem(
                    code: .invisibleCharacter, column: "task_id", value: raw,
                    message: "task_id holds 4 invisible characters: U+FEFF (ZERO WIDTH NO-BREAK SPACE) at position 1, "
                        + "U+200B (ZERO WIDTH SPACE) at position 3, U+200B (ZERO WIDTH SPACE) at position 5 and 1 more",
                    hint: "remove them from the task_id in the export (it reads \"T1\" without them): an invisible character "
                        + "makes an id look like another one")
            ])
    }

    @Test("every id column of a tasks row is checked, each its own problem with its column, in one rejected row")
    func everyIDColumn() throws {
        let row = ["T\u{200B}1", "C\u{200B}1", "Essay", "s\u{2060}1", "A\u{AD}1", "", ""]
        let problems = Self.problems(try Self.tasks().normalize(row))
        #expect(problems.map(\.code) == Array(repeating: .invisibleCharacter, count: 4))
        #expect(problems.map(\.column) == ["task_id", "course_id", "student_id", "assignment_id"])
        #expect(problems.map(\.value) == ["T\u{200B}1", "C\u{200B}1", "s\u{2060}1", "A\u{AD}1"])
    }

    @Test("titles, teacher, code and term keep their format characters: a ZWJ emoji and a Persian ZWNJ are text")
    func freeTextKeepsThem() throws {
        let title = "Lab 👩\u{200D}💻 report"
        let teacher = "محمد\u{200C}رضا"
        #expect(
            try Self.courses().normalize(["C1", title, teacher, "B\u{200B}IO", "fall\u{AD}term"])
                == .course(CourseRecord(courseID: "C1", code: "B\u{200B}IO", title: title, term: "fall\u{AD}term", teacher: teacher)))
    }

    @Test("an id without format characters is untouched: white space trimmed, controls and letters kept, NFC")
    func cleanIDs() throws {
        #expect(
            try Self.tasks().normalize([" T1 ", "C 1", "Essay", "s\u{1B}1", "e\u{301}", "", ""])
                == .task(TaskRecord(taskID: "T1", courseID: "C 1", title: "Essay", studentID: "s\u{1B}1", assignmentID: "\u{E9}")))
    }

    @Test("a rejected row's id and course are the ids they read without the characters: a sync keeps the live row")
    func identityWithoutThem() throws {
        let normalizer = try Self.tasks()
        let row = ["\u{FEFF}T1", "C1\u{200B}", "Essay", "", "", "", ""]
        #expect(normalizer.identity(row) == "T1")
        #expect(normalizer.courseReference(row) == "C1")
        #expect(try Self.courses().identity(["C\u{200B}1", "Bio", "", "", ""]) == "C1")
    }

    @Test("a value a parser refuses says in its hint which invisible character it holds")
    func parsedValuesSayIt() throws {
        let problems = Self.problems(try Self.tasks().normalize(["T1", "C1", "Essay", "", "", "2026-11-29\u{200B}", "high\u{FEFF}"]))
        #expect(problems.map(\.code) == [.invalidDate, .invalidPriority])
        #expect(problems[0].hint.hasPrefix("the value holds an invisible character (U+200B at position 11): remove it; use YYYY-MM-DD"))
        #expect(problems[1].hint.hasPrefix("the value holds an invisible character (U+FEFF at position 5): remove it; use low, normal"))
    }

    @Test("a value over 4 KiB is value_too_long only, not searched for invisible characters")
    func tooLongFirst() throws {
        let raw = String(repeating: "a", count: 4096) + "\u{200B}"
        #expect(Self.problems(try Self.courses().normalize([raw, "Bio", "", "", ""])).map(\.code) == [.valueTooLong])
    }
}
