import Foundation
import Testing

@testable import DashboardCore

/// Hand-built courses and tasks for the report tests: no store, no clock.
enum ReportSample {
    static let utc = TimeZone(identifier: "UTC")!
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// 2026-11-29T08:00:00Z.
    static let asOf = Timestamp.parse("2026-11-29T08:00:00Z", timeZone: utc)!
    /// Data imported one hour before `asOf`, last import fine.
    static let freshFacts = ReportFacts(hasData: true, dataAsOf: asOf.addingTimeInterval(-3600), lastFailure: nil)

    static func course(_ id: String, code: String? = nil, title: String = "", teacher: String = "", timezone: String = "")
        -> CourseRecord
    {
        CourseRecord(courseID: id, code: code ?? id, title: title, teacher: teacher, timezone: timezone)
    }

    /// A task whose `completed` flag follows its bucket.
    static func task(
        _ id: String, _ course: String, _ title: String, student: String = "", due: String = "", priority: Priority = .normal,
        bucket: Bucket = .upcoming, pinned: Bool = false
    ) -> ReportTask {
        ReportTask(
            task: TaskRecord(
                taskID: id, courseID: course, title: title, studentID: student, due: due, priority: priority,
                completed: bucket == .completed),
            bucket: bucket, pinned: pinned)
    }

    static func query(_ change: (inout ReportQuery) -> Void) -> ReportQuery {
        var query = ReportQuery()
        query.wording = .commandLineCopy
        change(&query)
        return query
    }

    /// One line per course: `C1: T1 T2` (`C2:` when no task is left).
    static func summary(_ courses: [ReportCourse]) -> [String] {
        courses.map { course in
            ([course.course.courseID + ":"] + course.tasks.map(\.task.taskID)).joined(separator: " ")
        }
    }

    /// One line per section: `C1 overdue: T1 T2`, or `C2 -` for a course without sections.
    static func summary(_ groups: [CourseGroup]) -> [String] {
        groups.flatMap { group -> [String] in
            if group.sections.isEmpty { return [group.course.courseID + " -"] }
            return group.sections.map { section in
                ([group.course.courseID + " " + section.bucket.rawValue + ":"] + section.tasks.map(\.task.taskID))
                    .joined(separator: " ")
            }
        }
    }
}

@Suite("Report pipeline: search", .storeIndependent)
struct PipelineSearchTests {
    /// C1 GER-101 "Deutsch für Anfänger" (teacher Zoë Müller), C2 HIS-200 "Modern History",
    /// C3 MAT-10 "Calculus". T6 is completed; T7's title is in decomposed form.
    static let courses = [
        ReportCourse(
            course: ReportSample.course("C1", code: "GER-101", title: "Deutsch für Anfänger", teacher: "Zoë Müller"),
            tasks: [
                ReportSample.task("T1", "C1", "Übungsblatt 3"),
                ReportSample.task("T2", "C1", "Essay draft"),
                ReportSample.task("T3", "C1", "Reading list"),
            ]),
        ReportCourse(
            course: ReportSample.course("C2", code: "HIS-200", title: "Modern History"),
            tasks: [
                ReportSample.task("T4", "C2", "essay on revolutions"),
                ReportSample.task("T5", "C2", "Quiz 2"),
                ReportSample.task("T6", "C2", "Essay outline", bucket: .completed),
            ]),
        ReportCourse(
            course: ReportSample.course("C3", code: "MAT-10", title: "Calculus"),
            tasks: [
                ReportSample.task("T7", "C3", "U\u{308}bung 4"),
                ReportSample.task("T8", "C3", "Problem set"),
            ]),
    ]

    static let everything = ["C1: T1 T2 T3", "C2: T4 T5 T6", "C3: T7 T8"]

    @Test(
        "every word must match the task title, course code or course title, ignoring case and diacritics",
        arguments: [
            ("", everything),
            (" \t\n ", everything),
            ("ubung", ["C1: T1", "C2:", "C3: T7"]),
            ("ÜBUNG", ["C1: T1", "C2:", "C3: T7"]),
            ("U\u{308}bungsblatt", ["C1: T1", "C2:", "C3:"]),
            ("ESSAY", ["C1: T2", "C2: T4 T6", "C3:"]),
            ("ess", ["C1: T2", "C2: T4 T6", "C3:"]),
            ("essay draft", ["C1: T2", "C2:", "C3:"]),
            ("draft essay", ["C1: T2", "C2:", "C3:"]),
            ("essay modern", ["C1:", "C2: T4 T6", "C3:"]),
            ("his-200", ["C1:", "C2: T4 T5 T6", "C3:"]),
            ("fur anfanger", ["C1: T1 T2 T3", "C2:", "C3:"]),
            ("calculus problem", ["C1:", "C2:", "C3: T8"]),
            ("  quiz   2 ", ["C1:", "C2: T5", "C3:"]),
            ("essay calculus", ["C1:", "C2:", "C3:"]),
            ("muller", ["C1:", "C2:", "C3:"]),
        ])
    func search(text: String, expected: [String]) {
        #expect(ReportSample.summary(ReportPipeline.search(Self.courses, text)) == expected)
    }

