import Foundation
import Testing

@testable import DashboardCore

@Suite("Report pipeline: paginate", .storeIndependent)
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
