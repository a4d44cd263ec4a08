import Foundation

/// A manual override as stored: the bucket it pins and when it ends.
package struct StoredOverride: Sendable, Hashable {
    /// The pinned bucket as stored (a hand edit can leave a text that is no bucket).
    package var bucket: String
    /// The end: a due text (a date, a local date-time or an instant), or empty for none.
    package var until: String
    /// Why it was set (`reclassify --reason`); empty where the reader did not ask for it (only
    /// the report lists read it: the bucket policy never looks at it).
    package var reason: String
    /// Who set it (`--actor`); empty where the reader did not ask for it, like `reason`.
    package var actor: String

    package init(bucket: String, until: String = "", reason: String = "", actor: String = "") {
        self.bucket = bucket
        self.until = until
        self.reason = reason
        self.actor = actor
    }
}

/// A task's bucket as the product stores and shows it, and whether an override decides it.
package struct EffectiveBucket: Sendable, Hashable {
    /// What a task's override, if any, does to its bucket.
    package enum Pin: Sendable, Hashable {
        /// The task has no override.
        case none
        /// An override pins the bucket: it has no end, or its end is still ahead.
        case inForce
        /// The override's end has passed: it pins nothing, and the next categorize pass clears it.
        case expired
        /// The override's stored bucket is no bucket (a hand edit): it pins nothing and stays
        /// where it is; `dashboard verify` lists it.
        case invalid
    }

    /// The task's bucket: the pinned one while an override is in force, else `computed`.
    package var bucket: Bucket
    /// The bucket of the task's own values (due, completed), whatever any override says.
    package var computed: Bucket
    package var pin: Pin

    package init(bucket: Bucket, computed: Bucket, pin: Pin) {
        self.bucket = bucket
        self.computed = computed
        self.pin = pin
    }

    /// True while an override decides the bucket (reports say "set by hand").
    package var isPinned: Bool { pin == .inForce }
}

/// Decides a task's bucket: the one rule that the categorizer, imports, manual overrides,
/// reverts and reports call. Nothing else decides a bucket; `CourseZones` gives the as-of in
/// the course's zone it is decided in.
///
/// Policy (SPEC §6):
/// - an override in force wins, whatever the task's values (even a completed task): one
///   without an end, or whose end (`until`) is not reached yet. The end is reached at the end
///   of that local day for a date, at that moment for a local date-time (read in the course's
///   zone) or an instant; from then on the override is `expired` and the task has its
///   computed bucket;
/// - otherwise the computed bucket: a task that is not open is in its state's place whatever
///   its due (SPEC §11: submitted `toGrade`, `completed`, `excused`); an open task with no due
///   date is `undated`; a date-only due passes at the end of its local day (before that day
///   `upcoming`, on it `today`, after it `overdue`); a timed due is `overdue` once the as-of
///   instant is strictly after it, else `today` when it falls before the next local midnight,
///   else `upcoming`;
/// - a local due is read in the course's zone (a time in a skipped DST hour with the offset
///   before the jump, so 02:30 on a 02:00→03:00 day means 03:30; a repeated time means its
///   first occurrence); a `Z`/offset due is an exact instant.
///
/// Stored values a hand edit made invalid: a due that is not a due text is no due (`undated`,
/// as reports show it, with the words "invalid due"); a completed value other than 1 is open
/// (`TaskRecord(storedTaskID:…)` decodes it); an override `until` that is not a due text never
/// ends; an override whose bucket is not a bucket pins nothing (`.invalid`).
package enum BucketPolicy {
    /// A task's bucket from its values, its override if any, and the as-of in its course's zone.
    /// - Parameter due: the stored due text (canonical, or anything `DueDate(storageText:)`
    ///   reads); empty or unreadable means undated.
    package static func effective(due: String, state: SubmissionState, override: StoredOverride?, at local: LocalAsOf) -> EffectiveBucket {
        let computed = computed(due: due, state: state, at: local)
        guard let override else { return EffectiveBucket(bucket: computed, computed: computed, pin: .none) }
        if hasExpired(until: override.until, at: local) { return EffectiveBucket(bucket: computed, computed: computed, pin: .expired) }
        guard let pinned = Bucket(rawValue: override.bucket) else {
            return EffectiveBucket(bucket: computed, computed: computed, pin: .invalid)
        }
        return EffectiveBucket(bucket: pinned, computed: computed, pin: .inForce)
    }

    /// The bucket of a task as reports and the reverter read it (its decoded stored values).
    package static func effective(_ task: TaskRecord, override: StoredOverride?, at local: LocalAsOf) -> EffectiveBucket {
        effective(due: task.due, state: task.state, override: override, at: local)
    }

    /// The bucket of a task's own values, whatever any override says.
    package static func computed(due: DueDate?, state: SubmissionState, at local: LocalAsOf) -> Bucket {
        if let closed = Bucket.closed(state) { return closed }
        guard let due else { return .undated }
        switch due {
        case .date(let day):
            if day < local.date { return .overdue }
            return day == local.date ? .today : .upcoming
        case .local(let day, let hour, let minute, let second):
            // Only a due on the as-of date needs the exact instant; other days decide by date
            // (time zone lookups are the slow part of categorizing a million tasks).
            if day < local.date { return .overdue }
            if day > local.date { return .upcoming }
            let instant = LocalTime.instant(date: day, hour: hour, minute: minute, second: second, in: local.timeZone)
            return timed(instant, local)
        case .instant(let seconds):
            return timed(Date(timeIntervalSince1970: TimeInterval(seconds)), local)
        }
    }

    /// The computed bucket of a stored due text (empty or unreadable: undated).
    package static func computed(due: String, state: SubmissionState, at local: LocalAsOf) -> Bucket {
        if let closed = Bucket.closed(state) { return closed }
        return computed(due: due.isEmpty ? nil : DueDate(storageText: due), state: .open, at: local)
    }

    /// The computed bucket of a task (its canonical due text).
    package static func computed(for task: TaskRecord, at local: LocalAsOf) -> Bucket {
        computed(due: task.due, state: task.state, at: local)
    }

    /// True once the as-of instant reaches an override's end (`until`): the end of that local
    /// day for a date, that moment otherwise. An empty or unreadable `until` never ends.
    package static func hasExpired(until: String, at local: LocalAsOf) -> Bool {
        guard !until.isEmpty, let end = DueDate(storageText: until) else { return false }
        switch end {
        case .date(let day):
            return day < local.date
        case .local(let day, let h, let m, let s):
            return local.asOf >= LocalTime.instant(date: day, hour: h, minute: m, second: s, in: local.timeZone)
        case .instant(let seconds):
            return local.asOf >= Date(timeIntervalSince1970: TimeInterval(seconds))
        }
    }

    private static func timed(_ instant: Date, _ local: LocalAsOf) -> Bucket {
        if local.asOf > instant { return .overdue }
        return instant < local.nextMidnight ? .today : .upcoming
    }
}
