/// Parses the `due` column.
///
/// Accepted (after trimming):
/// - empty: undated (returns nil);
/// - `YYYY-MM-DD` (also `YYYY/MM/DD`): a date, due at the end of that local day;
/// - that date, then `T` or spaces, then `HH:MM` or `HH:MM:SS` (a fraction of a second of any
///   number of digits, as RFC 3339 allows, is accepted and dropped: dues have one-second
///   resolution, so `14:30:15.9` is `14:30:15`, as `DueDate.storageText` writes it): a local
///   time of the course;
/// - either of those times followed by `Z`, `±HH:MM`, `±HHMM` or `±HH`: an exact instant. The
///   offset is at most 14 hours either way, `-14:00` to `+14:00` inclusive (`+14:01` and
///   `-14:30` are refused), its minutes 00–59;
/// - `MM/DD/YYYY` or `DD/MM/YYYY` (also with `.` or `-`), with an optional time, only
///   when a date order is given; otherwise `ambiguous_date`.
/// Years outside 1900–2200 are `implausible_date`; anything else is `invalid_date`.
package enum DueDateParser {
    package static let plausibleYears = 1900...2200
    /// The largest offset from UTC, in hours (`±14:00`, the farthest any zone has been): an
    /// offset is accepted from `-14:00` to `+14:00` inclusive, not one minute beyond.
    package static let maxOffsetHours = 14
    /// The rule an offset out of range breaks, as its message says it.
    package static let offsetRule = "offsets run from -\(pad2(maxOffsetHours)):00 to +\(pad2(maxOffsetHours)):00"

    static let acceptedForms =
        "use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] (course time) or add Z / ±HH:MM for an exact instant"

    /// - Parameter wording: how an `ambiguous_date` hint names the shell's way to give the
    ///   date order (`ImportHint.chooseDateOrder`).
    /// - Throws: `FieldProblem` (`invalid_date`, `ambiguous_date` or `implausible_date`).
    package static func parse(
        _ raw: String, dateOrder: DateOrder?, column: String = "due", wording: ImportWording = .plain
    ) throws(FieldProblem) -> DueDate? {
        let text = raw.trimmingUnicodeWhitespace()
        if text.isEmpty { return nil }
        var scanner = ByteScanner(Array(text.utf8))
        func invalid(_ why: String) -> FieldProblem {
            FieldProblem(code: .invalidDate, column: column, value: raw, message: "\"\(raw)\" is not a date: \(why)", hint: acceptedForms)
        }

        // Date part.
        guard let first = scanner.digits(max: 4) else { throw invalid("it does not start with a date") }
        var year = 0
        var month = 0
        var day = 0
        if first.count == 4 {
            guard let sep = scanner.take(oneOf: "-/"), let m = scanner.digits(max: 2),
                scanner.take(sep), let d = scanner.digits(max: 2)
            else { throw invalid("expected YYYY-MM-DD") }
            (year, month, day) = (first.value, m.value, d.value)
        } else {
            guard let sep = scanner.take(oneOf: "/.-"), let second = scanner.digits(max: 2),
                scanner.take(sep), let y = scanner.digits(max: 4), y.count == 4
            else { throw invalid("expected YYYY-MM-DD") }
            guard let order = dateOrder else {
                var hint = "\(wording(.chooseDateOrder)), or write the date as YYYY-MM-DD"
                if first.value > 12 { hint += " (this one looks like day/month/year)" }
                if second.value > 12 { hint += " (this one looks like month/day/year)" }
                throw FieldProblem(
                    code: .ambiguousDate, column: column, value: raw,
                    message: "\"\(raw)\" could be month/day or day/month", hint: hint)
            }
            year = y.value
            (month, day) = order == .mdy ? (first.value, second.value) : (second.value, first.value)
        }

        // Optional time part.
        var time: (Int, Int, Int)?
        var offsetSeconds: Int?
        if !scanner.atEnd {
            let hadSeparator = scanner.take("T") || scanner.take("t") || scanner.skipSpaces()
            guard hadSeparator, let h = scanner.digits(max: 2), scanner.take(":"), let mi = scanner.digits(max: 2), mi.count == 2
            else { throw invalid("expected a time such as T14:30") }
            var s = 0
            if scanner.take(":") {
                guard let sec = scanner.digits(max: 2), sec.count == 2 else { throw invalid("seconds must have two digits") }
                s = sec.value
                // Any number of digits (the 4 KiB field limit bounds them), truncated: the second is kept.
                if scanner.take(".") || scanner.take(",") {
                    guard scanner.skipDigits() > 0 else { throw invalid("expected digits after the decimal point") }
                }
            }
            guard h.value <= 23, mi.value <= 59, s <= 59 else { throw invalid("the time is out of range") }
            time = (h.value, mi.value, s)
            _ = scanner.skipSpaces()
            if scanner.take("Z") || scanner.take("z") {
                offsetSeconds = 0
            } else if let sign = scanner.take(oneOf: "+-") {
                guard let oh = scanner.digits(max: 2), oh.count == 2 else { throw invalid("expected an offset such as +01:00") }
                var om = 0
                if scanner.take(":") {
                    guard let m = scanner.digits(max: 2), m.count == 2 else { throw invalid("expected an offset such as +01:00") }
                    om = m.value
                } else if let m = scanner.digits(max: 2) {
                    guard m.count == 2 else { throw invalid("expected an offset such as +01:00") }
                    om = m.value
                }
                // Words only on failure: a million dues with offsets build no text.
                func written() -> String { "\(sign == UInt8(ascii: "-") ? "-" : "+")\(pad2(oh.value)):\(pad2(om))" }
                guard om <= 59 else { throw invalid("the offset \(written()) has more than 59 minutes") }
                let magnitude = oh.value * 3600 + om * 60
                guard magnitude <= maxOffsetHours * 3600 else { throw invalid("the offset \(written()) is out of range: \(offsetRule)") }
                offsetSeconds = sign == UInt8(ascii: "-") ? -magnitude : magnitude
            }
        }
        guard scanner.atEnd else { throw invalid("unexpected text after the date") }

        guard plausibleYears.contains(year) else {
            throw FieldProblem(
                code: .implausibleDate, column: column, value: raw,
                message: "the year \(year) is outside 1900–2200",
                hint: "check the year; dates outside 1900–2200 are treated as typing errors")
        }
        guard (1...12).contains(month) else { throw invalid("there is no month \(month)") }
        let days = CivilDate.daysIn(month: month, year: year)
        guard (1...days).contains(day) else { throw invalid("month \(month) of \(year) has \(days) days") }

        let date = CivilDate(year: year, month: month, day: day)
        guard let (h, m, s) = time else { return .date(date) }
        guard let offset = offsetSeconds else { return .local(date, hour: h, minute: m, second: s) }
        let local = Int64(date.daysSinceEpoch) * 86_400 + Int64(h * 3600 + m * 60 + s)
        return .instant(local - Int64(offset))
    }
}

/// A tiny cursor over ASCII bytes.
struct ByteScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index >= bytes.count }

    mutating func take(_ char: Character) -> Bool {
        guard let ascii = char.asciiValue, index < bytes.count, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func take(oneOf chars: String) -> UInt8? {
        guard index < bytes.count, chars.utf8.contains(bytes[index]) else { return nil }
        index += 1
        return bytes[index - 1]
    }

    mutating func skipSpaces() -> Bool {
        let start = index
        while index < bytes.count, bytes[index] == 0x20 { index += 1 }
        return index > start
    }

    /// Skips every ASCII digit at the cursor; how many there were.
    mutating func skipDigits() -> Int {
        let start = index
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
        return index - start
    }

    /// Up to `max` ASCII digits: their value and how many there were; nil when none.
    mutating func digits(max: Int) -> (value: Int, count: Int)? {
        var value = 0
        var count = 0
        while index < bytes.count, count < max, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            value = value * 10 + Int(bytes[index] - 0x30)
            index += 1
            count += 1
        }
        return count > 0 ? (value, count) : nil
    }
}
