import Foundation
import Testing

@testable import DashboardCore

/// The roll-ups' pure stages (`--group-by assignment|student`): `AssignmentRollUp.rows`,
/// `ReportPipeline.groupByStudent`, their pages, and the words every format shows
/// (`RollUpWords`). As of 2026-11-29T08:00:00Z (`ReportSample.asOf`).
@Suite("Roll-ups: rows by assignment, groups by student, their pages and words", .storeIndependent)
struct RollUpTests {
    static let newYork = TimeZone(identifier: "America/New_York")!
    static let utcLocal = LocalAsOf(asOf: ReportSample.asOf, timeZone: ReportSample.utc)

    /// A task of course C1 with an assignment id.
    static func task(
        _ id: String, _ title: String, assignment: String = "", student: String = "", due: String = "", bucket: Bucket = .upcoming,
        pinned: Bool = false, course: String = "C1", priority: Priority = .normal
    ) -> ReportTask {
        var made = ReportSample.task(id, course, title, student: student, due: due, priority: priority, bucket: bucket, pinned: pinned)
        made.task.assignmentID = assignment
        return made
    }

    /// One row as text: `id|title|first..last|students|o t u n c|live|late`.
    static func line(_ row: AssignmentRow) -> String {
        let counts = Bucket.original.map { String(row.counts[$0]) }.joined(separator: " ")
        return [
            row.assignmentID, row.title, row.firstDue + ".." + row.lastDue, "\(row.students)", counts, "\(row.live)",
            row.daysLate.map(String.init) ?? "-",
        ].joined(separator: "|")
    }

    // MARK: - Rows by assignment

    /// Every live task of C1. T7 and T8 are not listed (a filter hides them).
    static let all = [
        task("T3", "Essay draft", assignment: "A1", student: "s1", due: "2026-11-24", bucket: .overdue),
        task("T10", "Essay (resubmitted)", assignment: "A1", student: "s2", due: "2026-11-28", bucket: .overdue),
        task("T2", "Essay", assignment: "A1", student: "s1", due: "2026-12-01", bucket: .upcoming),
        task("T4", "Essay", student: "s3", due: "2026-11-20", bucket: .completed),
        task("T5", "Quiz", student: "s1", bucket: .undated),
        task("T6", "Quiz", bucket: .undated),
        task("T7", "Lab", assignment: "A2", student: "s4", due: "2026-11-30", bucket: .upcoming),
        task("T8", "Essay draft", assignment: "A1", student: "s9", due: "2026-11-01", bucket: .overdue),
    ]
    static let listed = all.filter { !["T7", "T8"].contains($0.task.taskID) }

