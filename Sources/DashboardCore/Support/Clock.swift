import Foundation

/// Where "now" comes from; injected so that every result can be reproduced.
package protocol Clock: Sendable {
    func now() -> Date
}

/// The machine's clock.
package struct SystemClock: Clock {
    package init() {}
    package func now() -> Date { Date() }
}

/// A clock stopped at one instant (for `--as-of` and tests).
package struct FixedClock: Clock {
    package let instant: Date
    package init(_ instant: Date) { self.instant = instant }
    package func now() -> Date { instant }
}

/// ISO 8601 text for instants, always UTC with a `Z`, to the second.
package enum Timestamp {
    package static func text(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        return DueDate.instant(seconds).storageText
    }

    /// Why `parse` gives nil for `text`, as the end of a sentence that quotes it: a date or time
    /// written right but outside the years the product reads (1900–2200, as for dues) says so,
    /// as does an offset beyond ±14:00 (the rule dues follow); anything else "cannot be read as
    /// a time".
    package static func whyUnreadable(_ text: String) -> String {
        do {
            _ = try DueDateParser.parse(text, dateOrder: nil)
        } catch {
            if error.code == .implausibleDate { return "is outside the years 1900 to 2200" }
            if error.message.hasSuffix(DueDateParser.offsetRule) { return "has an offset out of range: \(DueDateParser.offsetRule)" }
        }
        return "cannot be read as a time"
    }

    /// Parses `--as-of` values: an instant (`2026-11-29T08:00:00Z`, an offset), a local
    /// date-time or a date (read in `timeZone`; a bare date means the start of that day).
    package static func parse(_ text: String, timeZone: TimeZone) -> Date? {
        guard let due = try? DueDateParser.parse(text, dateOrder: nil) else { return nil }
        switch due {
        case .instant(let seconds): return Date(timeIntervalSince1970: TimeInterval(seconds))
        case .local(let d, let h, let m, let s):
            return LocalTime.instant(date: d, hour: h, minute: m, second: s, in: timeZone)
        case .date(let d):
            return LocalTime.instant(date: d, hour: 0, minute: 0, second: 0, in: timeZone)
        }
    }
}

/// Conversions between local wall-clock times and instants in a time zone.
package enum LocalTime {
    /// The instant at which the wall clock of `timeZone` shows the given local time.
    ///
    /// Policy for DST gaps and overlaps: a local time inside a skipped hour (spring forward)
    /// is read with the offset in force before the change, so it lands that many minutes
    /// after the jump (02:30 on a 02:00→03:00 day is 03:30); a repeated local time (fall
    /// back) means its first occurrence.
    package static func instant(date: CivilDate, hour: Int, minute: Int, second: Int, in timeZone: TimeZone) -> Date {
        let wall = Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        // The offset in force a day before and after brackets the transition, if any.
        let before = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wall - 86_400))))
        let after = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wall + 86_400))))
        let candidateBefore = wall - before
        if Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(candidateBefore)))) == before {
            return Date(timeIntervalSince1970: TimeInterval(candidateBefore))
        }
        let candidateAfter = wall - after
        if Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(candidateAfter)))) == after {
            return Date(timeIntervalSince1970: TimeInterval(candidateAfter))
        }
        return Date(timeIntervalSince1970: TimeInterval(candidateBefore))
    }
}
