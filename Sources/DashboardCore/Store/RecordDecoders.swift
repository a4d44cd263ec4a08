/// Decodes a `courses` row (`course_id, code, title, term, teacher, timezone, language`) by
/// column name, with the names resolved once per statement. (A statement on a database from
/// before the language, SQLite's schema 12 and PostgreSQL's version 11, selects `'' AS
/// language`: `Store.courseLanguageColumn`.)
struct CourseRowDecoder {
    private let courseID, code, title, term, teacher, timezone, language: Int

    init(_ c: ColumnPositions) throws {
        (courseID, code, title) = (try c.position("course_id"), try c.position("code"), try c.position("title"))
        (term, teacher, timezone) = (try c.position("term"), try c.position("teacher"), try c.position("timezone"))
        language = try c.position("language")
    }

    func course(_ row: Row) -> CourseRecord {
        CourseRecord(
            courseID: row.string(courseID) ?? "", code: row.string(code) ?? "", title: row.string(title) ?? "",
            term: row.string(term) ?? "", teacher: row.string(teacher) ?? "", timezone: row.string(timezone) ?? "",
            language: row.string(language) ?? "")
    }
}

/// Decodes a `tasks` row (`task_id, course_id, title, student_id, due, priority, completed,
/// assignment_id`, and `status, submitted_at` where the statement selects them: else the state
/// is the one `completed` means) by column name, with the names resolved once per statement
/// (the report reads every task through one decoder: a row costs array reads, no lookups).
struct TaskRowDecoder {
    private let taskID, courseID, title, studentID, due, priority, completed, assignmentID: Int
    private let status, submittedAt: Int?

    init(_ c: ColumnPositions) throws {
        (taskID, courseID, title) = (try c.position("task_id"), try c.position("course_id"), try c.position("title"))
        (studentID, due) = (try c.position("student_id"), try c.position("due"))
        (priority, completed, assignmentID) = (try c.position("priority"), try c.position("completed"), try c.position("assignment_id"))
        (status, submittedAt) = (c.optionalPosition("status"), c.optionalPosition("submitted_at"))
    }

    func task(_ row: Row) -> TaskRecord {
        var task = TaskRecord(
            storedTaskID: row.string(taskID) ?? "", courseID: row.string(courseID) ?? "", title: row.string(title) ?? "",
            studentID: row.string(studentID) ?? "", due: row.value(due), priority: row.value(priority),
            completed: row.value(completed))
        task.assignmentID = row.string(assignmentID) ?? ""
        if let status, let submittedAt { task.decodeSubmission(status: row.value(status), submittedAt: row.value(submittedAt)) }
        return task
    }
}

/// Decodes a stored problem (`code, frictionless_type, file, <line>, row, column_name, value,
/// message, hint`) by column name, resolved once per statement: a batch's problems
/// (`batch_problems`, line column `line`) and the problem spool (`problem_line`) share it.
struct ProblemRowDecoder {
    private let code, type, file, line, row, column, value, message, hint: Int

    init(_ c: ColumnPositions, lineColumn: String = "line") throws {
        (code, type, file) = (try c.position("code"), try c.position("frictionless_type"), try c.position("file"))
        (line, row, column) = (try c.position(lineColumn), try c.position("row"), try c.position("column_name"))
        (value, message, hint) = (try c.position("value"), try c.position("message"), try c.position("hint"))
    }

    /// The problem, or nil when its code is not one this program knows (only a hand edit).
    func problem(_ row: Row) -> ImportProblem? {
        guard let code = ProblemCode(rawValue: row.string(code) ?? "") else { return nil }
        return ImportProblem(
            code: code, file: row.string(file) ?? "", line: row.int(line), row: row.int(self.row),
            column: row.string(column) ?? "", value: row.string(value) ?? "", message: row.string(message) ?? "",
            hint: row.string(hint) ?? "", frictionlessType: row.string(type))
    }
}
