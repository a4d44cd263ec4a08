import Foundation

/// Applying the plan, and keeping the staged rows of a held batch.
extension StagingArea {
    // MARK: - Applying

    /// Writes the plan as batch `batchID`: first the previous values of every row it touches,
    /// then the new values, then the tombstones.
    func apply(batchID: Int) throws {
        try applyCourses(batchID: batchID)
        try applyTasks(batchID: batchID)
    }

    /// The course part of `apply`: the history of every course the plan touches, then its
    /// new values and tombstones.
    func applyCourses(batchID: Int) throws {
        try ChangeHistory.saveCourses(of: importPlan, batchID: batchID, in: database)
        try LiveRows.applyCourses(importPlan, batchID: batchID, in: database)
    }

    /// The task part of `apply`, likewise. A task an override pins keeps its stored bucket
    /// here, and the categorizer's pass gives it its bucket by `BucketPolicy.effective`. A new
    /// task is a birth: no history row (it records its creating batch), and the batch counts
    /// its births per staged bucket.
    func applyTasks(batchID: Int) throws {
        var timer = PhaseTimer()
        try ChangeHistory.saveTasks(of: importPlan, batchID: batchID, in: database)
        timer.mark("  task history")
        try LiveRows.applyTasks(importPlan, batchID: batchID, in: database)
        timer.mark("  task rows")
        try RowPrints.refresh(importPlan, slotsAfter: largestSlot, merging: skippedUnchanged == nil, in: database)
        timer.mark("  prints")
        var births: [String: Int] = [:]
        let counted = try database.cached(
            """
            SELECT s.bucket, count(*) AS tasks FROM plan_tasks p JOIN stage_tasks s ON s.task_id = p.task_id
            WHERE p.change = 'insert' GROUP BY s.bucket
            """)
        let (bucket, tasks) = (try counted.columnPositions.position("bucket"), try counted.columnPositions.position("tasks"))
        try counted.forEachRow { row in births[row.string(bucket) ?? ""] = row.int(tasks) }
        try BatchLog.recordBirths(database, batchID: batchID, births: births)
    }

    /// Gives the staged tasks the plan writes their computed buckets, as the reader gives them
    /// while staging (held rows keep none): in each course's zone as the courses stand once
    /// `applyCourses` has run, so call it after that and before `applyTasks`.
    func computeStagedBuckets(asOf: Date, defaultTimeZone: TimeZone) throws {
        try database.execute(database.sql.stagedBucketsTable)
        var zones = CourseZones(asOf: asOf, defaultTimeZone: defaultTimeZone)
        var localByCourse: [String: LocalAsOf] = [:]
        let read = try database.prepare(
            """
            SELECT s.task_id, s.course_id, s.due, s.status, c.timezone
            FROM plan_tasks p JOIN stage_tasks s ON s.task_id = p.task_id
            JOIN courses c ON c.course_id = s.course_id AND c.deleted_batch IS NULL
            WHERE p.change <> 'delete'
            """)
        let c = try read.columnPositions
        let (task, course, due, status, timezone) = (
            try c.position("task_id"), try c.position("course_id"), try c.position("due"), try c.position("status"),
            try c.position("timezone")
        )
        let write = try database.cached("INSERT INTO stage_buckets (task_id, bucket) VALUES (?1, ?2)")
        try read.forEachRow { row in
            let courseID = row.string(course) ?? ""
            let local = localByCourse[courseID] ?? zones.local(row.string(timezone) ?? "")
            localByCourse[courseID] = local
            let state = SubmissionState(rawValue: row.string(status) ?? "") ?? .open
            let bucket = BucketPolicy.computed(due: row.string(due) ?? "", state: state, at: local)
            try write.run([row.string(task) ?? "", bucket.rawValue])
        }
        try database.execute(
            """
            UPDATE stage_tasks SET bucket = b.bucket FROM stage_buckets b WHERE b.task_id = stage_tasks.task_id;
            DELETE FROM stage_buckets;
            """)
    }

    // MARK: - Holding

    /// Keeps the staged rows of a held batch in the database, for `batches approve`.
    func hold(batchID: Int) throws {
        try database.run(
            """
            INSERT INTO held_courses (batch_id, course_id, code, title, term, teacher, timezone, teacher_email, language, file, line)
            SELECT ?, course_id, code, title, term, teacher, timezone, teacher_email, language, file, line FROM stage_courses
            """,
            [batchID])
        try database.run(
            """
            INSERT INTO held_tasks (batch_id, task_id, course_id, title, student_id, due, priority, completed, assignment_id, status,
                                    submitted_at, file, line)
            SELECT ?, s.task_id, s.course_id, s.title, s.student_id, s.due, s.priority, s.completed, s.assignment_id, s.status,
                   s.submitted_at, f.path, s.line
            FROM stage_tasks s JOIN stage_files f ON f.file_no = s.file_no
            """,
            [batchID])
        try database.run("INSERT INTO held_rejected (batch_id, kind, id) SELECT ?, kind, id FROM rejected_ids", [batchID])
    }

    /// Stages the rows kept for a held batch again.
    func restage(heldBatchID batchID: Int) throws {
        try clear()
        try database.run(
            """
            INSERT INTO stage_courses (course_id, code, title, term, teacher, timezone, teacher_email, language, file, line)
            SELECT course_id, code, title, term, teacher, timezone, teacher_email, language, file, line FROM held_courses WHERE batch_id = ?
            """,
            [batchID])
        try database.run(
            "INSERT INTO stage_files (path) SELECT DISTINCT file FROM held_tasks WHERE batch_id = ? ORDER BY file ON CONFLICT DO NOTHING",
            [batchID])
        try database.run(
            """
            INSERT INTO stage_tasks (\(StagingArea.storedTaskColumns), file_no, line)
            SELECT h.task_id, h.course_id, h.title, h.student_id, h.due, h.priority, h.completed, h.assignment_id, h.status,
                   h.submitted_at, f.file_no, h.line
            FROM held_tasks h JOIN stage_files f ON f.path = h.file WHERE h.batch_id = ?
            """,
            [batchID])
        try database.run("INSERT INTO rejected_ids (kind, id) SELECT kind, id FROM held_rejected WHERE batch_id = ?", [batchID])
    }

    /// Drops the rows kept for a held batch.
    static func dropHeld(batchID: Int, in database: Database) throws {
        try database.run("DELETE FROM held_courses WHERE batch_id = ?", [batchID])
        try database.run("DELETE FROM held_tasks WHERE batch_id = ?", [batchID])
        try database.run("DELETE FROM held_rejected WHERE batch_id = ?", [batchID])
    }
}
