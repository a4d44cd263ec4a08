import Foundation

/// What a revert did.
public struct RevertResult: Sendable {
    /// The batch recording the data the revert restored (nil when only an override changed).
    public var batchID: Int?
    /// The `revert` entries recorded (one for an entry revert; one per changed task for a batch).
    public var entries: [AuditEntry]
    /// Counts per kind for a batch revert.
    public var counts: [FileKind: ImportCounts]
}

/// `dashboard revert ENTRY` and `dashboard revert --batch ID`.
///
/// Every revert is itself recorded (a `revert` entry pointing at what it reverts, and a batch
/// of kind `revert` holding the values it replaced), so a revert can be reverted, which
/// re-applies the original. Nothing in the audit log is ever edited or deleted.
public final class Reverter {
    public let store: Store
    private let clock: Clock

    public init(store: Store, clock: Clock = SystemClock()) {
        self.store = store
        self.clock = clock
    }

    private var database: Database { store.database }

    // MARK: - One entry

    /// Undoes one audit entry: an override goes back to the computed bucket (or the override
    /// before it), a deleted task is restored, an import's change to the task is undone, a
    /// revert is re-applied.
    /// - Throws: `AuditError`: a `time` entry, an entry already reverted, or one with later
    ///   changes to the same task (unless `force`).
    public func revert(entryID: Int, force: Bool, actor: String, asOf: Date, defaultTimeZone: TimeZone) throws(AuditError) -> RevertResult {
        var result = RevertResult(batchID: nil, entries: [], counts: [:])
        do {
            try database.inTransaction(.immediate) {
                guard let entry = try AuditLog.entry(database, id: entryID) else { throw AuditError.unknownEntry(entryID) }
                if entry.cause == .time { throw AuditError.timeEntry(entryID) }
                if let last = entry.revertedBy.last, let revert = try AuditLog.entry(database, id: last), revert.revertedBy.isEmpty {
                    throw AuditError.alreadyReverted(entry: entryID, by: last)
                }
                var blocking: [(id: Int, cause: AuditCause)] = []
                let later = try database.cached(
                    "SELECT entry_id, cause FROM audit WHERE task_id = ? AND entry_id > ? AND cause <> 'time' ORDER BY entry_id")
                let (laterID, laterCause) = (try later.columnPositions.position("entry_id"), try later.columnPositions.position("cause"))
                try later.forEachRow([entry.taskID, entryID]) { row in
                    blocking.append((row.int(laterID), AuditCause(rawValue: row.string(laterCause) ?? "") ?? .time))
                }
                if !blocking.isEmpty, !force {
                    throw AuditError.blockedEntry(entry: entryID, task: entry.taskID, blocking: blocking)
                }
                let before = try taskState(entry.taskID)
                var reason = "revert of entry \(entryID) (\(entry.cause.rawValue))"
                if !blocking.isEmpty { reason += "; forced past entries \(blocking.map { String($0.id) }.joined(separator: ", "))" }

                // Data: back to the values before the entry's batch changed the task.
                var revertBatch: Int?
                if let batchID = entry.batchID,
                    try ChangeHistory.changed(entry.taskID, in: batchID, database: database)
                {
                    let id = try beginBatch(reason: reason, asOf: asOf, actor: actor, revertsBatch: nil)
                    revertBatch = id
                    try ChangeHistory.saveForRevert(of: batchID, task: entry.taskID, revertBatch: id, in: database)
                    try LiveRows.writeBackTasks(fromHistoryOf: batchID, into: id, only: entry.taskID, in: database)
                    let change = try ChangeHistory.change(of: entry.taskID, in: id, database: database)
                    var counts = ImportCounts()
                    switch change {
                    case "delete": counts.deleted = 1
                    case "restore": counts.inserted = 1
                    default: counts.updated = 1
                    }
                    try BatchLog.record(database, batchID: id, counts: [.tasks: counts], files: [], problems: [])
                    try BatchLog.finish(database, batchID: id, status: .committed, reason: reason, finishedAt: clock.now())
                }
                // Override: back to the one in force before the entry.
                // Override: back to the one in force before the entry, when the entry changed it
                // (an override, a revert, or an import that cleared one). Other entries leave
                // today's override alone, even when forced past it.
                let changedOverride =
                    entry.cause == .override || entry.cause == .revert
                    || (entry.cause == .import && !entry.conflict && entry.overrideBefore != nil)
                if changedOverride {
                    try restoreOverride(task: entry.taskID, to: entry.overrideBefore, current: before.override)
                }

                let after = try taskState(entry.taskID)
                let bucket = try effectiveBucket(entry.taskID, asOf: asOf, defaultTimeZone: defaultTimeZone)
                let newID = try AuditLog.append(
                    AuditLog.NewEntry(
                        taskID: entry.taskID, courseID: after.courseID, from: before.bucketName, to: bucket ?? deletedBucketName,
                        cause: .revert, reason: reason, batchID: revertBatch, revertsEntry: entryID, overrideBefore: before.override),
                    in: database, recordedAt: clock.now(), asOf: asOf, actor: actor)
                if let bucket {
                    try LiveRows.setBucket(bucket, of: entry.taskID, in: database)
                }
                result.batchID = revertBatch
                if let newEntry = try AuditLog.entry(database, id: newID) { result.entries = [newEntry] }
                return .commit
            }
        } catch let error as AuditError {
            throw error
        } catch {
            throw .store(Store.classify(error, path: store.path))
        }
        return result
    }

