import Foundation

/// The roll-ups read from the store (`--group-by assignment|student`), flat in courses and in
/// tasks like every other report: the result is the report `ReportBuilder.build` gives on the
/// loaded data (randomized tests hold it).
///
/// Policy, what bounds memory:
/// - by assignment: one course at a time (its live tasks, to roll them up; `ReportCourseStream`)
///   and the rows of the page;
/// - by student: one student's tasks at a time (whole list) or the page's; the sort keys of the
///   listed tasks wait in memory up to `ReportStream.inMemoryKeyBytes`, else in the store's
///   `PageKeys`, and are read back in order a chunk at a time.
package enum ReportRollUpStream {
    /// One page of a roll-up by assignment (`--limit N --page K`: N rows a page). Pass 1 counts
    /// each course's rows (`CourseTally.assignmentRows`) and keeps the counts in the store's
    /// `CourseResults`, in the list's course order; read back, they tell which courses the page
    /// crosses, and only those are rolled up (`ReportCourseStream.group`). Page 1 of a report
    /// nothing narrows also shows the courses without rows, with their own words.
    package static func assignmentPage(
        _ reader: any ReportReading, facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone
    ) throws -> Report {
        let limit = max(1, query.limit ?? Int.max)
        let (skipped, overflow) = (max(1, query.page) - 1).multipliedReportingOverflow(by: limit)
        let end = overflow ? Int.max : skipped.addingReportingOverflow(limit).overflow ? Int.max : skipped + limit
        let showsEmpty = !query.narrows && query.page == 1
        return try reader.read {
            let results = try reader.courseResults()
            defer { results.drop() }
            var totals = ReportTotals()
            try ReportCoursePass.forEachCourse(
                reader, query: query, kinds: [.list], asOf: asOf, defaultTimeZone: defaultTimeZone, onlyCourses: query.courses
            ) { tallies in
                let tally = tallies[0]
                totals.add(tally)
                guard facts.hasData, tally.allowed, tally.assignmentRows > 0 || showsEmpty else { return }
                try results.add(
                    CourseResult(
                        key: ReportSortKey.course(tally.course), course: tally.course, counts: tally.matching, live: tally.live,
                        completed: tally.completedMatching, linked: false, rows: tally.assignmentRows))
            }
            var report = ReportAssembly.listFrame(totals: totals, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone)
            guard facts.hasData else { return report }
            if report.state == .noMatch { report.unmatched = try ReportSuggestions.unmatched(reader, query: query) }
            try results.prepareOrderedReading()
            // The courses the page crosses (and, on page 1, those without rows), in order.
            var crossed: [(result: CourseResult, from: Int, to: Int)] = []
            var index = 0
            try results.forEach(offset: 0, count: nil) { result in
                let start = index
                index += result.rows
                if result.rows == 0 {
                    if showsEmpty { crossed.append((result, 0, 0)) }
                    return
                }
                guard !overflow else { return }
                let (from, to) = (max(skipped, start), min(end, index))
                if from < to { crossed.append((result, from - start, to - start)) }
            }
            let matcher = ReportMatcher(query)
            var zones = CourseZones(asOf: asOf, defaultTimeZone: defaultTimeZone)
            var groups: [CourseGroup] = []
            for (result, from, to) in crossed {
                let course = ReportSource.SourceCourse(course: result.course, local: zones.local(result.course.timezone))
                var group = try ReportCourseStream.group(reader, course: course, live: result.live, query: query, matcher: matcher)
                if from < to, to <= group.assignments.count {
                    group.assignments = Array(group.assignments[from..<to])
                    group.assignmentFirst = from + 1
                }
                groups.append(group)
                if result.completed > 0 { report.completedByCourse[result.course.courseID] = result.completed }
            }
            report.groups = groups
            return report
        }
    }
}

// MARK: - By student

extension ReportRollUpStream {
    /// Tasks read back a chunk at a time in a whole roll-up by student.
    static let chunk = 4_096

