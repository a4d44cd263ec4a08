import Foundation

/// What one categorization pass changed.
public struct CategorizeResult: Sendable, Equatable {
    /// Live tasks looked at.
    public var tasks = 0
    /// Audit entries recorded.
    public var entries = 0
    /// Entries per cause.
    public var byCause: [AuditCause: Int] = [:]
    /// Overrides that expired in this pass.
    public var expiredOverrides = 0
    /// Tasks an import changed while an override pins them (the override was kept).
    public var conflicts = 0
    /// Overrides an import cleared (`--override-manual`).
    public var clearedOverrides = 0
}

/// Recomputes buckets in the database and records every change in the audit log.
///
/// `BucketPolicy` decides every bucket (an override in force wins, else the computed bucket),
/// in each course's zone from `CourseZones`. A pass looks at every live task whose stored
/// bucket may be wrong (see `settledSQL`); only tasks whose bucket changes get a write and an
/// entry, so running it twice with the same as-of records nothing.
public final class Categorizer {
    public let store: Store
    private let clock: Clock

    public init(store: Store, clock: Clock = SystemClock()) {
        self.store = store
        self.clock = clock
    }

    /// `dashboard categorize`: one pass in its own write transaction.
    /// - Throws: `StoreError` (`busy` when an import holds the lock).
    public func categorize(asOf: Date, defaultTimeZone: TimeZone, actor: String) throws(StoreError) -> CategorizeResult {
        var result = CategorizeResult()
        do {
            try store.database.inTransaction(.immediate) {
                // An empty plan: no batch changed data, every entry has cause `time`.
                let staging = try StagingArea(database: store.database)
                try staging.clear()
                result = try Self.pass(
                    store.database, plan: staging.importPlan,
                    context: PassContext(asOf: asOf, defaultTimeZone: defaultTimeZone, actor: actor, recordedAt: clock.now()))
                return .commit
            }
        } catch {
            throw Store.classify(error, path: store.path)
        }
        return result
    }

    /// What is being categorized and why.
    struct PassContext {
        var asOf: Date
        var defaultTimeZone: TimeZone
        var actor: String
        var recordedAt: Date
        /// The batch whose data changes (the pass's `ImportPlan`) this pass follows, if any.
        var batchID: Int?
        /// Entries for tasks in the plan get this cause: `import` after an import, `revert`
        /// after a revert.
        var planCause: AuditCause = .import
        var planReason = ""
        /// An import run with `--override-manual`: changed overridden tasks lose their override.
        var overrideManual = false
        /// The plan's tasks without an override already have their bucket and their entry
        /// (`recordStagedBuckets`); the pass leaves them alone.
        var planBucketsRecorded = false
    }

