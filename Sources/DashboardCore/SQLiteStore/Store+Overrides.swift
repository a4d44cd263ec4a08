import Foundation

extension Store {
    /// `AuditWriting.pinOverride`: reads the task (`LiveRows.overrideTarget`), lets
    /// `ManualOverride.expiry` decide, then appends the entry, pins the override and stores the
    /// bucket, in one write transaction.
    public func pinOverride(_ request: OverrideRequest) throws(AuditError) -> AuditEntry {
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

    /// Audit entries matching `filter`, oldest first.
    public func auditEntries(_ filter: AuditFilter = AuditFilter()) throws -> [AuditEntry] {
        try AuditLog.entries(database, filter: filter)
    }

    /// Calls `body` with each audit entry matching `filter`, oldest first, one at a time.
    public func forEachAuditEntry(_ filter: AuditFilter = AuditFilter(), _ body: (AuditEntry) throws -> Void) throws {
        try AuditLog.forEachEntry(database, filter: filter, body)
    }

    /// One audit entry, or nil.
    public func auditEntry(id: Int) throws -> AuditEntry? {
        try AuditLog.entry(database, id: id)
    }
}

extension Store {
    /// One write transaction of an audited change (an override, a revert): the policy's own
    /// refusals (`AuditError`) pass as they are, anything the store throws becomes
    /// `AuditError.store` with its `StoreError`.
    func auditTransaction(_ body: () throws -> Database.TransactionCompletion) throws(AuditError) {
        do {
            try database.inTransaction(.immediate, body)
        } catch let error as AuditError {
            throw error
        } catch {
            throw .store(Store.classify(error, path: path))
        }
    }
}
