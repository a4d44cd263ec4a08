import Foundation
import Testing

@testable import DashboardCore

/// `CardWords`: what a grid card and the grid's totals line say (attention, summary, totals,
/// the bar's scale), and `TextRenderer.bar` drawn to that scale.
@Suite("Grid: the words of cards and totals", .storeIndependent)
struct CardWordsTests {
    static func card(_ counts: BucketCounts, total: Int) -> CourseCard {
        CourseCard(course: ReportSample.course("C1", code: "BIO 101", title: "Biology"), counts: counts, total: total)
    }

    /// The BIO 101 card of the sample: 3 overdue, 3 today, 4 upcoming, 1 undated, 9 completed.
    static let bio = card([.overdue: 3, .today: 3, .upcoming: 4, .undated: 1, .completed: 9], total: 20)

    @Test(
        "attention names the overdue and due-today counts it has, or nothing",
        arguments: [
            ([.overdue: 6, .today: 2] as BucketCounts, "6 overdue, 2 due today" as String?),
            ([.overdue: 1] as BucketCounts, "1 overdue"),
            ([.today: 3, .upcoming: 5] as BucketCounts, "3 due today"),
            ([.overdue: 10, .upcoming: 1, .completed: 4] as BucketCounts, "10 overdue"),
            ([.upcoming: 4, .undated: 1, .completed: 9] as BucketCounts, nil),
            (BucketCounts(), nil),
        ])
    func attention(counts: BucketCounts, expected: String?) {
        #expect(CardWords.attention(counts) == expected)
    }

    @Test("the attention line starts with \"needs attention:\", and a card without need has none")
    func attentionLine() {
        #expect(CardWords.attentionLine(Self.bio) == "needs attention: 3 overdue, 3 due today")
        #expect(CardWords.attentionLine(Self.card([.today: 1], total: 1)) == "needs attention: 1 due today")
        #expect(CardWords.attentionLine(Self.card([.upcoming: 2, .completed: 1], total: 3)) == nil)
        #expect(CardWords.attentionLine(Self.card(BucketCounts(), total: 0)) == nil)
    }

    @Test(
        "a card's summary: completed of all without a filter, the filtered buckets of all with --bucket, the matching ones otherwise",
        arguments: [
            (bio, ReportSample.query { _ in }, "9 of 20 completed"),
            (card([.completed: 1], total: 1), ReportSample.query { _ in }, "1 of 1 completed"),
            (card(BucketCounts(), total: 0), ReportSample.query { _ in }, "0 of 0 completed"),
            // --bucket: every filtered bucket with its count, of every live task; never "0 of 20 completed".
            (card([.overdue: 6], total: 20), ReportSample.query { $0.buckets = [.overdue] }, "6 overdue of 20 tasks"),
            (card([.overdue: 1], total: 1), ReportSample.query { $0.buckets = [.overdue] }, "1 overdue of 1 task"),
            (
                card([.overdue: 6, .today: 2], total: 20), ReportSample.query { $0.buckets = [.today, .overdue] },
                "6 overdue, 2 due today of 20 tasks"
            ),
            (card([.today: 2], total: 20), ReportSample.query { $0.buckets = [.overdue, .today] }, "0 overdue, 2 due today of 20 tasks"),
            (card([.completed: 9], total: 20), ReportSample.query { $0.buckets = [.completed] }, "9 completed of 20 tasks"),
            (
                card([.undated: 1, .completed: 9], total: 20), ReportSample.query { $0.buckets = [.completed, .undated] },
                "1 no due date, 9 completed of 20 tasks"
            ),
            // Another search or filter: of the matching tasks, and how many in all.
            (
                card([.upcoming: 1, .completed: 2], total: 20), ReportSample.query { $0.search = "essay" },
                "2 of 3 matching completed (20 in all)"
            ),
            (card([.overdue: 1], total: 20), ReportSample.query { $0.students = ["s1"] }, "0 of 1 matching completed (20 in all)"),
            (card([.today: 2], total: 5), ReportSample.query { $0.due.within = [0] }, "0 of 2 matching completed (5 in all)"),
            // A blank search narrows nothing.
            (bio, ReportSample.query { $0.search = "  " }, "9 of 20 completed"),
            // --course and --teacher keep whole courses: a card reads as without a filter.
            (bio, ReportSample.query { $0.teachers = ["okafor"] }, "9 of 20 completed"),
            (bio, ReportSample.query { $0.courses = ["BIO 101"] }, "9 of 20 completed"),
        ] as [(CourseCard, ReportQuery, String)])
    func summary(card: CourseCard, query: ReportQuery, expected: String) {
        #expect(CardWords.summary(card, query: query) == expected)
    }

