import Foundation
import Testing

@testable import DashboardCore

@Suite("Report pipeline: sort")
struct PipelineSortTests {
    /// One UTC course. Five tasks share the due 2026-11-29T10:00:00Z; T8 is due the day before
    /// (date only); T6, T7 and T9 are undated.
    static let tasks = [
        ReportSample.task("T3", "C1", "Alpha", student: "s2", due: "2026-11-29T10:00:00Z", priority: .normal),
        ReportSample.task("T2", "C1", "Zulu", student: "s10", due: "2026-11-29T10:00:00Z", priority: .high),
        ReportSample.task("T1", "C1", "Alpha", student: "s2", due: "2026-11-29T10:00:00Z", priority: .normal),
        ReportSample.task("T4", "C1", "Task 10", student: "s1", due: "2026-11-29T10:00:00Z", priority: .normal),
        ReportSample.task("T5", "C1", "Task 2", student: "s1", due: "2026-11-29T10:00:00Z", priority: .normal),
        ReportSample.task("T6", "C1", "Beta", student: "s3", priority: .high, bucket: .undated),
        ReportSample.task("T7", "C1", "Alpha", student: "s2", priority: .low, bucket: .undated),
        ReportSample.task("T8", "C1", "Late", student: "s3", due: "2026-11-28", priority: .low, bucket: .overdue),
        ReportSample.task("T9", "C1", "Beta", student: "s3", priority: .high, bucket: .undated),
    ]

    static func sorted(_ tasks: [ReportTask], by sort: ReportSort, timezone: String = "", defaultZone: TimeZone = ReportSample.utc)
        -> [String]
    {
        let course = ReportCourse(course: ReportSample.course("C1", timezone: timezone), tasks: tasks)
        return ReportPipeline.sort([course], by: sort, defaultTimeZone: defaultZone).flatMap { $0.tasks.map(\.task.taskID) }
    }

    @Test(
        "each sort has its documented tie-breakers and ends on the task id",
        arguments: [
            // Due, then priority high→low, then title (natural), then id; undated last.
            (ReportSort.due, ["T8", "T2", "T1", "T3", "T5", "T4", "T6", "T9", "T7"]),
            // Priority high→low, then due (undated last), then title, then id.
            (.priority, ["T2", "T6", "T9", "T1", "T3", "T5", "T4", "T8", "T7"]),
            // Title (natural), then due (undated last), then id.
            (.title, ["T1", "T3", "T7", "T6", "T9", "T8", "T5", "T4", "T2"]),
            // Student (natural), then due, then title, then id.
            (.student, ["T5", "T4", "T1", "T3", "T7", "T8", "T6", "T9", "T2"]),
        ])
    func sortOrder(sort: ReportSort, expected: [String]) {
        #expect(Self.sorted(Self.tasks, by: sort) == expected)
    }

    @Test("the order is total: any input order gives the same result", arguments: ReportSort.allCases)
    func totalOrder(sort: ReportSort) {
        let expected = Self.sorted(Self.tasks, by: sort)
        for shift in 1..<Self.tasks.count {
            let rotated = Array(Self.tasks[shift...] + Self.tasks[..<shift])
            #expect(Self.sorted(rotated, by: sort) == expected)
            #expect(Self.sorted(rotated.reversed(), by: sort) == expected)
        }
    }

    @Test("tasks equal in every key are ordered by task id, byte by byte")
    func idTieBreak() {
        let twins = ["T9", "T10", "t1", "T1"].map { ReportSample.task($0, "C1", "Same", due: "2026-11-29") }
        for sort in ReportSort.allCases {
            #expect(Self.sorted(twins, by: sort) == ["T1", "T10", "T9", "t1"])
        }
    }

