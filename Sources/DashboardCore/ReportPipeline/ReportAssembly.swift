import Foundation

/// Builds a report from per-course counts and the tasks of one page, so that a shell can
/// stream the tasks (`ReportStream`) instead of loading them: the result is the report
/// `ReportBuilder.build` gives on the loaded data (a randomized test holds it). Pure.
package enum ReportAssembly {
    /// The report with its counts, state and banner, but no cards or groups yet.
    static func frame(
        _ kind: Report.Kind, tallies: [CourseTally], facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone
    ) -> Report {
        var totals = ReportTotals()
        for tally in tallies { totals.add(tally) }
        var report = frame(kind, totals: totals, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone)
        guard facts.hasData else { return report }
        for tally in tallies where tally.allowed && tally.completedMatching > 0 {
            report.completedByCourse[tally.course.courseID] = tally.completedMatching
        }
        return report
    }

    /// The frame from the sums of the tallies (a report flat in courses adds them one course at
    /// a time); `completedByCourse` is left empty (the caller gives each course its own).
    static func frame(
        _ kind: Report.Kind, totals: ReportTotals, facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone
    ) -> Report {
        var report = Report(
            kind: kind, asOf: asOf, defaultTimeZone: defaultTimeZone, query: query, state: .ok,
            stale: facts.staleNotice(asOf: asOf), cards: [], groups: [],
            page: PageInfo(page: 1, pageCount: 1, limit: query.limit, totalItems: 0, firstItem: 0, lastItem: 0),
            totalTasks: totals.live, matchingTasks: 0, hiddenTasks: 0)
        report.invalidTasks = totals.invalid
        report.overnight = facts.overnight
        guard facts.hasData else {
            report.state = .noData
            return report
        }
        if let role = facts.roleWithoutCourses {
            report.state = .noCourses
            report.roleWithoutCourses = role
            return report
        }
        report.matchingTasks = totals.matching
        report.hiddenTasks = max(0, totals.baseline - totals.matching)
        report.scopeCourses = totals.scopeCourses
        report.scopeTasks = totals.scopeBaseline
        if query.narrows, totals.matching == 0 { report.state = .noMatch }
        report.completedMatchingTasks = totals.completedMatching
        return report
    }

    /// The grid: one card per course (counts only).
    package static func grid(tallies: [CourseTally], facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone)
        -> Report
    {
        var report = frame(.grid, tallies: tallies, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone)
        guard facts.hasData else { return report }
        var cards: [CourseCard] = []
        for tally in tallies where tally.allowed {
            if query.narrows, tally.matchingTotal == 0 { continue }
            let card = CourseCard(course: tally.course, counts: tally.matching, total: tally.live)
            cards.append(facts.overnight?.card(card, asOf: asOf, zone: query.displayTimeZone) ?? card)
        }
        cards.sort { ReportPipeline.cardOrder($0, $1, by: query.courseSort) }
        report.gridTotals = GridTotals(cards)
        let paged = ReportPipeline.paginateCourses(cards, limit: query.limit, page: query.page)
        report.cards = paged.cards
        report.page = paged.page
        return report
    }

    /// A list page: `pageTasks` are the tasks of the page, in the report's order (course,
    /// bucket, then the sort), each with its course id; the counts come from `tallies`.
    package static func list(
        tallies: [CourseTally], pageTasks: [(courseID: String, task: ReportTask)], facts: ReportFacts, query: ReportQuery,
        asOf: Date, defaultTimeZone: TimeZone
    ) -> Report {
        var report = listFrame(tallies: tallies, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone)
        guard facts.hasData else { return report }
        // Only the page's courses are looked up (a whole-list frame has none).
        let pageCourses = Set(pageTasks.map(\.courseID))
        let empty = !query.narrows && report.page.page == 1 ? tallies.filter { $0.allowed && $0.matchingTotal == 0 } : []
        var firstPlace = 1
        if let (courseID, task) = pageTasks.first, let course = tallies.first(where: { $0.course.courseID == courseID })?.course {
            var start = SectionStart(course: ReportSortKey.course(course), bucket: task.bucket)
            for tally in tallies where tally.allowed { start.add(key: ReportSortKey.course(tally.course), counts: tally.matching) }
            firstPlace = report.page.firstItem - start.count
        }
        fill(
            &report, courses: tallies.filter { pageCourses.contains($0.course.courseID) }, empty: empty, pageTasks: pageTasks,
            firstPlace: firstPlace)
        return report
    }

    /// Adds a page's groups to a list's frame: `courses` are the tallies of the page's courses,
    /// `empty` those of the courses with nothing to list that the page shows too (on page 1
    /// when nothing narrows the report, as in `ReportBuilder`). Policy: `completedByCourse`
    /// keeps the courses the page shows (the only ones a renderer looks up); each section
    /// carries its whole count from its course's tally, and the page's first section the place
    /// of its first task in the whole section (`firstPlace`, 1-based; 1 on a first page).
    static func fill(
        _ report: inout Report, courses: [CourseTally], empty: [CourseTally], pageTasks: [(courseID: String, task: ReportTask)],
        firstPlace: Int = 1
    ) {
        var groups: [CourseGroup] = []
        var byID: [String: CourseTally] = [:]
        for tally in courses { byID[tally.course.courseID] = tally }
        for (courseID, task) in pageTasks {
            if groups.last?.course.courseID != courseID {
                guard let tally = byID[courseID] else { continue }
                groups.append(CourseGroup(course: tally.course, sections: [], liveTasks: tally.live))
            }
            let last = groups.count - 1
            if groups[last].sections.last?.bucket == task.bucket {
                groups[last].sections[groups[last].sections.count - 1].tasks.append(task)
            } else {
                let whole = byID[courseID]?.matching[task.bucket] ?? 0
                let first = groups.count == 1 && groups[last].sections.isEmpty ? max(1, firstPlace) : 1
                groups[last].sections.append(BucketSection(bucket: task.bucket, tasks: [task], total: whole, first: first))
            }
        }
        if !empty.isEmpty {
            let none = empty.map { CourseGroup(course: $0.course, sections: [], liveTasks: $0.live) }
            groups = (groups + none).sorted { ReportPipeline.courseOrder($0.course, $1.course) }
        }
        report.groups = groups
        var completed: [String: Int] = [:]
        for tally in courses + empty where tally.allowed && tally.completedMatching > 0 {
            completed[tally.course.courseID] = tally.completedMatching
        }
        let shown = Set(groups.map(\.course.courseID))
        report.completedByCourse = completed.filter { shown.contains($0.key) }
    }

    /// A list's frame: its counts, state, banner and page numbers, without groups (a whole
    /// list read course by course adds them one at a time).
    static func listFrame(tallies: [CourseTally], facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone)
        -> Report
    {
        var report = frame(.list, tallies: tallies, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone)
        guard facts.hasData else { return report }
        report.listsStates = tallies.contains { $0.allowed && $0.listsStates }
        // A roll-up by assignment pages its rows; every other list its tasks.
        let rows = tallies.filter(\.allowed).reduce(0) { $0 + $1.assignmentRows }
        report.page = page(total: query.groupBy == .assignment ? rows : report.matchingTasks, limit: query.limit, page: query.page)
        return report
    }

    /// A list's frame from the sums of the tallies.
    static func listFrame(totals: ReportTotals, facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone)
        -> Report
    {
        var report = frame(.list, totals: totals, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone)
        guard facts.hasData else { return report }
        report.listsStates = totals.listsStates
        let items = query.groupBy == .assignment ? totals.assignmentRows : report.matchingTasks
        report.page = page(total: items, limit: query.limit, page: query.page)
        return report
    }

    /// A grid's frame from the sums of the tallies and its number of cards, and which cards
    /// (in the report's order) its page shows: what `ReportPipeline.paginateCourses` gives.
    /// - Parameter gridTotals: the sums over every card (`cards` of them).
    static func gridFrame(
        totals: ReportTotals, gridTotals: GridTotals, facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone
    ) -> (frame: Report, offset: Int, count: Int) {
        var report = frame(.grid, totals: totals, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone)
        guard facts.hasData else { return (report, 0, 0) }
        report.gridTotals = gridTotals
        let cards = gridTotals.courses
        guard let limit = query.limit, limit > 0 else {
            report.page = PageInfo(page: 1, pageCount: 1, limit: nil, totalItems: cards, firstItem: cards == 0 ? 0 : 1, lastItem: cards)
            return (report, 0, cards)
        }
        let (pageCount, first) = ReportPipeline.pageBounds(total: cards, limit: limit, page: query.page)
        let count = first < cards ? min(cards, first + min(limit, cards)) - first : 0
        report.page = PageInfo(
            page: query.page, pageCount: pageCount, limit: limit, totalItems: cards, firstItem: count == 0 ? 0 : first + 1,
            lastItem: count == 0 ? 0 : first + count)
        return (report, first, count)
    }

    /// The page numbers of a list of `total` tasks (what `ReportPipeline.paginateTasks` says),
    /// without overflow whatever `limit` and `page` are.
    package static func page(total: Int, limit: Int?, page: Int) -> PageInfo {
        guard let limit, limit > 0 else {
            return PageInfo(page: 1, pageCount: 1, limit: nil, totalItems: total, firstItem: total == 0 ? 0 : 1, lastItem: total)
        }
        let pageCount = max(1, total / limit + (total % limit == 0 ? 0 : 1))
        let (skipped, overflow) = (max(1, page) - 1).multipliedReportingOverflow(by: limit)
        let first = overflow ? Int.max : skipped
        let last = first >= total ? total : min(total, first + min(limit, total - first))
        return PageInfo(
            page: page, pageCount: pageCount, limit: limit, totalItems: total, firstItem: first < total ? first + 1 : 0,
            lastItem: first < total ? last : 0)
    }

    /// How many tasks a page skips and shows, or nil when it shows none.
    package static func window(total: Int, limit: Int?, page: Int) -> (offset: Int, count: Int)? {
        guard let limit, limit > 0 else { return total == 0 ? nil : (0, total) }
        let (skipped, overflow) = (max(1, page) - 1).multipliedReportingOverflow(by: limit)
        guard !overflow, skipped < total else { return nil }
        return (skipped, min(limit, total - skipped))
    }
}

/// How many listed tasks come before one section (a bucket of a course) in the report's order,
/// summed from per-course counts given in any order, one at a time: the listed counts of
/// every course whose key (`ReportSortKey.course`) sorts before the section's course, then
/// those of the course's buckets before the section's. A page's first section began at place
/// `firstItem - count` of the whole section. Pure; memory O(1).
struct SectionStart {
    let course: [UInt8]
    let bucket: Bucket
    private(set) var count = 0

    init(course: [UInt8], bucket: Bucket) {
        self.course = course
        self.bucket = bucket
    }

    /// Adds one course's listed counts (counted only when it comes before the section).
    mutating func add(key: [UInt8], counts: BucketCounts) {
        if key == course {
            for earlier in Bucket.allCases where earlier.order < bucket.order { count += counts[earlier] }
        } else if key.lexicographicallyPrecedes(course) {
            count += counts.total
        }
    }
}
