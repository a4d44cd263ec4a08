import Foundation

/// The words of a grid card and of the grid's totals line, shared by every format so they
/// never drift apart. Pure.
///
/// Policy (issue 14, "attention first"): a card that needs attention says so in words; a card
/// of a grid narrowed by `--bucket` counts only those buckets and never shows a completion
/// count the filter made false ("6 overdue of 20 tasks", not "0 of 20 completed"); a grid
/// narrowed otherwise says its counts are of the matching tasks.
package enum CardWords {
    /// The buckets a card gives a count for: the `--bucket` filter's (in report order) when
    /// there is one, else the four open buckets (completed tasks have their own line).
    package static func countedBuckets(_ query: ReportQuery) -> [Bucket] {
        query.buckets.isEmpty ? Bucket.open : Bucket.inReportOrder.filter(query.buckets.contains)
    }

    /// The counts a card shows (text and HTML): with a `--bucket` filter those buckets, else
    /// `openCounted` of the card's own counts.
    package static func cardCounted(_ card: CourseCard, _ query: ReportQuery) -> [Bucket] {
        query.buckets.isEmpty ? openCounted(card.counts) : countedBuckets(query)
    }

    /// The count columns of a grid's table (Markdown): one per counted bucket, and to grade
    /// when any card of the grid has work to grade.
    package static func gridCounted(_ report: Report) -> [Bucket] {
        report.query.buckets.isEmpty ? openCounted(report.gridTotals.counts) : countedBuckets(report.query)
    }

    /// The counts a card or the totals line give without a `--bucket` filter: the four open
    /// buckets, and "to grade" after overdue and today when there is submitted work to grade
    /// (SPEC §11; a course without any reads as before).
    package static func openCounted(_ counts: BucketCounts) -> [Bucket] {
        counts[.toGrade] > 0 ? [.overdue, .today, .toGrade, .upcoming, .undated] : Bucket.open
    }

    /// "6 overdue, 2 due today": each of `buckets` with its count, leaving out none.
    static func counts(_ counts: BucketCounts, _ buckets: [Bucket], _ lexicon: Lexicon = .english) -> String {
        lexicon.list(buckets.map { ReportWords.count(counts[$0], $0, lexicon) })
    }

    /// What makes a card need attention, in words ("6 overdue, 2 due today", only the buckets
    /// with tasks), or nil when it has no overdue task and no task due today.
    package static func attention(_ counts: BucketCounts, _ lexicon: Lexicon = .english) -> String? {
        guard CourseAttention.needed(counts) else { return nil }
        return lexicon.list([Bucket.overdue, .today].filter { counts[$0] > 0 }.map { ReportWords.count(counts[$0], $0, lexicon) })
    }

    /// How many tasks a card's bar stands for: the tasks it shows, or, with a `--bucket`
    /// filter, every live task of the course (so "3 overdue of 20 tasks" fills 3/20 of it).
    package static func barScale(_ card: CourseCard, query: ReportQuery) -> Int {
        query.buckets.isEmpty ? card.shown : max(card.shown, card.total)
    }

    /// "needs attention: 6 overdue, 2 due today", or nil.
    package static func attentionLine(_ card: CourseCard) -> String? {
        attention(card.counts).map { "needs attention: " + $0 }
    }

    /// The card's last line: "9 of 20 completed"; with a bucket filter "6 overdue of 20 tasks"
    /// (every filtered bucket, with its count, of every live task of the course); with another
    /// search or filter of tasks "2 of 3 matching completed (20 in all)" (the course and
    /// teacher filters keep whole courses: their cards read as without a filter).
    package static func summary(_ card: CourseCard, query: ReportQuery) -> String {
        summary(counts: card.counts, live: card.total, query: query)
    }

    static func summary(counts: BucketCounts, live: Int, query: ReportQuery) -> String {
        let lexicon = query.lexicon
        if !query.buckets.isEmpty { return lexicon.count(.bucketsOfTasks, live, Self.counts(counts, countedBuckets(query), lexicon)) }
        let completed =
            query.narrowsTasks
            ? lexicon.count(.matchingCompleted, live, String(counts[.completed]), String(counts.total))
            : lexicon.count(.completedOf, live, String(counts[.completed]))
        // Excused work is in the totals (SPEC §11), named only where there is some.
        guard counts[.excused] > 0 else { return completed }
        return lexicon.list([completed, ReportWords.count(counts[.excused], .excused, lexicon)])
    }

    /// The grid's totals line over the cards it shows (every page together): "5 courses, 4 need
    /// attention: 10 overdue, 6 due today, 32 upcoming, 6 no due date; 44 of 98 completed".
    package static func totals(_ totals: GridTotals, query: ReportQuery) -> String {
        let lexicon = query.lexicon
        let courses = lexicon.count(.coursesCount, totals.courses)
        let need = totals.needingAttention == 0 ? lexicon(.noneNeedsAttention) : lexicon.count(.needAttention, totals.needingAttention)
        let summary = summary(counts: totals.counts, live: totals.live, query: query)
        guard query.buckets.isEmpty else { return lexicon(.totalsFiltered, courses, need, summary) }
        return lexicon(.totals, courses, need, counts(totals.counts, openCounted(totals.counts), lexicon), summary)
    }
}
