import Foundation

/// A task as reports see it: its stored values and its bucket as of the report's as-of.
public struct ReportTask: Sendable, Equatable {
    public var task: TaskRecord
    public var bucket: Bucket
    /// True while a manual override pins the bucket.
    public var pinned: Bool
}

/// A course and its live tasks, as reports see them.
public struct ReportCourse: Sendable, Equatable {
    public var course: CourseRecord
    public var tasks: [ReportTask]
}

/// The source stage of the report pipeline: every live course with its live tasks, each
/// task in its bucket as of `asOf`, read in one consistent snapshot. `BucketPolicy` decides
/// each bucket (overrides in force win) in the course's zone from `CourseZones`.
public enum ReportSource {
    ///
    /// - Parameter onlyCourses: when not empty, only the courses with one of these ids or codes
    ///   are read (the `--course` filter pushed down to SQL, where the `tasks_by_course` index
    ///   finds their tasks without reading the others).
    /// - Parameter countsOnly: leave task titles and students empty (a grid without search or
    ///   student filter shows counts only; not reading a million titles halves its time).
    public static func load(
        _ store: Store, asOf: Date, defaultTimeZone: TimeZone, onlyCourses: [String] = [], countsOnly: Bool = false
    ) throws -> [ReportCourse] {
        var courses: [ReportCourse] = []
        try store.database.inTransaction(.deferred) {
            let read = try Self.courses(store, asOf: asOf, defaultTimeZone: defaultTimeZone, onlyCourses: onlyCourses)
            courses = read.map { ReportCourse(course: $0.course, tasks: []) }
            try forEachTask(store, of: read, onlyThese: !onlyCourses.isEmpty, countsOnly: countsOnly) { position, task in
                courses[position].tasks.append(task)
            }
            return .commit
        }
        return courses
    }

    /// A live course as the source reads it: its record and its as-of in its time zone.
    public struct SourceCourse: Sendable {
        public var course: CourseRecord
        public var local: LocalAsOf
    }

    /// Every live course (or only those `onlyCourses` names by id or code), by id. Call it
    /// inside a transaction together with `forEachTask`, so both see one snapshot.
    public static func courses(_ store: Store, asOf: Date, defaultTimeZone: TimeZone, onlyCourses: [String] = []) throws
        -> [SourceCourse]
    {
        var courses: [SourceCourse] = []
        var zones = CourseZones(asOf: asOf, defaultTimeZone: defaultTimeZone)
        let marks = Array(repeating: "?", count: onlyCourses.count).joined(separator: ", ")
        let courseFilter = onlyCourses.isEmpty ? "" : " AND (course_id IN (\(marks)) OR code IN (\(marks)))"
        let courseValues: [SQLBindable] = onlyCourses.isEmpty ? [] : onlyCourses + onlyCourses
        try store.database.prepare(
            "SELECT course_id, code, title, term, teacher, timezone FROM courses WHERE deleted_batch IS NULL\(courseFilter) ORDER BY course_id"
        ).forEachRow(courseValues) { row in
            let course = CourseRecord(
                courseID: row.string(0) ?? "", code: row.string(1) ?? "", title: row.string(2) ?? "", term: row.string(3) ?? "",
                teacher: row.string(4) ?? "", timezone: row.string(5) ?? "")
            // One zone (and as-of) per distinct time zone, shared by its courses.
            courses.append(SourceCourse(course: course, local: zones.local(course.timezone)))
        }
        return courses
    }

    /// Streams the live tasks of `courses` (all live tasks, or with `onlyThese` only theirs,
    /// through the `tasks_by_course` index), each in its bucket as of the course's as-of,
    /// with the position of its course in `courses`; nothing is kept. Tasks of a course not in
    /// `courses` are skipped.
    public static func forEachTask(
        _ store: Store, of courses: [SourceCourse], onlyThese: Bool, countsOnly: Bool = false,
        _ body: (Int, ReportTask) throws -> Void
    ) throws {
        if onlyThese, courses.isEmpty { return }
        let ids = courses.map(\.course.courseID)
        let taskFilter = !onlyThese ? "" : " AND t.course_id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))"
        try forEachTask(store, of: courses, sql: Self.tasksSQL(taskFilter, countsOnly: countsOnly), values: onlyThese ? ids : [], body)
    }

    /// Streams the rows of `sql` (the columns of `tasksSQL`) as tasks of `courses`.
    static func forEachTask(
        _ store: Store, of courses: [SourceCourse], sql: String, values: [SQLBindable], _ body: (Int, ReportTask) throws -> Void
    ) throws {
        // Each course's position and as-of in its zone, found with one lookup per task.
        var index: [String: (position: Int, local: LocalAsOf)] = [:]
        for (position, course) in courses.enumerated() { index[course.course.courseID] = (position, course.local) }
        try store.database.prepare(sql).forEachRow(values) {
            row in
            let task = TaskRecord(
                storedTaskID: row.string(0) ?? "", courseID: row.string(1) ?? "", title: row.string(2) ?? "",
                studentID: row.string(3) ?? "", due: row.value(4), priority: row.value(5), completed: row.value(6))
            guard let (position, local) = index[task.courseID] else { return }
            let override = row.isNull(7) ? nil : StoredOverride(bucket: row.string(7) ?? "", until: row.string(8) ?? "")
            let effective = BucketPolicy.effective(task, override: override, at: local)
            try body(position, ReportTask(task: task, bucket: effective.bucket, pinned: effective.isPinned))
        }
    }

    /// The tasks query; `filter` narrows it to some courses.
    static func tasksSQL(_ filter: String, countsOnly: Bool = false) -> String {
        """
        SELECT t.task_id, t.course_id, \(countsOnly ? "'', ''" : "t.title, t.student_id"), t.due, t.priority, t.completed, o.bucket, o.until
        FROM tasks t LEFT JOIN overrides o ON o.task_id = t.task_id
        WHERE t.deleted_batch IS NULL\(filter) ORDER BY t.task_id
        """
    }
}
