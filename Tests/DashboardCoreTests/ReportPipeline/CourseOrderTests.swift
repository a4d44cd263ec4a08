import Foundation
import Testing

@testable import DashboardCore

/// `ReportPipeline.cardOrder` (`--sort-courses`), its byte key `ReportSortKey.card`, and the
/// grid's `GridTotals`.
@Suite("Grid: card order and totals", .storeIndependent)
struct CourseOrderTests {
    static func card(
        _ id: String, code: String, title: String, _ counts: BucketCounts, total: Int? = nil
    ) -> CourseCard {
        CourseCard(course: ReportSample.course(id, code: code, title: title), counts: counts, total: total ?? counts.total)
    }

    /// Ties on purpose: k2, k9 and k10 share the code "MAT 2" and the counts 2 overdue, 1 today
    /// (k2 and k10 the title too); "MAT 2" and "MAT 10" differ only in their number; k4 and k5
    /// share the title "Art"; k5 and k6 have codes equal but for case.
    static let cards = [
        card("k1", code: "MAT 10", title: "Algebra 2", [.overdue: 2, .upcoming: 4]),
        card("k2", code: "MAT 2", title: "Algebra 10", [.overdue: 2, .today: 1]),
        card("k3", code: "BIO 1", title: "Zoology", [.today: 3, .completed: 2]),
        card("k4", code: "ART 0", title: "Art", [.upcoming: 1]),
        card("k5", code: "ART 1", title: "Art", [.upcoming: 5]),
        card("k6", code: "art 1", title: "", [.undated: 1, .completed: 3]),
        card("k7", code: "CHEM 1", title: "Chemistry", [.overdue: 5]),
        card("k9", code: "MAT 2", title: "algebra 10", [.overdue: 2, .today: 1]),
        card("k10", code: "MAT 2", title: "Algebra 10", [.overdue: 2, .today: 1]),
    ]

    static func ordered(_ cards: [CourseCard], by sort: CourseSort) -> [String] {
        cards.sorted { ReportPipeline.cardOrder($0, $1, by: sort) }.map(\.course.courseID)
    }

