import Foundation

/// The SQLite store's reads for per-teacher report sets: the distinct teachers of the
/// `courses` table, the courses without one, and the ids of one teacher's live courses
/// (`LiveRows` owns the table; these are reads).
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

    package func unassignedCourses() throws -> UnassignedCourses {
        let statement = try database.prepare(
            """
            SELECT count(*) AS courses_all, coalesce(sum(CASE WHEN deleted_batch IS NULL THEN 1 ELSE 0 END), 0) AS courses_live
            FROM courses WHERE teacher = ''
            """)
        let c = try statement.columnPositions
        let (all, live) = (try c.position("courses_all"), try c.position("courses_live"))
        var result = UnassignedCourses.none
        try statement.forEachRow([]) { row in result = UnassignedCourses(live: row.int(live), all: row.int(all)) }
        return result
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
