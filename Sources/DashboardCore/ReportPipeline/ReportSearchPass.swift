import Foundation

/// A searched report from the counts kept at write time (issue 15): when the store proves its
/// stored values, buckets and counts (`ReportReading.storedBucketsHold`) and every word of the
/// search is ASCII once folded, one scan of the tasks returns only the unsettled ones and the
/// search's candidates (`ReportReading.forEachSearchCandidate`: a task no word's test passes
/// cannot be found); each course's live and baseline counts come from its counts per bucket
/// (`GridCounts.effective`), and each candidate is counted by `CourseTally.count`, as
/// `ReportCoursePass` counts every task. The tallies and the listed tasks are those of
/// `ReportCoursePass` (a randomized test compares both); the tasks are listed in no set order.
enum ReportSearchPass {
    /// The counts did not add up (a writer no trigger saw): count task by task instead.
    struct CountsDoNotAddUp: Error {}

    /// True when a report of `query` may be counted this way (the store is asked separately).
    static func applies(to query: ReportQuery) -> Bool {
        let matcher = ReportMatcher(query)
        return matcher.searches && matcher.wordsAreLowercaseASCII && TextFold.asciiFoldIsLowercase && query.groupBy == .bucket
    }

    /// Calls `listed` with each listed task (as `ReportCoursePass.forEachCourse` with one kind),
    /// then `finished` with each live course's tally, in course id order.
    ///
    /// A found task that is settled (its stored bucket is its bucket) is counted from its bucket
    /// alone when no filter but `--bucket` looks at tasks; it is read whole only when `mayList`
    /// says a task of its course and bucket could still be listed (a page already full of tasks
    /// that sort before it needs no more), and then given to `listed` like any other.
    /// - Throws: `CountsDoNotAddUp` before any call of `finished` (but after some of `listed`):
    ///   the caller starts again task by task.
    static func forEachCourse(
        _ reader: any ReportReading, query: ReportQuery, kind: Report.Kind, asOf: Date, defaultTimeZone: TimeZone,
        onlyCourses: [String], _ finished: (CourseTally) throws -> Void,
        mayList: (CourseRecord, Bucket) -> Bool = { _, _ in true },
        listed: (CourseRecord, LocalAsOf, ReportTask, StoredOverride?) throws -> Void
    ) throws {
        let matcher = ReportMatcher(query)
        var zones = CourseZones(asOf: asOf, defaultTimeZone: defaultTimeZone)
        struct Course {
            var tally: CourseTally
            var local: LocalAsOf
            var text: SearchCourseText
            var moved = BucketCounts()
        }
        // Each live course once, in course id order; `places` finds a course's place by its id.
        var courses: [Course] = []
        for course in try reader.liveCourses(only: onlyCourses) {
            if let set = query.courseSet, !set.contains(course.courseID) { continue }
            courses.append(
                Course(
                    tally: CourseTally(course: course, allowed: matcher.allows(course)), local: zones.local(course.timezone),
                    text: matcher.courseText(course)))
        }
        courses.sort { $0.tally.course.courseID.utf8.lexicographicallyPrecedes($1.tally.course.courseID.utf8) }
        let places = Dictionary(courses.enumerated().map { ($1.tally.course.courseID, $0) }, uniquingKeysWith: { first, _ in first })
        // The courses each word is found in: every task of theirs passes that word's test.
        let words = matcher.words.enumerated().map { index, word in
            SearchWord(word: word, courses: courses.filter { $0.tally.allowed && $0.text.holds[index] }.map(\.tally.course.courseID))
        }
        var stored = try reader.storedBucketCounts()
        let cache = TextFold.Cache()
        // Each allowed course's text by its place (nil: left out), read without touching `courses`,
        // which the body changes.
        let texts = courses.map { $0.tally.allowed ? $0.text : nil }
        func found(_ courseID: String, _ title: UnsafeBufferPointer<UInt8>, _ passed: Bool) -> Bool {
            guard let place = places[courseID], let text = texts[place] else { return false }
            // The store's test decided (`SearchWord`, `SearchCandidate.Finder`): every word is in
            // the title's fold or a course of `SearchWord.courses` holds it; nothing to fold.
            if passed { return true }
            return matcher.found(titleBytes: title, courseText: text, cache: cache)
        }
        let byBucket = matcher.filtersOnlyBuckets
        try reader.forEachSearchCandidate(settledIn: BucketPolicy.settledWindow(asOf: asOf), words: words, found: found) {
            row, values, read in
            guard let place = places[row.courseID] else { return }
            if byBucket, !row.unsettled, let bucket = Bucket(rawValue: row.storedBucket) {
                // Found and settled: its bucket is its stored one.
                guard courses[place].tally.countFound(bucket: bucket, kind: kind, query: query, matcher: matcher),
                    mayList(courses[place].tally.course, bucket)
                else { return }
                let live = try read()
                let task = ReportTask(live, effective: BucketPolicy.effective(live.task, override: live.override, at: courses[place].local))
                try listed(courses[place].tally.course, courses[place].local, task, live.override)
                return
            }
            // A task that is not found only moves between buckets: the values of the row decide.
            let live = row.found ? try read() : values()
            let effective = BucketPolicy.effective(live.task, override: live.override, at: courses[place].local)
            if row.unsettled {
                stored[row.courseID, default: [:]][row.storedBucket, default: 0] -= 1
                courses[place].moved[effective.bucket] += 1
            }
            if row.found {
                let task = ReportTask(live, effective: effective)
                let course = courses[place]
                if courses[place].tally.count(
                    task, kind: kind, query: query, matcher: matcher, courseText: course.text, at: course.local, found: true)
                {
                    try listed(course.tally.course, course.local, task, live.override)
                }
            }
        }
        let showCompleted = query.includeCompleted || query.buckets.contains(.completed) || kind == .grid
        var tallies: [CourseTally] = []
        for course in courses {
            let id = course.tally.course.courseID
            guard let counts = GridCounts.effective(stored: stored[id] ?? [:], moved: course.moved) else { throw CountsDoNotAddUp() }
            var tally = course.tally
            // What `CourseTally.count` adds up over every task (no value is invalid: `GridCounts`).
            tally.live = counts.total
            tally.baseline = showCompleted ? counts.total : counts.total - counts[.completed]
            tally.invalid = 0
            tallies.append(tally)
        }
        for tally in tallies { try finished(tally) }
    }
}
