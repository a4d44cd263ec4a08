import Foundation

/// The streaming shell of the reports: it reads the tasks row by row and keeps only what the
/// output needs, so memory does not grow with the number of tasks. The decisions stay in the
/// pure stages (`ReportMatcher`, `CourseTally`, `ReportSortKey`, `ReportAssembly`,
/// `ReportPipeline`); the result is the report `ReportBuilder.build` gives on the loaded data.
///
/// Policy, what bounds memory:
/// - a grid: one course's tally at a time; the cards wait in the store (`ReportCourseStream`);
/// - a list page (`--limit N --page K`): the tallies, plus the sort keys of the first
///   `N × K` tasks while they fit in `inMemoryKeyBytes`; past that, every listed task's key
///   goes to the store's `PageKeys` (SQLite: a TEMP table on disk, in a bounded page cache,
///   indexed), and the page is read in key order from `N × (K - 1)`. Then only the page's N
///   tasks are read in full;
/// - a whole list, `--out` and `nightly`: one course's tasks at a time (`ReportCourseStream`).
public enum ReportStream {
    /// The sort keys of a page's window kept in memory up to this many bytes, else in the store.
    public static let inMemoryKeyBytes = 8 << 20

    /// Counts every task of the courses read, per course; `listed` gets each task the list
    /// shows (after search and filters), with its course's position. Call inside a `read`.
    static func tally(
        _ reader: any ReportReading, courses: [ReportSource.SourceCourse], onlyThese: Bool, kind: Report.Kind, query: ReportQuery,
        countsOnly: Bool, listed: ((Int, ReportTask) throws -> Void)? = nil
    ) throws -> [CourseTally] {
        let matcher = ReportMatcher(query)
        var tallies = courses.map { CourseTally(course: $0.course, allowed: matcher.allows($0.course)) }
        let texts = courses.map { matcher.courseText($0.course) }
        try ReportSource.forEachTask(reader, of: courses, onlyThese: onlyThese, countsOnly: countsOnly) { position, task in
            if tallies[position].count(task, kind: kind, query: query, matcher: matcher, courseText: texts[position]) {
                try listed?(position, task)
            }
        }
        return tallies
    }

    /// The grid (`report grid`) held whole: the cards of its page and every course's count of
    /// completed tasks (`completedByCourse`), for callers that want the `Report` (tests compare
    /// it with `ReportBuilder`). The command line streams the cards instead
    /// (`ReportCourseStream.grid`, `ReportGridStream`); both read the store the same way.
    public static func grid(
        _ reader: any ReportReading, facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone
    ) throws -> Report {
        var report: Report?
        try ReportCourseStream.grid(reader, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone) { cards in
            var whole = cards.frame
            try cards.forEach { card, _ in whole.cards.append(card) }
            try cards.results.forEach(offset: 0, count: nil) {
                if $0.completed > 0 { whole.completedByCourse[$0.course.courseID] = $0.completed }
            }
            report = whole
        }
        guard let report else { throw InternalError.readReturnedNothing }
        return report
    }

    /// One page of the list (`report list --limit N --page K`), paged in the store.
    /// - Parameter keyMemory: the bytes of sort keys kept in memory before they go to the store.
    public static func listPage(
        _ reader: any ReportReading, facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone,
        keyMemory: Int = inMemoryKeyBytes
    ) throws -> Report {
        let limit = max(1, query.limit ?? Int.max)
        let (skipped, overflow) = (max(1, query.page) - 1).multipliedReportingOverflow(by: limit)
        let (wanted, overflowWanted) = skipped.addingReportingOverflow(limit)
        var tallies: [CourseTally] = []
        var pageTasks: [(courseID: String, task: ReportTask)] = []
        try reader.read {
            let courses = try ReportSource.courses(reader, asOf: asOf, defaultTimeZone: defaultTimeZone, onlyCourses: query.courses)
            // Each course's position in the report's order.
            var rank = [Int](repeating: 0, count: courses.count)
            let order = courses.indices.sorted { ReportPipeline.courseOrder(courses[$0].course, courses[$1].course) }
            for (place, position) in order.enumerated() { rank[position] = place }
            let window = PageWindow(keep: overflow || overflowWanted ? 0 : wanted, keys: try reader.pageKeys(), memory: keyMemory)
            defer { window.finish() }
            tallies = try tally(reader, courses: courses, onlyThese: !query.courses.isEmpty, kind: .list, query: query, countsOnly: false) {
                position, task in
                // Past the end of any page that can be shown: nothing to keep.
                guard !overflow, !overflowWanted else { return }
                guard window.mayKeep(prefix: ReportSortKey.prefix(coursePosition: rank[position], bucket: task.bucket)) else { return }
                let due = ReportPipeline.dueInstant(task.task.due, courses[position].local.timeZone)
                try window.add(ReportSortKey.key(coursePosition: rank[position], task: task, due: due, sort: query.sort), task.task.taskID)
            }
            let total = tallies.reduce(0) { $0 + ($1.allowed ? $1.matchingTotal : 0) }
            guard let shown = ReportAssembly.window(total: total, limit: query.limit, page: query.page) else { return }
            let selection = try window.page(offset: shown.offset, count: shown.count)
            var page: [(key: [UInt8], courseID: String, task: ReportTask)] = []
            try ReportSource.forEachTask(reader, of: courses, selection: selection) {
                position, task in
                let due = ReportPipeline.dueInstant(task.task.due, courses[position].local.timeZone)
                let key = ReportSortKey.key(coursePosition: rank[position], task: task, due: due, sort: query.sort)
                page.append((key, courses[position].course.courseID, task))
            }
            pageTasks = page.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { ($0.courseID, $0.task) }
        }
        return ReportAssembly.list(
            tallies: tallies, pageTasks: pageTasks, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone)
    }
}
