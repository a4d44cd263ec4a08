import Foundation

/// Reports flat in courses: `report grid`, a whole `report list`, `--out` and `nightly`. Pass 1
/// tallies one course at a time (`ReportCoursePass`) and hands each course's result (its
/// counts and its place in the report, `ReportSortKey.course`) to the store's
/// `CourseResults`, summing the header's totals on the way; pass 2 reads the results back in
/// the report's order, one course at a time: a grid's cards, and a list's courses (each
/// course's tasks read alone, `TaskSelection.courses`). All in one snapshot (`read`).
///
/// Policy, what bounds memory: the largest course (its listed tasks, sorted) and the page; not
/// the number of courses (the results wait in the store), nor the number of tasks.
package enum ReportCourseStream {
    /// What a list's courses are written with.
    package struct Plan {
        /// The list without its groups (they come one by one); while a course is written, its
        /// `completedByCourse` holds that course's count only.
        package var list: Report
        /// How many courses the whole list shows.
        package var shownCount: Int
    }

    /// A grid's cards, read back from the store one at a time in the report's order.
    package struct GridCards {
        /// The grid without its cards.
        package var frame: Report
        /// How many cards the grid (its page) shows.
        package var count: Int
        let offset: Int
        let results: any CourseResults

        /// Calls `body` with each card of the page, and whether its course has a list page.
        package func forEachCard(_ body: (CourseCard, Bool) throws -> Void) throws {
            guard count > 0 else { return }
            try results.forEach(offset: offset, count: count) {
                let card = CourseCard(course: $0.course, counts: $0.counts, total: $0.live)
                try body(frame.overnight?.card(card, asOf: frame.asOf, zone: frame.query.displayTimeZone) ?? card, $0.linked)
            }
        }
    }

    /// The grid (`report grid`, paged or whole): `body` gets its cards inside the read.
    /// - Returns: the grid's frame (state and banner, no cards).
    @discardableResult
    package static func grid(
        _ reader: any ReportReading, facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone,
        _ body: (GridCards) throws -> Void
    ) throws -> Report {
        try reader.read {
            let results = try reader.courseResults()
            defer { results.drop() }
            var totals = ReportTotals()
            var cards = GridTotals()
            func finished(_ tally: CourseTally) throws {
                totals.add(tally)
                try addCard(tally, linked: false, facts: facts, query: query, to: results, totals: &cards)
            }
            // From the counts kept at write time when the store can prove them (`GridCounts`; a
            // search: `ReportSearchPass`), else task by task.
            var counted = false
            if GridCounts.applies(to: query), try reader.storedBucketsHold(),
                let tallies = try GridCounts.tallies(
                    reader, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone, onlyCourses: query.courses)
            {
                for tally in tallies { try finished(tally) }
                counted = true
            } else if ReportSearchPass.applies(to: query), try reader.storedBucketsHold() {
                do {
                    try ReportSearchPass.forEachCourse(
                        reader, query: query, kind: .grid, asOf: asOf, defaultTimeZone: defaultTimeZone, onlyCourses: query.courses,
                        finished, mayList: { _, _ in false },
                        listed: { _, _, _, _ in })
                    counted = true
                } catch is ReportSearchPass.CountsDoNotAddUp {}
            }
            if !counted {
                try ReportCoursePass.forEachCourse(
                    reader, query: query, kinds: [.grid], asOf: asOf, defaultTimeZone: defaultTimeZone, onlyCourses: query.courses
                ) { try finished($0[0]) }
            }
            try results.prepareOrderedReading()
            var (frame, offset, count) = ReportAssembly.gridFrame(
                totals: totals, gridTotals: cards, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone)
            if frame.state == .noMatch { frame.unmatched = try ReportSuggestions.unmatched(reader, query: query) }
            try body(GridCards(frame: frame, count: count, offset: offset, results: results))
            return frame
        }
    }

    /// Gives the grid's card of a course to `results` when the grid shows one (`ReportAssembly.grid`),
    /// at its place in the grid's order (`ReportSortKey.card`), and adds it to `totals`.
    static func addCard(
        _ tally: CourseTally, linked: Bool, facts: ReportFacts, query: ReportQuery, to results: any CourseResults,
        totals: inout GridTotals
    ) throws {
        guard facts.hasData, tally.allowed, !(query.narrows && tally.matchingTotal == 0) else { return }
        try results.add(
            CourseResult(
                key: ReportSortKey.card(tally.course, counts: tally.matching, by: query.courseSort), course: tally.course,
                counts: tally.matching, live: tally.live, completed: tally.completedMatching, linked: linked))
        var card = CourseCard(course: tally.course, counts: tally.matching, total: tally.live)
        card.changes = facts.overnight?.cardChanges(tally.course.courseID)
        totals.add(card)
    }

    /// The whole list (and, with `grid`, the whole grid of the same read): calls `body` with
    /// each listed course's group in the report's order, then `grid` with the grid's cards
    /// (after every course: an index written then links only to pages already written).
    /// - Returns: the plan (the list's frame).
    @discardableResult
    package static func forEachGroup(
        _ reader: any ReportReading, facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone,
        onlyCourses: [String] = [], _ body: (Plan, CourseGroup) throws -> Void, grid: ((GridCards) throws -> Void)? = nil
    ) throws -> Plan {
        var whole = query
        whole.limit = nil
        whole.page = 1
        return try reader.read {
            let listed = try reader.courseResults()
            defer { listed.drop() }
            let cards = grid == nil ? nil : try reader.courseResults()
            defer { cards?.drop() }
            var (listTotals, gridTotals) = (ReportTotals(), ReportTotals())
            var shown = 0
            var cardTotals = GridTotals()
            try ReportCoursePass.forEachCourse(
                reader, query: whole, kinds: cards == nil ? [.list] : [.list, .grid], asOf: asOf, defaultTimeZone: defaultTimeZone,
                onlyCourses: onlyCourses
            ) { tallies in
                let tally = tallies[0]
                listTotals.add(tally)
                // The courses the whole list shows: those with tasks to list, and (when nothing
                // narrows the report) every other course too, with its own words.
                let isListed = tally.allowed && facts.hasData && (tally.matchingTotal > 0 || !whole.narrows)
                if isListed {
                    try listed.add(
                        CourseResult(
                            key: ReportSortKey.course(tally.course), course: tally.course, counts: tally.matching, live: tally.live,
                            completed: tally.completedMatching, linked: true))
                    shown += 1
                }
                if let cards, tallies.count > 1 {
                    gridTotals.add(tallies[1])
                    try addCard(tallies[1], linked: isListed, facts: facts, query: whole, to: cards, totals: &cardTotals)
                }
            }
            var plan = Plan(
                list: ReportAssembly.listFrame(
                    totals: listTotals, facts: facts, query: whole, asOf: asOf, defaultTimeZone: defaultTimeZone),
                shownCount: shown)
            let unmatched = plan.list.state == .noMatch ? try ReportSuggestions.unmatched(reader, query: whole) : []
            plan.list.unmatched = unmatched
            try listed.prepareOrderedReading()
            let matcher = ReportMatcher(whole)
            var zones = CourseZones(asOf: asOf, defaultTimeZone: defaultTimeZone)
            try listed.forEach(offset: 0, count: nil) { result in
                let course = ReportSource.SourceCourse(course: result.course, local: zones.local(result.course.timezone))
                plan.list.completedByCourse = result.completed > 0 ? [result.course.courseID: result.completed] : [:]
                try body(plan, try group(reader, course: course, live: result.live, query: whole, matcher: matcher))
            }
            plan.list.completedByCourse = [:]
            if let grid, let cards {
                try cards.prepareOrderedReading()
                var (frame, offset, count) = ReportAssembly.gridFrame(
                    totals: gridTotals, gridTotals: cardTotals, facts: facts, query: whole, asOf: asOf, defaultTimeZone: defaultTimeZone)
                if frame.state == .noMatch { frame.unmatched = unmatched }
                try grid(GridCards(frame: frame, count: count, offset: offset, results: cards))
            }
            return plan
        }
    }

    /// One course's group: its listed tasks, sorted and grouped by bucket; for a roll-up by
    /// assignment, its rows instead (`AssignmentRollUp`, over every live task of the course).
    static func group(
        _ reader: any ReportReading, course: ReportSource.SourceCourse, live: Int, query: ReportQuery, matcher: ReportMatcher
    ) throws -> CourseGroup {
        var tasks: [ReportTask] = []
        var all: [ReportTask] = []
        let rollUp = query.groupBy == .assignment
        let keepAll = rollUp || query.calendarEvents || query.rollUpBeside
        let text = matcher.courseText(course.course)
        try ReportSource.forEachTask(reader, of: [course], onlyThese: true) { _, task in
            if keepAll { all.append(task) }
            if matcher.found(task, courseText: text), matcher.keeps(task, includeCompleted: query.includeCompleted, at: course.local) {
                tasks.append(task)
            }
        }
        let events =
            query.calendarEvents ? CalendarEvents.events(course: course.course, tasks: all, zone: course.local.timeZone) : []
        if rollUp {
            var group = CourseGroup(course: course.course, sections: [], liveTasks: live)
            group.assignments = AssignmentRollUp.rows(all: all, listed: tasks, local: course.local, sort: query.sort)
            group.assignmentTotal = group.assignments.count
            group.events = events
            return group
        }
        let beside = query.rollUpBeside ? AssignmentRollUp.rows(all: all, listed: tasks, local: course.local, sort: query.sort) : []
        all = []
        let sorted = ReportPipeline.sort(
            [ReportCourse(course: course.course, tasks: tasks)], by: query.sort, defaultTimeZone: course.local.timeZone)
        var group = ReportPipeline.group(sorted).first ?? CourseGroup(course: course.course, sections: [])
        group.liveTasks = live
        group.events = events
        group.assignments = beside
        group.assignmentTotal = beside.count
        return group
    }
}