    /// A task's bucket by `BucketPolicy` (its override in force wins), or nil when the task is
    /// deleted.
    private func effectiveBucket(_ taskID: String, asOf: Date, defaultTimeZone: TimeZone) throws -> String? {
        let statement = try database.cached(
            """
            SELECT t.due, t.completed, t.deleted_batch IS NOT NULL AS deleted, c.timezone, o.bucket AS pinned_bucket,
                   o.until AS pinned_until
            FROM tasks t JOIN courses c ON c.course_id = t.course_id LEFT JOIN overrides o ON o.task_id = t.task_id
            WHERE t.task_id = ?
            """)
        let c = statement.columnPositions
        let (due, completed, deleted, zone, pinned, until) = (
            try c.position("due"), try c.position("completed"), try c.position("deleted"), try c.position("timezone"),
            try c.position("pinned_bucket"), try c.position("pinned_until")
        )
        var zones = CourseZones(asOf: asOf, defaultTimeZone: defaultTimeZone)
        var bucket: String?
        try statement.forEachRow([taskID]) { row in
            guard row.int(deleted) == 0 else { return }
            let override = row.string(pinned).map { StoredOverride(bucket: $0, until: row.string(until) ?? "") }
            bucket =
                BucketPolicy.effective(
                    due: row.string(due) ?? "", completed: TaskRecord.storedCompleted(row.value(completed)), override: override,
                    at: zones.local(row.string(zone) ?? "")
                ).bucket.rawValue
        }
        return bucket
    }

    private struct TaskState {
        var courseID: String
        var bucketName: String
        var override: Int?
    }

    private func taskState(_ taskID: String) throws -> TaskState {
        let statement = try database.cached(
            """
            SELECT t.course_id, CASE WHEN t.deleted_batch IS NOT NULL THEN ? ELSE t.bucket END AS bucket_name,
                   o.entry_id AS override_entry
            FROM tasks t LEFT JOIN overrides o ON o.task_id = t.task_id WHERE t.task_id = ?
            """)
        let c = statement.columnPositions
        let (course, bucket, override) = (try c.position("course_id"), try c.position("bucket_name"), try c.position("override_entry"))
        var state: TaskState?
        try statement.forEachRow([deletedBucketName, taskID]) { row in
            state = TaskState(
                courseID: row.string(course) ?? "", bucketName: row.string(bucket) ?? "",
                override: row.isNull(override) ? nil : row.int(override))
        }
        guard let state else { throw AuditError.unknownTask(taskID) }
        return state
    }

    /// Puts back the override that was in force before an entry (or none).
    private func restoreOverride(task: String, to target: Int?, current: Int?) throws {
        guard target != current else { return }
        guard let target, let source = try AuditLog.entry(database, id: target) else {
            try AuditLog.liftOverride(task: task, in: database)
            return
        }
        try AuditLog.pinOverride(
            task: task, entryID: target, bucket: source.toBucket, until: source.overrideUntil, reason: source.reason, actor: source.actor,
            in: database)
    }

    private func beginBatch(reason: String, asOf: Date, actor: String, revertsBatch: Int?) throws -> Int {
        var options = ImportOptions()
        options.asOf = asOf
        options.actor = actor
        let id = try BatchLog.begin(database, command: "revert", startedAt: clock.now(), options: options)
        try BatchLog.setReverts(database, batchID: id, revertsBatch: revertsBatch, reason: reason)
        return id
    }

    // MARK: - Restoring rows from a batch's history

    // MARK: - A whole batch