    /// A whole roll-up by student (no `--limit`): `body` gets each student's group as soon as
    /// its last task is read, in the report's order; every listed task's key waits in the
    /// store's `PageKeys`.
    /// - Returns: the list's frame (state, banner, counts; no students).
    @discardableResult
    package static func forEachStudent(
        _ reader: any ReportReading, facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone,
        _ body: (Report, StudentGroup) throws -> Void
    ) throws -> Report {
        var whole = query
        (whole.limit, whole.page) = (nil, 1)
        return try reader.read {
            let keys = try reader.pageKeys()
            defer { keys.drop() }
            var totals = ReportTotals()
            try ReportCoursePass.forEachCourse(
                reader, query: whole, kinds: [.list], asOf: asOf, defaultTimeZone: defaultTimeZone, onlyCourses: whole.courses
            ) {
                totals.add($0[0])
            } listed: { _, local, task, _ in
                let due = ReportPipeline.sortInstant(task, local.timeZone)
                try keys.add(ReportSortKey.studentKey(task, due: due, sort: whole.sort), taskID: task.task.taskID)
            }
            var frame = ReportAssembly.listFrame(totals: totals, facts: facts, query: whole, asOf: asOf, defaultTimeZone: defaultTimeZone)
            guard facts.hasData else { return frame }
            if frame.state == .noMatch { frame.unmatched = try ReportSuggestions.unmatched(reader, query: whole) }
            guard frame.state == .ok else { return frame }
            try keys.prepareOrderedReading()
            var current: StudentGroup?
            var after: [UInt8] = []
            var courses = CourseLookup(asOf: asOf, defaultTimeZone: defaultTimeZone)
            while true {
                var live: [LiveTask] = []
                try reader.forEachLiveTask(.keptAfter(key: after, count: chunk), countsOnly: false) { live.append($0) }
                guard !live.isEmpty else { break }
                let ordered = try courses.keyed(reader, live, sort: whole.sort)
                for (key, item) in ordered {
                    after = key
                    if let group = current, group.studentID != item.task.task.studentID {
                        try body(frame, group)
                        current = nil
                    }
                    if current == nil { current = StudentGroup(studentID: item.task.task.studentID, tasks: [], counts: BucketCounts()) }
                    current?.tasks.append(item)
                    current?.counts[item.task.bucket] += 1
                }
            }
            if let current { try body(frame, current) }
            return frame
        }
    }

