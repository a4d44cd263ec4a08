import Foundation

/// How a grid orders its cards (`--sort-courses`).
public enum CourseSort: String, Sendable, CaseIterable {
    /// Need first: most overdue tasks, then most due today, then most to grade (SPEC §11), then
    /// code (natural order), then id.
    /// The default: the course in trouble is the first card a teacher reads.
    case attention
    /// Code in natural order, then id (the order of lists).
    case code
    /// Title in natural order, then code, then id.
    case title
}

/// What a grid's card says about need: a course with an overdue task or a task due today needs
/// attention. Pure.
package enum CourseAttention {
    /// True when the card's counts hold an overdue task or a task due today.
    package static func needed(_ counts: BucketCounts) -> Bool {
        counts[.overdue] > 0 || counts[.today] > 0
    }
}

extension ReportPipeline {
    /// The grid's card order (`--sort-courses`): a total order (ties end on the course id).
    /// Policy: `attention` puts the most overdue tasks first, then the most due today, then the
    /// most submitted work to grade (the teacher's own to-do, after the students'), then the
    /// code; counts are those the card shows (after search and filters).
    package static func cardOrder(_ a: CourseCard, _ b: CourseCard, by sort: CourseSort) -> Bool {
        switch sort {
        case .attention:
            if a.count(.overdue) != b.count(.overdue) { return a.count(.overdue) > b.count(.overdue) }
            if a.count(.today) != b.count(.today) { return a.count(.today) > b.count(.today) }
            if a.count(.toGrade) != b.count(.toGrade) { return a.count(.toGrade) > b.count(.toGrade) }
        case .title:
            if let decided = NaturalOrder.compare(a.course.title, b.course.title) { return decided }
        case .code:
            break
        }
        return courseOrder(a.course, b.course)
    }
}

extension ReportSortKey {
    /// The key of a card's place in the grid's order (`ReportPipeline.cardOrder`), so that the
    /// store's `CourseResults` read cards back in that order.
    package static func card(_ course: CourseRecord, counts: BucketCounts, by sort: CourseSort) -> [UInt8] {
        var key: [UInt8] = []
        switch sort {
        case .attention:
            // More first: the count's complement sorts descending.
            appendInteger(-Int64(counts[.overdue]), to: &key)
            appendInteger(-Int64(counts[.today]), to: &key)
            appendInteger(-Int64(counts[.toGrade]), to: &key)
        case .title:
            appendText(course.title, to: &key)
        case .code:
            break
        }
        return key + self.course(course)
    }
}

/// The sums over every card a grid shows (every page together, after search and filters):
/// the grid's totals line. Pure; added one card at a time.
package struct GridTotals: Sendable, Equatable {
    /// The cards shown.
    package var courses = 0
    /// The cards that need attention (`CourseAttention.needed`).
    package var needingAttention = 0
    /// The cards' counts, added up.
    package var counts = BucketCounts()
    /// Every live task of the shown courses, before search and filters.
    package var live = 0
    /// The cards' changes since the previous import, added up (nil when they have none).
    package var changes: CourseChanges?

    package init() {}

    package mutating func add(_ card: CourseCard) {
        courses += 1
        if let cardChanges = card.changes { changes = (changes ?? CourseChanges()) + cardChanges }
        if CourseAttention.needed(card.counts) { needingAttention += 1 }
        for bucket in Bucket.allCases { counts[bucket] += card.count(bucket) }
        live += card.total
    }

    /// The totals of `cards`.
    package init(_ cards: [CourseCard]) {
        for card in cards { add(card) }
    }
}