    /// Undoes a whole batch: rows it inserted are tombstoned, rows it updated get their
    /// previous values back, rows it deleted are restored. The revert is a batch of its own
    /// (`reverts_batch`), logged entry by entry, and can itself be reverted.
    /// - Throws: `AuditError` for a batch that wrote nothing, one already reverted, or one
    ///   whose rows later batches changed again (unless `force`).
    public func revert(batchID: Int, force: Bool, actor: String, asOf: Date, defaultTimeZone: TimeZone) throws(AuditError) -> RevertResult {
        var result = RevertResult(batchID: nil, entries: [], counts: [:])
        do {
            try database.inTransaction(.immediate) {
                guard let batch = try BatchLog.batch(database, id: batchID) else { throw AuditError.unknownBatch(batchID) }
                if batch.status == .reverted {
                    let by = try BatchLog.lastRevert(database, of: batchID)
                    throw AuditError.batchAlreadyReverted(batch: batchID, by: by)
                }
                guard batch.status == .committed else { throw AuditError.batchNotRevertible(batchID, batch.status) }
                var blocking: [Int] = []
                try database.cached(
                    """
                    SELECT DISTINCT later.batch_id FROM (
                        SELECT h2.batch_id FROM task_history h1 JOIN task_history h2 ON h2.task_id = h1.task_id AND h2.batch_id > h1.batch_id
                        WHERE h1.batch_id = ?1
                        UNION
                        SELECT h2.batch_id FROM course_history h1 JOIN course_history h2 ON h2.course_id = h1.course_id AND h2.batch_id > h1.batch_id
                        WHERE h1.batch_id = ?1
                    ) later JOIN batches b ON b.batch_id = later.batch_id
                    WHERE b.status = 'committed'
                      AND NOT EXISTS (SELECT 1 FROM batches r WHERE r.batch_id = b.reverts_batch AND r.status = 'reverted')
                    ORDER BY later.batch_id
                    """
                ).forEachRow([batchID]) { blocking.append($0.int(0)) }
                if !blocking.isEmpty, !force { throw AuditError.blockedBatch(batch: batchID, blocking: blocking) }
                var reason = "revert of batch \(batchID)"
                if !blocking.isEmpty { reason += "; forced past batches \(blocking.map(String.init).joined(separator: ", "))" }
                let id = try beginBatch(reason: reason, asOf: asOf, actor: actor, revertsBatch: batchID)
                try ChangeHistory.saveForRevert(of: batchID, revertBatch: id, in: database)
                try LiveRows.writeBackCourses(fromHistoryOf: batchID, into: id, in: database)
                try LiveRows.writeBackTasks(fromHistoryOf: batchID, into: id, only: nil, in: database)
                // Overrides the batch cleared (import --override-manual) come back with the data.
                var cleared: [(String, Int)] = []
                let clearedBy = try database.cached(
                    """
                    SELECT a.task_id, a.override_before FROM audit a
                    WHERE a.batch_id = ? AND a.cause = 'import' AND a.conflict = 0 AND a.override_before IS NOT NULL
                      AND NOT EXISTS (SELECT 1 FROM overrides o WHERE o.task_id = a.task_id)
                    ORDER BY a.entry_id
                    """)
                let c = clearedBy.columnPositions
                let (clearedTask, before) = (try c.position("task_id"), try c.position("override_before"))
                try clearedBy.forEachRow([batchID]) { cleared.append((($0.string(clearedTask) ?? ""), $0.int(before))) }
                for (task, entryID) in cleared { try restoreOverride(task: task, to: entryID, current: nil) }

                // Categorize what changed, with cause `revert`.
                let staging = try StagingArea(database: database)
                try staging.planTaskChanges(from: ChangeHistory.taskChangesSource, [id])
                _ = try Categorizer.pass(
                    database, plan: staging.importPlan,
                    context: Categorizer.PassContext(
                        asOf: asOf, defaultTimeZone: defaultTimeZone, actor: actor, recordedAt: clock.now(), batchID: id,
                        planCause: .revert, planReason: reason))
                try staging.clear()

                let counts = try ChangeHistory.counts(of: id, in: database)
                try BatchLog.record(database, batchID: id, counts: counts, files: [], problems: [])
                try BatchLog.finish(database, batchID: id, status: .committed, reason: reason, finishedAt: clock.now())
                try BatchLog.setStatus(database, batchID: batchID, .reverted, reason: "reverted by batch \(id)")
                // Down a chain of reverts, each undoes the one before: the batch this one reverted is
                // in effect again, the one that batch reverted is undone again, and so on.
                var next = try BatchLog.revertedBatch(database, by: batchID)
                var inEffect = true
                while let batch = next {
                    try BatchLog.setStatus(
                        database, batchID: batch, inEffect ? .committed : .reverted,
                        reason: inEffect ? "re-applied by batch \(id)" : "reverted again by batch \(id)")
                    inEffect.toggle()
                    next = try BatchLog.revertedBatch(database, by: batch)
                }
                result.batchID = id
                result.counts = counts
                var filter = AuditFilter()
                filter.batchID = id
                result.entries = try AuditLog.entries(database, filter: filter)
                return .commit
            }
        } catch let error as AuditError {
            throw error
        } catch {
            throw .store(Store.classify(error, path: store.path))
        }
        return result
    }
}
