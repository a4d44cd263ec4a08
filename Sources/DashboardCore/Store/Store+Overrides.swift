import Foundation

extension Store {
    /// `AuditWriting.pinOverride`: reads the task (`LiveRows.overrideTarget`), lets
    /// `ManualOverride.expiry` decide, then appends the entry, pins the override and stores the
    /// bucket, in one write transaction.
    package func pinOverride(_ request: OverrideRequest) throws(AuditError) -> AuditEntry {
        try checkCanPin(request.bucket)
        var entryID = 0
        try auditTransaction {
            let target = try LiveRows.overrideTarget(request.taskID, in: database)
            let untilText = try ManualOverride.expiry(of: request, target: target)
            let previous = target?.previous
            entryID = try AuditLog.append(
                AuditLog.NewEntry(
                    taskID: request.taskID, courseID: target?.courseID ?? "", from: target?.bucket ?? "",
                    to: request.bucket.rawValue, cause: .override, reason: request.reason, overrideUntil: untilText,
                    overrideBefore: previous),
                in: database, recordedAt: request.clock.now(), asOf: request.asOf, actor: request.actor)
            try AuditLog.pinOverride(
                task: request.taskID, entryID: entryID, bucket: request.bucket.rawValue, until: untilText, reason: request.reason,
                actor: request.actor, in: database)
            try LiveRows.setBucket(request.bucket.rawValue, of: request.taskID, in: database)
            return .commit
        }
        guard let entry = try? AuditLog.entry(database, id: entryID) else { throw .unknownEntry(entryID) }
        return entry
    }

    /// Refuses a pin the database's schema cannot hold yet: an excused pin on a PostgreSQL
    /// database before version 13 (SQLite's writers migrate every file they open; a PostgreSQL
    /// database waits for a writer that owns its tables, `PGStore.upgrade`). Without this the
    /// server's CHECK would refuse the row as if it were a bug.
    func checkCanPin(_ bucket: Bucket) throws(AuditError) {
        guard bucket == .excused, postgres != nil else { return }
        let found = schemaVersion
        guard found >= PGSchema.excusedVersion else {
            throw .store(.upgradeNeeded(path: postgres?.display ?? path, found: found, needed: PGSchema.excusedVersion))
        }
    }

    /// Audit entries matching `filter`, oldest first.
    package func auditEntries(_ filter: AuditFilter = AuditFilter()) throws -> [AuditEntry] {
        try AuditLog.entries(database, filter: filter)
    }

    /// Calls `body` with each audit entry matching `filter`, oldest first, one at a time.
    package func forEachAuditEntry(_ filter: AuditFilter = AuditFilter(), _ body: (AuditEntry) throws -> Void) throws {
        try AuditLog.forEachEntry(database, filter: filter, body)
    }

    /// `forEachAuditEntry` with at most `limit` entries.
    package func forEachAuditEntry(_ filter: AuditFilter, limit: Int, _ body: (AuditEntry) throws -> Void) throws {
        try AuditLog.forEachEntry(database, filter: filter, limit: limit, body)
    }

    /// The births of the tasks among `taskIDs` that record their creating batch, in the order
    /// given (each found by its key).
    package func births(of taskIDs: [String]) throws -> [TaskBirth] {
        guard try hasColumn("tasks", "created_batch") else { return [] }
        let statement = try database.cached(
            """
            SELECT t.task_id, t.course_id, t.title, t.bucket, b.batch_id, coalesce(b.finished_at, b.started_at) AS at, b.as_of, b.actor
            FROM tasks t JOIN batches b ON b.batch_id = t.created_batch WHERE t.task_id = ?
            """)
        let c = try statement.columnPositions
        let (task, course, title, bucket) = (
            try c.position("task_id"), try c.position("course_id"), try c.position("title"), try c.position("bucket")
        )
        let (batch, at, asOf, actor) = (try c.position("batch_id"), try c.position("at"), try c.position("as_of"), try c.position("actor"))
        var births: [TaskBirth] = []
        var seen: Set<String> = []
        for id in taskIDs where seen.insert(id).inserted {
            try statement.forEachRow([id]) { row in
                births.append(
                    TaskBirth(
                        taskID: row.string(task) ?? "", courseID: row.string(course) ?? "", title: row.string(title) ?? "",
                        batchID: row.int(batch), recordedAt: row.string(at) ?? "", asOf: row.string(asOf) ?? "",
                        actor: row.string(actor) ?? "", storedBucket: row.string(bucket) ?? ""))
            }
        }
        return births
    }

    /// One audit entry, or nil.
    package func auditEntry(id: Int) throws -> AuditEntry? {
        try AuditLog.entry(database, id: id)
    }
}

extension Store {
    /// One write transaction of an audited change (an override, a revert): the policy's own
    /// refusals (`AuditError`) pass as they are, anything the store throws becomes
    /// `AuditError.store` with its `StoreError`.
    func auditTransaction(_ body: () throws -> Database.TransactionCompletion) throws(AuditError) {
        do {
            // Overrides, reverts and bulk changes are the dashboard's writes (`DataMarks`).
            try database.inTransaction(.immediate) {
                try DataMarks.beginTrustedWrite(database)
                let completion = try body()
                if completion == .commit { try DataMarks.endTrustedWrite(database) }
                return completion
            }
        } catch let error as AuditError {
            throw error
        } catch {
            throw .store(Store.classify(error, path: path))
        }
    }
}
