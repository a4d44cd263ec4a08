/// A task's due date, in one of the three forms SPEC §3 accepts.
///
/// Policy: a date-only due is due at the end of that day in the course's time zone; a local
/// date-time is read in the course's time zone; a date-time with `Z` or an offset is an exact
/// instant (stored in UTC, so `10:00+01:00` and `09:00Z` are the same due).
package enum DueDate: Hashable, Sendable {
    case date(CivilDate)
    case local(CivilDate, hour: Int, minute: Int, second: Int)
    /// Seconds since 1970-01-01T00:00:00Z.
    case instant(Int64)

    /// The canonical text stored in the database (`2026-11-29`, `2026-11-29T14:00:00`,
    /// `2026-11-29T13:00:00Z`).
    package var storageText: String {
        // Written byte by byte: a million-task import makes one per dated task.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        func digits(_ value: Int, _ count: Int) {
            if count == 4 {
                bytes.append(UInt8(truncatingIfNeeded: 48 + value / 1000 % 10))
                bytes.append(UInt8(truncatingIfNeeded: 48 + value / 100 % 10))
            }
            bytes.append(UInt8(truncatingIfNeeded: 48 + value / 10 % 10))
            bytes.append(UInt8(truncatingIfNeeded: 48 + value % 10))
        }
        func date(_ d: CivilDate) {
            if d.year > 9999 || d.year < 0 {
                bytes.append(contentsOf: Array(String(d.year).utf8))
            } else {
                digits(d.year, 4)
            }
            bytes.append(UInt8(ascii: "-"))
            digits(d.month, 2)
            bytes.append(UInt8(ascii: "-"))
            digits(d.day, 2)
        }
        func time(_ h: Int, _ m: Int, _ s: Int) {
            bytes.append(UInt8(ascii: "T"))
            digits(h, 2)
            bytes.append(UInt8(ascii: ":"))
            digits(m, 2)
            bytes.append(UInt8(ascii: ":"))
            digits(s, 2)
        }
        switch self {
        case .date(let d):
            date(d)
        case .local(let d, let h, let m, let s):
            date(d)
            time(h, m, s)
        case .instant(let seconds):
            let days = Int(floorDiv(seconds, 86_400))
            let rest = Int(seconds - Int64(days) * 86_400)
            date(CivilDate(daysSinceEpoch: days))
            time(rest / 3600, rest / 60 % 60, rest % 60)
            bytes.append(UInt8(ascii: "Z"))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads the canonical stored text back; nil for anything else.
    package init?(storageText text: String) {
        if let canonical = Self.canonical(text) {
            self = canonical
            return
        }
        guard let parsed = try? DueDateParser.parse(text, dateOrder: nil) else { return nil }
        self = parsed
    }

    /// The `count` ASCII digits at `from` as a number; nil when one is not a digit (the fixed
    /// positions of the canonical and ISO forms, `ISODueBytes`).
    @inline(__always)
    static func decimal(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ count: Int) -> Int? {
        var value = 0
        for i in from..<(from + count) {
            let c = b[i]
            guard c >= 0x30, c <= 0x39 else { return nil }
            value = value * 10 + Int(c - 0x30)
        }
        return value
    }

    /// The exact stored forms (`YYYY-MM-DD`, `…THH:MM:SS`, `…THH:MM:SSZ`), read without the
    /// general parser (reports and the categorizer read a million of them); nil for anything
    /// else, which the general parser then reads. Any four-digit year is read: the 1900–2200
    /// rule is for input, and an instant due late on 2200-12-31 west of UTC is stored in 2201.
    static func canonical(_ text: String) -> DueDate? {
        var text = text
        return text.withUTF8 { b -> DueDate? in
            guard b.count == 10 || b.count == 19 || b.count == 20 else { return nil }
            func number(_ from: Int, _ count: Int) -> Int? { decimal(b, from, count) }
            guard b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), let year = number(0, 4), let month = number(5, 2),
                let day = number(8, 2), (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year)
            else { return nil }
            let date = CivilDate(year: year, month: month, day: day)
            if b.count == 10 { return .date(date) }
            guard b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"), let h = number(11, 2),
                let m = number(14, 2), let s = number(17, 2), h < 24, m < 60, s < 60
            else { return nil }
            if b.count == 19 { return .local(date, hour: h, minute: m, second: s) }
            guard b[19] == UInt8(ascii: "Z") else { return nil }
            return .instant(Int64(date.daysSinceEpoch) * 86_400 + Int64(h * 3600 + m * 60 + s))
        }
    }
}

/// A calendar date without a time zone (proleptic Gregorian).
public struct CivilDate: Hashable, Sendable, Comparable {
    public let year: Int
    public let month: Int
    public let day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    public var isoText: String {
        String(year).leftPadded(to: 4) + "-" + pad2(month) + "-" + pad2(day)
    }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (negative before).
    package var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    package init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// The order of day and month in slashed dates such as `11/29/2026`.
public enum DateOrder: String, Sendable, CaseIterable {
    case mdy
    case dmy
}

func pad2(_ value: Int) -> String { value < 10 ? "0" + String(value) : String(value) }

func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
