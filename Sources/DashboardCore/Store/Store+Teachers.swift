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

    package func teacherAddresses(teacher: String) throws -> [String] {
        // A database not yet upgraded (PostgreSQL before version 10, its upgrade waiting for a
        // lock) has no address: no digest, and the night's reports as ever.
        guard try database.hasColumn("courses", "teacher_email") else { return [] }
        var addresses: [String] = []
        let statement = try database.cached(
            "SELECT DISTINCT teacher_email FROM courses WHERE deleted_batch IS NULL AND teacher = ? AND teacher_email <> ''")
        let email = try statement.columnPositions.position("teacher_email")
        try statement.forEachRow([teacher]) { row in addresses.append(row.string(email) ?? "") }
        // One address once, whatever its case (two courses spelling it differently).
        var seen: Set<String> = []
        return addresses.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.filter { seen.insert($0.lowercased()).inserted }
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
        let pins = try database.int("SELECT CASE WHEN has_table_privilege('overrides', 'INSERT') THEN 1 ELSE 0 END") == 1
        return RestrictedRole(name: role, liveCourses: ids.count, mayReclassify: pins)
    }

    package func revertRefusal(_ target: RevertTarget) throws -> RoleRefusal? {
        guard try visibleCourseIDs() != nil, let role = visibleCourses?.role else { return nil }
        func refusal(_ table: String, _ kind: RoleRefusal.Kind) -> RoleRefusal {
            RoleRefusal(role: role, table: table, kind: kind, serverMessage: "")
        }
        func may(_ privilege: String) throws -> Bool {
            try database.int("SELECT CASE WHEN has_table_privilege(\(privilege)) THEN 1 ELSE 0 END") == 1
        }
        let own: String
        let value: Int
        switch target {
        case .batch:
            return try may("'task_history', 'INSERT'") ? nil : refusal("task_history", .privilege)
        case .entry(let id): (own, value) = ("entry_id = ?", id)
        case .group(let id): (own, value) = ("group_id = ?", id)
        }
        // Not there for the role: the revert says it is unknown.
        guard try database.int("SELECT count(*) FROM audit WHERE \(own)", [value]) > 0 else { return nil }
        if try !may("'audit', 'INSERT'") { return refusal("audit", .privilege) }
        // The server's own rule, the one its write policy applies (`PGAccess.ownPin`).
        guard try database.int("SELECT CASE WHEN to_regproc('dashboard_own_pin') IS NULL THEN 0 ELSE 1 END") == 1 else { return nil }
        let mine = try database.int(
            "SELECT min(CASE WHEN dashboard_own_pin(entry_id, current_user) THEN 1 ELSE 0 END) FROM audit WHERE \(own)", [value])
        return mine == 1 ? nil : refusal("audit", .rowSecurity)
    }
}
