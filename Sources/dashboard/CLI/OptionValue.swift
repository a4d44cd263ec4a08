import DashboardCore

/// What an option's value (or a numeric positional argument) must be: the one declaration
/// that the parser checks and `--help` shows.
///
/// Policy: every number the command line takes has a range, checked while parsing, before
/// anything is opened, so no arithmetic on it can overflow (`(page - 1) * limit`,
/// `seconds * 1000`). Numbers are plain ASCII digits: no sign, no spaces, no `0x`, no
/// exponent, no `inf` or `nan`; a value outside its range is a usage error (64) whose
/// message names the range and quotes the value.
enum OptionValueKind: Sendable, Equatable {
    /// Any text.
    case text
    /// Text of at most `characters` characters (counted as the user sees them). Whether
    /// blank text is allowed is the command's rule (`reclassify` refuses a blank reason).
    case boundedText(characters: Int)
    /// A whole number in the range.
    case integer(ClosedRange<Int>)
    /// A number of seconds (`30`, `2.5`) in the range.
    case seconds(ClosedRange<Int>)
    /// A percentage (`10%`, `2.5%`) in `percent`, or a count in `count`.
    case deleteLimit(percent: ClosedRange<Int>, count: ClosedRange<Int>)
    /// One of `choices` (compared ignoring case when `ignoringCase`); the message lists them
    /// in `wording`.
    case choice([String], wording: ChoiceWording = .oneOf, ignoringCase: Bool = false)
    /// A number of days (`7d`) or weeks (`2w`), counted in days in the range.
    case days(ClosedRange<Int>)
    /// A calendar date, `YYYY-MM-DD` (a year from 1900 to 2200, as for dues).
    case date

    /// How a refused choice's message lists the choices.
    enum ChoiceWording: Sendable, Equatable {
        /// "must be one of a, b, c"
        case oneOf
        /// "must be a, b or c"
        case list
    }

    /// The largest id (batch, audit entry) the command line accepts: 2^53 − 1, the largest
    /// integer a JSON reader keeps exactly, far above any id SQLite hands out in practice.
    static let largestID = 9_007_199_254_740_991
    /// Batch and audit entry ids.
    static let identifier = OptionValueKind.integer(1...largestID)
    /// `--wait`: up to a day; a cron job that waits longer has a problem to report.
    static let waitSeconds = OptionValueKind.seconds(0...86_400)
    /// `--max-delete`: a share of the live rows, or a count up to a billion rows.
    static let maxDelete = OptionValueKind.deleteLimit(percent: 0...100, count: 0...1_000_000_000)
    /// `--due-within`: up to ten years ahead.
    static let dueWithin = OptionValueKind.days(0...3_660)
    /// `--reason`: at most 1,000 characters (`ManualOverride.reasonCharacterLimit`).
    static let reason = OptionValueKind.boundedText(characters: ManualOverride.reasonCharacterLimit)

    /// The range as `--help` shows it; nil for free text.
    var rangeText: String? {
        switch self {
        case .text, .choice: return nil
        case .days(let range): return "\(range.lowerBound) to \(range.upperBound) days, as 7d or 2w"
        case .date: return "YYYY-MM-DD"
        case .boundedText(let limit): return "at most \(limit) characters"
        case .integer(let range): return "\(range.lowerBound) to \(range.upperBound)"
        case .seconds(let range): return "\(range.lowerBound) to \(range.upperBound) seconds"
        case .deleteLimit(let percent, let count):
            return "\(percent.lowerBound)% to \(percent.upperBound)%, or a count from \(count.lowerBound) to \(count.upperBound)"
        }
    }