    static func orderedByKey(_ cards: [CourseCard], by sort: CourseSort) -> [String] {
        cards.map { (key: ReportSortKey.card($0.course, counts: $0.counts, by: sort), id: $0.course.courseID) }
            .sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.id)
    }

    static let expectedOrders: [(CourseSort, [String])] = [
        // Most overdue first, then most due today, then code (natural: "MAT 2" before
        // "MAT 10"; "ART 1" before "art 1" by bytes), then id by bytes ("k10" before "k2").
        (.attention, ["k7", "k10", "k2", "k9", "k1", "k3", "k4", "k5", "k6"]),
        // Code in natural order, then id.
        (.code, ["k4", "k5", "k6", "k3", "k7", "k10", "k2", "k9", "k1"]),
        // Title in natural order (empty first, "Algebra 2" before "Algebra 10", "Algebra 10"
        // before "algebra 10"), then code ("ART 0" before "ART 1"), then id.
        (.title, ["k6", "k1", "k10", "k2", "k9", "k4", "k5", "k7", "k3"]),
    ]

    @Test("each course sort has its documented tie-breakers and ends on the course id", arguments: expectedOrders)
    func cardOrder(sort: CourseSort, expected: [String]) {
        #expect(Self.ordered(Self.cards, by: sort) == expected)
    }

    @Test("the card order is total: any input order gives the same result", arguments: expectedOrders)
    func totalOrder(sort: CourseSort, expected: [String]) {
        for shift in 0..<Self.cards.count {
            let rotated = Array(Self.cards[shift...] + Self.cards[..<shift])
            #expect(Self.ordered(rotated, by: sort) == expected)
            #expect(Self.ordered(rotated.reversed(), by: sort) == expected)
        }
    }

    @Test("sorting cards by the bytes of their keys gives the card order", arguments: expectedOrders)
    func keyOrder(sort: CourseSort, expected: [String]) {
        #expect(Self.orderedByKey(Self.cards, by: sort) == expected)
        #expect(Self.orderedByKey(Self.cards.reversed(), by: sort) == expected)
    }

    @Test("attention compares overdue before today: 1 overdue goes before 0 overdue and 9 due today")
    func overdueBeforeToday() {
        let cards = [
            Self.card("a", code: "A", title: "", [.today: 9]), Self.card("b", code: "B", title: "", [.overdue: 1]),
            Self.card("c", code: "C", title: "", [.overdue: 1, .today: 1]), Self.card("d", code: "D", title: "", [.completed: 50]),
        ]
        #expect(Self.ordered(cards, by: .attention) == ["c", "b", "a", "d"])
        #expect(Self.orderedByKey(cards, by: .attention) == ["c", "b", "a", "d"])
        #expect(Self.ordered(cards, by: .code) == ["a", "b", "c", "d"])
    }

    @Test("upcoming, undated and completed counts never move a card in the attention order")
    func otherCountsDoNotOrder() {
        let cards = [
            Self.card("x2", code: "X 2", title: "", [.upcoming: 1]),
            Self.card("x1", code: "X 10", title: "", [.upcoming: 90, .undated: 9, .completed: 40]),
        ]
        #expect(Self.ordered(cards, by: .attention) == ["x2", "x1"])
        #expect(Self.orderedByKey(cards, by: .attention) == ["x2", "x1"])
    }

    @Test("random cards with many ties: the byte keys order them exactly as cardOrder, for every course sort")
    func randomizedKeyOrder() {
        for seed in UInt64(1)...300 {
            var random = StreamingReportRandomData(seed: seed)
            let cards = (0..<random.int(0...12)).map { number -> CourseCard in
                var counts = BucketCounts()
                for bucket in Bucket.allCases { counts[bucket] = random.int(0...2) }
                let course = CourseRecord(
                    courseID: random.pick(["c", "C", "k", "c0"]) + String(number), code: random.pick(StreamingReportRandomData.codes),
                    title: random.pick(StreamingReportRandomData.titles))
                return CourseCard(course: course, counts: counts, total: counts.total + random.int(0...3))
            }
            for sort in CourseSort.allCases {
                let expected = Self.ordered(cards, by: sort)
                #expect(Self.orderedByKey(cards, by: sort) == expected, "seed \(seed) \(sort)")
                #expect(Self.ordered(cards.reversed(), by: sort) == expected, "seed \(seed) \(sort): not a total order")
            }
        }
    }

    @Test("the grid's card order follows --sort-courses, on counts after the filters")
    func builderOrdersCards() {
        // C1 BIO: 1 overdue, 2 today; C2 ENG: 2 overdue; C3 MAT: 3 today, 1 upcoming.
        let courses = [
            ReportCourse(
                course: ReportSample.course("C1", code: "BIO", title: "Zoology"),
                tasks: [
                    ReportSample.task("T1", "C1", "a", bucket: .overdue), ReportSample.task("T2", "C1", "b", bucket: .today),
                    ReportSample.task("T3", "C1", "c", bucket: .today),
                ]),
            ReportCourse(
                course: ReportSample.course("C2", code: "ENG", title: "English"),
                tasks: [ReportSample.task("T4", "C2", "d", bucket: .overdue), ReportSample.task("T5", "C2", "e", bucket: .overdue)]),
            ReportCourse(
                course: ReportSample.course("C3", code: "MAT", title: "Algebra"),
                tasks: [
                    ReportSample.task("T6", "C3", "f", bucket: .today), ReportSample.task("T7", "C3", "g", bucket: .today),
                    ReportSample.task("T8", "C3", "h", bucket: .today), ReportSample.task("T9", "C3", "i", bucket: .upcoming),
                ]),
        ]
        func order(_ change: (inout ReportQuery) -> Void) -> [String] {
            ReportBuilder.build(
                .grid, courses: courses, facts: ReportSample.freshFacts, query: ReportSample.query(change), asOf: ReportSample.asOf,
                defaultTimeZone: ReportSample.utc
            ).cards.map(\.course.courseID)
        }
        #expect(order { _ in } == ["C2", "C1", "C3"])
        #expect(order { $0.courseSort = .code } == ["C1", "C2", "C3"])
        #expect(order { $0.courseSort = .title } == ["C3", "C2", "C1"])
        // --bucket today: the courses with the most due today first; ENG shows nothing and goes.
        #expect(order { $0.buckets = [.today] } == ["C3", "C1"])
        // Paged in that order.
        #expect(
            order {
                $0.limit = 2; $0.page = 2
            } == ["C3"])
    }

    // MARK: - Totals

    @Test("totals add every card's counts, its live tasks, and the cards that need attention")
    func totals() {
        let totals = GridTotals(Self.cards)
        #expect(totals.courses == 9)
        // k1, k2, k3, k7, k9 and k10 have an overdue task or one due today.
        #expect(totals.needingAttention == 6)
        #expect(totals.counts == [.overdue: 13, .today: 6, .upcoming: 10, .undated: 1, .completed: 5])
        #expect(totals.live == 35)
    }

    @Test("totals count a card's live tasks, not only the ones it shows")
    func totalsLive() {
        let cards = [
            Self.card("a", code: "A", title: "", [.overdue: 1], total: 20), Self.card("b", code: "B", title: "", [.upcoming: 2], total: 5),
        ]
        var added = GridTotals()
        for card in cards { added.add(card) }
        #expect(added == GridTotals(cards))
        #expect(added.courses == 2)
        #expect(added.needingAttention == 1)
        #expect(added.counts == [.overdue: 1, .upcoming: 2])
        #expect(added.live == 25)
    }

    @Test("no card: every total is zero")
    func totalsEmpty() {
        #expect(GridTotals([]) == GridTotals())
        #expect(GridTotals([]).courses == 0)
        #expect(GridTotals([]).needingAttention == 0)
        #expect(GridTotals([]).counts == BucketCounts())
        #expect(GridTotals([]).live == 0)
    }

    @Test(
        "a card needs attention when it has an overdue task or a task due today",
        arguments: [
            (BucketCounts(), false),
            ([.overdue: 1] as BucketCounts, true),
            ([.today: 1] as BucketCounts, true),
            ([.overdue: 4, .today: 2] as BucketCounts, true),
            ([.upcoming: 9, .undated: 3, .completed: 20] as BucketCounts, false),
        ])
    func needsAttention(counts: BucketCounts, expected: Bool) {
        #expect(CourseAttention.needed(counts) == expected)
    }
}
