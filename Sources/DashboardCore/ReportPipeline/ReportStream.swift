import Foundation

/// The streaming shell of the reports: it reads the tasks row by row and keeps only what the
/// output needs, so memory does not grow with the number of tasks. The decisions stay in the
/// pure stages (`ReportMatcher`, `CourseTally`, `ReportSortKey`, `ReportAssembly`,
/// `ReportPipeline`); the result is the report `ReportBuilder.build` gives on the loaded data.
///
/// Policy, what bounds memory:
/// - a grid: one course's tally at a time; the cards wait in the store (`ReportCourseStream`);
/// - a list page (`--limit N --page K`): one course's tally at a time, plus the sort keys of
///   the first `N × K` tasks while they fit in `inMemoryKeyBytes`; past that, every listed task's key
///   goes to the store's `PageKeys` (SQLite: a TEMP table on disk, in a bounded page cache,
///   indexed), and the page is read in key order from `N × (K - 1)`. Then only the page's N
///   tasks are read in full;
/// - a whole list, `--out` and `nightly`: one course's tasks at a time (`ReportCourseStream`).
package enum ReportStream {
    /// The sort keys of a page's window kept in memory up to this many bytes, else in the store.
    package static let inMemoryKeyBytes = 8 << 20

    /// The grid (`report grid`) held whole: the cards of its page and every course's count of
    /// completed tasks (`completedByCourse`), for callers that want the `Report` (tests compare
    /// it with `ReportBuilder`). The command line streams the cards instead
    /// (`ReportCourseStream.grid`, `ReportGridStream`); both read the store the same way.
    package static func grid(
        _ reader: any ReportReading, facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone
    ) throws -> Report {
        var report: Report?
        try ReportCourseStream.grid(reader, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone) { cards in
            var whole = cards.frame
            try cards.forEachCard { card, _ in whole.cards.append(card) }
            try cards.results.forEach(offset: 0, count: nil) {
                if $0.completed > 0 { whole.completedByCourse[$0.course.courseID] = $0.completed }
            }
            report = whole
        }
        guard let report else { throw InternalError.readReturnedNothing }
        return report
    }

    /// One page of the list (`report list --limit N --page K`), paged in the store: one course's
    /// tally at a time; the courses with nothing to list wait in the store's `CourseResults`
    /// (page 1 shows them when nothing narrows the report); the page's courses are tallied
    /// again alone once the page is known (`ReportCoursePass` on their ids).
    /// - Parameter keyMemory: the bytes of sort keys kept in memory before they go to the store.
    package static func listPage(
        _ reader: any ReportReading, facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone,
        keyMemory: Int = inMemoryKeyBytes
    ) throws -> Report {
        let limit = max(1, query.limit ?? Int.max)
        let (skipped, overflow) = (max(1, query.page) - 1).multipliedReportingOverflow(by: limit)
        let (wanted, overflowWanted) = skipped.addingReportingOverflow(limit)
        let showsEmpty = !query.narrows && query.page == 1
        func build(fast: Bool) throws -> Report {
            let empties = try reader.courseResults()
            defer { empties.drop() }
            // Past page 1, each listed course's counts, to find where the page's first section
            // began (its heading gives its whole count and the places the page shows).
            let listed = skipped > 0 && !overflow ? try reader.courseResults() : nil
            defer { listed?.drop() }
            let window = PageWindow(keep: overflow || overflowWanted ? 0 : wanted, keys: try reader.pageKeys(), memory: keyMemory)
            defer { window.finish() }
            var totals = ReportTotals()
            var (courseKey, keyOf): ([UInt8], String?) = ([], nil)
            func finished(_ tally: CourseTally) throws {
                totals.add(tally)
                if showsEmpty, tally.allowed, tally.matchingTotal == 0 { try empties.add(Self.result(tally)) }
                if let listed, tally.allowed, tally.matchingTotal > 0 { try listed.add(Self.result(tally)) }
            }
            func mayKeep(_ course: CourseRecord, _ bucket: Bucket) -> Bool {
                // Past the end of any page that can be shown: nothing to keep.
                guard !overflow, !overflowWanted else { return false }
                if keyOf != course.courseID { (courseKey, keyOf) = (ReportSortKey.course(course), course.courseID) }
                return window.mayKeep(prefix: ReportSortKey.prefix(course: courseKey, bucket: bucket))
            }
            func keep(_ course: CourseRecord, _ local: LocalAsOf, _ task: ReportTask, _: StoredOverride?) throws {
                guard mayKeep(course, task.bucket) else { return }
                let due = ReportPipeline.sortInstant(task, local.timeZone)
                try window.add(ReportSortKey.key(course: courseKey, task: task, due: due, sort: query.sort), task.task.taskID)
            }
            if fast {
                try ReportSearchPass.forEachCourse(
                    reader, query: query, kind: .list, asOf: asOf, defaultTimeZone: defaultTimeZone, onlyCourses: query.courses, finished,
                    mayList: mayKeep, listed: keep)
            } else {
                try ReportCoursePass.forEachCourse(
                    reader, query: query, kinds: [.list], asOf: asOf, defaultTimeZone: defaultTimeZone, onlyCourses: query.courses
                ) {
                    try finished($0[0])
                } listed: {
                    try keep($0, $1, $2, $3)
                }
            }
            var report = ReportAssembly.listFrame(totals: totals, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone)
            guard facts.hasData else { return report }
            if report.state == .noMatch { report.unmatched = try ReportSuggestions.unmatched(reader, query: query) }
            var pageTasks: [(courseID: String, task: ReportTask)] = []
            var courses: [CourseTally] = []
            if let shown = ReportAssembly.window(total: totals.matching, limit: query.limit, page: query.page) {
                let selection = try window.page(offset: shown.offset, count: shown.count)
                var live: [LiveTask] = []
                try reader.forEachLiveTask(selection, countsOnly: false) { live.append($0) }
                (courses, pageTasks) = try Self.page(reader, live: live, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone)
            }
            var empty: [CourseTally] = []
            if showsEmpty {
                try empties.prepareOrderedReading()
                try empties.forEach(offset: 0, count: nil) {
                    var tally = CourseTally(course: $0.course, allowed: true)
                    tally.live = $0.live
                    tally.completedMatching = $0.completed
                    empty.append(tally)
                }
            }
            var firstPlace = 1
            if let listed, let (courseID, task) = pageTasks.first, let course = courses.first(where: { $0.course.courseID == courseID }) {
                try listed.prepareOrderedReading()
                // Summed one course at a time: nothing is kept.
                var start = SectionStart(course: ReportSortKey.course(course.course), bucket: task.bucket)
                try listed.forEach(offset: 0, count: nil) { start.add(key: $0.key, counts: $0.counts) }
                firstPlace = report.page.firstItem - start.count
            }
            ReportAssembly.fill(&report, courses: courses, empty: empty, pageTasks: pageTasks, firstPlace: firstPlace)
            return report
        }
        return try reader.read {
            // From the counts kept at write time when the store proves them and the search can
            // be tested in the store (`ReportSearchPass`), else task by task.
            if ReportSearchPass.applies(to: query), try reader.storedBucketsHold() {
                do {
                    return try build(fast: true)
                } catch is ReportSearchPass.CountsDoNotAddUp {}
            }
            return try build(fast: false)
        }
    }

    /// A course's result as kept in the store.
    static func result(_ tally: CourseTally) -> CourseResult {
        CourseResult(
            key: ReportSortKey.course(tally.course), course: tally.course, counts: tally.matching, live: tally.live,
            completed: tally.completedMatching, linked: false)
    }

    /// The page's tasks in the report's order, and the tallies of their courses (each course
    /// tallied again alone: the page holds a few courses, never all).
    static func page(_ reader: any ReportReading, live: [LiveTask], query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone)
        throws -> (courses: [CourseTally], tasks: [(courseID: String, task: ReportTask)])
    {
        let ids = Set(live.map(\.task.courseID))
        var courses: [CourseTally] = []
        var zones = CourseZones(asOf: asOf, defaultTimeZone: defaultTimeZone)
        var byID: [String: (key: [UInt8], local: LocalAsOf)] = [:]
        // A few hundred courses per read, whatever the page's size (a store binds each id).
        let sorted = ids.sorted()
        for start in stride(from: 0, to: sorted.count, by: 256) {
            try ReportCoursePass.forEachCourse(
                reader, query: query, kinds: [.list], asOf: asOf, defaultTimeZone: defaultTimeZone,
                onlyCourses: Array(sorted[start..<min(sorted.count, start + 256)])
            ) { tallies in
                let course = tallies[0].course
                // `onlyCourses` also finds a course whose code is one of the ids.
                guard ids.contains(course.courseID), byID[course.courseID] == nil else { return }
                courses.append(tallies[0])
                byID[course.courseID] = (ReportSortKey.course(course), zones.local(course.timezone))
            }
        }
        var page: [(key: [UInt8], courseID: String, task: ReportTask)] = []
        for task in live {
            guard let (course, local) = byID[task.task.courseID] else { continue }
            let effective = BucketPolicy.effective(task.task, override: task.override, at: local)
            let shown = ReportTask(task, effective: effective)
            let due = ReportPipeline.sortInstant(shown, local.timeZone)
            page.append((ReportSortKey.key(course: course, task: shown, due: due, sort: query.sort), task.task.courseID, shown))
        }
        return (courses, page.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { ($0.courseID, $0.task) })
    }
}