    @Test("counted buckets: the four open ones without --bucket, else the filter's in report order")
    func countedBuckets() {
        #expect(CardWords.countedBuckets(ReportSample.query { _ in }) == [.overdue, .today, .upcoming, .undated])
        #expect(CardWords.countedBuckets(ReportSample.query { $0.buckets = [.completed, .overdue] }) == [.overdue, .completed])
        #expect(CardWords.countedBuckets(ReportSample.query { $0.buckets = [.upcoming, .upcoming] }) == [.upcoming])
    }

    static func gridTotals(courses: Int, needing: Int, _ counts: BucketCounts, live: Int) -> GridTotals {
        var totals = GridTotals()
        totals.courses = courses
        totals.needingAttention = needing
        totals.counts = counts
        totals.live = live
        return totals
    }

    @Test(
        "the totals line: courses, how many need attention, the open counts and the summary",
        arguments: [
            (
                gridTotals(courses: 5, needing: 4, [.overdue: 10, .today: 6, .upcoming: 32, .undated: 6, .completed: 44], live: 98),
                ReportSample.query { _ in },
                "5 courses, 4 need attention: 10 overdue, 6 due today, 32 upcoming, 6 no due date; 44 of 98 completed"
            ),
            (
                gridTotals(courses: 1, needing: 1, [.overdue: 1], live: 1), ReportSample.query { _ in },
                "1 course, 1 needs attention: 1 overdue, 0 due today, 0 upcoming, 0 no due date; 0 of 1 completed"
            ),
            (
                gridTotals(courses: 2, needing: 0, [.upcoming: 3, .completed: 1], live: 4), ReportSample.query { _ in },
                "2 courses, none needs attention: 0 overdue, 0 due today, 3 upcoming, 0 no due date; 1 of 4 completed"
            ),
            (
                gridTotals(courses: 3, needing: 1, [.undated: 2], live: 7), ReportSample.query { _ in },
                "3 courses, 1 needs attention: 0 overdue, 0 due today, 0 upcoming, 2 no due date; 0 of 7 completed"
            ),
            (
                gridTotals(courses: 0, needing: 0, BucketCounts(), live: 0), ReportSample.query { _ in },
                "0 courses, none needs attention: 0 overdue, 0 due today, 0 upcoming, 0 no due date; 0 of 0 completed"
            ),
            // --bucket: only the filtered buckets, of every live task of the shown courses.
            (
                gridTotals(courses: 3, needing: 2, [.overdue: 4], live: 50), ReportSample.query { $0.buckets = [.overdue] },
                "3 courses, 2 need attention: 4 overdue of 50 tasks"
            ),
            (
                gridTotals(courses: 2, needing: 0, [.upcoming: 1], live: 1), ReportSample.query { $0.buckets = [.upcoming] },
                "2 courses, none needs attention: 1 upcoming of 1 task"
            ),
            (
                gridTotals(courses: 2, needing: 2, [.overdue: 1, .today: 2], live: 30),
                ReportSample.query { $0.buckets = [.today, .overdue] },
                "2 courses, 2 need attention: 1 overdue, 2 due today of 30 tasks"
            ),
            // Another filter: the open counts, then of the matching tasks.
            (
                gridTotals(courses: 2, needing: 1, [.today: 1, .upcoming: 1, .completed: 1], live: 40),
                ReportSample.query { $0.search = "essay" },
                "2 courses, 1 needs attention: 0 overdue, 1 due today, 1 upcoming, 0 no due date; 1 of 3 matching completed (40 in all)"
            ),
        ] as [(GridTotals, ReportQuery, String)])
    func totals(totals: GridTotals, query: ReportQuery, expected: String) {
        #expect(CardWords.totals(totals, query: query) == expected)
    }

    @Test("the bar stands for the shown tasks, or with --bucket for every live task of the course")
    func barScale() {
        let filtered = Self.card([.overdue: 3], total: 20)
        #expect(CardWords.barScale(filtered, query: ReportSample.query { _ in }) == 3)
        #expect(CardWords.barScale(filtered, query: ReportSample.query { $0.search = "x" }) == 3)
        #expect(CardWords.barScale(filtered, query: ReportSample.query { $0.buckets = [.overdue] }) == 20)
        #expect(CardWords.barScale(Self.bio, query: ReportSample.query { _ in }) == 20)
        // Never less than what the card shows.
        #expect(CardWords.barScale(Self.card([.overdue: 5], total: 2), query: ReportSample.query { $0.buckets = [.overdue] }) == 5)
    }