    /// Records the entries of an import's inserted, updated and restored tasks from the
    /// buckets computed while staging, in one statement, before the plan is applied (the
    /// stored bucket is still the old one). A task without an override has its computed bucket
    /// (`BucketPolicy`), so the staged one is its bucket; tasks with an override are left to
    /// `pass`, which asks `BucketPolicy.effective`.
    /// - Returns: the entries recorded, per cause.
    static func recordStagedBuckets(_ database: Database, plan: ImportPlan, context: PassContext) throws -> [AuditCause: Int] {
        var recorded: [AuditCause: Int] = [:]
        for cause in [AuditCause.import, .restore] {
            let changes = cause == .restore ? "p.change = 'restore'" : "p.change IN ('insert', 'update')"
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
    static func pass(_ database: Database, plan: ImportPlan, context: PassContext) throws -> CategorizeResult {
        try database.execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS bucket_changes (
                task_id TEXT NOT NULL PRIMARY KEY, course_id TEXT NOT NULL, from_bucket TEXT NOT NULL, to_bucket TEXT NOT NULL,
                cause TEXT NOT NULL, reason TEXT NOT NULL, conflict INTEGER NOT NULL, override_before INTEGER,
                clear_override INTEGER NOT NULL, with_batch INTEGER NOT NULL) WITHOUT ROWID;
            DELETE FROM bucket_changes;
            """)
        var result = CategorizeResult()
        var zones = CourseZones(asOf: context.asOf, defaultTimeZone: context.defaultTimeZone)
        var timer = PhaseTimer()
        let record = try database.cached(
            """
            INSERT INTO bucket_changes (task_id, course_id, from_bucket, to_bucket, cause, reason, conflict, override_before,
                                        clear_override, with_batch)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        // Tasks a sync just deleted.
        let deleted = try database.cached(
            """
            SELECT t.task_id, t.course_id, t.bucket, o.entry_id AS override_entry
            FROM \(plan.taskChanges) p JOIN tasks t ON t.task_id = p.task_id LEFT JOIN overrides o ON o.task_id = t.task_id
            WHERE p.change = 'delete' ORDER BY p.task_id
            """)
        let d = deleted.columnPositions
        let (dTask, dCourse, dBucket, dOverride) = (
            try d.position("task_id"), try d.position("course_id"), try d.position("bucket"), try d.position("override_entry")
        )
        try deleted.forEachRow { row in
            let cause: AuditCause = context.planCause == .import ? .delete : context.planCause
            try record.run([
                row.string(dTask) ?? "", row.string(dCourse) ?? "", row.string(dBucket) ?? "", deletedBucketName, cause.rawValue,
                context.planReason, false, row.isNull(dOverride) ? nil : row.int(dOverride), false, true,
            ])
        }
        timer.mark("  pass: deletes")
        result.tasks = try database.int("SELECT count(*) FROM tasks WHERE deleted_batch IS NULL")
        // Every live task whose stored bucket may differ from its bucket as of now; pinned
        // tasks and the plan's are always looked at.
        let window = BucketPolicy.settledWindow(asOf: context.asOf)
        timer.mark("  pass: count")
        let looked = try database.cached(
            """
            SELECT t.task_id, t.course_id, t.due, t.completed, t.bucket, c.timezone,
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
        let c = looked.columnPositions
        let (cTask, cCourse, cDue, cCompleted, cBucket) = (
            try c.position("task_id"), try c.position("course_id"), try c.position("due"), try c.position("completed"),
            try c.position("bucket")
        )
        let (cZone, cPinned, cUntil, cOverride, cChange) = (
            try c.position("timezone"), try c.position("pinned_bucket"), try c.position("pinned_until"),
            try c.position("override_entry"), try c.position("change")
        )
        try looked.forEachRow([window.overdueBefore.isoText, window.upcomingFrom.isoText]) { row in
            let overrideEntry: Int? = row.isNull(cOverride) ? nil : row.int(cOverride)
            let pinned = row.string(cPinned) ?? ""
            let until = row.string(cUntil) ?? ""
            let effective = BucketPolicy.effective(
                due: row.string(cDue) ?? "", completed: TaskRecord.storedCompleted(row.value(cCompleted)),
                override: overrideEntry == nil ? nil : StoredOverride(bucket: pinned, until: until),
                at: zones.local(row.string(cZone) ?? ""))
            let change = row.string(cChange)
            var target = effective.bucket.rawValue
            var cause: AuditCause = change == nil ? .time : context.planCause
            var reason = change == nil ? "" : context.planReason
            var conflict = false
            var clear = false
            if let overrideEntry {
                switch effective.pin {
                case .expired:
                    clear = true
                    result.expiredOverrides += 1
                    if change == nil { reason = "override #\(overrideEntry) (pinned to \(pinned)) expired at \(until)" }
                case .inForce where change == "update" || change == "restore":
                    if context.overrideManual && context.planCause == .import {
                        clear = true
                        result.clearedOverrides += 1
                        target = effective.computed.rawValue
                        reason = "the import cleared override #\(overrideEntry) (pinned to \(pinned)); --override-manual"
                    } else if context.planCause == .import {
                        conflict = true
                        result.conflicts += 1
                        reason =
                            "the import changed this task while override #\(overrideEntry) pins it to \(pinned); the override was kept (import --override-manual lets the import win)"
                    }
                case .inForce, .invalid, .none:
                    break
                }
            }
            var from = row.string(cBucket) ?? ""
            if change == "insert" { from = "" }
            if change == "restore" {
                from = deletedBucketName
                if context.planCause == .import { cause = .restore }
            }
            guard from != target || conflict || clear else { return }
            try record.run([
                row.string(cTask) ?? "", row.string(cCourse) ?? "", from, target, cause.rawValue, reason, conflict, overrideEntry, clear,
                change != nil,
            ])
        }
        timer.mark("  pass: look at tasks")
        try LiveRows.setBuckets(from: "temp.bucket_changes", skipping: deletedBucketName, in: database)
        try AuditLog.liftOverrides(selecting: "SELECT task_id FROM temp.bucket_changes WHERE clear_override = 1", in: database)
        try AuditLog.appendAll(
            selecting: """
                SELECT ?1, ?2, task_id, course_id, from_bucket, to_bucket, cause, ?3, reason,
                       CASE WHEN with_batch = 1 THEN ?4 END, NULL, conflict, '', override_before
                FROM temp.bucket_changes ORDER BY task_id
                """,
            [Timestamp.text(context.recordedAt), Timestamp.text(context.asOf), context.actor, context.batchID], in: database)
        timer.mark("  pass: record")
        let byCause = try database.cached("SELECT cause, count(*) AS n FROM temp.bucket_changes GROUP BY cause")
        let (causeColumn, n) = (try byCause.columnPositions.position("cause"), try byCause.columnPositions.position("n"))
        try byCause.forEachRow { row in
            if let cause = AuditCause(rawValue: row.string(causeColumn) ?? "") {
                result.byCause[cause] = row.int(n)
                result.entries += row.int(n)
            }
        }
        try database.execute("DELETE FROM bucket_changes")
        return result
    }

    /// The tasks whose stored bucket the time pass may skip (`?1`, `?2`: the dates of
    /// `BucketPolicy.settledWindow`), written over the alias `u` of `tasks`: a completed task
    /// stored `completed`, an undated open one stored `undated`, an open one stored `overdue`
    /// due before `?1`, an open one stored `upcoming` due on `?2` or later.
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
        ((u.completed = 1 AND u.bucket = 'completed')
         OR (u.completed = 0 AND u.due = '' AND u.bucket = 'undated')
         OR (u.completed = 0 AND u.due <> '' AND u.bucket = 'overdue' AND u.due < ?1)
         OR (u.completed = 0 AND u.bucket = 'upcoming' AND u.due >= ?2))
        """
}
