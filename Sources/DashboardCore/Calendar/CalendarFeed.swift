import Foundation

/// A calendar feed (`calendar.ics`, `<course>.ics`): an iCalendar object (RFC 5545) of
/// `METHOD:PUBLISH` that clients subscribe to and refresh. Pure: a function of its events, the
/// as-of and the feed the same file held before (`previous`).
///
/// Policy (docs/reports.md, "Calendar feeds"):
/// - `DTSTAMP` is the report's as-of (the time the feed was made; byte-identical feeds for the
///   same data and as-of);
/// - `SEQUENCE` and `LAST-MODIFIED` move only when an event changes: an event whose lines
///   (its times, summary, description, address) are those of the same UID in the previous feed
///   keeps that feed's `SEQUENCE` and `LAST-MODIFIED`; a changed one takes the next `SEQUENCE`
///   and the as-of; a new one starts at 0 with the as-of. Without a previous feed (the first
///   night, or one removed by `--keep`), every event starts at 0;
/// - events are transparent (`TRANSP:TRANSPARENT`: a due date never shows the teacher busy);
///   a timed event has no `DTEND` (a due is an instant: it ends where it starts), an all-day
///   event ends the next day;
/// - one `VTIMEZONE` per course zone the events use, covering the years they fall in.
package enum CalendarFeed {
    /// The feed's header: what the program calls itself (`PRODID`).
    package static let productID = "-//dashboard//dashboard course calendar//EN"

    /// How often a client should refresh (RFC 7986 `REFRESH-INTERVAL`, and the older
    /// `X-PUBLISHED-TTL` that Outlook reads): the feed changes once a night.
    static let refresh = "PT12H"

    /// What an earlier feed said about an event.
    struct Previous: Equatable {
        var sequence: Int
        var lastModified: String
        /// Its content lines but `DTSTAMP`, `SEQUENCE` and `LAST-MODIFIED`, unfolded.
        var lines: [String]
    }

    /// The feed named `name` (`X-WR-CALNAME`) with `events`, as of `asOf`.
    /// - Parameter previous: the text of the feed the file held before, if any.
    package static func render(name: String, events: [CalendarEvent], asOf: Date, previous: String?) -> String {
        let before = previous.map(Self.previousEvents) ?? [:]
        let stamp = ICalendarText.utc(asOf)
        var out = ICalendarText.line("BEGIN", "VCALENDAR")
        out += ICalendarText.line("VERSION", "2.0")
        out += ICalendarText.line("PRODID", productID)
        out += ICalendarText.line("CALSCALE", "GREGORIAN")
        out += ICalendarText.line("METHOD", "PUBLISH")
        out += ICalendarText.line("X-WR-CALNAME", ICalendarText.text(name))
        out += ICalendarText.line("NAME", ICalendarText.text(name))
        out += ICalendarText.line("REFRESH-INTERVAL;VALUE=DURATION", refresh)
        out += ICalendarText.line("X-PUBLISHED-TTL", refresh)
        // The zones the events use, each over the years its events fall in.
        var years: [String: ClosedRange<Int>] = [:]
        for event in events {
            guard case .local(let day, _, _, _, let zone) = event.start else { continue }
            let range = years[zone].map { min($0.lowerBound, day.year)...max($0.upperBound, day.year) } ?? day.year...day.year
            years[zone] = range
        }
        for zone in years.keys.sorted() {
            guard let range = years[zone], let timeZone = TimeZone(identifier: zone) else { continue }
            out += CalendarTimeZone.component(timeZone, years: range)
        }
        for event in events {
            let content = contentLines(event)
            var sequence = 0
            var modified = stamp
            if let old = before[event.uid] {
                if old.lines == content, !old.lastModified.isEmpty {
                    (sequence, modified) = (old.sequence, old.lastModified)
                } else {
                    sequence = old.sequence + 1
                }
            }
            out += ICalendarText.line("BEGIN", "VEVENT")
            out += ICalendarText.line("UID", event.uid)
            out += ICalendarText.line("DTSTAMP", stamp)
            for line in content { out += ICalendarText.fold(line) }
            out += ICalendarText.line("SEQUENCE", String(sequence))
            out += ICalendarText.line("LAST-MODIFIED", modified)
            out += ICalendarText.line("END", "VEVENT")
        }
        out += ICalendarText.line("END", "VCALENDAR")
        return out
    }

    /// An event's lines that say what it is (unfolded): its times, summary, description,
    /// address, status and transparency.
    static func contentLines(_ event: CalendarEvent) -> [String] {
        var lines: [String] = []
        switch event.start {
        case .day(let day):
            lines.append("DTSTART;VALUE=DATE:" + ICalendarText.date(day))
            lines.append("DTEND;VALUE=DATE:" + ICalendarText.date(CivilDate(daysSinceEpoch: day.daysSinceEpoch + 1)))
        // A due is an instant: no DTEND, so the event ends where it starts (RFC 5545 §3.6.1).
        case .local(let day, let h, let m, let s, let zone):
            lines.append("DTSTART;TZID=" + parameter(zone) + ":" + ICalendarText.dateTime(day, h, m, s))
        case .utc(let instant):
            lines.append("DTSTART:" + ICalendarText.utc(instant))
        }
        lines.append("SUMMARY:" + ICalendarText.text(event.summary))
        lines.append("DESCRIPTION:" + ICalendarText.text(event.description + (event.url.map { "\n" + $0 } ?? "")))
        if let url = event.url { lines.append("URL;VALUE=URI:" + url) }
        lines.append("STATUS:CONFIRMED")
        lines.append("TRANSP:TRANSPARENT")
        return lines
    }

    /// A parameter value (RFC 5545 §3.2): quoted when it holds `:` `;` or `,` (an IANA name
    /// never holds `"`).
    static func parameter(_ value: String) -> String {
        value.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"" + value + "\"" : value
    }

    /// The events of an earlier feed by UID: their `SEQUENCE`, `LAST-MODIFIED` and content
    /// lines. Text that is not such a feed gives what it can (an event without a UID is
    /// skipped), never an error: at worst the events start again at 0.
    static func previousEvents(_ text: String) -> [String: Previous] {
        var result: [String: Previous] = [:]
        var inEvent = false
        var uid: String?
        var sequence = 0
        var modified = ""
        var lines: [String] = []
        for line in ICalendarText.unfold(text) {
            if line == "BEGIN:VEVENT" {
                (inEvent, uid, sequence, modified, lines) = (true, nil, 0, "", [])
                continue
            }
            guard inEvent else { continue }
            if line == "END:VEVENT" {
                if let uid { result[uid] = Previous(sequence: sequence, lastModified: modified, lines: lines) }
                inEvent = false
            } else if line.hasPrefix("UID:") {
                uid = String(line.dropFirst(4))
            } else if line.hasPrefix("SEQUENCE:") {
                sequence = Int(line.dropFirst(9)).map { max(0, min($0, 1_000_000_000)) } ?? 0
            } else if line.hasPrefix("LAST-MODIFIED:") {
                // Only a UTC date-time as this program writes it is carried on.
                let value = line.dropFirst(14)
                let digits = value.utf8.enumerated().allSatisfy { i, b in i == 8 ? b == 84 : i == 15 ? b == 90 : (48...57).contains(b) }
                modified = value.utf8.count == 16 && digits ? String(value) : ""
            } else if !line.hasPrefix("DTSTAMP:") {
                lines.append(line)
            }
        }
        return result
    }
}
