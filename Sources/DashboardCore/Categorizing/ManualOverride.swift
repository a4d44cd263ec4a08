import Foundation

/// `dashboard reclassify`: a teacher pins a task's bucket, optionally until a date.
public final class ManualOverride {
    public let store: Store
    private let clock: Clock

    /// The longest reason kept in the audit log, in characters: a sentence or a short
    /// paragraph; a longer text is refused (`reasonTooLong`), never cut.
    public static let reasonCharacterLimit = 1_000

    public init(store: Store, clock: Clock = SystemClock()) {
        self.store = store
        self.clock = clock
    }

    /// Pins `taskID` to `bucket` and records an `override` entry.
    ///
    /// Policy: the override replaces any earlier one (the entry remembers which, so a revert
    /// reinstates it); it survives later imports (which record a conflict on it) until
    /// `until` passes: a date means the end of that day in the course's time zone
    /// (`BucketPolicy.hasExpired`); an end already passed is refused.
    /// - Returns: the new entry.
    public func reclassify(
        taskID: String, to bucket: Bucket, reason: String, until: String?, actor: String, asOf: Date, defaultTimeZone: TimeZone
    ) throws(AuditError) -> AuditEntry {
        let reasonText = reason.trimmingUnicodeWhitespace()
        guard !reasonText.isEmpty else { throw .emptyReason }
        guard reason.count <= Self.reasonCharacterLimit else { throw .reasonTooLong(characters: reason.count) }
        var entryID = 0
        do {
            try store.database.inTransaction(.immediate) {
                let database = store.database
                let statement = try database.cached(
                    """
                    SELECT t.course_id, t.bucket, t.deleted_batch IS NOT NULL AS deleted, c.timezone, o.entry_id
                    FROM tasks t JOIN courses c ON c.course_id = t.course_id LEFT JOIN overrides o ON o.task_id = t.task_id
                    WHERE t.task_id = ?
                    """)
                let c = statement.columnPositions
                let (course, current, deleted) = (try c.position("course_id"), try c.position("bucket"), try c.position("deleted"))
                let (timezone, pinned) = (try c.position("timezone"), try c.position("entry_id"))
                var found: (courseID: String, bucket: String, deleted: Bool, timezone: String, previous: Int?)?
                try statement.forEachRow([taskID]) { row in
                    found = (
                        row.string(course) ?? "", row.string(current) ?? "", row.int(deleted) == 1, row.string(timezone) ?? "",
                        row.isNull(pinned) ? nil : row.int(pinned)
                    )
                }
                guard let row = found else { throw AuditError.unknownTask(taskID) }
                if row.deleted { throw AuditError.deletedTask(taskID) }
                var zones = CourseZones(asOf: asOf, defaultTimeZone: defaultTimeZone)
                var untilText = ""
                if let until {
                    guard let parsed = try? DueDateParser.parse(until, dateOrder: nil) else { throw AuditError.invalidExpiry(until) }
                    untilText = parsed.storageText
                    if BucketPolicy.hasExpired(until: untilText, at: zones.local(row.timezone)) {
                        throw AuditError.expiryPassed(until: until, asOf: Timestamp.text(asOf))
                    }
                }
                entryID = try AuditLog.append(
                    AuditLog.NewEntry(
                        taskID: taskID, courseID: row.courseID, from: row.bucket, to: bucket.rawValue, cause: .override,
                        reason: reasonText, overrideUntil: untilText, overrideBefore: row.previous),
                    in: database, recordedAt: clock.now(), asOf: asOf, actor: actor)
                try AuditLog.pinOverride(
                    task: taskID, entryID: entryID, bucket: bucket.rawValue, until: untilText, reason: reasonText, actor: actor,
                    in: database)
                try LiveRows.setBucket(bucket.rawValue, of: taskID, in: database)
                return .commit
            }
        } catch let error as AuditError {
            throw error
        } catch {
            throw .store(Store.classify(error, path: store.path))
        }
        guard let entry = try? AuditLog.entry(store.database, id: entryID) else { throw .unknownEntry(entryID) }
        return entry
    }
}

extension Store {
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
