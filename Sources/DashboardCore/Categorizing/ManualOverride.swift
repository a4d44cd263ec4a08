import Foundation

/// `dashboard reclassify`: a teacher pins a task's bucket, optionally until a date.
package final class ManualOverride {
    package let store: any AuditWriting
    let clock: Clock

    /// The longest reason kept in the audit log, in characters: a sentence or a short
    /// paragraph; a longer text is refused (`reasonTooLong`), never cut.
    package static let reasonCharacterLimit = 1_000

    package init(store: any AuditWriting, clock: Clock = SystemClock()) {
        self.store = store
        self.clock = clock
    }

    /// Pins `taskID` to `bucket` and records an `override` entry.
    ///
    /// Policy: any bucket of `Bucket.pinnable` (`excused` excuses the task by hand, SPEC §11);
    /// the override replaces any earlier one (the entry remembers which, so a revert
    /// reinstates it); it survives later imports (which record a conflict on it) until
    /// `until` passes: a date means the end of that day in the course's time zone
    /// (`BucketPolicy.hasExpired`); an end already passed is refused.
    /// - Returns: the new entry.
    package func reclassify(
        taskID: String, to bucket: Bucket, reason: String, until: String?, actor: String, asOf: Date, defaultTimeZone: TimeZone
    ) throws(AuditError) -> AuditEntry {
        let reasonText = try Self.checkedReason(reason)
        guard Bucket.pinnable.contains(bucket) else { throw .notPinnable(bucket) }
        return try store.pinOverride(
            OverrideRequest(
                taskID: taskID, bucket: bucket, reason: reasonText, until: until, actor: actor, asOf: asOf,
                defaultTimeZone: defaultTimeZone, clock: clock))
    }

    /// The reason as kept: trimmed.
    /// - Throws: `AuditError`: an empty reason, or one longer than `reasonCharacterLimit`.
    static func checkedReason(_ reason: String) throws(AuditError) -> String {
        let reasonText = reason.trimmingUnicodeWhitespace()
        guard !reasonText.isEmpty else { throw .emptyReason }
        guard reason.count <= Self.reasonCharacterLimit else { throw .reasonTooLong(characters: reason.count) }
        return reasonText
    }

    /// The task an override is asked for, as stored.
    package struct Target: Sendable {
        package var courseID: String
        package var bucket: String
        package var deleted: Bool
        /// The course's time zone as stored.
        package var timeZone: String
        /// The override in force before this one, if any.
        package var previous: Int?

        package init(courseID: String, bucket: String, deleted: Bool, timeZone: String, previous: Int?) {
            self.courseID = courseID
            self.bucket = bucket
            self.deleted = deleted
            self.timeZone = timeZone
            self.previous = previous
        }
    }

    /// Whether `target` may be pinned, and the override's end as stored ("" for none).
    /// - Throws: `AuditError`: an unknown or deleted task, an end that is no date, or one that
    ///   has passed in the course's zone.
    package static func expiry(of request: OverrideRequest, target: Target?) throws(AuditError) -> String {
        guard let target else { throw .unknownTask(request.taskID) }
        if target.deleted { throw .deletedTask(request.taskID) }
        guard let until = request.until else { return "" }
        guard let parsed = try? DueDateParser.parse(until, dateOrder: nil) else { throw .invalidExpiry(until) }
        var zones = CourseZones(asOf: request.asOf, defaultTimeZone: request.defaultTimeZone)
        if BucketPolicy.hasExpired(until: parsed.storageText, at: zones.local(target.timeZone)) {
            throw .expiryPassed(until: until, asOf: Timestamp.text(request.asOf))
        }
        return parsed.storageText
    }
}
