import Foundation

/// The as-of instant seen from one time zone, computed once per zone and reused for every task
/// (`CourseZones` hands them out, one per distinct zone).
package struct LocalAsOf: Sendable {
    package let asOf: Date
    package let timeZone: TimeZone
    /// The as-of date on the zone's wall calendar.
    package let date: CivilDate
    /// The first instant of the next local day (a due instant before it, not yet passed, is
    /// due today).
    package let nextMidnight: Date

    package init(asOf: Date, timeZone: TimeZone) {
        self.asOf = asOf
        self.timeZone = timeZone
        let local = Int64(asOf.timeIntervalSince1970.rounded(.down)) + Int64(timeZone.secondsFromGMT(for: asOf))
        date = CivilDate(daysSinceEpoch: Int(floorDiv(local, 86_400)))
        let tomorrow = CivilDate(daysSinceEpoch: date.daysSinceEpoch + 1)
        nextMidnight = LocalTime.instant(date: tomorrow, hour: 0, minute: 0, second: 0, in: timeZone)
    }
}
