/// The owner of `courses` and `tasks` (the live rows and their tombstones): the only code that
/// writes them. Readers (the report source, the categorizer's pass, the verifier) read them.
///
/// Policy kept here: a row is never deleted, only tombstoned (`deleted_batch`); every write
/// of data stamps `changed_batch`; a task an override pins keeps its stored bucket when an
/// import changes it (the categorizer's pass decides it by `BucketPolicy.effective`).
enum LiveRows {
    /// The columns of a task as an import writes it, in this order (`directInsertSQL`).
    static let taskColumns = StagingArea.storedTaskColumns + ", deleted_batch, changed_batch, bucket, created_batch"

    // MARK: - An import's plan

    /// Writes the course part of `plan` as batch `batchID`: new values, then tombstones.
    static func applyCourses(_ plan: ImportPlan, batchID: Int, in database: Database) throws {
        try database.run(
            """
            INSERT INTO courses (course_id, code, title, term, teacher, timezone, teacher_email, language, deleted_batch, changed_batch)
            SELECT s.course_id, s.code, s.title, s.term, s.teacher, s.timezone, s.teacher_email, s.language, NULL, ?1
            FROM \(plan.courseChanges) p JOIN \(plan.stagedCourses) s ON s.course_id = p.course_id
            WHERE p.change <> 'delete'
            ON CONFLICT (course_id) DO UPDATE SET
                code = excluded.code, title = excluded.title, term = excluded.term, teacher = excluded.teacher,
                timezone = excluded.timezone, teacher_email = excluded.teacher_email, language = excluded.language, deleted_batch = NULL,
                changed_batch = ?1
            """, [batchID])
        try database.run(
            """
            UPDATE courses SET deleted_batch = ?1, changed_batch = ?1
            WHERE course_id IN (SELECT course_id FROM \(plan.courseChanges) WHERE change = 'delete')
            """, [batchID])
    }

    /// Writes the task part of `plan` as batch `batchID`: new values, then tombstones. A row's
    /// staged bucket is its computed one (`BucketPolicy.computed`); a task an override pins keeps
    /// its stored bucket here. A new task gets `created_batch` (a restored or updated one keeps
    /// the batch that created it).
    ///
    /// Each task it writes gets its title's fold (`TitleFolds`) in the same statement; a writer
    /// whose triggers fire (an approval), which clear it, computes it again after.
    static func applyTasks(_ plan: ImportPlan, batchID: Int, in database: Database) throws {
        try CourseBuckets.counting(database, tasks: "SELECT task_id FROM \(plan.taskChanges)") {
            try applyTaskRows(plan, batchID: batchID, in: database)
        }
        if database.triggersEnabled {
            try TitleFolds.refill(tasks: "SELECT task_id FROM \(plan.taskChanges) WHERE change <> 'delete'", in: database)
        }
    }

    private static func applyTaskRows(_ plan: ImportPlan, batchID: Int, in database: Database) throws {
        let folds = try TitleFolds.kept(database)
        try database.run(
            """
            INSERT INTO tasks (\(taskColumns)\(folds ? ", title_fold" : ""))
            SELECT s.task_id, s.course_id, s.title, s.student_id, s.due, s.priority, s.completed, s.assignment_id, s.status,
                   s.submitted_at, NULL, ?1, s.bucket, ?1
                   \(folds ? ", " + TitleFolds.sqlExpression("s.title") : "")
            FROM \(plan.taskChanges) p JOIN \(plan.stagedTasks) s ON s.task_id = p.task_id
            WHERE p.change <> 'delete'
            ON CONFLICT (task_id) DO UPDATE SET
                course_id = excluded.course_id, title = excluded.title, student_id = excluded.student_id,
                due = excluded.due, priority = excluded.priority, completed = excluded.completed,
                assignment_id = excluded.assignment_id, status = excluded.status, submitted_at = excluded.submitted_at,
                deleted_batch = NULL, changed_batch = ?1,
                bucket = CASE WHEN excluded.bucket = '' OR EXISTS (SELECT 1 FROM overrides o WHERE o.task_id = tasks.task_id)
                              THEN tasks.bucket ELSE excluded.bucket END\(folds ? ", title_fold = excluded.title_fold" : "")
            """, [batchID])
        try database.run(
            """
            UPDATE tasks SET deleted_batch = ?1, changed_batch = ?1
            WHERE task_id IN (SELECT task_id FROM \(plan.taskChanges) WHERE change = 'delete')
            """, [batchID])
    }

    // MARK: - The first import (DirectTaskWriter)

    /// True when `tasks` has a row, live or deleted.
    static func hasTasks(_ database: Database) throws -> Bool {
        try database.int("SELECT EXISTS (SELECT 1 FROM tasks)") == 1
    }

    /// An INSERT of `rows` new tasks, each bound as `taskColumns` less `deleted_batch` (NULL);
    /// a task id already there is skipped (the caller compares the rows written).
    /// With `prints`, each row also binds its print and slot (`RowPrints`), after `created_batch`;
    /// with `folds`, then its title's fold (`TitleFolds`).
    static func directInsertSQL(rows: Int, prints: Bool = false, folds: Bool = false) -> String {
        let stored = Array(repeating: "?", count: StagingArea.storedTaskColumnCount).joined(separator: ", ")
        let row = "(" + stored + ", NULL, ?, ?, ?" + (prints ? ", ?, ?" : "") + (folds ? ", ?" : "") + ")"
        return """
            INSERT INTO tasks (\(taskColumns)\(prints ? ", print, slot" : "")\(folds ? ", title_fold" : ""))
            VALUES \(Array(repeating: row, count: rows).joined(separator: ", "))
            ON CONFLICT DO NOTHING
            """
    }

