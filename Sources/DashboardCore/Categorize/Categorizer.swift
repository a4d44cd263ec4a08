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
/// The bucket of a task is its override's while one is in force, else `BucketAssignment`'s.
/// A pass looks at every live task; only tasks whose bucket changes get a write and an entry,
/// so running it twice with the same as-of records nothing.
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
                let staging = try StagingArea(database: store.database)
                try staging.clear()
                result = try Self.pass(
                    store.database,
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
        /// The batch whose data changes (in `temp.plan_tasks`) this pass follows, if any.
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
    /// stored bucket is still the old one). Tasks pinned by an override are left to `pass`.
    /// - Returns: the entries recorded, per cause.
    static func recordStagedBuckets(_ database: Database, context: PassContext) throws -> [AuditCause: Int] {
        var recorded: [AuditCause: Int] = [:]
        for cause in [AuditCause.import, .restore] {
            let changes = cause == .restore ? "p.change = 'restore'" : "p.change IN ('insert', 'update')"
            try database.run(
                """
                INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor, reason,
                                   batch_id, reverts_entry, conflict, override_until, override_before)
                SELECT ?1, ?2, p.task_id, s.course_id,
                       CASE p.change WHEN 'insert' THEN '' WHEN 'restore' THEN ?5 ELSE t.bucket END,
                       s.bucket, ?6, ?3, '', ?4, NULL, 0, '', NULL
                FROM temp.plan_tasks p JOIN temp.stage_tasks s ON s.task_id = p.task_id
                LEFT JOIN tasks t ON t.task_id = p.task_id
                WHERE \(changes)
                  AND NOT EXISTS (SELECT 1 FROM overrides o WHERE o.task_id = p.task_id)
                  AND (p.change <> 'update' OR t.bucket <> s.bucket)
                ORDER BY p.task_id
                """,
                [
                    Timestamp.text(context.recordedAt), Timestamp.text(context.asOf), context.actor, context.batchID,
                    deletedBucketName, cause.rawValue,
                ])
            recorded[cause] = database.changes
        }
        return recorded
    }

    /// One pass inside the caller's transaction. Tasks listed in `temp.plan_tasks` (the batch
    /// just applied) are recorded with the plan's cause; the others with cause `time`.
    static func pass(_ database: Database, context: PassContext) throws -> CategorizeResult {
        try database.execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS bucket_changes (
                task_id TEXT NOT NULL PRIMARY KEY, course_id TEXT NOT NULL, from_bucket TEXT NOT NULL, to_bucket TEXT NOT NULL,
                cause TEXT NOT NULL, reason TEXT NOT NULL, conflict INTEGER NOT NULL, override_before INTEGER,
                clear_override INTEGER NOT NULL, with_batch INTEGER NOT NULL) WITHOUT ROWID;
            DELETE FROM bucket_changes;
            """)
        var result = CategorizeResult()
        var zones = LocalAsOfCache(asOf: context.asOf, defaultTimeZone: context.defaultTimeZone)
        func local(_ name: String) -> LocalAsOf { zones.local(name) }
        var timer = PhaseTimer()
        let record = try database.cached("INSERT INTO bucket_changes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        // Tasks a sync just deleted.
        try database.cached(
            """
            SELECT t.task_id, t.course_id, t.bucket, o.entry_id
            FROM temp.plan_tasks p JOIN tasks t ON t.task_id = p.task_id LEFT JOIN overrides o ON o.task_id = t.task_id
            WHERE p.change = 'delete' ORDER BY p.task_id
            """
        ).forEachRow { row in
            let cause: AuditCause = context.planCause == .import ? .delete : context.planCause
            try record.run([
                row.string(0) ?? "", row.string(1) ?? "", row.string(2) ?? "", deletedBucketName, cause.rawValue,
                context.planReason, false, row.isNull(3) ? nil : row.int(3), false, true,
            ])
        }
        timer.mark("  pass: deletes")
        result.tasks = try database.int("SELECT count(*) FROM tasks WHERE deleted_batch IS NULL")
        // Every live task whose stored bucket may differ from its bucket as of now: a task is
        // skipped only when its stored bucket is certain whatever the time zone (UTC−12 to
        // UTC+14 puts the local as-of date within a day of the UTC one): completed, undated,
        // overdue with a due at least two days before the UTC as-of date, upcoming with a due
        // at least two days after it. Pinned tasks and the plan's are always looked at.
        let utcDay = LocalAsOf(asOf: context.asOf, timeZone: TimeZone(identifier: "UTC") ?? context.defaultTimeZone).date
        let settledBefore = CivilDate(daysSinceEpoch: utcDay.daysSinceEpoch - 1).isoText
        let settledAfter = CivilDate(daysSinceEpoch: utcDay.daysSinceEpoch + 2).isoText
        timer.mark("  pass: count")
        try database.cached(
            """
            SELECT t.task_id, t.course_id, t.due, t.completed, t.bucket, c.timezone, o.bucket, o.until, o.entry_id, p.change
            FROM tasks t JOIN courses c ON c.course_id = t.course_id
            LEFT JOIN overrides o ON o.task_id = t.task_id
            LEFT JOIN temp.plan_tasks p ON p.task_id = t.task_id
            WHERE t.deleted_batch IS NULL
              AND t.task_id IN (
                  SELECT u.task_id FROM tasks u
                  WHERE u.deleted_batch IS NULL
                    AND NOT ((u.completed = 1 AND u.bucket = 'completed')
                             OR (u.completed = 0 AND u.due = '' AND u.bucket = 'undated')
                             OR (u.completed = 0 AND u.due <> '' AND u.bucket = 'overdue' AND u.due < ?1)
                             OR (u.completed = 0 AND u.bucket = 'upcoming' AND u.due >= ?2))
                  UNION SELECT task_id FROM overrides
                  UNION SELECT task_id FROM temp.plan_tasks)
            """ + (context.planBucketsRecorded ? " AND (p.task_id IS NULL OR o.task_id IS NOT NULL)" : "")
        ).forEachRow([settledBefore, settledAfter]) { row in
            let taskID = row.string(0) ?? ""
            let stored = row.string(4) ?? ""
            let zone = local(row.string(5) ?? "")
            let dueText = row.string(2) ?? ""
            let computed = BucketAssignment.bucket(
                due: dueText.isEmpty ? nil : DueDate(storageText: dueText), completed: row.int(3) == 1, at: zone)
            let change = row.string(9)
            let overrideEntry: Int? = row.isNull(8) ? nil : row.int(8)
            var target = computed.rawValue
            var cause: AuditCause = change == nil ? .time : context.planCause
            var reason = change == nil ? "" : context.planReason
            var conflict = false
            var clear = false
            if let overrideEntry, let pinned = row.string(6) {
                let until = row.string(7) ?? ""
                if !until.isEmpty, OverrideExpiry.hasExpired(until, at: zone) {
                    clear = true
                    result.expiredOverrides += 1
                    if change == nil { reason = "override #\(overrideEntry) (pinned to \(pinned)) expired at \(until)" }
                } else if change == "update" || change == "restore" {
                    if context.overrideManual && context.planCause == .import {
                        clear = true
                        result.clearedOverrides += 1
                        reason = "the import cleared override #\(overrideEntry) (pinned to \(pinned)); --override-manual"
                    } else {
                        target = pinned
                        if context.planCause == .import {
                            conflict = true
                            result.conflicts += 1
                            reason =
                                "the import changed this task while override #\(overrideEntry) pins it to \(pinned); the override was kept (import --override-manual lets the import win)"
                        }
                    }
                } else {
                    target = pinned
                }
            }
            var from = stored
            if change == "insert" { from = "" }
            if change == "restore" {
                from = deletedBucketName
                if context.planCause == .import { cause = .restore }
            }
            guard from != target || conflict || clear else { return }
            try record.run([
                taskID, row.string(1) ?? "", from, target, cause.rawValue, reason, conflict, overrideEntry, clear,
                change != nil,
            ])
        }
        timer.mark("  pass: look at tasks")
        try database.run(
            """
            UPDATE tasks SET bucket = c.to_bucket FROM temp.bucket_changes c
            WHERE tasks.task_id = c.task_id AND c.to_bucket <> tasks.bucket AND c.to_bucket <> ?
            """, [deletedBucketName])
        try database.run("DELETE FROM overrides WHERE task_id IN (SELECT task_id FROM temp.bucket_changes WHERE clear_override = 1)")
        try database.run(
            """
            INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor, reason,
                               batch_id, reverts_entry, conflict, override_until, override_before)
            SELECT ?1, ?2, task_id, course_id, from_bucket, to_bucket, cause, ?3, reason,
                   CASE WHEN with_batch = 1 THEN ?4 END, NULL, conflict, '', override_before
            FROM temp.bucket_changes ORDER BY task_id
            """,
            [Timestamp.text(context.recordedAt), Timestamp.text(context.asOf), context.actor, context.batchID])
        timer.mark("  pass: record")
        try database.cached("SELECT cause, count(*), sum(conflict) FROM temp.bucket_changes GROUP BY cause").forEachRow { row in
            if let cause = AuditCause(rawValue: row.string(0) ?? "") {
                result.byCause[cause] = row.int(1)
                result.entries += row.int(1)
            }
        }
        try database.execute("DELETE FROM bucket_changes")
        return result
    }
}

/// When a manual override stops pinning a task.
public enum OverrideExpiry {
    /// True once the as-of instant reaches the end of `until`: the end of that local day for
    /// a date, the instant itself otherwise.
    public static func hasExpired(_ until: String, at local: LocalAsOf) -> Bool {
        guard let due = DueDate(storageText: until) else { return false }
        switch due {
        case .date(let day):
            return day < local.date
        case .local(let day, let h, let m, let s):
            return local.asOf >= LocalTime.instant(date: day, hour: h, minute: m, second: s, in: local.timeZone)
        case .instant(let seconds):
            return local.asOf >= Date(timeIntervalSince1970: TimeInterval(seconds))
        }
    }
}
