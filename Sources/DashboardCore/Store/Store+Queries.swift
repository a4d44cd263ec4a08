import Foundation

/// A summary of the database for `dashboard status`.
package struct StoreStatus: Sendable {
    package var path: String
    package var schemaVersion: Int
    package var liveCourses: Int
    package var liveTasks: Int
    package var deletedCourses: Int
    package var deletedTasks: Int
    /// The last batch of any status.
    package var lastBatch: BatchRecord?
    /// The last batch that committed data.
    package var lastCommitted: BatchRecord?
    /// Batches waiting for `batches approve` or `discard`.
    package var held: [BatchRecord]
    /// The last import (or approval of a held one) that committed data: a revert is not an
    /// import, so it does not count (the "no successful import" alert of docs/operations.md).
    package var lastImport: BatchRecord?
    /// The bytes the database takes (`Store.databaseBytes`); nil when it has no file.
    package var databaseBytes: Int?
    /// Live courses whose teacher is empty (issue 27): the reports put them in
    /// `teachers/unassigned/`.
    package var coursesWithoutTeacher = 0
}

extension Store {
    /// Every batch, newest first (`limit` < 0: all).
    package func batches(limit: Int = -1) throws -> [BatchRecord] {
        try BatchLog.batches(database, limit: limit)
    }

    /// Calls `body` with each batch, newest first (`limit` < 0: all), one at a time.
    package func forEachBatch(limit: Int = -1, _ body: (BatchRecord) throws -> Void) throws {
        try BatchLog.forEachBatch(database, limit: limit, body)
    }

    /// One batch, or nil.
    package func batch(id: Int) throws -> BatchRecord? {
        try BatchLog.batch(database, id: id)
    }

    /// Every rejected row and warning recorded for a batch, in file order.
    package func problems(batchID: Int) throws -> [ImportProblem] {
        try BatchLog.problems(database, batchID: batchID)
    }

    /// Calls `body` with each problem recorded for a batch (of `severity`, when given), in
    /// file order, one row at a time (bounded memory whatever their number).
    package func forEachProblem(batchID: Int, severity: ProblemSeverity? = nil, _ body: (ImportProblem) throws -> Void) throws {
        try BatchLog.forEachProblem(database, batchID: batchID, severity: severity, body)
    }

    /// The summary `dashboard status` prints.
    ///
    /// One read (`read`): every figure from one snapshot, and the files checked at its end, so
    /// that a database replaced or cut short while it counts is never reported as a success.
    package func status() throws -> StoreStatus {
        try read { try statusFigures() }
    }

    private func statusFigures() throws -> StoreStatus {
        // A teacher's role counts its courses' tasks through the course index (`visibleCourseIDs`).
        let (visible, courses) = try visibleCoursesFilter(parameter: 1)
        return StoreStatus(
            path: path, schemaVersion: schemaVersion,
            liveCourses: try database.int("SELECT count(*) FROM courses WHERE deleted_batch IS NULL"),
            liveTasks: try database.int("SELECT count(*) FROM tasks t WHERE t.deleted_batch IS NULL\(visible)", courses),
            deletedCourses: try database.int("SELECT count(*) FROM courses WHERE deleted_batch IS NOT NULL"),
            deletedTasks: try database.int("SELECT count(*) FROM tasks t WHERE t.deleted_batch IS NOT NULL\(visible)", courses),
            lastBatch: try BatchLog.batches(database, where: "status <> 'dry_run'", limit: 1).first,
            lastCommitted: try BatchLog.batches(database, where: "status IN ('committed', 'reverted')", limit: 1).first,
            held: try BatchLog.batches(database, where: "status = 'held'"),
            lastImport: try BatchLog.batches(
                database, where: "status IN ('committed', 'reverted') AND command IN ('import', 'approve')", limit: 1
            ).first,
            databaseBytes: try databaseBytes(),
            coursesWithoutTeacher: try database.int("SELECT count(*) FROM courses WHERE deleted_batch IS NULL AND teacher = ''"))
    }

    /// Live courses, ordered by id.
    package func courses(includeDeleted: Bool = false) throws -> [CourseRecord] {
        var result: [CourseRecord] = []
        let condition = includeDeleted ? "true" : "deleted_batch IS NULL"
        let statement = try database.cached(
            """
            SELECT course_id, code, title, term, teacher, timezone, \(try courseLanguageColumn())
            FROM courses WHERE \(condition) ORDER BY course_id
            """)
        let decoder = try CourseRowDecoder(try statement.columnPositions)
        try statement.forEachRow { row in result.append(decoder.course(row)) }
        return result
    }

    /// Live tasks, ordered by id.
    package func tasks(includeDeleted: Bool = false) throws -> [TaskRecord] {
        var result: [TaskRecord] = []
        let condition = includeDeleted ? "true" : "deleted_batch IS NULL"
        let statement = try database.cached(
            """
            SELECT task_id, course_id, title, student_id, due, priority, completed, assignment_id\(try taskSubmissionColumns())
            FROM tasks WHERE \(condition) ORDER BY task_id
            """)
        let decoder = try TaskRowDecoder(try statement.columnPositions)
        try statement.forEachRow { row in result.append(decoder.task(row)) }
        return result
    }
}

extension Importer {
    /// What approving a held batch would do now, without writing anything: the counts of the
    /// plan `approve` applies (`StagingArea.planHeld`).
    package func preview(heldBatchID batchID: Int) throws -> [FileKind: ImportCounts] {
        try store.readHeldPlan(batchID: batchID) { $0.summary.counts }
    }
}
