/// The read side of the store for per-teacher report sets (`--by-teacher`, `nightly`).
package protocol TeacherReading {
    /// Every teacher a course names (live or deleted, non-empty), by name, with their number of
    /// live courses (0 when every course of theirs was deleted).
    func reportTeachers() throws -> [TeacherEntry]

    /// The ids of the live courses whose teacher is exactly `teacher`, by id (`""`: the courses
    /// without a teacher).
    func liveCourseIDs(teacher: String) throws -> [String]

    /// The courses that name no teacher (an empty `teacher`: the column missing or the cell
    /// empty): how many are live, and how many there are live or deleted.
    func unassignedCourses() throws -> UnassignedCourses

    /// The distinct addresses (`teacher_email`, non-empty; two spellings of one address in
    /// another case are one) of the live courses whose teacher is exactly `teacher`, sorted by
    /// their bytes: whom the morning digest goes to. None on a database without the column.
    func teacherAddresses(teacher: String) throws -> [String]
}

/// The courses without a teacher, which a per-teacher set writes into a folder of their own
/// (`TeacherIndex.unassignedFolder`).
package struct UnassignedCourses: Sendable, Equatable {
    /// Live courses without a teacher.
    package var live: Int
    /// Courses without a teacher, live or deleted: the folder is written while there is one, so
    /// that a bookmark never breaks (as a teacher's folder stays when their courses are gone).
    package var all: Int

    package init(live: Int, all: Int) {
        self.live = live
        self.all = all
    }

    /// None at all: no folder.
    package static let none = UnassignedCourses(live: 0, all: 0)
}
