import Foundation

/// The grid from the counts kept at write time (issue 15): when the store proves its stored
/// values, buckets and counts are as the dashboard wrote them (`ReportReading.storedBucketsHold`),
/// a grid that no task-level search or filter narrows starts from each course's live tasks per
/// stored bucket and puts only the tasks whose stored bucket is not settled at the as-of in their
/// buckets (`BucketPolicy.effective` in the course's zone): a settled stored bucket is the task's
/// bucket whatever the zone. The tallies are those `ReportCoursePass` counts task by task (a
/// randomized test compares both). Memory: one count per course and bucket.
enum GridCounts {
    /// True when the grid of `query` may be counted from the stored buckets: no search and no
    /// task-level filter but `--bucket` (whole courses are kept or left out by `--course` and
    /// `--teacher`).
    static func applies(to query: ReportQuery) -> Bool {
        query.search.trimmingUnicodeWhitespace().isEmpty && query.students.isEmpty && query.priorities.isEmpty && query.statuses.isEmpty
            && !query.late && query.due.isEmpty
    }

    /// Each live course's grid tally (in course id order), as `ReportCoursePass.forEachCourse`
    /// with `kinds: [.grid]` would count them; nil when the stored counts do not add up (a count
    /// below zero, or left on a bucket no task may have): the caller then counts task by task.
    /// Call inside a `read`.
    static func tallies(_ reader: any ReportReading, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone, onlyCourses: [String])
        throws -> [CourseTally]?
    {
        let matcher = ReportMatcher(query)
        var zones = CourseZones(asOf: asOf, defaultTimeZone: defaultTimeZone)
        var courses: [String: (course: CourseRecord, local: LocalAsOf)] = [:]
        for course in try reader.liveCourses(only: onlyCourses) {
            // The report's own set only (`onlyCourses` also finds a course by its code).
            if let set = query.courseSet, !set.contains(course.courseID) { continue }
            courses[course.courseID] = (course, zones.local(course.timezone))
        }
        var stored = try reader.storedBucketCounts()
        var moved: [String: BucketCounts] = [:]
        try reader.forEachUnsettledTask(settledIn: BucketPolicy.settledWindow(asOf: asOf)) { live, storedBucket in
            let courseID = live.task.courseID
            guard let (_, local) = courses[courseID] else { return }
            stored[courseID, default: [:]][storedBucket, default: 0] -= 1
            moved[courseID, default: BucketCounts()][BucketPolicy.effective(live.task, override: live.override, at: local).bucket] += 1
        }
        var tallies: [CourseTally] = []
        for (id, entry) in courses.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            guard let counts = effective(stored: stored[id] ?? [:], moved: moved[id] ?? BucketCounts()) else { return nil }
            tallies.append(tally(entry.course, counts: counts, allowed: matcher.allows(entry.course), query: query))
        }
        return tallies
    }

    /// A course's live tasks per bucket at the as-of: its stored counts less its unsettled
    /// tasks (`stored`), plus those tasks in their buckets (`moved`); nil when they do not add
    /// up (a count below zero, or left on a name that is no bucket).
    static func effective(stored: [String: Int], moved: BucketCounts) -> BucketCounts? {
        var counts = moved
        for (name, n) in stored where n != 0 {
            guard n > 0, let bucket = Bucket(rawValue: name) else { return nil }
            counts[bucket] += n
        }
        return counts
    }

    /// A course's grid tally from its count per bucket: what `CourseTally.count` adds up for a
    /// grid with no search and no task-level filter but `--bucket`. No task holds an invalid
    /// value (`invalid` stays 0): the counts are read only from data the dashboard wrote.
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
