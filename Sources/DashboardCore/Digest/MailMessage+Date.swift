import Foundation

/// The `Date` header: an RFC 5322 §3.3 date in UTC, computed by hand on the proleptic
/// Gregorian calendar.
extension MailMessage {
    /// The RFC 5322 date of the instant in UTC, "Fri, 04 Dec 2026 02:00:00 +0000".
    ///
    /// Policy: computed by hand on the proleptic Gregorian calendar, so the day and month names
    /// are English whatever the process's locale; fractions of a second are dropped (rounded
    /// down) and instants outside the years 0001–9999 are clamped to them (a year has 4 digits).
    package static func date(_ date: Date) -> String {
        let seconds = clampedSeconds(date.timeIntervalSince1970)
        let secondOfDay = secondsOfDay(seconds)
        let days = (seconds - secondOfDay) / 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekday = weekdays[((days % 7) + 11) % 7]  // 1970-01-01 was a Thursday.
        let time = [secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60].map { padded($0, 2) }
        return "\(weekday), \(padded(day, 2)) \(months[month - 1]) \(padded(year, 4)) \(time.joined(separator: ":")) +0000"
    }

    /// Whole seconds since 1970 (rounded down), within 0001-01-01 and 9999-12-31T23:59:59.
    static func clampedSeconds(_ interval: TimeInterval) -> Int {
        let first = -62_135_596_800.0
        let last = 253_402_300_799.0
        guard !interval.isNaN else { return 0 }
        return Int(min(max(interval, first), last).rounded(.down))
    }

    /// The second of its UTC day, 0..<86400, also before 1970.
    static func secondsOfDay(_ seconds: Int) -> Int {
        ((seconds % 86_400) + 86_400) % 86_400
    }

    /// The Gregorian year, month (1–12) and day of a day count since 1970-01-01
    /// (Howard Hinnant's `civil_from_days`).
    static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `number` in decimal, zero-padded on the left to `width` digits.
    static func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
