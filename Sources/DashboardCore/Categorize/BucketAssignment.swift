import Foundation

/// Where a task stands relative to the as-of instant (SPEC §6).
public enum Bucket: String, Sendable, CaseIterable, Codable {
    case overdue
    case today
    case upcoming
    case undated
    case completed

    /// The four buckets of open tasks, in report order.
    public static let open: [Bucket] = [.overdue, .today, .upcoming, .undated]

    /// Report order: overdue, today, upcoming, undated, completed.
    public var order: Int {
        switch self {
        case .overdue: return 0
        case .today: return 1
        case .upcoming: return 2
        case .undated: return 3
        case .completed: return 4
        }
    }
}

/// The as-of instant seen from one time zone, computed once per zone and reused for every task.
public struct LocalAsOf: Sendable {
    public let asOf: Date
    public let timeZone: TimeZone
    /// The as-of date on the zone's wall calendar.
    public let date: CivilDate
    /// The first instant of the next local day (a due instant before it, not yet passed, is
    /// due today).
    public let nextMidnight: Date

    public init(asOf: Date, timeZone: TimeZone) {
        self.asOf = asOf
        self.timeZone = timeZone
        let local = Int64(asOf.timeIntervalSince1970.rounded(.down)) + Int64(timeZone.secondsFromGMT(for: asOf))
        date = CivilDate(daysSinceEpoch: Int(floorDiv(local, 86_400)))
        let tomorrow = CivilDate(daysSinceEpoch: date.daysSinceEpoch + 1)
        nextMidnight = LocalTime.instant(date: tomorrow, hour: 0, minute: 0, second: 0, in: timeZone)
    }
}

/// Assigns a task to its bucket: a pure function of the task, the as-of instant and the
/// course's time zone.
///
/// Policy:
/// - a completed task is `completed`, whatever its due;
/// - no due date is `undated`;
/// - a date-only due passes at the end of its local day: before that day it is `upcoming`, on
///   it `today`, after it `overdue`;
/// - a local due is read in the course's time zone (a time in a skipped DST hour is read with
///   the offset before the jump, so 02:30 on a 02:00→03:00 day means 03:30; a repeated time
///   means its first occurrence); a `Z`/offset due is an exact instant;
/// - a timed due is `overdue` once the as-of instant is strictly after it; otherwise `today`
///   when it falls before the next local midnight, else `upcoming`.
public enum BucketAssignment {
    public static func bucket(due: DueDate?, completed: Bool, at local: LocalAsOf) -> Bucket {
        if completed { return .completed }
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

    /// The bucket of a stored task (its canonical due text).
    public static func bucket(for task: TaskRecord, at local: LocalAsOf) -> Bucket {
        bucket(due: task.due.isEmpty ? nil : DueDate(storageText: task.due), completed: task.completed, at: local)
    }

    private static func timed(_ instant: Date, _ local: LocalAsOf) -> Bucket {
        if local.asOf > instant { return .overdue }
        return instant < local.nextMidnight ? .today : .upcoming
    }
}

/// The as-of instant in every time zone met so far: courses name their zone (empty means the
/// default one); each zone is looked up once per run.
public struct LocalAsOfCache {
    public let asOf: Date
    public let defaultTimeZone: TimeZone
    private var zones: [String: LocalAsOf] = [:]

    public init(asOf: Date, defaultTimeZone: TimeZone) {
        self.asOf = asOf
        self.defaultTimeZone = defaultTimeZone
    }

    /// The as-of instant in the zone named `name` (the default zone when empty or unknown).
    public mutating func local(_ name: String) -> LocalAsOf {
        if let cached = zones[name] { return cached }
        let zone = name.isEmpty ? defaultTimeZone : (TimeZone(identifier: name) ?? defaultTimeZone)
        let value = LocalAsOf(asOf: asOf, timeZone: zone)
        zones[name] = value
        return value
    }
}
