import Foundation
import Testing

@testable import DashboardCore

/// The streaming stages (per-task matching, per-course tallies, byte sort keys, assembly) give
/// the report the pure pipeline gives on the loaded data, for random data with many ties,
/// every sort, filters, searches and pages.
@Suite("Report streaming: the same report as the pipeline", .storeIndependent)
struct StreamingReportEquivalenceTests {
    static let asOf = ReportSample.asOf

    /// The report the streaming shell would build from `source`, computed without SQL: tasks
    /// counted one by one, the listed ones sorted by their byte keys and cut to the page.
    static func streamed(_ kind: Report.Kind, _ source: [ReportCourse], facts: ReportFacts, query: ReportQuery) -> Report {
        let matcher = ReportMatcher(query)
        let zone = ReportSample.utc
        let order = source.indices.sorted { ReportPipeline.courseOrder(source[$0].course, source[$1].course) }
        var rank = [Int](repeating: 0, count: source.count)
        for (place, position) in order.enumerated() { rank[position] = place }
        var tallies: [CourseTally] = []
        var listed: [(key: [UInt8], courseID: String, task: ReportTask)] = []
        for (position, course) in source.enumerated() {
            var tally = CourseTally(course: course.course, allowed: matcher.allows(course.course))
            let text = matcher.courseText(course.course)
            let courseZone = course.course.timezone.isEmpty ? zone : TimeZone(identifier: course.course.timezone) ?? zone
            let local = LocalAsOf(asOf: ReportSample.asOf, timeZone: courseZone)
            for task in course.tasks
            where tally.count(task, kind: kind, query: query, matcher: matcher, courseText: text, at: local) {
                let due = ReportPipeline.sortInstant(task, courseZone)
                listed.append(
                    (
                        ReportSortKey.key(coursePosition: rank[position], task: task, due: due, sort: query.sort), course.course.courseID,
                        task
                    ))
            }
            tallies.append(tally)
        }
        if kind == .grid {
            var report = ReportAssembly.grid(tallies: tallies, facts: facts, query: query, asOf: asOf, defaultTimeZone: zone)
            if report.state == .noMatch { report.unmatched = ReportSuggestions.unmatched(in: source, query: query) }
            return report
        }
        listed.sort { $0.key.lexicographicallyPrecedes($1.key) }
        var page: [(courseID: String, task: ReportTask)] = []
        if let window = ReportAssembly.window(total: listed.count, limit: query.limit, page: query.page) {
            page = listed[window.offset..<(window.offset + window.count)].map { ($0.courseID, $0.task) }
        }
        var report = ReportAssembly.list(tallies: tallies, pageTasks: page, facts: facts, query: query, asOf: asOf, defaultTimeZone: zone)
        if report.state == .noMatch { report.unmatched = ReportSuggestions.unmatched(in: source, query: query) }
        return report
    }

    static func expectSame(_ a: Report, _ b: Report, _ context: String) {
        #expect(a.state == b.state, "\(context)")
        #expect(a.cards == b.cards, "\(context)")
        #expect(ReportSample.summary(a.groups) == ReportSample.summary(b.groups), "\(context)")
        #expect(a.groups == b.groups, "\(context)")
        #expect(a.page == b.page, "\(context)")
        #expect(a.totalTasks == b.totalTasks, "\(context)")
        #expect(a.matchingTasks == b.matchingTasks, "\(context)")
        #expect(a.hiddenTasks == b.hiddenTasks, "\(context)")
        #expect(a.completedByCourse == b.completedByCourse, "\(context)")
        #expect(a.unmatched == b.unmatched, "\(context)")
        #expect(a.gridTotals == b.gridTotals, "\(context)")
        #expect(JSONReportRenderer.render(a) == JSONReportRenderer.render(b), "\(context)")
        #expect(TextRenderer.render(a, width: 100) == TextRenderer.render(b, width: 100), "\(context)")
    }

    @Test("grid and list, 400 random seeds")
    func randomized() {
        for seed in UInt64(1)...400 {
            var random = StreamingReportRandomData(seed: seed)
            let source = random.courses()
            let query = random.query(courses: source)
            let facts = random.chance(90) ? ReportSample.freshFacts : ReportFacts(hasData: false, dataAsOf: nil, lastFailure: nil)
            for kind in [Report.Kind.grid, .list] {
                let expected = ReportBuilder.build(
                    kind, courses: source, facts: facts, query: query, asOf: Self.asOf, defaultTimeZone: ReportSample.utc)
                let actual = Self.streamed(kind, source, facts: facts, query: query)
                Self.expectSame(actual, expected, "seed \(seed) \(kind) \(query)")
            }
        }
    }

    @Test("the byte key of a text orders as NaturalOrder.compare, on random texts")
    func naturalKeyOrder() {
        var random = StreamingReportRandomData(seed: 7)
        let pieces = [
            "a", "A", "b", "é", "E", "0", "00", "1", "01", "9", "10", "2", " ", "-", "z", "Ω", "ß", "\u{0}", "99999999999999999999",
        ]
        for _ in 0..<4000 {
            let a = (0..<random.int(0...5)).map { _ in random.pick(pieces) }.joined()
            let b = (0..<random.int(0...5)).map { _ in random.pick(pieces) }.joined()
            var x: [UInt8] = []
            var y: [UInt8] = []
            ReportSortKey.appendText(a, to: &x)
            ReportSortKey.appendText(b, to: &y)
            let expected = NaturalOrder.compare(a, b)
            let actual: Bool? = x == y ? nil : x.lexicographicallyPrecedes(y)
            #expect(actual == expected, "\(a.debugDescription) vs \(b.debugDescription)")
        }
    }

    @Test("page numbers far past the end or near Int.max are empty pages, never a trap")
    func hugePages() {
        let info = ReportAssembly.page(total: 25, limit: 1_000_000, page: 10_000_000_000_000)
        #expect(info.firstItem == 0 && info.lastItem == 0 && info.pageCount == 1)
        #expect(ReportAssembly.window(total: 25, limit: Int.max, page: 2) == nil)
        #expect(ReportAssembly.window(total: 25, limit: Int.max, page: 1)?.count == 25)
        #expect(ReportAssembly.page(total: 25, limit: Int.max, page: Int.max).firstItem == 0)
    }
}