    /// The end of a suspension (`StoreSQL.suspendTaskTriggers`, PostgreSQL's COPY): the triggers of `tasks` fire again, and the references they did
    /// not check are checked once: every course the run's tasks name (`courses`, each task's
    /// course counted in the writer's tally) exists; their batches are the run's own.
    /// - Throws: `InternalError` when one does not (the import checked them all: a bug).
    static func resumeTaskTriggers(_ database: Database, courses: Set<String>) throws {
        try database.execute("ALTER TABLE tasks ENABLE TRIGGER USER")
        let found = try database.int(
            "SELECT count(*) FROM courses WHERE course_id = ANY (CAST(? AS text[]))", [PGDialect.arrayLiteral(courses.sorted())])
        if found != courses.count {
            throw InternalError.unexpected("tasks were written for \(courses.count - found) courses that do not exist")
        }
    }

    // MARK: - Buckets

    /// Stores `bucket` as the bucket of `taskID` (no write when it is already).
    static func setBucket(_ bucket: String, of taskID: String, in database: Database) throws {
        try CourseBuckets.counting(database, tasks: "SELECT ?1 AS task_id", values: [taskID]) {
            try database.run("UPDATE tasks SET bucket = ? WHERE task_id = ? AND bucket <> ?", [bucket, taskID, bucket])
        }
    }

    /// Stores the buckets of `changes`, a relation of `(task_id, to_bucket)`, skipping rows to
    /// `skipping` (a deleted task keeps its last bucket) and rows already right.
    ///
    /// Written as `task_id IN (…)` so that SQLite walks the changes and finds each task by its
    /// key: as `UPDATE … FROM changes`, without statistics on the temporary table it scanned every
    /// task (1.6–2.4 s over a million tasks for an empty pass; `LiveRowsQueryPlanTests`).
    static func setBuckets(from changes: String, skipping: String, in database: Database) throws {
        try CourseBuckets.counting(database, tasks: "SELECT task_id FROM \(changes)") {
            try database.run(setBucketsSQL(from: changes), [skipping])
        }
    }

    /// The statement of `setBuckets` (its query plan is tested).
    static func setBucketsSQL(from changes: String) -> String {
        """
        UPDATE tasks SET bucket = (SELECT c.to_bucket FROM \(changes) c WHERE c.task_id = tasks.task_id)
        WHERE task_id IN (SELECT task_id FROM \(changes) WHERE to_bucket <> ?1)
          AND bucket <> (SELECT c.to_bucket FROM \(changes) c WHERE c.task_id = tasks.task_id)
        """
    }

    // MARK: - Reverts

    /// Writes back the task values batch `batchID`'s history holds, and tombstones (as batch
    /// `revertBatch`) the tasks it inserted; only `taskID` when given. Reverts run with the
    /// connection's triggers on: they keep `course_buckets` and the marks.
    static func writeBackTasks(fromHistoryOf batchID: Int, into revertBatch: Int, only taskID: String?, in database: Database) throws {
        let filter = taskID == nil ? "" : " AND h.task_id = ?3"
        var values: [SQLBindable] = [batchID, revertBatch]
        if let taskID { values.append(taskID) }
        try database.run(
            """
            UPDATE tasks SET course_id = h.course_id, title = h.title, student_id = h.student_id, due = h.due,
                priority = h.priority, completed = h.completed, assignment_id = coalesce(h.assignment_id, ''),
                status = coalesce(h.status, CASE h.completed WHEN 1 THEN 'completed' ELSE 'open' END),
                submitted_at = coalesce(h.submitted_at, ''), deleted_batch = h.deleted_batch, changed_batch = h.changed_batch
            FROM task_history h WHERE h.batch_id = ?1 AND h.existed = 1 AND tasks.task_id = h.task_id\(filter)
            """, taskID.map { [batchID, revertBatch, $0] } ?? [batchID])
        // The triggers cleared the folds of the titles written back: computed again.
        try TitleFolds.refill(
            tasks:
                "SELECT h.task_id FROM task_history h WHERE h.batch_id = ?1 AND h.existed = 1\(filter.replacingOccurrences(of: "?3", with: "?2"))",
            values: taskID.map { [batchID, $0] } ?? [batchID], in: database)
        try database.run(
            """
            UPDATE tasks SET deleted_batch = ?2, changed_batch = ?2
            WHERE task_id IN (SELECT h.task_id FROM task_history h WHERE h.batch_id = ?1 AND h.existed = 0\(filter))
            """, values)
    }

    /// `writeBackTasks` for the courses of batch `batchID`.
    static func writeBackCourses(fromHistoryOf batchID: Int, into revertBatch: Int, in database: Database) throws {
        try database.run(
            """
            UPDATE courses SET code = h.code, title = h.title, term = h.term, teacher = h.teacher, timezone = h.timezone,
                teacher_email = coalesce(h.teacher_email, ''), language = coalesce(h.language, ''),
                deleted_batch = h.deleted_batch, changed_batch = h.changed_batch
            FROM course_history h WHERE h.batch_id = ?1 AND h.existed = 1 AND courses.course_id = h.course_id
            """, [batchID])
        try database.run(
            """
            UPDATE courses SET deleted_batch = ?2, changed_batch = ?2
            WHERE course_id IN (SELECT h.course_id FROM course_history h WHERE h.batch_id = ?1 AND h.existed = 0)
            """, [batchID, revertBatch])
    }
}
