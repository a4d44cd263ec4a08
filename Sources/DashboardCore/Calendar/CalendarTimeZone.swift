import Foundation

/// A `VTIMEZONE` component for a course's IANA zone (RFC 5545 §3.6.5), so that a client which
/// does not know the zone's name (or knows an older version of it) still places every event
/// at the right instant. Pure: a function of the zone's rules as this machine's tzdata has
/// them.
///
/// Policy: the component lists the zone's offset at the start of the first year the feed's
/// events fall in, then every transition Foundation reports up to the end of the last year
/// (each an observance with its own `DTSTART` and no `RRULE`, so nothing depends on a client
/// extrapolating a rule): a feed of events from 2013 and 2026 carries the transitions of the
/// years between. A zone without transitions is one `STANDARD` observance.
package enum CalendarTimeZone {
    /// The zones written as UTC times (`…Z`) without a `VTIMEZONE`.
    static let utcNames: Set<String> = ["UTC", "Etc/UTC", "GMT", "Etc/GMT", "Universal", "Etc/Universal", "Zulu", "Etc/Zulu"]

    /// Whether `zone`'s times are written in UTC.
    package static func isUTC(_ zone: TimeZone) -> Bool { utcNames.contains(zone.identifier) }

    /// The `VTIMEZONE` of `zone` covering the local years `years` (CRLF lines).
    package static func component(_ zone: TimeZone, years: ClosedRange<Int>) -> String {
        var out = ICalendarText.line("BEGIN", "VTIMEZONE")
        out += ICalendarText.line("TZID", ICalendarText.text(zone.identifier))
        let start = LocalTime.instant(date: CivilDate(year: years.lowerBound, month: 1, day: 1), hour: 0, minute: 0, second: 0, in: zone)
        let end = LocalTime.instant(
            date: CivilDate(year: years.upperBound + 1, month: 1, day: 1), hour: 0, minute: 0, second: 0, in: zone)
        /// One observance: from `fromOffset` to `toOffset` at the local time `wall` (in the
        /// offset before it, as §3.6.5 says).
        func observance(at instant: Date, from fromOffset: Int, to toOffset: Int) {
            let kind = zone.isDaylightSavingTime(for: instant) ? "DAYLIGHT" : "STANDARD"
            out += ICalendarText.line("BEGIN", kind)
            out += ICalendarText.line("DTSTART", localText(instant, offset: fromOffset))
            out += ICalendarText.line("TZOFFSETFROM", ICalendarText.offset(fromOffset))
            out += ICalendarText.line("TZOFFSETTO", ICalendarText.offset(toOffset))
            // An abbreviation the zone data has ("CET", "EST"); not Foundation's "GMT+1" for a
            // zone without one (TZNAME is optional, and that text is no name).
            if let name = zone.abbreviation(for: instant), !name.isEmpty, name == "GMT" || !name.hasPrefix("GMT") {
                out += ICalendarText.line("TZNAME", ICalendarText.text(name))
            }
            out += ICalendarText.line("END", kind)
        }
        let first = zone.secondsFromGMT(for: start)
        observance(at: start, from: first, to: first)
        var previous = first
        var at = start
        while let next = zone.nextDaylightSavingTimeTransition(after: at), next < end, next > at {
            let offset = zone.secondsFromGMT(for: next)
            if offset != previous { observance(at: next, from: previous, to: offset) }
            previous = offset
            at = next
        }
        out += ICalendarText.line("END", "VTIMEZONE")
        return out
    }

    /// `instant` as the wall time of a zone at `offset` seconds east of UTC: `YYYYMMDDTHHMMSS`.
    static func localText(_ instant: Date, offset: Int) -> String {
        let seconds = Int64(instant.timeIntervalSince1970.rounded(.down)) + Int64(offset)
        let day = floorDiv(seconds, 86_400)
        let s = Int(seconds - day * 86_400)
        return ICalendarText.dateTime(CivilDate(daysSinceEpoch: Int(day)), s / 3600, s / 60 % 60, s % 60)
    }

    /// The local wall time of `instant` in `zone`: its date and time of day.
    static func wall(_ instant: Date, in zone: TimeZone) -> (date: CivilDate, hour: Int, minute: Int, second: Int) {
        let seconds = Int64(instant.timeIntervalSince1970.rounded(.down)) + Int64(zone.secondsFromGMT(for: instant))
        let day = floorDiv(seconds, 86_400)
        let s = Int(seconds - day * 86_400)
        return (CivilDate(daysSinceEpoch: Int(day)), s / 3600, s / 60 % 60, s % 60)
    }
}