    /// One page of a roll-up by student (`--limit N --page K`: N tasks a page), paged like a
    /// list (`PageWindow`); the page's students are counted again whole (every page together)
    /// in a second pass over the listed tasks, which also finds the place of the page's first
    /// task among its student's.
    package static func studentPage(
        _ reader: any ReportReading, facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone,
        keyMemory: Int = ReportStream.inMemoryKeyBytes
    ) throws -> Report {
        let limit = max(1, query.limit ?? Int.max)
        let (skipped, overflow) = (max(1, query.page) - 1).multipliedReportingOverflow(by: limit)
        let (wanted, overflowWanted) = skipped.addingReportingOverflow(limit)
        return try reader.read {
            let window = PageWindow(keep: overflow || overflowWanted ? 0 : wanted, keys: try reader.pageKeys(), memory: keyMemory)
            defer { window.finish() }
            var totals = ReportTotals()
            try ReportCoursePass.forEachCourse(
                reader, query: query, kinds: [.list], asOf: asOf, defaultTimeZone: defaultTimeZone, onlyCourses: query.courses
            ) {
                totals.add($0[0])
            } listed: { _, local, task, _ in
                guard !overflow, !overflowWanted else { return }
                guard window.mayKeep(prefix: ReportSortKey.studentPrefix(task.task.studentID, bucket: task.bucket)) else { return }
                let due = ReportPipeline.sortInstant(task, local.timeZone)
                try window.add(ReportSortKey.studentKey(task, due: due, sort: query.sort), task.task.taskID)
            }
            var report = ReportAssembly.listFrame(totals: totals, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone)
            guard facts.hasData else { return report }
            if report.state == .noMatch { report.unmatched = try ReportSuggestions.unmatched(reader, query: query) }
            guard let shown = ReportAssembly.window(total: totals.matching, limit: query.limit, page: query.page) else { return report }
            var live: [LiveTask] = []
            try reader.forEachLiveTask(try window.page(offset: shown.offset, count: shown.count), countsOnly: false) { live.append($0) }
            var courses = CourseLookup(asOf: asOf, defaultTimeZone: defaultTimeZone)
            let page = try courses.keyed(reader, live, sort: query.sort)
            guard let (firstKey, firstItem) = page.first else { return report }
            // The page's students, counted whole, and the tasks of the first one before the page.
            let students = Set(page.map(\.item.task.task.studentID))
            var counts: [String: BucketCounts] = [:]
            var before = 0
            try ReportCoursePass.forEachCourse(
                reader, query: query, kinds: [.list], asOf: asOf, defaultTimeZone: defaultTimeZone, onlyCourses: query.courses, { _ in }
            ) { _, local, task, _ in
                let student = task.task.studentID
                guard students.contains(student) else { return }
                counts[student, default: BucketCounts()][task.bucket] += 1
                guard student == firstItem.task.task.studentID else { return }
                let key = ReportSortKey.studentKey(task, due: ReportPipeline.sortInstant(task, local.timeZone), sort: query.sort)
                if key.lexicographicallyPrecedes(firstKey) { before += 1 }
            }
            var groups: [StudentGroup] = []
            for (_, item) in page {
                let student = item.task.task.studentID
                if groups.last?.studentID != student || groups.isEmpty {
                    groups.append(
                        StudentGroup(
                            studentID: student, tasks: [], counts: counts[student] ?? BucketCounts(), first: groups.isEmpty ? before + 1 : 1
                        ))
                }
                groups[groups.count - 1].tasks.append(item)
            }
            report.students = groups
            report.completedByCourse = [:]
            return report
        }
    }
}

/// The courses of tasks read by id, looked up a few hundred at a time, each with its as-of in
/// its zone: what a roll-up by student needs to put a task in its bucket, its key and its row.
struct CourseLookup {
    private var zones: CourseZones
    private var known: [String: (course: CourseRecord, local: LocalAsOf)] = [:]

    init(asOf: Date, defaultTimeZone: TimeZone) {
        zones = CourseZones(asOf: asOf, defaultTimeZone: defaultTimeZone)
    }

    /// `live` in its buckets, with their keys, in key order. Courses are remembered for the
    /// length of one call only (a chunk's or a page's: memory does not grow with the courses).
    mutating func keyed(_ reader: any ReportReading, _ live: [LiveTask], sort: ReportSort) throws -> [(key: [UInt8], item: StudentTask)] {
        known = [:]
        let ids = Set(live.map(\.task.courseID)).sorted()
        for start in stride(from: 0, to: ids.count, by: 256) {
            let part = Array(ids[start..<min(ids.count, start + 256)])
            let wanted = Set(part)
            // `liveCourses(only:)` also finds a course whose code is one of the ids.
            for course in try reader.liveCourses(only: part) where wanted.contains(course.courseID) {
                known[course.courseID] = (course, zones.local(course.timezone))
            }
        }
        var keyed: [(key: [UInt8], item: StudentTask)] = []
        for task in live {
            guard let (course, local) = known[task.task.courseID] else { continue }
            let shown = ReportTask(task, effective: BucketPolicy.effective(task.task, override: task.override, at: local))
            let key = ReportSortKey.studentKey(shown, due: ReportPipeline.sortInstant(shown, local.timeZone), sort: sort)
            keyed.append((key, StudentTask(course: course, task: shown)))
        }
        return keyed.sorted { $0.key.lexicographicallyPrecedes($1.key) }
    }
}
