import Foundation

/// A categorize pass on SQLite: reads the tasks whose stored bucket may be wrong, asks
/// `Categorizer` what each one becomes, and writes the answers through `BucketChanges`
/// (which owns the pass's temporary table), `LiveRows` and `AuditLog`. It runs inside the
/// caller's write transaction; the import plan (`ImportPlan`) is passed to it explicitly.
enum CategorizePass {
    /// Records the entries of an import's inserted, updated and restored tasks from the
    /// buckets computed while staging, in one statement, before the plan is applied (the
    /// stored bucket is still the old one). A task without an override has its computed bucket
    /// (`BucketPolicy`), so the staged one is its bucket; tasks with an override are left to
    /// `run`, which asks `Categorizer.decide`.
    /// - Returns: the entries recorded, per cause.
    static func recordStagedBuckets(
        _ database: Database, plan: ImportPlan, context: Categorizer.PassContext
    ) throws -> [AuditCause: Int] {
        var recorded: [AuditCause: Int] = [:]
        for cause in [AuditCause.import, .restore] {
            // A task the plan inserts is a birth, not a move: no entry (the batch counts it).
            let changes = cause == .restore ? "p.change = 'restore'" : "p.change = 'update'"
            recorded[cause] = try AuditLog.appendAll(
                selecting: """
                    SELECT ?1, ?2, p.task_id, s.course_id,
                           CASE p.change WHEN 'insert' THEN '' WHEN 'restore' THEN ?5 ELSE t.bucket END,
                           s.bucket, ?6, ?3, '', ?4, NULL, 0, '', NULL
                    FROM \(plan.taskChanges) p JOIN \(plan.stagedTasks) s ON s.task_id = p.task_id
                    LEFT JOIN tasks t ON t.task_id = p.task_id
                    WHERE \(changes)
                      AND NOT EXISTS (SELECT 1 FROM overrides o WHERE o.task_id = p.task_id)
                      AND (p.change <> 'update' OR t.bucket <> s.bucket)
                    ORDER BY p.task_id
                    """,
                [
                    Timestamp.text(context.recordedAt), Timestamp.text(context.asOf), context.actor, context.batchID,
                    deletedBucketName, cause.rawValue,
                ], in: database)
        }
        return recorded
    }

    /// One pass inside the caller's transaction. Tasks listed in `plan` (the batch just
    /// applied) are recorded with the plan's cause; the others with cause `time`.
    static func run(_ database: Database, plan: ImportPlan, context: Categorizer.PassContext) throws -> CategorizeResult {
        let changes = try BucketChanges(database: database)
        var result = CategorizeResult()
        var zones = CourseZones(asOf: context.asOf, defaultTimeZone: context.defaultTimeZone)
        var timer = PhaseTimer()
        try forEachDeleted(database, plan: plan) { task, course, bucket, overrideEntry in
            try changes.record(
                Categorizer.deleted(taskID: task, courseID: course, bucket: bucket, overrideEntry: overrideEntry, context: context))
        }
        timer.mark("  pass: deletes")
        result.tasks = try database.int("SELECT count(*) FROM tasks WHERE deleted_batch IS NULL")
        timer.mark("  pass: count")
        try forEachCandidate(database, plan: plan, context: context) { candidate in
            if let change = Categorizer.decide(candidate, context: context, zones: &zones, result: &result) {
                try changes.record(change)
            }
        }
        timer.mark("  pass: look at tasks")
        try changes.write(recordedAt: context.recordedAt, asOf: context.asOf, actor: context.actor, batchID: context.batchID)
        timer.mark("  pass: record")
        for (cause, n) in try changes.countsByCause() {
            result.byCause[cause] = n
            result.entries += n
        }
        try changes.clear()
        return result
    }

    /// The tasks the plan deletes, by task id: id, course, stored bucket, override entry.
    private static func forEachDeleted(
        _ database: Database, plan: ImportPlan, _ body: (String, String, String, Int?) throws -> Void
    ) throws {
        let deleted = try database.cached(
            """
            SELECT t.task_id, t.course_id, t.bucket, o.entry_id AS override_entry
            FROM \(plan.taskChanges) p JOIN tasks t ON t.task_id = p.task_id LEFT JOIN overrides o ON o.task_id = t.task_id
            WHERE p.change = 'delete' ORDER BY p.task_id
            """)
        let d = try deleted.columnPositions
        let (dTask, dCourse, dBucket, dOverride) = (
            try d.position("task_id"), try d.position("course_id"), try d.position("bucket"), try d.position("override_entry")
        )
        try deleted.forEachRow { row in
            try body(
                row.string(dTask) ?? "", row.string(dCourse) ?? "", row.string(dBucket) ?? "",
                row.isNull(dOverride) ? nil : row.int(dOverride))
        }
    }

