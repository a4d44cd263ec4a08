/// Decodes a `courses` row (`course_id, code, title, term, teacher, timezone`) by column name,
/// with the names resolved once per statement.
struct CourseRowDecoder {
    private let courseID, code, title, term, teacher, timezone: Int

    init(_ c: ColumnPositions) throws {
        (courseID, code, title) = (try c.position("course_id"), try c.position("code"), try c.position("title"))
        (term, teacher, timezone) = (try c.position("term"), try c.position("teacher"), try c.position("timezone"))
    }

    func course(_ row: Row) -> CourseRecord {
        CourseRecord(
            courseID: row.string(courseID) ?? "", code: row.string(code) ?? "", title: row.string(title) ?? "",
            term: row.string(term) ?? "", teacher: row.string(teacher) ?? "", timezone: row.string(timezone) ?? "")
    }
}

/// Decodes a `tasks` row (`task_id, course_id, title, student_id, due, priority, completed`) by
/// column name, with the names resolved once per statement (the report reads every task through
/// one decoder: a row costs array reads, no lookups).
struct TaskRowDecoder {
    private let taskID, courseID, title, studentID, due, priority, completed: Int

    init(_ c: ColumnPositions) throws {
        (taskID, courseID, title) = (try c.position("task_id"), try c.position("course_id"), try c.position("title"))
        (studentID, due) = (try c.position("student_id"), try c.position("due"))
        (priority, completed) = (try c.position("priority"), try c.position("completed"))
    }

    func task(_ row: Row) -> TaskRecord {
        TaskRecord(
            storedTaskID: row.string(taskID) ?? "", courseID: row.string(courseID) ?? "", title: row.string(title) ?? "",
            studentID: row.string(studentID) ?? "", due: row.value(due), priority: row.value(priority),
            completed: row.value(completed))
    }
}
