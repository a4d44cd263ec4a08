import Foundation

/// Whole lists read one course at a time: `--out`, `nightly`. Memory is bounded by the
/// largest course (its listed tasks, sorted), plus one tally per course; never by the whole
/// database.
public enum ReportCourseStream {
    /// What is known before the first course is read: the grid and the list's frame (counts,
    /// state, banner; no groups), and the courses the list shows, in order.
    public struct Plan {
        /// The grid, when asked for (`withGrid`).
        public var grid: Report?
        /// The list without its groups (they come one by one).
        public var list: Report
        /// Every course read, and its list tally (same positions).
        let read: [ReportSource.SourceCourse]
        let tallies: [CourseTally]
        /// The positions of the courses the whole list shows, in the report's order (positions,
        /// not copies: the plan costs a few bytes per course beyond the course itself).
        let shown: [Int]

        /// The ids of the courses the whole list shows (each gets a list page).
        public var listedCourseIDs: Set<String> { Set(shown.map { read[$0].course.courseID }) }
    }

    /// Reads every course's counts (one pass, titles only when a search or a student filter
    /// needs them), then calls `body` with each listed course's group, reading that course's
    /// tasks alone (`TaskSelection.courses`); all in one snapshot (`read`).
    /// - Returns: the plan (grid and list frame).
    @discardableResult
    public static func forEachGroup(
        _ reader: any ReportReading, facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone,
        onlyCourses: [String] = [],
        withGrid: Bool = true, _ body: (Plan, CourseGroup) throws -> Void
    ) throws -> Plan {
        try reader.read {
            let courses = try ReportSource.courses(reader, asOf: asOf, defaultTimeZone: defaultTimeZone, onlyCourses: onlyCourses)
            let matcher = ReportMatcher(query)
            var listTallies = courses.map { CourseTally(course: $0.course, allowed: matcher.allows($0.course)) }
            var gridTallies = withGrid ? listTallies : []
            let texts = courses.map { matcher.courseText($0.course) }
            let countsOnly = !matcher.searches && query.students.isEmpty
            try ReportSource.forEachTask(reader, of: courses, onlyThese: !onlyCourses.isEmpty, countsOnly: countsOnly) { position, task in
                if withGrid { gridTallies[position].count(task, kind: .grid, query: query, matcher: matcher, courseText: texts[position]) }
                listTallies[position].count(task, kind: .list, query: query, matcher: matcher, courseText: texts[position])
            }
            var whole = query
            whole.limit = nil
            whole.page = 1
            let grid =
                withGrid
                ? ReportAssembly.grid(tallies: gridTallies, facts: facts, query: whole, asOf: asOf, defaultTimeZone: defaultTimeZone) : nil
            gridTallies = []
            let list = ReportAssembly.listFrame(
                tallies: listTallies, facts: facts, query: whole, asOf: asOf, defaultTimeZone: defaultTimeZone)
            // The courses the whole list shows: those with tasks to list, and (when nothing
            // narrows the report) every other course too, with its own words.
            let shown = ReportAssembly.ordered(listTallies).filter {
                listTallies[$0].allowed && facts.hasData && (listTallies[$0].matchingTotal > 0 || !query.narrows)
            }
            let plan = Plan(grid: grid, list: list, read: courses, tallies: listTallies, shown: shown)
            for position in plan.shown {
                try body(plan, try group(reader, course: courses[position], tally: listTallies[position], query: query, matcher: matcher))
            }
            return plan
        }
    }

    /// One course's group: its listed tasks, sorted and grouped by bucket.
    static func group(
        _ reader: any ReportReading, course: ReportSource.SourceCourse, tally: CourseTally, query: ReportQuery, matcher: ReportMatcher
    ) throws -> CourseGroup {
        var tasks: [ReportTask] = []
        let text = matcher.courseText(course.course)
        try ReportSource.forEachTask(reader, of: [course], onlyThese: true) { _, task in
            if matcher.found(task, courseText: text), matcher.keeps(task, includeCompleted: query.includeCompleted) { tasks.append(task) }
        }
        let sorted = ReportPipeline.sort(
            [ReportCourse(course: course.course, tasks: tasks)], by: query.sort, defaultTimeZone: course.local.timeZone)
        var group = ReportPipeline.group(sorted).first ?? CourseGroup(course: course.course, sections: [])
        group.liveTasks = tally.live
        return group
    }
}