    @Test("searching keeps every course, in the order given, and every task's values")
    func searchKeepsCourses() {
        let result = ReportPipeline.search(Self.courses, "quiz")
        #expect(result.map(\.course) == Self.courses.map(\.course))
        #expect(result[1].tasks == [ReportSample.task("T5", "C2", "Quiz 2")])
    }

    @Test(
        "folding lowercases and drops diacritics",
        arguments: [
            ("Übungsblatt", "ubungsblatt"), ("ESSAY", "essay"), ("Zoë Müller", "zoe muller"), ("e\u{301}cole", "ecole"),
            ("Ñandú", "nandu"),
        ])
    func fold(text: String, expected: String) {
        #expect(ReportPipeline.fold(text) == expected)
    }
}

@Suite("Report pipeline: filters", .storeIndependent)
struct PipelineFilterTests {
    /// C1 (Zoë Müller): T1 overdue high s1, T2 today normal s2, T3 completed low s1.
    /// C2 (Ian Wright, code HIS-200): T4 upcoming low s2, T5 undated high s3, T6 completed normal s3.
    /// C3 (Ana Núñez, code MAT-10): T7 overdue normal s1.
    static let courses = [
        ReportCourse(
            course: ReportSample.course("C1", code: "GER-101", title: "German", teacher: "Zoë Müller"),
            tasks: [
                ReportSample.task("T1", "C1", "One", student: "s1", priority: .high, bucket: .overdue),
                ReportSample.task("T2", "C1", "Two", student: "s2", priority: .normal, bucket: .today),
                ReportSample.task("T3", "C1", "Three", student: "s1", priority: .low, bucket: .completed),
            ]),
        ReportCourse(
            course: ReportSample.course("C2", code: "HIS-200", title: "History", teacher: "Ian Wright"),
            tasks: [
                ReportSample.task("T4", "C2", "Four", student: "s2", priority: .low, bucket: .upcoming),
                ReportSample.task("T5", "C2", "Five", student: "s3", priority: .high, bucket: .undated),
                ReportSample.task("T6", "C2", "Six", student: "s3", priority: .normal, bucket: .completed),
            ]),
        ReportCourse(
            course: ReportSample.course("C3", code: "MAT-10", title: "Maths", teacher: "Ana Núñez"),
            tasks: [ReportSample.task("T7", "C3", "Seven", student: "s1", priority: .normal, bucket: .overdue)]),
    ]

    static func filtered(_ change: (inout ReportQuery) -> Void) -> [String] {
        ReportSample.summary(
            ReportPipeline.filter(courses, ReportSample.query(change), asOf: ReportSample.asOf, defaultTimeZone: ReportSample.utc))
    }

    @Test("without filters every open task stays and completed tasks are hidden")
    func noFilter() {
        #expect(Self.filtered { _ in } == ["C1: T1 T2", "C2: T4 T5", "C3: T7"])
    }

    @Test("includeCompleted shows completed tasks")
    func includeCompleted() {
        #expect(Self.filtered { $0.includeCompleted = true } == ["C1: T1 T2 T3", "C2: T4 T5 T6", "C3: T7"])
    }

    @Test(
        "--course matches the course id or the course code; repeated values are alternatives",
        arguments: [
            (["C2"], ["C2: T4 T5"]),
            (["HIS-200"], ["C2: T4 T5"]),
            (["C1", "MAT-10"], ["C1: T1 T2", "C3: T7"]),
            (["MAT-10", "C1"], ["C1: T1 T2", "C3: T7"]),
            (["nope"], []),
        ])
    func course(values: [String], expected: [String]) {
        #expect(Self.filtered { $0.courses = values } == expected)
    }