    @Test("a row per assignment id, else per title; its title is its smallest task id's; live counts every task, the rest only listed ones")
    func rowsByAssignment() {
        let rows = AssignmentRollUp.rows(all: Self.all, listed: Self.listed, local: Self.utcLocal, sort: .due)
        #expect(
            rows.map(Self.line) == [
                // The title-keyed "Essay" (T4) is not the assignment A1, whose tasks have other titles.
                "|Essay|2026-11-20..2026-11-20|1|0 0 0 0 1|1|-",
                // A1: title of T10 ("T10" < "T2" < "T3" < "T8" byte by byte); T8 counts in live only
                // (not its due 2026-11-01, its student s9 or its 28 days late); 5 days late is T3's.
                "A1|Essay (resubmitted)|2026-11-24..2026-12-01|2|2 0 1 0 0|4|5",
                // Undated: last; a task without a student is not a student.
                "|Quiz|..|1|0 0 0 2 0|2|-",
            ])
        // A2 has no listed task: no row.
        #expect(!rows.contains { $0.assignmentID == "A2" })
        #expect(
            rows[1]
                == AssignmentRow(
                    assignmentID: "A1", title: "Essay (resubmitted)", firstDue: "2026-11-24", lastDue: "2026-12-01", students: 2,
                    counts: [.overdue: 2, .upcoming: 1], live: 4, daysLate: 5))
        #expect(rows.map(\.matching) == [1, 3, 2])
    }

    @Test("nothing listed gives no row; a course without tasks none either")
    func noRows() {
        #expect(AssignmentRollUp.rows(all: Self.all, listed: [], local: Self.utcLocal, sort: .due) == [])
        #expect(AssignmentRollUp.rows(all: [], listed: [], local: Self.utcLocal, sort: .due) == [])
    }

    @Test(
        "the first and last due are the earliest and latest instants in the course's zone, not the earliest texts",
        arguments: [
            ("Europe/Berlin", "2026-11-30", "2026-12-01T08:30:00Z", "2026-11-30 – 2026-12-01 09:30"),
            ("America/New_York", "2026-12-01T04:30:00Z", "2026-12-01T09:00:00", "2026-11-30 23:30 – 2026-12-01 09:00"),
            ("UTC", "2026-11-30", "2026-12-01T09:00:00", "2026-11-30 – 2026-12-01 09:00"),
        ])
    func dueRangeByInstant(zone: String, first: String, last: String, words: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        // A date is the end of its local day; a local time is read in the zone; an instant is one.
        let tasks = ["2026-11-30", "2026-12-01T09:00:00", "2026-12-01T08:30:00Z", "2026-12-01T04:30:00Z", ""].enumerated().map {
            Self.task("T\($0.offset)", "Lab", assignment: "L", due: $0.element, bucket: $0.element.isEmpty ? .undated : .upcoming)
        }
        let rows = AssignmentRollUp.rows(
            all: tasks, listed: tasks, local: LocalAsOf(asOf: ReportSample.asOf, timeZone: timeZone), sort: .due)
        #expect(rows.map { [$0.firstDue, $0.lastDue] } == [[first, last]])
        #expect(rows.first.flatMap { RollUpWords.due($0, zone: timeZone) } == words)
    }

    @Test("days late is the most among listed late tasks; a task pinned to overdue before its due and a completed task are not late")
    func daysLateIsTheMost() {
        let tasks = [
            Self.task("T1", "Lab", assignment: "L", due: "2026-11-28", bucket: .overdue),
            Self.task("T2", "Lab", assignment: "L", due: "2026-11-24", bucket: .overdue),
            Self.task("T3", "Lab", assignment: "L", due: "2026-12-05", bucket: .overdue, pinned: true),
            Self.task("T4", "Lab", assignment: "L", due: "2026-11-01", bucket: .completed),
            Self.task("P1", "Pinned", due: "2026-12-05", bucket: .overdue, pinned: true),
            Self.task("Q1", "Today", due: "2026-11-29T07:00:00", bucket: .overdue),
        ]
        let rows = AssignmentRollUp.rows(all: tasks, listed: tasks, local: Self.utcLocal, sort: .due)
        #expect(
            rows.map(Self.line) == [
                "L|Lab|2026-11-01..2026-12-05|0|3 0 0 0 1|4|5",
                // 07:00 on the as-of's own day: late today (0 days).
                "|Today|2026-11-29T07:00:00..2026-11-29T07:00:00|0|1 0 0 0 0|1|0",
                "|Pinned|2026-12-05..2026-12-05|0|1 0 0 0 0|1|-",
            ])
        #expect(
            rows.map { RollUpWords.status($0) } == [
                "3 of 4 overdue (5 days late), 1 completed", "1 of 1 overdue (late today)", "1 of 1 overdue",
            ])
    }

    /// Rows with ties: Zeta 11-30; "Task 2" (by title) and B1 "Task 2" and "Task 10" on 12-02;
    /// A9 "Alpha" 12-05; "Alpha" (by title) and "Beta" undated.
    static let ordered = [
        task("T1", "Beta", student: "s1", bucket: .undated), task("T2", "Alpha", student: "s1", bucket: .undated),
        task("T3", "Task 10", due: "2026-12-02"), task("T4", "Task 2", assignment: "B1", due: "2026-12-02"),
        task("T5", "Task 2", due: "2026-12-02"), task("T6", "Zeta", due: "2026-11-30"),
        task("T7", "Alpha", assignment: "A9", due: "2026-12-05"),
    ]

    @Test(
        "rows by earliest due (undated last), then title in natural order, then id; --sort title: title, then due, then id",
        arguments: [
            (ReportSort.due, ["|Zeta", "|Task 2", "B1|Task 2", "|Task 10", "A9|Alpha", "|Alpha", "|Beta"]),
            (.priority, ["|Zeta", "|Task 2", "B1|Task 2", "|Task 10", "A9|Alpha", "|Alpha", "|Beta"]),
            (.student, ["|Zeta", "|Task 2", "B1|Task 2", "|Task 10", "A9|Alpha", "|Alpha", "|Beta"]),
            (.title, ["A9|Alpha", "|Alpha", "|Beta", "|Task 2", "B1|Task 2", "|Task 10", "|Zeta"]),
        ])
    func rowOrder(sort: ReportSort, expected: [String]) {
        let rows = AssignmentRollUp.rows(all: Self.ordered, listed: Self.ordered, local: Self.utcLocal, sort: sort)
        #expect(rows.map { $0.assignmentID + "|" + $0.title } == expected)
        // The order does not depend on the order the tasks come in.
        let reversed = AssignmentRollUp.rows(
            all: Self.ordered.reversed(), listed: Self.ordered.reversed(), local: Self.utcLocal, sort: sort)
        #expect(reversed == rows)
    }

    // MARK: - Groups by student

    static let ny = ReportSample.course("N", code: "NYC 1", timezone: "America/New_York")
    static let ber = ReportSample.course("B", code: "BER 1", timezone: "Europe/Berlin")
    /// B1 is due 2026-11-30 00:30 in Berlin (11-29 23:30Z), before N1, due 2026-11-29 20:00 in
    /// New York (11-30 01:00Z), though its text sorts after.
    static let studentCourses = [
        ReportCourse(
            course: ny,
            tasks: [
                task("N1", "Essay 9", student: "s2", due: "2026-11-29T20:00:00", course: "N"),
                task("N2", "Essay 1", student: "s2", due: "2026-11-27", bucket: .overdue, course: "N"),
                task("N3", "Reading", bucket: .undated, course: "N"),
                task("N4", "Quiz", student: "s02", due: "2026-11-20", bucket: .completed, course: "N"),
                task("N5", "Worksheet", student: "s1", bucket: .undated, course: "N"),
            ]),
        ReportCourse(
            course: ber,
            tasks: [
                task("B1", "Essay 10", student: "s2", due: "2026-11-30T00:30:00", course: "B"),
                task("B2", "Vokabeln", student: "S10", due: "2026-11-29T18:00:00", bucket: .today, course: "B"),
                task("B3", "Klassenbuch", due: "2026-12-03", course: "B"),
                task("B4", "Worksheet", student: "s1", bucket: .undated, course: "B"),
            ]),
    ]

    /// One student as `student: task task …`, with the counts `o t u n c`.
    static func line(_ group: StudentGroup) -> String {
        let counts = Bucket.original.map { String(group.counts[$0]) }.joined(separator: " ")
        return "\(group.studentID): " + group.tasks.map(\.task.task.taskID).joined(separator: " ") + " (\(counts))"
    }

    @Test(
        "students in natural order, tasks without one last; inside: bucket order, then the sort (dues in each course's zone), then id",
        arguments: [
            (
                ReportSort.due,
                ["s1: B4 N5 (0 0 0 2 0)", "s02: N4 (0 0 0 0 1)", "s2: N2 B1 N1 (1 0 2 0 0)", "S10: B2 (0 1 0 0 0)", ": B3 N3 (0 0 1 1 0)"]
            ),
            (
                .title,
                ["s1: B4 N5 (0 0 0 2 0)", "s02: N4 (0 0 0 0 1)", "s2: N2 N1 B1 (1 0 2 0 0)", "S10: B2 (0 1 0 0 0)", ": B3 N3 (0 0 1 1 0)"]
            ),
        ])
    func groupByStudent(sort: ReportSort, expected: [String]) {
        let groups = ReportPipeline.groupByStudent(Self.studentCourses, sort: sort, defaultTimeZone: ReportSample.utc)
        #expect(groups.map(Self.line) == expected)
        #expect(groups.allSatisfy { $0.first == 1 && $0.isWhole })
        // Each task keeps its own course.
        #expect(groups[2].tasks.map(\.course.courseID) == (sort == .due ? ["N", "B", "N"] : ["N", "N", "B"]))
    }

    @Test("a course without a zone sorts its dues in the default zone")
    func defaultZone() {
        let courses = [
            ReportCourse(
                course: ReportSample.course("U"), tasks: [Self.task("U1", "A", student: "s", due: "2026-11-29T20:00:00", course: "U")]),
            ReportCourse(course: Self.ber, tasks: [Self.task("B1", "B", student: "s", due: "2026-11-30T00:30:00", course: "B")]),
        ]
        // In UTC, U1 is 20:00Z, before B1 (23:30Z); in New York it is 01:00Z the next day, after.
        #expect(
            ReportPipeline.groupByStudent(courses, sort: .due, defaultTimeZone: ReportSample.utc).map(Self.line) == ["s: U1 B1 (0 0 2 0 0)"]
        )
        #expect(
            ReportPipeline.groupByStudent(courses, sort: .due, defaultTimeZone: Self.newYork).map(Self.line) == ["s: B1 U1 (0 0 2 0 0)"])
    }

    // MARK: - Pages

    static func info(_ page: Int, of count: Int, limit: Int?, total: Int, _ first: Int, _ last: Int) -> PageInfo {
        PageInfo(page: page, pageCount: count, limit: limit, totalItems: total, firstItem: first, lastItem: last)
    }

    /// s1 with 5 tasks, s2 with 2, no student with 3: 10 tasks.
    static let studentGroups: [StudentGroup] = [("s1", 5), ("s2", 2), ("", 3)].map { student, count in
        let tasks = (1...count).map {
            StudentTask(course: ReportSample.course("C1"), task: task("\(student)-\($0)", "T", student: student))
        }
        return StudentGroup(studentID: student, tasks: tasks, counts: [.upcoming: count])
    }

    /// Each shown student as `student first–last of total`.
    static func places(_ groups: [StudentGroup]) -> [String] {
        groups.map { "\($0.studentID) \($0.first)–\($0.last) of \($0.total)\($0.isWhole ? " whole" : "")" }
    }

    @Test(
        "student pages: the page's part of each student, with the student's whole count and the place of its first task",
        arguments: [
            (nil, 1, ["s1 1–5 of 5 whole", "s2 1–2 of 2 whole", " 1–3 of 3 whole"], info(1, of: 1, limit: nil, total: 10, 1, 10)),
            (4, 1, ["s1 1–4 of 5"], info(1, of: 3, limit: 4, total: 10, 1, 4)),
            (4, 2, ["s1 5–5 of 5", "s2 1–2 of 2 whole", " 1–1 of 3"], info(2, of: 3, limit: 4, total: 10, 5, 8)),
            (4, 3, [" 2–3 of 3"], info(3, of: 3, limit: 4, total: 10, 9, 10)),
            (4, 4, [], info(4, of: 3, limit: 4, total: 10, 0, 0)),
            (5, 2, ["s2 1–2 of 2 whole", " 1–3 of 3 whole"], info(2, of: 2, limit: 5, total: 10, 6, 10)),
            (10, 1, ["s1 1–5 of 5 whole", "s2 1–2 of 2 whole", " 1–3 of 3 whole"], info(1, of: 1, limit: 10, total: 10, 1, 10)),
            (10, 2, [], info(2, of: 1, limit: 10, total: 10, 0, 0)),
        ] as [(Int?, Int, [String], PageInfo)])
    func studentPages(limit: Int?, page: Int, expected: [String], info: PageInfo) {
        let paged = ReportPipeline.paginateStudents(Self.studentGroups, limit: limit, page: page)
        #expect(Self.places(paged.groups) == expected)
        #expect(paged.page == info)
        // Counts stay whole on every page.
        #expect(
            paged.groups.map(\.counts) == paged.groups.map { group in Self.studentGroups.first { $0.studentID == group.studentID }!.counts }
        )
    }

    @Test("no student at all: one empty page")
    func noStudents() {
        #expect(ReportPipeline.paginateStudents([], limit: 3, page: 1).page == Self.info(1, of: 1, limit: 3, total: 0, 0, 0))
        #expect(ReportPipeline.paginateStudents([], limit: 3, page: 1).groups == [])
        #expect(ReportPipeline.paginateStudents([], limit: nil, page: 1).page == Self.info(1, of: 1, limit: nil, total: 0, 0, 0))
    }

    /// C1 with 2 rows, C2 with none, C3 with 5: 7 rows.
    static let assignmentGroups: [CourseGroup] = [("C1", 2), ("C2", 0), ("C3", 5)].map { id, count in
        var group = CourseGroup(course: ReportSample.course(id), sections: [], liveTasks: count)
        group.assignments = (0..<count).map {
            AssignmentRow(
                assignmentID: "\(id)-\($0 + 1)", title: "Row \($0 + 1)", firstDue: "", lastDue: "", students: 0,
                counts: [.undated: 1], live: 1, daysLate: nil)
        }
        group.assignmentTotal = count
        return group
    }

    @Test(
        "assignment pages: rows cut across courses, each course with its whole number of rows and the place of its first shown row",
        arguments: [
            (nil, 1, ["C1 1–2 of 2: C1-1 C1-2", "C3 1–5 of 5: C3-1 C3-2 C3-3 C3-4 C3-5"], info(1, of: 1, limit: nil, total: 7, 1, 7)),
            (3, 1, ["C1 1–2 of 2: C1-1 C1-2", "C3 1–1 of 5: C3-1"], info(1, of: 3, limit: 3, total: 7, 1, 3)),
            (3, 2, ["C3 2–4 of 5: C3-2 C3-3 C3-4"], info(2, of: 3, limit: 3, total: 7, 4, 6)),
            (3, 3, ["C3 5–5 of 5: C3-5"], info(3, of: 3, limit: 3, total: 7, 7, 7)),
            (3, 4, [], info(4, of: 3, limit: 3, total: 7, 0, 0)),
            (2, 2, ["C3 1–2 of 5: C3-1 C3-2"], info(2, of: 4, limit: 2, total: 7, 3, 4)),
        ] as [(Int?, Int, [String], PageInfo)])
    func assignmentPages(limit: Int?, page: Int, expected: [String], info: PageInfo) {
        let paged = ReportPipeline.paginateAssignments(Self.assignmentGroups, limit: limit, page: page)
        #expect(
            paged.groups.map { group in
                "\(group.course.courseID) \(group.assignmentFirst)–\(group.assignmentFirst + group.assignments.count - 1) of "
                    + "\(group.assignmentTotal): " + group.assignments.map(\.assignmentID).joined(separator: " ")
            } == expected)
        #expect(paged.page == info)
        #expect(paged.groups.allSatisfy { $0.sections.isEmpty })
    }

    // MARK: - Words

    static func row(_ counts: BucketCounts, live: Int, daysLate: Int? = nil, first: String = "", last: String = "") -> AssignmentRow {
        AssignmentRow(
            assignmentID: "A", title: "Lab", firstDue: first, lastDue: last, students: 1, counts: counts, live: live, daysLate: daysLate)
    }

    @Test(
        "a row's status: each bucket with tasks in report order, the first of the assignment's whole count, the overdue one with how late",
        arguments: [
            (row([.overdue: 6, .completed: 14], live: 20, daysLate: 5), "6 of 20 overdue (5 days late), 14 completed"),
            (row([.overdue: 1], live: 1, daysLate: 1), "1 of 1 overdue (1 day late)"),
            (row([.overdue: 2, .today: 1], live: 9, daysLate: 0), "2 of 9 overdue (late today), 1 due today"),
            (row([.overdue: 2, .today: 1], live: 3), "2 of 3 overdue, 1 due today"),
            (row([.upcoming: 3, .undated: 1], live: 4), "3 of 4 upcoming, 1 no due date"),
            (
                row([.today: 1, .upcoming: 1, .undated: 1, .completed: 1], live: 30),
                "1 of 30 due today, 1 upcoming, 1 no due date, 1 completed"
            ),
            (row([.completed: 19], live: 19), "19 of 19 completed"),
        ])
    func status(row: AssignmentRow, expected: String) {
        #expect(RollUpWords.status(row) == expected)
    }

    @Test(
        "the most urgent bucket of a row (its colour)",
        arguments: [
            ([.overdue: 1, .completed: 3], .overdue), ([.today: 2, .upcoming: 1], .today), ([.upcoming: 1], .upcoming),
            ([.undated: 1, .completed: 1], .undated), ([.completed: 2], .completed), (BucketCounts(), .completed),
        ] as [(BucketCounts, Bucket)])
    func urgent(counts: BucketCounts, expected: Bucket) {
        #expect(RollUpWords.urgent(counts) == expected)
    }

    @Test(
        "a row's due: one due, the first and the last when they read differently, nothing when undated",
        arguments: [
            ("2026-11-24", "2026-11-24", "UTC", "2026-11-24" as String?),
            ("2026-11-24", "2026-11-27", "UTC", "2026-11-24 – 2026-11-27"),
            ("2026-11-24", "2026-11-27T17:00:00", "America/New_York", "2026-11-24 – 2026-11-27 17:00"),
            ("2026-11-29T23:30:00Z", "2026-11-29T23:30:00Z", "Europe/Berlin", "2026-11-30 00:30"),
            ("2026-11-29T10:00:00Z", "2026-11-29T10:00:00", "UTC", "2026-11-29 10:00"),
            ("", "", "UTC", nil),
        ])
    func due(first: String, last: String, zone: String, expected: String?) throws {
        #expect(
            RollUpWords.due(Self.row([.upcoming: 1], live: 1, first: first, last: last), zone: try #require(TimeZone(identifier: zone)))
                == expected)
    }

    static func group(total: Int, shown: Int, first: Int) -> CourseGroup {
        var group = CourseGroup(course: ReportSample.course("C1"), sections: [])
        group.assignments = Array(repeating: row([.upcoming: 1], live: 1), count: shown)
        group.assignmentTotal = total
        group.assignmentFirst = first
        return group
    }

    @Test(
        "a course's heading: the whole number of rows, and the places a page shows of them",
        arguments: [
            (group(total: 12, shown: 12, first: 1), "Assignments (12)"),
            (group(total: 12, shown: 5, first: 1), "Assignments (12) — showing 1–5 of 12"),
            (group(total: 12, shown: 2, first: 11), "Assignments (12) — showing 11–12 of 12"),
            (group(total: 12, shown: 1, first: 12), "Assignments (12) — showing 12 of 12"),
            (group(total: 1, shown: 1, first: 1), "Assignments (1)"),
            (group(total: 5, shown: 2, first: 2), "Assignments (5) — showing 2–3 of 5"),
        ])
    func assignmentsHeading(group: CourseGroup, expected: String) {
        #expect(RollUpWords.assignmentsHeading(group) == expected)
    }

    static func student(_ id: String, counts: BucketCounts, shown: Int, first: Int = 1) -> StudentGroup {
        let tasks = (0..<shown).map { StudentTask(course: ReportSample.course("C1"), task: task("T\($0)", "T", student: id)) }
        return StudentGroup(studentID: id, tasks: tasks, counts: counts, first: first)
    }

    @Test(
        "a student's heading and counts, every page together, and the places a page shows",
        arguments: [
            (student("s1", counts: [.overdue: 2, .today: 1, .upcoming: 2], shown: 5), "s1", "5 tasks: 2 overdue, 1 due today, 2 upcoming"),
            (student("s2", counts: [.completed: 1], shown: 1), "s2", "1 task: 1 completed"),
            (
                student("s1", counts: [.overdue: 2, .today: 1, .upcoming: 2], shown: 2), "s1",
                "5 tasks: 2 overdue, 1 due today, 2 upcoming — showing 1–2 of 5"
            ),
            (student("", counts: [.undated: 5], shown: 1, first: 3), "No student", "5 tasks: 5 no due date — showing 3 of 5"),
            (student("s3", counts: [.upcoming: 4], shown: 2, first: 3), "s3", "4 tasks: 4 upcoming — showing 3–4 of 4"),
        ])
    func studentWords(group: StudentGroup, heading: String, summary: String) {
        #expect(RollUpWords.student(group) == heading)
        #expect(RollUpWords.studentSummary(group) == summary)
    }

    @Test("a task's status where no section heading names its bucket: the bucket, set by hand, how late, the invalid values")
    func taskStatus() {
        let local = Self.utcLocal
        func words(_ task: ReportTask) -> String { RollUpWords.taskStatus(TaskRowWords(task, at: local)) }
        #expect(words(Self.task("T1", "A", due: "2026-11-26", bucket: .overdue)) == "overdue, 3 days late")
        #expect(words(Self.task("T2", "A", due: "2026-11-29T07:00:00", bucket: .overdue)) == "overdue, late today")
        #expect(words(Self.task("T3", "A", due: "2026-12-05", bucket: .upcoming, pinned: true)) == "upcoming (set by hand)")
        #expect(words(Self.task("T4", "A", due: "2026-11-26", bucket: .overdue, pinned: true)) == "overdue (set by hand), 3 days late")
        #expect(words(Self.task("T5", "A", due: "2026-12-05", bucket: .overdue, pinned: true)) == "overdue (set by hand)")
        #expect(words(Self.task("T6", "A", bucket: .undated)) == "no due date")
        #expect(words(Self.task("T7", "A", due: "2026-11-29", bucket: .today)) == "due today")
        let edited = TaskRecord(
            storedTaskID: "T8", courseID: "C1", title: "A", studentID: "", due: .text("2026-11-26"), priority: .text("urgent"),
            completed: .integer(2))
        #expect(
            words(ReportTask(task: edited, bucket: .overdue, pinned: false))
                == "overdue, 3 days late; invalid priority \"urgent\"; invalid completed 2")
    }

    @Test("a roll-up by student notes the zones and the completed tasks it leaves out, on a page with students only")
    func studentNotes() {
        let course = ReportSample.course("C1", code: "BIO", title: "Biology")
        let tasks = [
            Self.task("T1", "A", student: "s1", due: "2026-12-05", bucket: .upcoming),
            Self.task("T2", "A", student: "s1", due: "2026-12-05", bucket: .completed),
        ]
        func report(_ change: (inout ReportQuery) -> Void) -> Report {
            var query = ReportQuery()
            query.wording = .commandLineCopy
            query.groupBy = .student
            change(&query)
            return ReportBuilder.build(
                .list, courses: [ReportCourse(course: course, tasks: tasks)], facts: ReportSample.freshFacts, query: query,
                asOf: ReportSample.asOf, defaultTimeZone: ReportSample.utc)
        }
        #expect(
            RollUpWords.studentNotes(report { _ in })
                == ["Times are in each course's zone.", "1 completed task is not listed (--include-completed lists them)."])
        #expect(RollUpWords.studentNotes(report { $0.includeCompleted = true }) == ["Times are in each course's zone."])
        #expect(RollUpWords.studentNotes(report { ($0.limit, $0.page) = (1, 1) }).count == 2)
        // A page past the end shows no student: no note either.
        #expect(RollUpWords.studentNotes(report { ($0.limit, $0.page) = (1, 5) }) == [])
    }
}