    /// Reads `text` as this kind.
    /// - Parameter label: how the message names the value (`--limit`, `ENTRY`).
    /// - Throws: `CommandError` (64) naming the range and quoting the value.
    func parse(_ text: String, label: String, command: String?) throws -> OptionValue {
        func refuse(_ expected: String) -> CommandError {
            CommandError.usage("\(label) must be \(expected), not \(Self.quoted(text))", command: command)
        }
        switch self {
        case .text:
            return .text(text)
        case .boundedText(let limit):
            let count = text.count
            guard count <= limit else {
                throw CommandError.usage("\(label) must be at most \(limit) characters, not \(count)", command: command)
            }
            return .text(text)
        case .choice(let choices, let wording, let ignoringCase):
            let given = ignoringCase ? text.lowercased() : text
            guard choices.contains(given) else {
                let listed =
                    wording == .oneOf
                    ? "one of \(choices.joined(separator: ", "))"
                    : choices.dropLast().joined(separator: ", ") + " or " + (choices.last ?? "")
                throw CommandError.usage("\(label) must be \(listed), not \"\(text)\"", command: command)
            }
            return .text(given)
        case .days(let range):
            guard let value = Self.dayCount(text), range.contains(value) else {
                throw refuse("a number of days or weeks (7d, 2w) from \(range.lowerBound) to \(range.upperBound) days")
            }
            return .integer(value)
        case .date:
            guard let date = Self.calendarDate(text) else { throw refuse("a date as YYYY-MM-DD (years 1900 to 2200)") }
            return .text(date.isoText)
        case .integer(let range):
            guard let value = Self.wholeNumber(text), range.contains(value) else {
                throw refuse("a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return .integer(value)
        case .seconds(let range):
            guard let value = Self.decimal(text), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
                throw refuse("a number of seconds from \(range.lowerBound) to \(range.upperBound)")
            }
            return .seconds(value)
        case .deleteLimit(let percentRange, let countRange):
            if text.hasSuffix("%"), let value = Self.decimal(String(text.dropLast())),
                value >= Double(percentRange.lowerBound), value <= Double(percentRange.upperBound)
            {
                return .deleteLimit(.percent(value))
            }
            if let value = Self.wholeNumber(text), countRange.contains(value) {
                return .deleteLimit(.count(value))
            }
            throw refuse(
                "a percentage from \(percentRange.lowerBound)% to \(percentRange.upperBound)% (like 10%) or a count from \(countRange.lowerBound) to \(countRange.upperBound) (like 500)"
            )
        }
    }

    /// ASCII digits only (at most 18 of them, so the value always fits); nil otherwise.
    /// Longer runs of digits are out of every range anyway.
    static func wholeNumber(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 18, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `7d` (days) or `2w` (weeks) as a number of days; nil for anything else (a unit is
    /// required: `7` alone could mean anything).
    static func dayCount(_ text: String) -> Int? {
        guard let unit = text.last, unit == "d" || unit == "w", let count = wholeNumber(String(text.dropLast())), count <= 1_000_000
        else { return nil }
        return unit == "w" ? count * 7 : count
    }

    /// A `YYYY-MM-DD` date with a year from 1900 to 2200; nil for anything else.
    static func calendarDate(_ text: String) -> CivilDate? {
        guard text.utf8.count == 10, case .date(let day)? = try? DueDateParser.parse(text, dateOrder: nil) else { return nil }
        return day
    }

    /// Digits with an optional fraction (`2`, `2.5`); never a sign, an exponent, `inf` or `nan`.
    static func decimal(_ text: String) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, wholeNumber(String(whole)) != nil else { return nil }
        if parts.count == 2 {
            let fraction = Array(parts[1].utf8)
            guard !fraction.isEmpty, fraction.count <= 9, fraction.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        }
        return Double(text)
    }

    /// The value as a message quotes it: at most 40 characters, so a hostile megabyte-long
    /// value does not flood the terminal.
    static func quoted(_ text: String) -> String {
        text.count <= 40 ? "\"\(text)\"" : "\"\(text.prefix(40))…\" (\(text.count) characters)"
    }
}

/// A value the parser has checked against its `OptionValueKind`.
enum OptionValue: Equatable {
    case text(String)
    case integer(Int)
    case seconds(Double)
    case deleteLimit(DeleteLimit)
}