    @Test(
        "--teacher matches whole words of the name, ignoring case and diacritics; repeated values are alternatives",
        arguments: [
            (["Zoë Müller"], ["C1: T1 T2"]),
            (["zoe muller"], ["C1: T1 T2"]),
            (["ZOË MÜLLER", "ana nunez"], ["C1: T1 T2", "C3: T7"]),
            (["Nobody"], []),
            // Any word of the name: the surname alone, or the words in another order.
            (["muller"], ["C1: T1 T2"]),
            (["Müller Zoë"], ["C1: T1 T2"]),
            (["nunez", "wright"], ["C2: T4 T5", "C3: T7"]),
            // Whole words only, and every word of one value.
            (["mull"], []),
            (["zoe wright"], []),
        ])
    func teacher(values: [String], expected: [String]) {
        #expect(Self.filtered { $0.teachers = values } == expected)
    }

    @Test(
        "--student keeps that student's tasks; repeated values are alternatives",
        arguments: [
            (["s1"], ["C1: T1", "C2:", "C3: T7"]),
            (["s1", "s3"], ["C1: T1", "C2: T5", "C3: T7"]),
            (["s9"], ["C1:", "C2:", "C3:"]),
        ])
    func student(values: [String], expected: [String]) {
        #expect(Self.filtered { $0.students = values } == expected)
    }

    @Test(
        "--bucket keeps those buckets; asking for completed shows completed tasks",
        arguments: [
            ([Bucket.overdue], ["C1: T1", "C2:", "C3: T7"]),
            ([.overdue, .undated], ["C1: T1", "C2: T5", "C3: T7"]),
            ([.completed], ["C1: T3", "C2: T6", "C3:"]),
            ([.completed, .today], ["C1: T2 T3", "C2: T6", "C3:"]),
        ])
    func bucket(values: [Bucket], expected: [String]) {
        #expect(Self.filtered { $0.buckets = values } == expected)
    }

    @Test(
        "--priority keeps those priorities (completed still hidden); repeated values are alternatives",
        arguments: [
            ([Priority.high], ["C1: T1", "C2: T5", "C3:"]),
            ([.high, .low], ["C1: T1", "C2: T4 T5", "C3:"]),
            ([.low], ["C1:", "C2: T4", "C3:"]),
        ])
    func priority(values: [Priority], expected: [String]) {
        #expect(Self.filtered { $0.priorities = values } == expected)
    }

    @Test("different filters must all allow a task")
    func filtersTogether() {
        #expect(
            Self.filtered {
                $0.students = ["s1"]; $0.priorities = [.normal]
            } == ["C1:", "C2:", "C3: T7"])
        #expect(
            Self.filtered {
                $0.priorities = [.low]; $0.includeCompleted = true
            } == ["C1: T3", "C2: T4", "C3:"])
        #expect(
            Self.filtered {
                $0.courses = ["C1", "HIS-200"]
                $0.buckets = [.overdue, .upcoming]
                $0.students = ["s2", "s1"]
            } == ["C1: T1", "C2: T4"])
        #expect(
            Self.filtered {
                $0.teachers = ["zoe muller"]; $0.buckets = [.completed]; $0.students = ["s1"]
            } == ["C1: T3"])
    }

    @Test("search runs before the filters and both narrow together")
    func searchThenFilter() {
        let searched = ReportPipeline.search(Self.courses, "v")  // Five, Seven
        let result = ReportPipeline.filter(
            searched, ReportSample.query { $0.buckets = [.overdue, .undated, .today] }, asOf: ReportSample.asOf,
            defaultTimeZone: ReportSample.utc)
        #expect(ReportSample.summary(result) == ["C1:", "C2: T5", "C3: T7"])
    }

    @Test(
        "narrows is true only when a search or a filter is given",
        arguments: [
            (ReportQuery(), false),
            (ReportSample.query { $0.search = "  \t" }, false),
            (
                ReportSample.query {
                    $0.includeCompleted = true; $0.sort = .title; $0.limit = 5; $0.page = 2
                }, false
            ),
            (ReportSample.query { $0.search = "essay" }, true),
            (ReportSample.query { $0.courses = ["C1"] }, true),
            (ReportSample.query { $0.teachers = ["x"] }, true),
            (ReportSample.query { $0.students = ["x"] }, true),
            (ReportSample.query { $0.buckets = [.today] }, true),
            (ReportSample.query { $0.priorities = [.low] }, true),
        ])
    func narrows(query: ReportQuery, expected: Bool) {
        #expect(query.narrows == expected)
    }
}
