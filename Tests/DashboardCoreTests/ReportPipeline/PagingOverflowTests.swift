import Foundation
import Testing

@testable import DashboardCore

/// Paging and the busy timeout are arithmetic on values that come from the command line: no
/// value, however large, may trap (issue 11, class 3). The command line bounds them too; these
/// tests hold the core on its own.
@Suite("Arithmetic on option values never traps", .storeIndependent)
struct PagingOverflowTests {
    static let groups = PipelinePageTests.groups
    static let cards = PipelinePageTests.cards

    @Test(
        "a page far past the end is an empty page, whatever its number and size",
        arguments: [
            (1_000_000, 10_000_000_000_000), (Int.max, 2), (Int.max, Int.max), (2, Int.max), (Int.max / 2 + 1, 3), (1, Int.max),
        ])
    func hugePagesAreEmpty(limit: Int, page: Int) {
        let tasks = ReportPipeline.paginateTasks(Self.groups, limit: limit, page: page)
        #expect(tasks.groups.isEmpty)
        #expect(tasks.page.firstItem == 0 && tasks.page.lastItem == 0 && tasks.page.totalItems == 6)
        let courses = ReportPipeline.paginateCourses(Self.cards, limit: limit, page: page)
        #expect(courses.cards.isEmpty)
        #expect(courses.page.firstItem == 0 && courses.page.totalItems == 5)
    }

    @Test("the first page of a huge limit holds everything, counted as one page")
    func hugeLimitFirstPage() {
        let tasks = ReportPipeline.paginateTasks(Self.groups, limit: Int.max, page: 1)
        #expect(tasks.page == PipelinePageTests.info(1, of: 1, limit: Int.max, total: 6, 1, 6))
        let courses = ReportPipeline.paginateCourses(Self.cards, limit: Int.max, page: 1)
        #expect(courses.cards.count == 5)
        #expect(courses.page.pageCount == 1 && courses.page.lastItem == 5)
    }

    @Test(
        "the busy timeout in milliseconds is clamped, never trapped",
        arguments: [
            (0.0, 0), (-1.0, 0), (Double.nan, 0), (Double.infinity, Int(Int32.max)), (-Double.infinity, 0), (1e300, Int(Int32.max)),
            (0.0004, 0), (2.5, 2_500), (86_400, 86_400_000),
        ])
    func busyTimeout(seconds: Double, milliseconds: Int) {
        #expect(Store.busyMilliseconds(seconds) == milliseconds)
    }
}
