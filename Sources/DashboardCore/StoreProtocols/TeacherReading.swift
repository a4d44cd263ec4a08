/// The read side of the store for per-teacher report sets (`--by-teacher`, `nightly`).
package protocol TeacherReading {
    /// Every teacher a course names (live or deleted, non-empty), by name, with their number of
    /// live courses (0 when every course of theirs was deleted).
    func reportTeachers() throws -> [TeacherEntry]

    /// The ids of the live courses whose teacher is exactly `teacher`, by id.
    func liveCourseIDs(teacher: String) throws -> [String]
}
