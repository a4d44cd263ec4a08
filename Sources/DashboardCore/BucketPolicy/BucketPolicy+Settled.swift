import Foundation

extension BucketPolicy {
    /// The dates outside which an open task's computed bucket is the same in every time zone.
    ///
    /// Every zone's offset lies within UTC−12 to UTC+14, so at any instant each zone's local
    /// date is the UTC date, the day before or the day after (`BucketPolicySettledTests` checks
    /// it for every zone this machine knows). A due on a date at least two days before the UTC
    /// as-of date has passed everywhere; one at least two days after it is after the local as-of
    /// date everywhere, and after every zone's next midnight.
    package struct SettledWindow: Sendable, Equatable {
        /// A due on an earlier date (for an instant, its UTC date) is `overdue` in every zone.
        package var overdueBefore: CivilDate
        /// A due on this date or a later one (for an instant, its UTC date) is `upcoming` in
        /// every zone.
        package var upcomingFrom: CivilDate
    }

    /// The settled window at `asOf`: the UTC as-of date minus one day, and plus two days.
    package static func settledWindow(asOf: Date) -> SettledWindow {
        let seconds = Int64(asOf.timeIntervalSince1970.rounded(.down))
        let utcDay = Int(floorDiv(seconds, 86_400))
        return SettledWindow(overdueBefore: CivilDate(daysSinceEpoch: utcDay - 1), upcomingFrom: CivilDate(daysSinceEpoch: utcDay + 2))
    }

    /// The computed bucket a task has at `asOf` whatever its course's zone, or nil when the zone
    /// decides: a state's place (`completed`, `toGrade`, `excused`) and `undated` always; `overdue` or `upcoming` for a due outside
    /// `settledWindow(asOf:)`.
    ///
    /// The categorizer's time pass skips, in SQL, exactly the unpinned tasks whose stored bucket
    /// is this one (for the values the program stores); `BucketPolicySettledTests` runs both on
    /// the same rows.
    package static func settledBucket(due: String, state: SubmissionState, asOf: Date) -> Bucket? {
        if let closed = Bucket.closed(state) { return closed }
        guard !due.isEmpty, let parsed = DueDate(storageText: due) else { return .undated }
        let day: CivilDate
        switch parsed {
        case .date(let date): day = date
        case .local(let date, _, _, _): day = date
        case .instant(let seconds): day = CivilDate(daysSinceEpoch: Int(floorDiv(seconds, 86_400)))
        }
        let window = settledWindow(asOf: asOf)
        if day < window.overdueBefore { return .overdue }
        if !(day < window.upcomingFrom) { return .upcoming }
        return nil
    }
}