    @Test(
        "the bar fills its share of the scale with marks and draws the rest with -",
        arguments: [
            (card([.overdue: 3], total: 20), 20, 20 as Int?, "!!!-----------------"),
            (card([.overdue: 3], total: 20), 20, nil as Int?, "!!!!!!!!!!!!!!!!!!!!"),
            (card([.overdue: 6, .today: 2], total: 20), 20, 20, "!!!!!!**------------"),
            (card([.overdue: 10, .today: 10], total: 20), 20, 20, "!!!!!!!!!!**********"),
            // Each bucket with a task gets a mark, however small its share.
            (card([.overdue: 1], total: 100), 20, 100, "!-------------------"),
            (card([.overdue: 1, .completed: 1], total: 100), 10, 100, "!.--------"),
            // The sample's BIO 101 card at 24 columns: what rounding leaves goes to the largest bucket.
            (bio, 24, nil, "!!!***++++?............."),
            (bio, 24, 20, "!!!***++++?............."),
            // A scale below the shown tasks counts as the shown tasks.
            (card([.upcoming: 4], total: 4), 8, 2, "++++++++"),
            (card(BucketCounts(), total: 20), 6, 20, "------"),
        ] as [(CourseCard, Int, Int?, String)])
    func bar(card: CourseCard, width: Int, scale: Int?, expected: String) {
        #expect(TextRenderer.bar(card, width: width, scale: scale) == expected)
    }

    @Test("a text card of a --bucket grid counts only that bucket, of every task, with the rest of its bar drawn -")
    func bucketFilteredTextCard() {
        let tasks =
            (1...3).map { ReportSample.task("o\($0)", "C1", "Overdue \($0)", bucket: .overdue) }
            + (1...2).map { ReportSample.task("t\($0)", "C1", "Today \($0)", bucket: .today) }
            + (1...5).map { ReportSample.task("u\($0)", "C1", "Upcoming \($0)", bucket: .upcoming) }
            + [ReportSample.task("n1", "C1", "Undated", bucket: .undated)]
            + (1...9).map { ReportSample.task("c\($0)", "C1", "Done \($0)", bucket: .completed) }
        let courses = [ReportCourse(course: ReportSample.course("C1", code: "BIO 101", title: "Biology"), tasks: tasks)]
        let report = ReportBuilder.build(
            .grid, courses: courses, facts: ReportSample.freshFacts, query: ReportSample.query { $0.buckets = [.overdue] },
            asOf: ReportSample.asOf, defaultTimeZone: ReportSample.utc)
        #expect(
            TextRenderer.render(report, width: 60) == """
                Courses as of 2026-11-29 08:00 UTC
                Showing 3 of 20 tasks: --bucket overdue
                1 course, 1 needs attention: 3 overdue of 20 tasks

                Bar:  ! overdue  * due today  + upcoming  ? no due date
                . completed  - other tasks
                A card framed with = needs attention.

                +==========================================+
                | BIO 101                                  |
                | Biology                                  |
                | needs attention: 3 overdue               |
                | !!!!!!---------------------------------- |
                | 3 overdue of 20 tasks                    |
                +==========================================+

                """)
    }

    @Test("a text card without a filter ends with its counts and completed of all, framed with - when nothing needs attention")
    func plainTextCard() {
        let tasks =
            (1...2).map { ReportSample.task("u\($0)", "C1", "Upcoming \($0)", bucket: .upcoming) }
            + [ReportSample.task("c1", "C1", "Done", bucket: .completed)]
        let courses = [ReportCourse(course: ReportSample.course("C1", code: "ENG 1", title: "English"), tasks: tasks)]
        let report = ReportBuilder.build(
            .grid, courses: courses, facts: ReportSample.freshFacts, query: ReportSample.query { _ in }, asOf: ReportSample.asOf,
            defaultTimeZone: ReportSample.utc)
        #expect(
            TextRenderer.render(report, width: 40) == """
                Courses as of 2026-11-29 08:00 UTC
                1 course, none needs attention: 0
                overdue, 0 due today, 2 upcoming, 0 no
                due date; 1 of 3 completed

                Bar:  ! overdue  * due today  + upcoming
                ? no due date  . completed

                +--------------------------------------+
                | ENG 1                                |
                | English                              |
                | ++++++++++++++++++++++++............ |
                | ! 0 overdue  * 0 today  + 2 upcoming |
                | ? 0 no date                          |
                | . 1 of 3 completed                   |
                +--------------------------------------+

                """)
    }
}
