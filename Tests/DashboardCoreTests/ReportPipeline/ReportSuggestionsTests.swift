import Foundation
import Testing

@testable import DashboardCore

/// `ReportSuggestions`: which `--course`, `--teacher` and `--student` values name nothing, the
/// nearest existing values (at most three: containment by length first, then a few edits, ties
/// in natural order), and the sentences `ReportMessages.noMatchNext` makes of them.
@Suite("Report states: a filter value that names nothing", .storeIndependent)
struct ReportSuggestionsTests {
    /// The sample's five courses, each with one open task and one completed task of two students.
    static let courses: [ReportCourse] = [
        ("bio-101-nyc", "BIO 101", "Dr. Maria Alvarez", ["s2006", "s2040"]),
        ("mat-210-ber", "MAT 210", "Prof. Jürgen Müller", ["s2016", "s2026"]),
        ("jpn-150-tyo", "JPN 150", "田中 美咲 (Tanaka Misaki)", ["s2101", ""]),
        ("hst-220-syd", "HIST 220", "Ms. Olivia Nguyen", ["s2006", "s2202"]),
        ("eng-105", "ENG 105", "Mr. David Okafor", ["t3001", "t3002"]),
    ].map { id, code, teacher, students in
        ReportCourse(
            course: ReportSample.course(id, code: code, title: code + " title", teacher: teacher),
            tasks: [
                ReportSample.task(id + "-1", id, "Open", student: students[0]),
                ReportSample.task(id + "-2", id, "Done", student: students[1], bucket: .completed),
            ])
    }

    static func unmatched(_ courses: [ReportCourse] = courses, _ change: (inout ReportQuery) -> Void) -> [UnmatchedValue] {
        ReportSuggestions.unmatched(in: courses, query: ReportSample.query(change))
    }

    static func course(_ value: String, _ nearest: [String]) -> UnmatchedValue {
        UnmatchedValue(filter: .course, value: value, nearest: nearest)
    }

    @Test(
        "a course value names nothing unless a course has it as its id or code; the nearest is its code or its id",
        arguments: [
            // A swap of two neighbours, letters and digits only compared.
            ("MAT201", [course("MAT201", ["MAT 210"])]),
            // Contained in a code.
            ("bio", [course("bio", ["BIO 101"])]),
            // The same letters and digits as a code, but not the code: the code.
            ("BIO-101", [course("BIO-101", ["BIO 101"])]),
            ("eng 105", [course("eng 105", ["ENG 105"])]),
            // Nearer to a course's id than to its code: the id.
            ("hst220", [course("hst220", ["hst-220-syd"])]),
            ("hst-220", [course("hst-220", ["hst-220-syd"])]),
            // The value contains the code.
            ("BIO 101 Lab", [course("BIO 101 Lab", ["BIO 101"])]),
            // Far from everything, or too short to be near anything.
            ("zzz", [course("zzz", [])]),
            ("b", [course("b", [])]),
            // An id or a code, exactly: matched.
            ("MAT 210", []),
            ("mat-210-ber", []),
            ("eng-105", []),
        ])
    func courseValue(value: String, expected: [UnmatchedValue]) {
        #expect(Self.unmatched { $0.courses = [value] } == expected)
    }

    @Test("a course value is offered one suggestion per course, however near both its code and its id are")
    func oneSuggestionPerCourse() {
        // "ENG 105" and "eng-105" fold to the same letters and digits.
        #expect(Self.unmatched { $0.courses = ["eng105"] } == [Self.course("eng105", ["ENG 105"])])
    }

    @Test(
        "a teacher value names nothing unless every word of it is a word of a teacher's name; the nearest compares words too",
        arguments: [
            ("okafr", ["Mr. David Okafor"]),
            ("Okafr", ["Mr. David Okafor"]),
            ("oka", ["Mr. David Okafor"]),
            ("alvarex", ["Dr. Maria Alvarez"]),
            ("muler", ["Prof. Jürgen Müller"]),
            ("tanak", ["田中 美咲 (Tanaka Misaki)"]),
            ("David Okafr", ["Mr. David Okafor"]),
            ("zzzzzz", []),
        ])
    func teacherValue(value: String, nearest: [String]) {
        #expect(Self.unmatched { $0.teachers = [value] } == [UnmatchedValue(filter: .teacher, value: value, nearest: nearest)])
    }

    @Test(
        "a teacher value whose every word is a whole word of a name is matched",
        arguments: ["okafor", "OKAFOR", "David Okafor", "okafor david", "Mr.", "muller", "Müller Jürgen", "田中", "tanaka", "ms"])
    func teacherMatched(value: String) {
        #expect(Self.unmatched { $0.teachers = [value] } == [])
    }