    @Test("student sort: case-insensitive natural order, then due, then title, then id")
    func studentOrder() {
        let tasks = [
            ReportSample.task("U1", "C1", "A", student: "s10", due: "2026-11-29T10:00:00Z"),
            ReportSample.task("U2", "C1", "A", student: "s2", bucket: .undated),
            ReportSample.task("U3", "C1", "B", student: "s2", due: "2026-11-29T10:00:00Z"),
            ReportSample.task("U5", "C1", "A", student: "s2", due: "2026-11-29T10:00:00Z"),
            ReportSample.task("U4", "C1", "A", student: "s2", due: "2026-11-29T10:00:00Z"),
            ReportSample.task("U7", "C1", "A", student: "s1"),
            ReportSample.task("U6", "C1", "A", student: "S1"),
        ]
        #expect(Self.sorted(tasks, by: .student) == ["U6", "U7", "U4", "U5", "U3", "U2", "U1"])
    }

    /// K1 a date (end of the local day), K2 and K5 local times in the course's zone, K3 and K4
    /// instants; K4 and K5 fall on the same instant in Berlin (K5 has the higher priority).
    static let dueKinds = [
        ReportSample.task("K1", "C1", "date only", due: "2026-11-29"),
        ReportSample.task("K2", "C1", "local 23:30", due: "2026-11-29T23:30:00"),
        ReportSample.task("K3", "C1", "instant 22:45Z", due: "2026-11-29T22:45:00Z"),
        ReportSample.task("K4", "C1", "instant 23:00Z", due: "2026-11-29T23:00:00Z", priority: .normal),
        ReportSample.task("K5", "C1", "local midnight", due: "2026-11-30T00:00:00", priority: .high),
    ]

    @Test(
        "dues of different kinds compare as instants in the course's time zone",
        arguments: [
            // Berlin (UTC+1): K2 22:30Z, K3 22:45Z, K1 22:59:59Z, K5 = K4 23:00Z.
            ("Europe/Berlin", ["K2", "K3", "K1", "K5", "K4"]),
            // New York (UTC-5): K3 22:45Z, K4 23:00Z, K2 04:30Z, K1 04:59:59Z, K5 05:00Z.
            ("America/New_York", ["K3", "K4", "K2", "K1", "K5"]),
            // No zone: the default (Berlin here). An unknown zone also falls back to it.
            ("", ["K2", "K3", "K1", "K5", "K4"]),
            ("Mars/Olympus_Mons", ["K2", "K3", "K1", "K5", "K4"]),
        ])
    func dueKinds(timezone: String, expected: [String]) {
        #expect(Self.sorted(Self.dueKinds, by: .due, timezone: timezone, defaultZone: ReportSample.berlin) == expected)
    }

    static func epoch(_ text: String) -> Int64 {
        Int64(Timestamp.parse(text, timeZone: ReportSample.utc)!.timeIntervalSince1970)
    }

    @Test(
        "the instant a due stands for",
        arguments: [
            ("2026-11-29", "UTC", epoch("2026-11-29T23:59:59Z")),
            ("2026-11-29", "Europe/Berlin", epoch("2026-11-29T22:59:59Z")),
            ("2026-11-29T14:00:00", "Europe/Berlin", epoch("2026-11-29T13:00:00Z")),
            ("2026-11-29T14:00:00", "America/New_York", epoch("2026-11-29T19:00:00Z")),
            ("2026-11-29T13:00:00Z", "America/New_York", epoch("2026-11-29T13:00:00Z")),
            // 02:30 does not exist on 2026-03-29 in Berlin: read with the offset before the jump.
            ("2026-03-29T02:30:00", "Europe/Berlin", epoch("2026-03-29T01:30:00Z")),
        ])
    func dueInstant(due: String, zone: String, expected: Int64) {
        #expect(ReportPipeline.dueInstant(due, TimeZone(identifier: zone)!) == expected)
    }

    @Test("an undated or unreadable due has no instant")
    func noInstant() {
        #expect(ReportPipeline.dueInstant("", ReportSample.utc) == nil)
        #expect(ReportPipeline.dueInstant("soon", ReportSample.utc) == nil)
    }