    /// Every live task whose stored bucket may differ from its bucket as of the pass (see
    /// `settledSQL`); pinned tasks and the plan's are always looked at (the plan's without an
    /// override not when their entries were recorded from the staged buckets).
    private static func forEachCandidate(
        _ database: Database, plan: ImportPlan, context: Categorizer.PassContext, _ body: (PassCandidate) throws -> Void
    ) throws {
        let window = BucketPolicy.settledWindow(asOf: context.asOf)
        let looked = try database.cached(
            """
            SELECT t.task_id, t.course_id, t.due, t.completed, t.status, t.bucket, c.timezone,
                   o.bucket AS pinned_bucket, o.until AS pinned_until, o.entry_id AS override_entry, p.change
            FROM tasks t JOIN courses c ON c.course_id = t.course_id
            LEFT JOIN overrides o ON o.task_id = t.task_id
            LEFT JOIN \(plan.taskChanges) p ON p.task_id = t.task_id
            WHERE t.deleted_batch IS NULL
              AND t.task_id IN (
                  SELECT u.task_id FROM tasks u WHERE u.deleted_batch IS NULL AND NOT \(settledSQL)
                  UNION SELECT task_id FROM overrides
                  UNION SELECT task_id FROM \(plan.taskChanges))
            """ + (context.planBucketsRecorded ? " AND (p.task_id IS NULL OR o.task_id IS NOT NULL)" : ""))
        let c = try looked.columnPositions
        let (cTask, cCourse, cDue, cCompleted, cStatus, cBucket) = (
            try c.position("task_id"), try c.position("course_id"), try c.position("due"), try c.position("completed"),
            try c.position("status"), try c.position("bucket")
        )
        let (cZone, cPinned, cUntil, cOverride, cChange) = (
            try c.position("timezone"), try c.position("pinned_bucket"), try c.position("pinned_until"),
            try c.position("override_entry"), try c.position("change")
        )
        try looked.forEachRow([window.overdueBefore.isoText, window.upcomingFrom.isoText]) { row in
            let overrideEntry: Int? = row.isNull(cOverride) ? nil : row.int(cOverride)
            try body(
                PassCandidate(
                    taskID: row.string(cTask) ?? "", courseID: row.string(cCourse) ?? "", due: row.string(cDue) ?? "",
                    state: TaskRecord.storedState(status: row.value(cStatus), completed: row.value(cCompleted)),
                    bucket: row.string(cBucket) ?? "",
                    timeZone: row.string(cZone) ?? "", overrideEntry: overrideEntry,
                    override: overrideEntry == nil
                        ? nil : StoredOverride(bucket: row.string(cPinned) ?? "", until: row.string(cUntil) ?? ""),
                    change: row.string(cChange)))
        }
    }

    /// The tasks whose stored bucket the time pass may skip (`?1`, `?2`: the dates of
    /// `BucketPolicy.settledWindow`), written over the alias `u` of `tasks`: a task that is not
    /// open stored in its state's place (completed `completed`, submitted `to_grade`, excused
    /// `excused`; SPEC §11), an undated open one stored `undated`, an open one stored `overdue`
    /// due before `?1`, an open one stored `upcoming` due on `?2` or later. A state that does
    /// not agree with `completed` (a hand edit) is never skipped: the pass decides it.
    ///
    /// It is `BucketPolicy.settledBucket` in SQL, for speed (on the bench data the pass then
    /// reads 7,700 of 1,000,000 tasks): `BucketPolicySettledTests` runs both on the same rows
    /// and checks that the SQL skips a task exactly when its stored bucket is its settled
    /// bucket, for every value the program stores. Pinned tasks are never skipped (the caller
    /// adds them back). A due a hand edit made unreadable, sorted as text before `?1` (or from
    /// `?2` on) under a stored `overdue` (or `upcoming`), keeps that stored bucket, where the
    /// policy reads it as undated: reports, which recompute, show it undated with the words
    /// "invalid due", and `verify` lists it (checking the date in SQL would double the
    /// pass's time).
    static let settledSQL = """
        ((u.completed = 1 AND u.status = 'completed' AND u.bucket = 'completed')
         OR (u.completed = 0 AND u.status = 'submitted' AND u.bucket = 'to_grade')
         OR (u.completed = 0 AND u.status = 'excused' AND u.bucket = 'excused')
         OR (u.completed = 0 AND u.status = 'open' AND u.due = '' AND u.bucket = 'undated')
         OR (u.completed = 0 AND u.status = 'open' AND u.due <> '' AND u.bucket = 'overdue' AND u.due < ?1)
         OR (u.completed = 0 AND u.status = 'open' AND u.bucket = 'upcoming' AND u.due >= ?2))
        """
}
