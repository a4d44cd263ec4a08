import Foundation

/// `AuditWriting`'s reverts on SQLite: each one write transaction that reads what
/// `RevertPolicy` decides by and writes through the tables' owners (`ChangeHistory`,
/// `LiveRows`, `BatchLog`, `AuditLog`, and `CategorizePass` for a batch's buckets).
extension Store: AuditWriting {
    package func revertEntry(_ request: RevertRequest) throws(AuditError) -> RevertResult {
        var result = RevertResult(batchID: nil, entries: [], counts: [:])
        let (entryID, clock) = (request.id, request.clock)
        try auditTransaction {
            guard let entry = try AuditLog.entry(database, id: entryID) else { throw AuditError.unknownEntry(entryID) }
            var latestRevertInForce: Int?
            if let last = entry.revertedBy.last, let revert = try AuditLog.entry(database, id: last), revert.revertedBy.isEmpty {
                latestRevertInForce = last
            }
            let blocking = entry.cause == .time ? [] : try AuditLog.laterEntries(of: entry.taskID, after: entryID, in: database)
            try RevertPolicy.checkEntry(entry, latestRevertInForce: latestRevertInForce, blocking: blocking, force: request.force)
            guard let before = try LiveRows.revertState(entry.taskID, in: database) else {
                throw AuditError.unknownTask(entry.taskID)
            }
            let reason = RevertPolicy.entryReason(entry, blocking: blocking)

            // Data: back to the values before the entry's batch changed the task.
            var revertBatch: Int?
            if let batchID = entry.batchID, try ChangeHistory.changed(entry.taskID, in: batchID, database: database) {
                let id = try beginRevertBatch(reason: reason, request: request, revertsBatch: nil)
                revertBatch = id
                try ChangeHistory.saveForRevert(of: batchID, task: entry.taskID, revertBatch: id, in: database)
                try LiveRows.writeBackTasks(fromHistoryOf: batchID, into: id, only: entry.taskID, in: database)
                let change = try ChangeHistory.change(of: entry.taskID, in: id, database: database)
                try BatchLog.record(
                    database, batchID: id, counts: [.tasks: RevertPolicy.counts(ofChange: change)], files: [], problems: [])
                try BatchLog.finish(database, batchID: id, status: .committed, reason: reason, finishedAt: clock.now())
            }
            let newID = try recordRevert(
                of: entry, before: before, reason: reason, revertBatch: revertBatch, groupID: nil, request: request,
                recordedAt: clock.now())
            result.batchID = revertBatch
            if let newEntry = try AuditLog.entry(database, id: newID) { result.entries = [newEntry] }
            return .commit
        }
        return result
    }

