import Foundation

/// The SQLite store's reads for per-teacher report sets: the distinct teachers of the
/// `courses` table and the ids of one teacher's live courses (`LiveRows` owns the table; these
/// are reads).
extension Store: TeacherReading {
    package func reportTeachers() throws -> [TeacherEntry] {
        var teachers: [TeacherEntry] = []
        let statement = try database.prepare(
            """
            SELECT teacher, sum(CASE WHEN deleted_batch IS NULL THEN 1 ELSE 0 END) AS live FROM courses
            WHERE teacher <> '' GROUP BY teacher ORDER BY teacher
            """)
        let c = try statement.columnPositions
        let (teacher, live) = (try c.position("teacher"), try c.position("live"))
        try statement.forEachRow([]) { row in
            teachers.append(TeacherEntry(name: row.string(teacher) ?? "", courses: row.int(live)))
        }
        return teachers
    }

    package func liveCourseIDs(teacher: String) throws -> [String] {
        var ids: [String] = []
        let statement = try database.cached(
            "SELECT course_id FROM courses WHERE deleted_batch IS NULL AND teacher = ? ORDER BY course_id")
        let id = try statement.columnPositions.position("course_id")
        try statement.forEachRow([teacher]) { row in ids.append(row.string(id) ?? "") }
        return ids
    }
}

/// Who the connection reads as (`visibleCourseIDs` asks the server once per store).
extension Store: RoleReading {
    package func restrictedRole() throws -> RestrictedRole? {
        guard let ids = try visibleCourseIDs(), let role = visibleCourses?.role else { return nil }
        return RestrictedRole(name: role, liveCourses: ids.count)
    }
}
