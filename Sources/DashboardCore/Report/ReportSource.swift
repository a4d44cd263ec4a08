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
/// task in its bucket as of `asOf` (overrides in force win), read in one consistent snapshot.
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
        // Each course's position and as-of in its zone, found with one lookup per task.
        var index: [String: (position: Int, local: LocalAsOf)] = [:]
        let marks = Array(repeating: "?", count: onlyCourses.count).joined(separator: ", ")
        let courseFilter = onlyCourses.isEmpty ? "" : " AND (course_id IN (\(marks)) OR code IN (\(marks)))"
        let courseValues: [SQLBindable] = onlyCourses.isEmpty ? [] : onlyCourses + onlyCourses
        try store.database.inTransaction(.deferred) {
            try store.database.prepare(
                "SELECT course_id, code, title, term, teacher, timezone FROM courses WHERE deleted_batch IS NULL\(courseFilter) ORDER BY course_id"
            ).forEachRow(courseValues) { row in
                let course = CourseRecord(
                    courseID: row.string(0) ?? "", code: row.string(1) ?? "", title: row.string(2) ?? "", term: row.string(3) ?? "",
                    teacher: row.string(4) ?? "", timezone: row.string(5) ?? "")
                let zone = course.timezone.isEmpty ? defaultTimeZone : TimeZone(identifier: course.timezone) ?? defaultTimeZone
                index[course.courseID] = (courses.count, LocalAsOf(asOf: asOf, timeZone: zone))
                courses.append(ReportCourse(course: course, tasks: []))
            }
            let ids = courses.map(\.course.courseID)
            let taskFilter =
                onlyCourses.isEmpty ? "" : " AND t.course_id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))"
            try store.database.prepare(Self.tasksSQL(taskFilter, countsOnly: countsOnly)).forEachRow(onlyCourses.isEmpty ? [] : ids) {
                row in
                let task = TaskRecord(
                    storedTaskID: row.string(0) ?? "", courseID: row.string(1) ?? "", title: row.string(2) ?? "",
                    studentID: row.string(3) ?? "", due: row.value(4), priority: row.value(5), completed: row.value(6))
                guard let (position, local) = index[task.courseID] else { return }
                var bucket = BucketAssignment.bucket(for: task, at: local)
                var pinned = false
                if let pin = row.string(7).flatMap(Bucket.init(rawValue:)) {
                    let until = row.string(8) ?? ""
                    if until.isEmpty || !OverrideExpiry.hasExpired(until, at: local) {
                        bucket = pin
                        pinned = true
                    }
                }
                courses[position].tasks.append(ReportTask(task: task, bucket: bucket, pinned: pinned))
            }
            return .commit
        }
        return courses
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