    package func revertBatch(_ request: RevertRequest) throws(AuditError) -> RevertResult {
        var result = RevertResult(batchID: nil, entries: [], counts: [:])
        let (batchID, clock) = (request.id, request.clock)
        try auditTransaction {
            guard let batch = try BatchLog.batch(database, id: batchID) else { throw AuditError.unknownBatch(batchID) }
            // The tasks the batch created are found by their creating batch (no history row
            // records a birth): written as its history rows first, they are checked and
            // tombstoned like every other row the batch changed.
            try ChangeHistory.materializeBirths(of: batchID, in: database)
            let blocking = batch.status == .committed ? try ChangeHistory.laterBatches(than: batchID, in: database) : []
            try RevertPolicy.checkBatch(
                batchID, status: batch.status, lastRevert: { try BatchLog.lastRevert(database, of: batchID) }, blocking: blocking,
                force: request.force)
            let reason = RevertPolicy.batchReason(batchID, blocking: blocking)
            let id = try beginRevertBatch(reason: reason, request: request, revertsBatch: batchID)
            try ChangeHistory.saveForRevert(of: batchID, revertBatch: id, in: database)
            try LiveRows.writeBackCourses(fromHistoryOf: batchID, into: id, in: database)
            try LiveRows.writeBackTasks(fromHistoryOf: batchID, into: id, only: nil, in: database)
            // Overrides the batch cleared (import --override-manual) come back with the data.
            for (task, entryID) in try AuditLog.overridesCleared(byBatch: batchID, in: database) {
                try restoreOverride(task: task, to: entryID, current: nil)
            }

            // Categorize what changed, with cause `revert`.
            let staging = try StagingArea(database: database)
            try staging.planTaskChanges(from: ChangeHistory.taskChangesSource, [id])
            _ = try CategorizePass.run(
                database, plan: staging.importPlan,
                context: Categorizer.PassContext(
                    asOf: request.asOf, defaultTimeZone: request.defaultTimeZone, actor: request.actor, recordedAt: clock.now(),
                    batchID: id, planCause: .revert, planReason: reason))
            try staging.clear()

            let counts = try ChangeHistory.counts(of: id, in: database)
            try BatchLog.record(database, batchID: id, counts: counts, files: [], problems: [])
            try BatchLog.finish(database, batchID: id, status: .committed, reason: reason, finishedAt: clock.now())
            try BatchLog.setStatus(database, batchID: batchID, .reverted, reason: "reverted by batch \(id)")
            var next = try BatchLog.revertedBatch(database, by: batchID)
            var step = 0
            while let chained = next {
                let (status, chainReason) = RevertPolicy.chainStatus(step: step, revertBatch: id)
                try BatchLog.setStatus(database, batchID: chained, status, reason: chainReason)
                step += 1
                next = try BatchLog.revertedBatch(database, by: chained)
            }
            result.batchID = id
            result.counts = counts
            var filter = AuditFilter()
            filter.batchID = id
            result.entries = try AuditLog.entries(database, filter: filter)
            return .commit
        }
        return result
    }

    /// The end of an entry's revert: the override in force before the entry comes back (when
    /// the entry changed it), the task gets the bucket `RevertPolicy.bucket` computes, and the
    /// `revert` entry is appended.
    /// - Parameter before: the task as it was before the revert began.
    /// - Returns: the new entry's id.
    func recordRevert(
        of entry: AuditEntry, before: RevertPolicy.TaskState, reason: String, revertBatch: Int?, groupID: Int?,
        request: RevertRequest, recordedAt: Date
    ) throws -> Int {
        // Override: back to the one in force before the entry, when the entry changed it.
        if RevertPolicy.restoresOverride(entry) {
            try restoreOverride(task: entry.taskID, to: entry.overrideBefore, current: before.override)
        }
        guard let after = try LiveRows.revertState(entry.taskID, in: database) else { throw AuditError.unknownTask(entry.taskID) }
        let bucket = RevertPolicy.bucket(
            try LiveRows.policyInputs(entry.taskID, in: database), asOf: request.asOf, defaultTimeZone: request.defaultTimeZone)
        let newID = try AuditLog.append(
            AuditLog.NewEntry(
                taskID: entry.taskID, courseID: after.courseID, from: before.bucketName, to: bucket ?? deletedBucketName,
                cause: .revert, reason: reason, batchID: revertBatch, revertsEntry: entry.id, overrideBefore: before.override,
                groupID: groupID),
            in: database, recordedAt: recordedAt, asOf: request.asOf, actor: request.actor)
        if let bucket {
            try LiveRows.setBucket(bucket, of: entry.taskID, in: database)
        }
        return newID
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

    private func beginRevertBatch(reason: String, request: RevertRequest, revertsBatch: Int?) throws -> Int {
        var options = ImportOptions()
        options.asOf = request.asOf
        options.actor = request.actor
        let id = try BatchLog.begin(database, command: "revert", startedAt: request.clock.now(), options: options)
        try BatchLog.setReverts(database, batchID: id, revertsBatch: revertsBatch, reason: reason)
        return id
    }
}