    @Test(
        "natural order: digit runs by value, the rest ignoring case, then exactly",
        arguments: [
            ("Task 2", "Task 10", true),
            ("Task 10", "Task 2", false),
            ("Task 007", "Task 8", true),
            ("Task 08", "Task 7", false),
            ("Task 002", "Task 02", true),  // same value: the exact text decides
            ("Task 02", "Task 2", true),
            ("Task 2", "Task 02", false),
            ("alpha", "Beta", true),
            ("Task 3", "task 3", true),
            ("task 3", "Task 3", false),
            ("Übung 2", "ubung 10", true),
            ("Task", "Task 1", true),
            ("Task 9", "Task 9a", true),
            ("x2y10", "x2y9", false),
            ("Task 99999999999999999999", "Task 100000000000000000000", true),
        ] as [(String, String, Bool)])
    func naturalOrder(a: String, b: String, aFirst: Bool) {
        #expect(NaturalOrder.compare(a, b) == aFirst)
        #expect(NaturalOrder.compare(b, a) == !aFirst)
    }

    @Test("natural order: only identical texts are equal")
    func naturalEquality() {
        #expect(NaturalOrder.compare("Task 2", "Task 2") == nil)
        #expect(NaturalOrder.compare("", "") == nil)
        let titles = ["Task 10", "task 1", "Task 02", "Task 2", "Task 1", "Task 010", "Task"]
        let sorted = titles.sorted { NaturalOrder.compare($0, $1) == true }
        #expect(sorted == ["Task", "Task 1", "task 1", "Task 02", "Task 2", "Task 010", "Task 10"])
    }
}

@Suite("Report pipeline: group")
struct PipelineGroupTests {
    @Test("courses by code in natural order, then by id")
    func courseOrder() {
        let courses = [("M10", "MAT-10"), ("M9", "MAT-9"), ("C9", "BIO"), ("A1", "ART-1"), ("C10", "BIO"), ("C2", "bio")].map {
            ReportCourse(course: ReportSample.course($0.0, code: $0.1), tasks: [])
        }
        #expect(ReportPipeline.group(courses).map(\.course.courseID) == ["A1", "C10", "C9", "C2", "M9", "M10"])
    }

    @Test("tasks in bucket order overdue, today, upcoming, undated, completed, keeping their order inside a bucket")
    func bucketOrder() {
        let course = ReportCourse(
            course: ReportSample.course("X"),
            tasks: [
                ReportSample.task("Tc", "X", "c", bucket: .completed), ReportSample.task("Tu", "X", "u", bucket: .undated),
                ReportSample.task("Tt", "X", "t", bucket: .today), ReportSample.task("To2", "X", "o", bucket: .overdue),
                ReportSample.task("Tp", "X", "p", bucket: .upcoming), ReportSample.task("To1", "X", "o", bucket: .overdue),
            ])
        let groups = ReportPipeline.group([course, ReportCourse(course: ReportSample.course("Y"), tasks: [])])
        #expect(
            ReportSample.summary(groups) == [
                "X overdue: To2 To1", "X today: Tt", "X upcoming: Tp", "X undated: Tu", "X completed: Tc", "Y -",
            ])
        #expect(groups.map(\.liveTasks) == [6, 0])
        #expect(groups.map(\.taskCount) == [6, 0])
    }
}

@Suite("Report pipeline: paginate")
struct PipelinePageTests {
    /// C1: T1 T2 overdue, T3 upcoming; C2: T4 T5 T6 undated; C3: no task (a page leaves it out).
    static let groups = ReportPipeline.group([
        ReportCourse(
            course: ReportSample.course("C1"),
            tasks: [
                ReportSample.task("T1", "C1", "1", bucket: .overdue), ReportSample.task("T2", "C1", "2", bucket: .overdue),
                ReportSample.task("T3", "C1", "3", bucket: .upcoming),
            ]),
        ReportCourse(
            course: ReportSample.course("C2"), tasks: ["T4", "T5", "T6"].map { ReportSample.task($0, "C2", $0, bucket: .undated) }),
        ReportCourse(course: ReportSample.course("C3"), tasks: []),
    ])

