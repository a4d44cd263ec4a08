/// A task's due date, in one of the three forms SPEC §3 accepts.
///
/// Policy: a date-only due is due at the end of that day in the course's time zone; a local
/// date-time is read in the course's time zone; a date-time with `Z` or an offset is an exact
/// instant (stored in UTC, so `10:00+01:00` and `09:00Z` are the same due).
public enum DueDate: Hashable, Sendable {
    case date(CivilDate)
    case local(CivilDate, hour: Int, minute: Int, second: Int)
    /// Seconds since 1970-01-01T00:00:00Z.
    case instant(Int64)

    /// The canonical text stored in the database (`2026-11-29`, `2026-11-29T14:00:00`,
    /// `2026-11-29T13:00:00Z`).
    public var storageText: String {
        switch self {
        case .date(let d): return d.isoText
        case .local(let d, let h, let m, let s): return d.isoText + "T" + pad2(h) + ":" + pad2(m) + ":" + pad2(s)
        case .instant(let seconds):
            let days = Int(floorDiv(seconds, 86_400))
            let rest = Int(seconds - Int64(days) * 86_400)
            let d = CivilDate(daysSinceEpoch: days)
            return d.isoText + "T" + pad2(rest / 3600) + ":" + pad2(rest / 60 % 60) + ":" + pad2(rest % 60) + "Z"
        }
    }

    /// Reads the canonical stored text back; nil for anything else.
    public init?(storageText text: String) {
        guard let parsed = try? DueDateParser.parse(text, dateOrder: nil) else { return nil }
        self = parsed
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

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (negative before).
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public init(daysSinceEpoch days: Int) {
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
