import Foundation

/// A task as reports see it: its stored values and its bucket as of the report's as-of.
public struct ReportTask: Sendable, Equatable {
    public var task: TaskRecord
    public var bucket: Bucket
    /// True while a manual override pins the bucket.
    public var pinned: Bool
    /// The override that pins the bucket (its end, reason and actor, for the list's words), only
    /// while it is in force; nil otherwise, or when the reader did not give it.
    package var override: StoredOverride? = nil

    /// A live task in its effective bucket (`BucketPolicy.effective`): its override kept
    /// only while in force.
    package init(_ live: LiveTask, effective: EffectiveBucket) {
        self.init(task: live.task, bucket: effective.bucket, pinned: effective.isPinned, override: effective.isPinned ? live.override : nil)
    }

    package init(task: TaskRecord, bucket: Bucket, pinned: Bool, override: StoredOverride? = nil) {
        self.task = task
        self.bucket = bucket
        self.pinned = pinned
        self.override = override
    }
}

/// A course and its live tasks, as reports see them.
package struct ReportCourse: Sendable, Equatable {
    package var course: CourseRecord
    package var tasks: [ReportTask]
}

/// The source stage of the report pipeline: every live course with its live tasks, each
/// task in its bucket as of `asOf`, read in one consistent snapshot. `BucketPolicy` decides
/// each bucket (overrides in force win) in the course's zone from `CourseZones`. The store is
/// reached only through `ReportReading` (values, no SQL).
package enum ReportSource {
    ///
    /// - Parameter onlyCourses: when not empty, only the courses with one of these ids or codes
    ///   are read (the `--course` filter pushed down to the store, which finds their tasks
    ///   without reading the others).
    /// - Parameter countsOnly: leave task titles and students empty (a grid without search or
    ///   student filter shows counts only; not reading a million titles halves its time).
    package static func load(
        _ reader: any ReportReading, asOf: Date, defaultTimeZone: TimeZone, onlyCourses: [String] = [], countsOnly: Bool = false
    ) throws -> [ReportCourse] {
        try reader.read {
            let read = try Self.courses(reader, asOf: asOf, defaultTimeZone: defaultTimeZone, onlyCourses: onlyCourses)
            var courses = read.map { ReportCourse(course: $0.course, tasks: []) }
            try forEachTask(reader, of: read, onlyThese: !onlyCourses.isEmpty, countsOnly: countsOnly) { position, task in
                courses[position].tasks.append(task)
            }
            return courses
        }
    }

    /// A live course as the source reads it: its record and its as-of in its time zone.
    package struct SourceCourse: Sendable {
        package var course: CourseRecord
        package var local: LocalAsOf
    }

    /// Every live course (or only those `onlyCourses` names by id or code), by id. Call it
    /// inside a `read` together with `forEachTask`, so both see one snapshot.
    package static func courses(_ reader: any ReportReading, asOf: Date, defaultTimeZone: TimeZone, onlyCourses: [String] = [])
        throws -> [SourceCourse]
    {
        var zones = CourseZones(asOf: asOf, defaultTimeZone: defaultTimeZone)
        // One zone (and as-of) per distinct time zone, shared by its courses.
        return try reader.liveCourses(only: onlyCourses).map { SourceCourse(course: $0, local: zones.local($0.timezone)) }
    }

    /// Streams the live tasks of `courses` (all live tasks, or with `onlyThese` only theirs),
    /// each in its bucket as of the course's as-of, with the position of its course in
    /// `courses`; nothing is kept. Tasks of a course not in `courses` are skipped.
    package static func forEachTask(
        _ reader: any ReportReading, of courses: [SourceCourse], onlyThese: Bool, countsOnly: Bool = false,
        _ body: (Int, ReportTask) throws -> Void
    ) throws {
        if onlyThese, courses.isEmpty { return }
        let selection = onlyThese ? TaskSelection.courses(courses.map(\.course.courseID)) : .all
        try forEachTask(reader, of: courses, selection: selection, countsOnly: countsOnly, body)
    }

    /// Streams the `selection` of live tasks as tasks of `courses`.
    static func forEachTask(
        _ reader: any ReportReading, of courses: [SourceCourse], selection: TaskSelection, countsOnly: Bool = false,
        _ body: (Int, ReportTask) throws -> Void
    ) throws {
        // Each course's position and as-of in its zone, found with one lookup per task.
        var index: [String: (position: Int, local: LocalAsOf)] = [:]
        for (position, course) in courses.enumerated() { index[course.course.courseID] = (position, course.local) }
        try reader.forEachLiveTask(selection, countsOnly: countsOnly) { live in
            guard let (position, local) = index[live.task.courseID] else { return }
            let effective = BucketPolicy.effective(live.task, override: live.override, at: local)
            try body(position, ReportTask(live, effective: effective))
        }
    }
}