    static let all = ["C1 overdue: T1 T2", "C1 upcoming: T3", "C2 undated: T4 T5 T6"]

    static func info(_ page: Int, of count: Int, limit: Int?, total: Int, _ first: Int, _ last: Int) -> PageInfo {
        PageInfo(page: page, pageCount: count, limit: limit, totalItems: total, firstItem: first, lastItem: last)
    }

    @Test(
        "task pages: bounds, totals and page counts",
        arguments: [
            (nil, 1, all, info(1, of: 1, limit: nil, total: 6, 1, 6)),
            (1, 1, ["C1 overdue: T1"], info(1, of: 6, limit: 1, total: 6, 1, 1)),
            (1, 6, ["C2 undated: T6"], info(6, of: 6, limit: 1, total: 6, 6, 6)),
            (1, 7, [], info(7, of: 6, limit: 1, total: 6, 0, 0)),
            (2, 2, ["C1 upcoming: T3", "C2 undated: T4"], info(2, of: 3, limit: 2, total: 6, 3, 4)),
            (3, 1, ["C1 overdue: T1 T2", "C1 upcoming: T3"], info(1, of: 2, limit: 3, total: 6, 1, 3)),
            (3, 2, ["C2 undated: T4 T5 T6"], info(2, of: 2, limit: 3, total: 6, 4, 6)),
            (3, 3, [], info(3, of: 2, limit: 3, total: 6, 0, 0)),
            (4, 2, ["C2 undated: T5 T6"], info(2, of: 2, limit: 4, total: 6, 5, 6)),
            (6, 1, all, info(1, of: 1, limit: 6, total: 6, 1, 6)),
            (6, 2, [], info(2, of: 1, limit: 6, total: 6, 0, 0)),
            (10, 1, all, info(1, of: 1, limit: 10, total: 6, 1, 6)),
        ] as [(Int?, Int, [String], PageInfo)])
    func taskPages(limit: Int?, page: Int, expected: [String], info: PageInfo) {
        let paged = ReportPipeline.paginateTasks(Self.groups, limit: limit, page: page)
        #expect(ReportSample.summary(paged.groups) == expected)
        #expect(paged.page == info)
    }

    @Test("a task page keeps each course's live task count")
    func pageKeepsLiveTasks() {
        let paged = ReportPipeline.paginateTasks(Self.groups, limit: 2, page: 2)
        #expect(paged.groups.map(\.liveTasks) == [3, 3])
    }

    @Test("no task at all: one empty page")
    func noTasks() {
        #expect(ReportPipeline.paginateTasks([], limit: 3, page: 1).page == Self.info(1, of: 1, limit: 3, total: 0, 0, 0))
        #expect(ReportPipeline.paginateTasks([], limit: 3, page: 2).page == Self.info(2, of: 1, limit: 3, total: 0, 0, 0))
        #expect(ReportPipeline.paginateTasks([], limit: nil, page: 1).page == Self.info(1, of: 1, limit: nil, total: 0, 0, 0))
    }

    static let cards = ["K1", "K2", "K3", "K4", "K5"].map { CourseCard(course: ReportSample.course($0), counts: [:], total: 0) }

