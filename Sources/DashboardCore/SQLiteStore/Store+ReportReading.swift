import Foundation

/// The SQLite store's reads for reports: live courses, live tasks with their stored override,
/// and the TEMP table of page keys (`SQLitePageKeys`). Rows are decoded into values here and
/// nowhere above (`ReportSource` applies the bucket policy).
extension Store: ReportReading {
    public func liveCourses(only: [String]) throws -> [CourseRecord] {
        var courses: [CourseRecord] = []
        let marks = Array(repeating: "?", count: only.count).joined(separator: ", ")
        let courseFilter = only.isEmpty ? "" : " AND (course_id IN (\(marks)) OR code IN (\(marks)))"
        let courseValues: [SQLBindable] = only.isEmpty ? [] : only + only
        try database.prepare(
            "SELECT course_id, code, title, term, teacher, timezone FROM courses WHERE deleted_batch IS NULL\(courseFilter) ORDER BY course_id"
        ).forEachRow(courseValues) { row in
            courses.append(
                CourseRecord(
                    courseID: row.string(0) ?? "", code: row.string(1) ?? "", title: row.string(2) ?? "", term: row.string(3) ?? "",
                    teacher: row.string(4) ?? "", timezone: row.string(5) ?? ""))
        }
        return courses
    }

    public func forEachLiveTask(_ selection: TaskSelection, countsOnly: Bool, _ body: (LiveTask) throws -> Void) throws {
        let filter: String
        let values: [SQLBindable]
        switch selection {
        case .all:
            (filter, values) = ("", [])
        case .courses(let ids):
            if ids.isEmpty { return }
            (filter, values) = (" AND t.course_id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))", ids)
        case .keptPage(let offset, let count):
            (filter, values) = (SQLitePageKeys.pageFilter, [count, offset])
        }
        try database.prepare(Self.tasksSQL(filter, countsOnly: countsOnly)).forEachRow(values) { row in
            let task = TaskRecord(
                storedTaskID: row.string(0) ?? "", courseID: row.string(1) ?? "", title: row.string(2) ?? "",
                studentID: row.string(3) ?? "", due: row.value(4), priority: row.value(5), completed: row.value(6))
            let override = row.isNull(7) ? nil : StoredOverride(bucket: row.string(7) ?? "", until: row.string(8) ?? "")
            try body(LiveTask(task: task, override: override))
        }
    }

    public func pageKeys() throws -> any PageKeys {
        try SQLitePageKeys(database: database)
    }

    /// The tasks query; `filter` narrows it (to some courses, or to a page of `SQLitePageKeys`).
    static func tasksSQL(_ filter: String, countsOnly: Bool = false) -> String {
        """
        SELECT t.task_id, t.course_id, \(countsOnly ? "'', ''" : "t.title, t.student_id"), t.due, t.priority, t.completed, o.bucket, o.until
        FROM tasks t LEFT JOIN overrides o ON o.task_id = t.task_id
        WHERE t.deleted_batch IS NULL\(filter) ORDER BY t.task_id
        """
    }
}
