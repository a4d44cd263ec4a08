import Foundation

/// The due-date filters of the filter stage (`--due-within 7d`, `--due-before DATE`,
/// `--due-after DATE`), decided in each course's zone. Pure.
///
/// Policy (docs/reports.md, "The pipeline"):
/// - a task's due day is the local date of its due in its course's zone (an instant due is
///   dated there: 04:30 UTC on Nov 2 is Nov 1 in New York);
/// - `--due-before D`: due on a day before D (D itself excluded); `--due-after D`: due on a day
///   after D (D excluded); `--due-within N days`: not yet passed at the as-of (never overdue)
///   and due on a day no later than the as-of's local date plus N (`0d`: due later today);
/// - an undated task (or one whose stored due a hand edit made unreadable) passes none of them;
/// - values of one filter are alternatives (the widest wins: the latest `before`, the earliest
///   `after`, the longest `within`); different ones must all hold.
public struct DueWindow: Sendable, Equatable {
    /// `--due-within`, in days.
    public var within: [Int] = []
    public var before: [CivilDate] = []
    public var after: [CivilDate] = []

    public init() {}

    /// True when no due filter is given.
    public var isEmpty: Bool { within.isEmpty && before.isEmpty && after.isEmpty }

    /// Whether a task whose stored due is `due` passes, as of `local` in its course's zone.
    package func allows(due: String, at local: LocalAsOf) -> Bool {
        guard !isEmpty else { return true }
        guard !due.isEmpty, let parsed = DueDate(storageText: due) else { return false }
        let day = parsed.localDay(in: local.timeZone)
        if let latest = before.max(), !(day < latest) { return false }
        if let earliest = after.min(), !(day > earliest) { return false }
        if let days = within.max() {
            guard BucketPolicy.computed(due: parsed, state: .open, at: local) != .overdue else { return false }
            guard day.daysSinceEpoch <= local.date.daysSinceEpoch + days else { return false }
        }
        return true
    }

    /// True when no due day can pass every given filter (`--due-after` on or after the day
    /// before `--due-before`): the command line refuses it as a mistake.
    package var isContradictory: Bool {
        guard let latest = before.max(), let earliest = after.min() else { return false }
        return latest.daysSinceEpoch - earliest.daysSinceEpoch < 2
    }
}

extension DueDate {
    /// The local date of this due on the wall calendar of `zone`: a date or a local date-time
    /// is its own date; an instant is dated in the zone.
    package func localDay(in zone: TimeZone) -> CivilDate {
        switch self {
        case .date(let date): return date
        case .local(let date, _, _, _): return date
        case .instant(let seconds): return LocalAsOf(asOf: Date(timeIntervalSince1970: TimeInterval(seconds)), timeZone: zone).date
        }
    }
}
