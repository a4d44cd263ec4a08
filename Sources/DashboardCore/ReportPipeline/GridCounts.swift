import Foundation

/// The grid from the stored buckets (issue 15): when the store proves its stored values and
/// buckets are as the dashboard wrote them (`ReportReading.storedBucketsHold`), a grid that no
/// task-level search or filter narrows counts each course's settled tasks as stored and puts
/// only the others in their buckets (`BucketPolicy.effective` in the course's zone): one scan
/// of the tasks without a sort. The tallies are those `ReportCoursePass` counts task by task
/// (a randomized test compares both). Memory: one count per course.
enum GridCounts {
    /// True when the grid of `query` may be counted from the stored buckets: no search and no
    /// task-level filter but `--bucket` (whole courses are kept or left out by `--course` and
    /// `--teacher`).
    static func applies(to query: ReportQuery) -> Bool {
        query.search.trimmingUnicodeWhitespace().isEmpty && query.students.isEmpty && query.priorities.isEmpty && query.due.isEmpty
    }

    /// Calls `finished` with each live course's grid tally (in no set order), as
    /// `ReportCoursePass.forEachCourse` with `kinds: [.grid]` would. Call inside a `read`.
    static func forEachCourse(
        _ reader: any ReportReading, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone, onlyCourses: [String],
        _ finished: (CourseTally) throws -> Void
    ) throws {
        let matcher = ReportMatcher(query)
        var zones = CourseZones(asOf: asOf, defaultTimeZone: defaultTimeZone)
        var courses: [String: (course: CourseRecord, local: LocalAsOf)] = [:]
        for course in try reader.liveCourses(only: onlyCourses) {
            // The report's own set only (`onlyCourses` also finds a course by its code).
            if let set = query.courseSet, !set.contains(course.courseID) { continue }
            courses[course.courseID] = (course, zones.local(course.timezone))
        }
        var counts: [String: BucketCounts] = [:]
        try reader.forEachTaskBucket(settledIn: BucketPolicy.settledWindow(asOf: asOf)) { item in
            switch item {
            case .settled(let courseID, let bucket):
                guard courses[courseID] != nil else { return }
                counts[courseID, default: BucketCounts()][bucket] += 1
            case .unsettled(let live):
                guard let (_, local) = courses[live.task.courseID] else { return }
                let bucket = BucketPolicy.effective(live.task, override: live.override, at: local).bucket
                counts[live.task.courseID, default: BucketCounts()][bucket] += 1
            }
        }
        for (id, entry) in courses.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            try finished(tally(entry.course, counts: counts[id] ?? BucketCounts(), allowed: matcher.allows(entry.course), query: query))
        }
    }

    /// A course's grid tally from its count per bucket: what `CourseTally.count` adds up for a
    /// grid with no search and no task-level filter but `--bucket`.
    static func tally(_ course: CourseRecord, counts: BucketCounts, allowed: Bool, query: ReportQuery) -> CourseTally {
        var tally = CourseTally(course: course, allowed: allowed)
        tally.live = counts.total
        tally.baseline = counts.total
        guard allowed else { return tally }
        let kept = Set(query.buckets)
        for bucket in Bucket.allCases where kept.isEmpty || kept.contains(bucket) {
            tally.matching[bucket] = counts[bucket]
        }
        tally.completedMatching = kept.isEmpty || kept.contains(.completed) ? counts[.completed] : 0
        return tally
    }
}