    @Test(
        "course pages (grid): bounds, totals and page counts",
        arguments: [
            (nil, 1, ["K1", "K2", "K3", "K4", "K5"], info(1, of: 1, limit: nil, total: 5, 1, 5)),
            (1, 1, ["K1"], info(1, of: 5, limit: 1, total: 5, 1, 1)),
            (2, 3, ["K5"], info(3, of: 3, limit: 2, total: 5, 5, 5)),
            (2, 4, [], info(4, of: 3, limit: 2, total: 5, 0, 0)),
            (4, 2, ["K5"], info(2, of: 2, limit: 4, total: 5, 5, 5)),
            (5, 1, ["K1", "K2", "K3", "K4", "K5"], info(1, of: 1, limit: 5, total: 5, 1, 5)),
            (5, 2, [], info(2, of: 1, limit: 5, total: 5, 0, 0)),
        ] as [(Int?, Int, [String], PageInfo)])
    func coursePages(limit: Int?, page: Int, expected: [String], info: PageInfo) {
        let paged = ReportPipeline.paginateCourses(Self.cards, limit: limit, page: page)
        #expect(paged.cards.map(\.course.courseID) == expected)
        #expect(paged.page == info)
    }

    /// C1: three open tasks, C2: three open tasks, C3: none.
    static let source = [
        ReportCourse(
            course: ReportSample.course("C1"), tasks: ["T1", "T2", "T3"].map { ReportSample.task($0, "C1", $0, bucket: .overdue) }),
        ReportCourse(
            course: ReportSample.course("C2"), tasks: ["T4", "T5", "T6"].map { ReportSample.task($0, "C2", $0, bucket: .upcoming) }),
        ReportCourse(course: ReportSample.course("C3"), tasks: []),
    ]

    static func report(_ kind: Report.Kind, limit: Int?, page: Int) -> Report {
        ReportBuilder.build(
            kind, courses: source, facts: ReportSample.freshFacts,
            query: ReportSample.query {
                $0.limit = limit; $0.page = page
            },
            asOf: ReportSample.asOf, defaultTimeZone: ReportSample.utc)
    }

    @Test(
        "list pages say where they are and what comes next",
        arguments: [
            (nil, 1, ["C1 overdue: T1 T2 T3", "C2 upcoming: T4 T5 T6", "C3 -"], ""),
            (2, 1, ["C1 overdue: T1 T2", "C3 -"], "Page 1 of 3 (tasks 1–2 of 6). Next: --page 2."),
            (2, 2, ["C1 overdue: T3", "C2 upcoming: T4"], "Page 2 of 3 (tasks 3–4 of 6). Next: --page 3."),
            (2, 3, ["C2 upcoming: T5 T6"], "Page 3 of 3 (tasks 5–6 of 6)."),
            (2, 4, [], "Page 4 of 3 is empty (6 tasks in all). Use --page 1 to --page 3."),
            (6, 1, ["C1 overdue: T1 T2 T3", "C2 upcoming: T4 T5 T6", "C3 -"], "Page 1 of 1 (tasks 1–6 of 6)."),
        ] as [(Int?, Int, [String], String)])
    func listPageMessage(limit: Int?, page: Int, expected: [String], message: String) {
        let report = Self.report(.list, limit: limit, page: page)
        #expect(report.state == .ok)
        #expect(ReportSample.summary(report.groups) == expected)
        #expect(ReportMessages.page(report) == message)
    }

    @Test(
        "grid pages count courses",
        arguments: [
            (nil, 1, ["C1", "C2", "C3"], ""),
            (2, 1, ["C1", "C2"], "Page 1 of 2 (courses 1–2 of 3). Next: --page 2."),
            (2, 2, ["C3"], "Page 2 of 2 (courses 3–3 of 3)."),
            (2, 3, [], "Page 3 of 2 is empty (3 courses in all). Use --page 1 to --page 2."),
        ] as [(Int?, Int, [String], String)])
    func gridPageMessage(limit: Int?, page: Int, expected: [String], message: String) {
        let report = Self.report(.grid, limit: limit, page: page)
        #expect(report.cards.map(\.course.courseID) == expected)
        #expect(report.page.totalItems == 3)
        #expect(ReportMessages.page(report) == message)
    }
}