    @Test("a student value names nothing unless a live task has it, completed or not; ties in natural order")
    func studentValue() {
        #expect(
            Self.unmatched { $0.students = ["s20O6"] } == [
                UnmatchedValue(filter: .student, value: "s20O6", nearest: ["s2006", "s2016", "s2026"])
            ])
        #expect(
            Self.unmatched { $0.students = ["t3003"] } == [UnmatchedValue(filter: .student, value: "t3003", nearest: ["t3001", "t3002"])])
        // One edit (s2026) before two (s2006, s2016 and s2040, the first two kept in natural order).
        #expect(
            Self.unmatched { $0.students = ["s2027"] } == [
                UnmatchedValue(filter: .student, value: "s2027", nearest: ["s2026", "s2006", "s2016"])
            ])
        #expect(Self.unmatched { $0.students = ["x"] } == [UnmatchedValue(filter: .student, value: "x", nearest: [])])
        // s2040's task is completed: the student is there all the same.
        #expect(Self.unmatched { $0.students = ["s2040", "s2006"] } == [])
        // An empty student id is never a candidate.
        #expect(Self.unmatched { $0.students = ["s"] } == [UnmatchedValue(filter: .student, value: "s", nearest: [])])
    }

    @Test("at most three suggestions: containment first by length, then edits, ties in natural order (MAT 9x before MAT 10)")
    func atMostThreeInNaturalOrder() {
        let courses = ["MAT 20", "MAT 10", "MAT 9x", "MAT 11", "MAT 1"].enumerated().map { index, code in
            ReportCourse(course: ReportSample.course("c\(index)", code: code), tasks: [])
        }
        #expect(Self.unmatched(courses) { $0.courses = ["MAT"] } == [Self.course("MAT", ["MAT 1", "MAT 9x", "MAT 10"])])
        let near = ["BIO 11", "BIO 10 Lab", "BIO 101"].enumerated().map { index, code in
            ReportCourse(course: ReportSample.course("k\(index)", code: code), tasks: [])
        }
        // Contained: BIO 101 (1 more) and BIO 10 Lab (3 more); then BIO 11 (one edit).
        #expect(Self.unmatched(near) { $0.courses = ["BIO 10"] } == [Self.course("BIO 10", ["BIO 101", "BIO 10 Lab", "BIO 11"])])
    }

    @Test("every unmatched value is reported, in the order given: courses, then teachers, then students")
    func everyValueInOrder() {
        let result = Self.unmatched {
            $0.students = ["s9"]
            $0.teachers = ["okafr", "okafor"]
            $0.courses = ["zzz", "MAT201", "BIO 101"]
        }
        #expect(
            result == [
                Self.course("zzz", []), Self.course("MAT201", ["MAT 210"]),
                UnmatchedValue(filter: .teacher, value: "okafr", nearest: ["Mr. David Okafor"]),
                UnmatchedValue(filter: .student, value: "s9", nearest: []),
            ])
    }

    @Test("only the report's own courses are looked at: another course neither matches nor is suggested")
    func courseSetHidesOtherCourses() {
        let result = Self.unmatched {
            $0.courseSet = ["bio-101-nyc", "jpn-150-tyo"]
            $0.courses = ["MAT201", "MAT 210", "bio"]
            $0.teachers = ["okafor", "okafr"]
            $0.students = ["s2016", "s2006"]
        }
        #expect(
            result == [
                Self.course("MAT201", []), Self.course("MAT 210", []), Self.course("bio", ["BIO 101"]),
                UnmatchedValue(filter: .teacher, value: "okafor", nearest: []),
                UnmatchedValue(filter: .teacher, value: "okafr", nearest: []),
                // One edit from s2006 (bio), two from s2040 (bio, completed) and s2101 (jpn); none of the others.
                UnmatchedValue(filter: .student, value: "s2016", nearest: ["s2006", "s2040", "s2101"]),
            ])
    }

    @Test("a student value is only checked against the tasks when one is given")
    func needsTasks() {
        #expect(
            !ReportSuggestions(
                ReportSample.query {
                    $0.courses = ["x"]; $0.teachers = ["y"]
                }
            ).needsTasks)
        #expect(ReportSuggestions(ReportSample.query { $0.students = ["s1"] }).needsTasks)
    }

    @Test(
        "edit distance counts insertions, deletions, substitutions and swaps of two neighbours, up to a limit",
        arguments: [
            ("abc", "abc", 2, 0 as Int?),
            ("mat210", "mat201", 2, 1),
            ("acb", "abc", 2, 1),
            ("okafor", "okafr", 2, 1),
            ("kitten", "sitting", 3, 3),
            ("kitten", "sitting", 2, nil),
            // Optimal string alignment: a swapped pair is not edited again.
            ("ca", "abc", 3, 3),
            ("", "ab", 2, 2),
            ("ab", "", 1, nil),
            ("", "", 0, 0),
            ("s20o6", "s2040", 2, 2),
            ("s20o6", "s2101", 2, nil),
        ] as [(String, String, Int, Int?)])
    func editDistance(a: String, b: String, limit: Int, expected: Int?) {
        #expect(ReportSuggestions.editDistance(Array(a), Array(b), limit: limit) == expected)
        #expect(ReportSuggestions.editDistance(Array(b), Array(a), limit: limit) == expected)
    }

    @Test(
        "values are compared by their folded letters and digits",
        arguments: [("MAT 210", "mat210"), ("Mr. David Okafor", "mrdavidokafor"), ("Müller", "muller"), ("s-20_06", "s2006"), ("  ", "")])
    func key(text: String, expected: String) {
        #expect(ReportSuggestions.key(text) == expected)
    }

    // MARK: - The sentences

    static func report(_ kind: Report.Kind = .list, _ courses: [ReportCourse] = courses, _ change: (inout ReportQuery) -> Void)
        -> Report
    {
        ReportBuilder.build(
            kind, courses: courses, facts: ReportSample.freshFacts, query: ReportSample.query(change), asOf: ReportSample.asOf,
            defaultTimeZone: ReportSample.utc)
    }

    @Test(
        "the next step names each value that names nothing, with the nearest, before what the filters hide",
        arguments: [
            (
                ReportSample.query { $0.courses = ["MAT201"] },
                "No course has the id or code \"MAT201\" (the nearest: \"MAT 210\"). `dashboard report grid` lists the courses. "
                    + "These filters hide 5 tasks. To see them, run the report without --course."
            ),
            (
                ReportSample.query { $0.courses = ["zzz"] },
                "No course has the id or code \"zzz\". `dashboard report grid` lists the courses. "
                    + "These filters hide 5 tasks. To see them, run the report without --course."
            ),
            (
                ReportSample.query { $0.teachers = ["okafr"] },
                "No course's teacher is named \"okafr\" (the nearest: \"Mr. David Okafor\"). "
                    + "These filters hide 5 tasks. To see them, run the report without --teacher."
            ),
            (
                ReportSample.query { $0.students = ["t3003"] },
                "No task has the student id \"t3003\" (the nearest: \"t3001\" or \"t3002\"). "
                    + "These filters hide 5 tasks. To see them, run the report without --student."
            ),
            (
                ReportSample.query {
                    $0.students = ["s20O6"]; $0.buckets = [.overdue]
                },
                "No task has the student id \"s20O6\" (the nearest: \"s2006\", \"s2016\" or \"s2026\"). "
                    + "These filters hide 5 tasks. To see them, run the report without --student and --bucket."
            ),
            (
                ReportSample.query {
                    $0.courses = ["MAT201"]; $0.teachers = ["okafr"]
                },
                "No course has the id or code \"MAT201\" (the nearest: \"MAT 210\"). "
                    + "No course's teacher is named \"okafr\" (the nearest: \"Mr. David Okafor\"). "
                    + "`dashboard report grid` lists the courses. "
                    + "These filters hide 5 tasks. To see them, run the report without --course and --teacher."
            ),
            // Every value names something: only what the filters hide.
            (
                ReportSample.query {
                    $0.courses = ["MAT 210"]; $0.students = ["s2006"]
                },
                // Issue 27: the scope's own tasks, and only the filter inside it to drop.
                "These filters hide the 1 task in 1 course (--course \"MAT 210\"). To see it, run the report without --student."
            ),
        ] as [(ReportQuery, String)])
    func noMatchNext(query: ReportQuery, expected: String) {
        let report = ReportBuilder.build(
            .list, courses: Self.courses, facts: ReportSample.freshFacts, query: query, asOf: ReportSample.asOf,
            defaultTimeZone: ReportSample.utc)
        #expect(report.state == .noMatch)
        #expect(ReportMessages.noMatchNext(report) == expected)
    }

    @Test("with no task at all, a course value that names nothing is the whole next step")
    func noTaskAtAll() {
        let empty = Self.courses.map { ReportCourse(course: $0.course, tasks: []) }
        let report = Self.report(.list, empty) { $0.courses = ["MAT201"] }
        #expect(report.state == .noMatch)
        #expect(
            ReportMessages.noMatchNext(report)
                == "No course has the id or code \"MAT201\" (the nearest: \"MAT 210\"). `dashboard report grid` lists the courses.")
    }

    @Test("a list names the completed tasks a student's filter matches; a grid counts them and says nothing")
    func completedMatches() {
        let list = Self.report(.list) { $0.students = ["s2040", "s9"] }
        #expect(list.state == .noMatch)
        #expect(
            ReportMessages.noMatchNext(list)
                == "No task has the student id \"s9\". These filters hide 5 tasks. To see them, run the report without --student. "
                + "1 completed task matches: add --include-completed to list it.")
        let grid = Self.report(.grid) { $0.students = ["s9"] }
        #expect(grid.state == .noMatch)
        #expect(
            ReportMessages.noMatchNext(grid)
                == "No task has the student id \"s9\". These filters hide 10 tasks. To see them, run the report without --student.")
    }

    @Test("the unmatched values are looked for only when nothing matches")
    func onlyWhenNothingMatches() {
        let report = Self.report(.list) { $0.courses = ["MAT201", "MAT 210"] }
        #expect(report.state == .ok)
        #expect(report.unmatched == [])
        let none = Self.report(.list) { $0.courses = ["MAT201"] }
        #expect(none.unmatched == [Self.course("MAT201", ["MAT 210"])])
    }
}
