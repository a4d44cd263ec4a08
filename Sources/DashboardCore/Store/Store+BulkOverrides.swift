import Foundation

/// `AuditWriting`'s bulk changes on SQLite: a bulk `reclassify --yes` and `revert --group`, each
/// one write transaction that reads what the pure decisions need (`BulkReclassify.plan` reads
/// through the store's own `ReportReading`, inside the transaction) and writes through the
/// tables' owners (`AuditLog`, `LiveRows`).
extension Store {
    package func pinOverrides(_ request: BulkOverrideRequest) throws(AuditError) -> BulkPlan {
        let selection = request.selection
        try checkCanPin(selection.bucket)
        var result = BulkPlan(tasks: [], bucket: selection.bucket, until: "", token: "", groupID: nil)
        try auditTransaction {
            // Selected under the write lock: exactly the tasks the apply pins.
            var plan = try BulkReclassify.plan(self, selection)
            try BulkReclassify.check(plan, confirm: request.confirm) { marks in
                try self.tasksChanged(since: marks, limit: BulkReclassify.changedLimit)
            }
            guard !plan.pinned.isEmpty else {
                result = plan
                return .commit
            }
            let group = try AuditLog.nextGroupID(in: database)
            let recordedAt = request.clock.now()
            for index in plan.tasks.indices where !plan.tasks[index].skipped {
                let taskID = plan.tasks[index].taskID
                guard let target = try LiveRows.overrideTarget(taskID, in: database), !target.deleted else {
                    throw AuditError.unknownTask(taskID)
                }
                let entryID = try AuditLog.append(
                    AuditLog.NewEntry(
                        taskID: taskID, courseID: target.courseID, from: target.bucket, to: plan.bucket.rawValue, cause: .override,
                        reason: request.reason, overrideUntil: plan.until, overrideBefore: target.previous, groupID: group),
                    in: database, recordedAt: recordedAt, asOf: selection.asOf, actor: request.actor)
                try AuditLog.pinOverride(
                    task: taskID, entryID: entryID, bucket: plan.bucket.rawValue, until: plan.until, reason: request.reason,
                    actor: request.actor, in: database)
                try LiveRows.setBucket(plan.bucket.rawValue, of: taskID, in: database)
                plan.tasks[index].entryID = entryID
            }
            plan.groupID = group
            result = plan
            return .commit
        }
        return result
    }

    package func revertGroup(_ request: RevertRequest) throws(AuditError) -> RevertResult {
        var result = RevertResult(batchID: nil, entries: [], counts: [:])
        let groupID = request.id
        try auditTransaction {
            var filter = AuditFilter()
            filter.groupID = groupID
            let entries = try AuditLog.entries(database, filter: filter)
            guard !entries.isEmpty else { throw AuditError.unknownGroup(groupID) }
            var inputs: [(entry: AuditEntry, latestRevertInForce: Int?, blocking: [(id: Int, cause: AuditCause)])] = []
            for entry in entries {
                var latestRevertInForce: Int?
                if let last = entry.revertedBy.last, let revert = try AuditLog.entry(database, id: last), revert.revertedBy.isEmpty {
                    latestRevertInForce = last
                }
                let blocking =
                    latestRevertInForce != nil ? [] : try AuditLog.laterEntries(of: entry.taskID, after: entry.id, in: database)
                inputs.append((entry, latestRevertInForce, blocking))
            }
            let decided = try RevertPolicy.checkGroup(groupID, entries: inputs, force: request.force)
            let newGroup = try AuditLog.nextGroupID(in: database)
            let recordedAt = request.clock.now()
            for (entry, blocking) in decided.undo {
                guard let before = try LiveRows.revertState(entry.taskID, in: database) else {
                    throw AuditError.unknownTask(entry.taskID)
                }
                _ = try recordRevert(
                    of: entry, before: before, reason: RevertPolicy.groupEntryReason(groupID, entry, blocking: blocking),
                    revertBatch: nil, groupID: newGroup, request: request, recordedAt: recordedAt)
            }
            var reverts = AuditFilter()
            reverts.groupID = newGroup
            result = RevertResult(
                batchID: nil, entries: try AuditLog.entries(database, filter: reverts), counts: [:], groupID: newGroup)
            result.alreadyUndone = decided.alreadyUndone
            return .commit
        }
        return result
    }
}

extension AuditLog {
    /// A new group id: the largest so far plus one (1 for the first). Call it inside the write
    /// transaction that appends the group's entries, so no other writer takes the same id. On
    /// PostgreSQL with teachers' roles (`dashboard access`), through the owner's function: a
    /// role under row-level security sees only its courses' entries, not every group.
    static func nextGroupID(in database: Database) throws -> Int { try database.sql.nextGroupID(database) }
}

extension Store: ChangeMarksReading {
    package func changeMarks() throws -> ChangeMarks {
        ChangeMarks(lastEntry: try AuditLog.lastEntryID(in: database), lastBatch: try BatchLog.lastBatchID(in: database))
    }

    package func tasksChanged(since marks: ChangeMarks, limit: Int) throws -> [String] {
        try ChangeHistory.tasksChanged(
            afterEntry: marks.lastEntry, afterBatch: marks.lastBatch, limit: limit, births: try hasColumn("tasks", "created_batch"),
            in: database)
    }
}

extension AuditLog {
    /// The last entry's id, 0 for an empty log.
    static func lastEntryID(in database: Database) throws -> Int {
        try database.int("SELECT coalesce(max(entry_id), 0) FROM audit")
    }
}

extension BatchLog {
    /// The last batch's id, 0 when there is none.
    static func lastBatchID(in database: Database) throws -> Int {
        try database.int("SELECT coalesce(max(batch_id), 0) FROM batches")
    }
}

extension ChangeHistory {
    /// The tasks changed after an entry or a batch: those with a later audit entry (any
    /// cause), a later history row or created by a later batch (a birth has neither), by id,
    /// at most `limit`. The births are found by a scan of the tasks (no index on
    /// `created_batch`: it would cost every import more than this check saves).
    /// `births`: the file has `created_batch` (schema 7 on).
    static func tasksChanged(afterEntry entry: Int, afterBatch batch: Int, limit: Int, births: Bool, in database: Database) throws
        -> [String]
    {
        let births = births ? "UNION SELECT task_id FROM tasks WHERE created_batch > ?2" : ""
        return try database.rows(
            """
            SELECT task_id FROM audit WHERE entry_id > ?1
            UNION SELECT task_id FROM task_history WHERE batch_id > ?2
            \(births)
            ORDER BY 1 LIMIT ?3
            """, [entry, batch, limit]
        ).compactMap { $0.first?.text }
    }
}
