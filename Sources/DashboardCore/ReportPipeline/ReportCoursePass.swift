import Foundation

/// The sums of per-course tallies a report's header shows, added one course at a time (a
/// report flat in courses never holds every tally). Pure.
package struct ReportTotals: Sendable, Equatable {
    /// Every live task.
    package var live = 0
    /// Live tasks holding a value a hand edit made invalid.
    package var invalid = 0
    /// Tasks the unnarrowed query shows.
    package var baseline = 0
    /// Tasks of allowed courses left after search and filters.
    package var matching = 0
    /// Rows of a roll-up by assignment (the assignments with a listed task) of allowed courses.
    package var assignmentRows = 0
    /// Completed tasks of allowed courses that match when completed tasks are included.
    package var completedMatching = 0
    /// The reader's scope: the courses `--course` and `--teacher` keep (every course read when
    /// neither is given), and the tasks of theirs the unnarrowed query shows.
    package var scopeCourses = 0
    package var scopeBaseline = 0
    /// Whether allowed courses list work handed in or excused (SPEC §11's places).
    package var listsStates = false

    package init() {}

    /// Adds one course's tally.
    package mutating func add(_ tally: CourseTally) {
        live += tally.live
        invalid += tally.invalid
        baseline += tally.baseline
        if tally.allowed {
            scopeCourses += 1
            scopeBaseline += tally.baseline
            matching += tally.matchingTotal
            assignmentRows += tally.assignmentRows
            completedMatching += tally.completedMatching
            if tally.listsStates { listsStates = true }
        }
    }
}

/// Pass 1 of a report flat in courses: every live course (by course id) with its live tasks,
/// read from the store one course at a time (`ReportReading.forEachLiveCourse`) and tallied
/// with the pure stages (`BucketPolicy` in the course's zone, `ReportMatcher`, `CourseTally`).
/// Memory holds one course's tallies, whatever the number of courses or tasks.
enum ReportCoursePass {
    /// Calls `finished` with each course's tallies, one per kind of `kinds` (same order), as
    /// soon as its last task is counted. Call inside a `read`.
    /// - Parameter onlyCourses: when not empty, only the courses with one of these ids or codes.
    /// - Parameter listed: gets each task the first kind lists (after search and filters), with
    ///   its course, the course's as-of and the task's stored override (bulk `reclassify`
    ///   compares its end).
    static func forEachCourse(
        _ reader: any ReportReading, query: ReportQuery, kinds: [Report.Kind], asOf: Date, defaultTimeZone: TimeZone,
        onlyCourses: [String], _ finished: ([CourseTally]) throws -> Void,
        listed: ((CourseRecord, LocalAsOf, ReportTask, StoredOverride?) throws -> Void)? = nil
    ) throws {
        let matcher = ReportMatcher(query)
        // Titles and students are read only when a search, a student filter or the listed
        // tasks' sort keys need them.
        // A roll-up by assignment counts its rows: the assignment of every listed task.
        let rows = query.groupBy == .assignment && kinds.first == .list
        let countsOnly = listed == nil && !matcher.searches && query.students.isEmpty && !rows
        var zones = CourseZones(asOf: asOf, defaultTimeZone: defaultTimeZone)
        var tallies: [CourseTally] = []
        var local: LocalAsOf?
        var text = matcher.courseText(CourseRecord(courseID: "", code: "", title: ""))
        var assignments: Set<String> = []
        func finish() throws {
            if rows { tallies[0].assignmentRows = assignments.count }
            assignments = []
            try finished(tallies)
        }
        try reader.forEachLiveCourse(only: onlyCourses, countsOnly: countsOnly) { course in
            if !tallies.isEmpty { try finish() }
            // Outside the report's own set (`onlyCourses` also finds a course by its code):
            // not tallied, its tasks skipped.
            if let set = query.courseSet, !set.contains(course.courseID) {
                tallies = []
                return
            }
            let tally = CourseTally(course: course, allowed: matcher.allows(course))
            tallies = Array(repeating: tally, count: kinds.count)
            local = zones.local(course.timezone)
            text = matcher.courseText(course)
        } task: { live in
            guard let local, !tallies.isEmpty else { return }
            let effective = BucketPolicy.effective(live.task, override: live.override, at: local)
            let task = ReportTask(live, effective: effective)
            for index in tallies.indices {
                let isListed = tallies[index].count(
                    task, kind: kinds[index], query: query, matcher: matcher, courseText: text, at: local)
                if index == 0, isListed {
                    if rows { assignments.insert(AssignmentRollUp.key(task.task)) }
                    try listed?(tallies[0].course, local, task, live.override)
                }
            }
        }
        if !tallies.isEmpty { try finish() }
    }
}
