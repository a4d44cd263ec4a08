/// The regular expressions of the input contract (`InputContract`): for each value the
/// dashboard checks, a pattern that a Frictionless validator can apply to the raw cell and
/// that accepts exactly what the dashboard's parser accepts, its normalizations included
/// (trimming, case-insensitive words, synonyms).
///
/// Policy: every pattern is generated from the declarations the parsers use
/// (`Priority.synonyms`, `CompletedParser`'s words, `DueDateParser.plausibleYears`, the
/// calendar of `CivilDate`, the white space `TextNormalizer` trims), and
/// `InputContractPatternTests` checks each one against its parser on thousands of values, so
/// the two cannot drift apart silently. The syntax is the common subset of Python's `re`
/// (what frictionless-py uses), JavaScript, ICU and Java: character classes, `\uXXXX` escapes,
/// groups, alternation and counted repeats; no backreference, lookaround or non-capturing
/// group. Frictionless anchors a pattern at both ends (`^(…)$`), so each is one group.
enum ContractPattern {
    // MARK: - White space and text

    /// The characters `trimmingUnicodeWhitespace` removes (Unicode White_Space), as the inside
    /// of a character class: `\u0009-\u000d \u0085\u00a0…`.
    static let whiteSpaceClass = classInside(through: 0x10FFFF) { $0.isUnicodeWhitespace }

    /// The invisible format characters an id may not hold (`InvisibleCharacters`, Unicode
    /// general category Cf) of the Basic Multilingual Plane, as the inside of a character class:
    /// `\u00ad\u0600-\u0605…\ufeff\ufff9-\ufffb`. The few above it (the tag characters,
    /// musical and shorthand format controls) cannot be written in the syntax every reader
    /// shares (`\uXXXX` is one UTF-16 unit in JavaScript): the dashboard refuses them in ids,
    /// the pattern does not (docs/formats.md).
    static let formatClass = classInside(through: 0xFFFF) { InvisibleCharacters.isInvisible($0) }

    /// A required id: not empty once trimmed, and no invisible format character anywhere.
    static var requiredID: String { "(\(space)[^\(whiteSpaceClass)\(formatClass)][^\(formatClass)]*)" }

    /// An optional id: empty, or without any invisible format character.
    static var optionalID: String { "([^\(formatClass)]*)" }

    /// The scalars up to `last` that `member` accepts, as the inside of a character class: runs
    /// of consecutive ones as ranges (`\u2000-\u200a`).
    private static func classInside(through last: UInt32, _ member: (Unicode.Scalar) -> Bool) -> String {
        var ranges: [ClosedRange<UInt32>] = []
        for value in UInt32(0)...last {
            guard let scalar = Unicode.Scalar(value), member(scalar) else { continue }
            if let run = ranges.last, run.upperBound + 1 == value {
                ranges[ranges.count - 1] = run.lowerBound...value
            } else {
                ranges.append(value...value)
            }
        }
        return ranges.map { range in
            range.count == 1 ? classMember(range.lowerBound) : classMember(range.lowerBound) + "-" + classMember(range.upperBound)
        }.joined()
    }

    /// One scalar inside a character class: a space as itself, anything else as `\uXXXX`.
    private static func classMember(_ value: UInt32) -> String {
        if value == 0x20 { return " " }
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Any run of white space, possibly empty.
    static var space: String { "[\(whiteSpaceClass)]*" }

    /// A value that is not empty once trimmed: what a required id or title must be.
    static var nonBlank: String { "(\(space)[^\(whiteSpaceClass)][\\s\\S]*)" }

    /// One of `words`, case-insensitively, trimmed; an empty or blank value too when the
    /// empty word is one of them.
    static func words(_ words: some Collection<String>) -> String {
        let spelled = words.filter { !$0.isEmpty }.sorted().map(caseInsensitive)
        return "(\(space)(\(spelled.joined(separator: "|")))\(words.contains("") ? "?" : "")\(space))"
    }

    /// One of `words` or an empty value, in any case, where each space of a word stands for one
    /// or more of `_`, `-` and white space, with any of them around it (`SubmissionStateParser`).
    static func separatedWords(_ words: some Collection<String>) -> String {
        let separator = "[\(whiteSpaceClass)_-]"
        let spelled = words.sorted().map { word in
            word.split(separator: " ").map { caseInsensitive(String($0)) }.joined(separator: separator + "+")
        }
        return "(\(separator)*((\(spelled.joined(separator: "|")))\(separator)*)?)"
    }

    /// `word` with each ASCII letter as a class of its two cases (`[Hh][Ii]`). The parsers
    /// lowercase with Swift's `lowercased()`, under which no other character becomes one of
    /// these words' letters (no K, the Kelvin sign's lowercase, appears in them).
    static func caseInsensitive(_ word: String) -> String {
        word.map { character in
            guard character.isASCII, character.isLetter else { return escaped(character) }
            return "[\(character.uppercased())\(character.lowercased())]"
        }.joined()
    }

    /// A literal character, escaped when it means something in a pattern.
    private static func escaped(_ character: Character) -> String {
        "\\^$.|?*+()[]{}".contains(character) ? "\\\(character)" : String(character)
    }

    // MARK: - Time zones

    /// The shape of a time zone name the dashboard accepts, trimmed, or an empty value: an
    /// ASCII letter, then letters, digits, `_`, `+` and `-`, in parts joined by `/` (`UTC`,
    /// `EST5EDT`, `GMT+0`, `Europe/Berlin`, `Etc/GMT+5`, `America/Argentina/Buenos_Aires`). Only
    /// a necessary condition: the dashboard also requires a name of the machine's time zone
    /// database, which a pattern cannot list (`TimeZoneCatalog`).
    static var timeZone: String {
        "(\(space)([A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*)?\(space))"
    }
}

// MARK: - E-mail addresses

extension ContractPattern {
    /// The shape of a teacher's address, trimmed, or an empty value: what `EmailAddress`
    /// accepts, RFC 5322's dot-atom `local@domain` in ASCII, its domain labels of letters,
    /// digits and inner `-`. Only the lengths (64 octets before the `@`, 63 a label, 254 in
    /// all) are not in the pattern.
    static var email: String {
        let atext = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]"
        let label = "[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?"
        return "(\(space)(\(atext)+(\\.\(atext)+)*@\(label)(\\.\(label))*)?\(space))"
    }
}

// MARK: - Languages

extension ContractPattern {
    /// What `RowNormalizer.language` accepts, trimmed, or an empty value: a well-formed BCP 47
    /// tag (RFC 5646's `langtag`, `LanguageTag`) whose language subtag is one of the report
    /// languages (`ReportLanguage`), in any case, `_` or `-` between the subtags. No extended
    /// language subtag can follow a supported one (a 3-letter subtag there names another
    /// language), so none is in the pattern.
    static var language: String {
        let separator = "[-_]"
        let alphanumeric = "[A-Za-z0-9]"
        let languages = ReportLanguage.allCases.map { caseInsensitive($0.rawValue) }.joined(separator: "|")
        let script = "\(separator)[A-Za-z]{4}"
        let region = "\(separator)([A-Za-z]{2}|[0-9]{3})"
        let variant = "\(separator)(\(alphanumeric){5,8}|[0-9]\(alphanumeric){3})"
        let singleton = "[0-9A-WYZa-wyz]"
        let extensionPart = "\(separator)\(singleton)(\(separator)\(alphanumeric){2,8})+"
        let privateUse = "\(separator)[Xx](\(separator)\(alphanumeric){1,8})+"
        return "(\(space)((\(languages))(\(script))?(\(region))?(\(variant))*(\(extensionPart))*(\(privateUse))?)?\(space))"
    }
}

// MARK: - Due dates

extension ContractPattern {
    /// What `DueDateParser.parse(_:dateOrder:)` accepts, trimmed, or an empty value: a date
    /// (`YYYY-MM-DD`, `YYYY/MM/DD`; with a date order also `MM/DD/YYYY` or `DD/MM/YYYY` with
    /// `/`, `.` or `-`), optionally followed by a time and an offset, every date one that
    /// exists in a plausible year (February 29 only in leap years).
    static func due(dateOrder: DateOrder?) -> String {
        var dates = ["-", "/"].map(yearFirstDate)
        if let dateOrder { dates += ["/", ".", "-"].map { slashedDate($0, order: dateOrder) } }
        return "(\(space)((\(dates.joined(separator: "|")))(\(time))?)?\(space))"
    }

    /// `T` or spaces, `H:MM` or `HH:MM`, optional `:SS` with an optional fraction of any
    /// number of digits, optional spaces, then an optional `Z` or `±HH`, `±HHMM`, `±HH:MM`
    /// from `-14:00` to `+14:00` (`DueDateParser.maxOffsetHours`: below it any minutes, at it
    /// only `00`).
    static var time: String {
        let hour = number(0...23, maxDigits: 2)
        let sixty = "[0-5][0-9]"
        let maximum = DueDateParser.maxOffsetHours
        let below = number(0...(maximum - 1), maxDigits: 2, minDigits: 2)
        let offset = "(\(below)(:?\(sixty))?|\(pad2(maximum))(:?00)?)"
        return "([Tt]| +)\(hour):\(sixty)(:\(sixty)([.,][0-9]+)?)? *([Zz]|[+-]\(offset))?"
    }

    /// `YYYY-MM-DD` with `separator`: one or two digits for the month and the day.
    static func yearFirstDate(_ separator: String) -> String {
        let s = escapedSeparator(separator)
        let monthDays = monthsByLength.map { length, months in
            number(months, maxDigits: 2) + s + number(1...length, maxDigits: 2)
        }
        return "(\(years)\(s)(\(monthDays.joined(separator: "|")))|\(leapYears)\(s)\(number([2], maxDigits: 2))\(s)29)"
    }

    /// `MM/DD/YYYY` or `DD/MM/YYYY` with `separator`: up to three digits for the first number
    /// (the parser reads up to four before it knows the form), one or two for the second.
    static func slashedDate(_ separator: String, order: DateOrder) -> String {
        let s = escapedSeparator(separator)
        func pair(months: [Int], days: ClosedRange<Int>) -> String {
            order == .mdy
                ? number(months, maxDigits: 3) + s + number(days, maxDigits: 2)
                : number(days, maxDigits: 3) + s + number(months, maxDigits: 2)
        }
        let monthDays = monthsByLength.map { pair(months: $0.months, days: 1...$0.length) }
        return "((\(monthDays.joined(separator: "|")))\(s)\(years)|\(pair(months: [2], days: 29...29))\(s)\(leapYears))"
    }

    private static func escapedSeparator(_ separator: String) -> String {
        separator == "." ? "\\." : separator
    }

    /// The months by their length in a common year, longest first: (31, [1, 3, …]), (30, …),
    /// (28, [2]); February 29 is added for leap years only.
    static let monthsByLength: [(length: Int, months: [Int])] = {
        let lengths = (1...12).map { CivilDate.daysIn(month: $0, year: 1900 + 1) }
        return Set(lengths).sorted(by: >).map { length in (length, (1...12).filter { lengths[$0 - 1] == length }) }
    }()

    /// `DueDateParser.plausibleYears`, four digits.
    static var years: String { fixedWidth(DueDateParser.plausibleYears, width: 4) }

    /// The plausible years whose February has 29 days: a whole century as the two-digit
    /// endings divisible by four (with `00` when the century year is a leap year), other years
    /// listed.
    static var leapYears: String {
        let leap = DueDateParser.plausibleYears.filter { CivilDate.daysIn(month: 2, year: $0) == 29 }
        var parts: [String] = []
        for century in Set(leap.map { $0 / 100 }).sorted() {
            let all = (century * 100)...(century * 100 + 99)
            let inCentury = leap.filter { all.contains($0) }
            let multiplesOfFour = ["0[48]", "[2468][048]", "[13579][26]"]
            if DueDateParser.plausibleYears.contains(all.lowerBound), DueDateParser.plausibleYears.contains(all.upperBound) {
                let endings = (inCentury.contains(century * 100) ? ["00"] : []) + multiplesOfFour
                parts.append("\(century)(" + endings.joined(separator: "|") + ")")
            } else {
                parts += inCentury.map(String.init)
            }
        }
        return "(\(parts.joined(separator: "|")))"
    }

    // MARK: - Numbers

    /// The integers of `values` written with `minDigits` to `maxDigits` digits (leading zeros
    /// pad them): `number(1...12, maxDigits: 2)` is `(0?[1-9]|1[0-2])`.
    static func number<S: Sequence<Int>>(_ values: S, maxDigits: Int, minDigits: Int = 1) -> String {
        var byWidth: [Int: [Int]] = [:]
        for value in values { byWidth[String(value).count, default: []].append(value) }
        var parts: [String] = []
        for width in byWidth.keys.sorted() {
            let zeros = max(0, minDigits - width)...max(0, maxDigits - width)
            let padding = zeros.upperBound == 0 ? "" : repeated("0", zeros)
            // Group by every digit but the last ("1[0-2]", "2[0-3]"), then the groups of one-digit
            // prefixes that end alike ("[12][0-9]").
            var byPrefix: [Int: [Int]] = [:]
            for value in byWidth[width] ?? [] { byPrefix[value / 10, default: []].append(value % 10) }
            var byEnding: [[Int]: [Int]] = [:]
            for (prefix, endings) in byPrefix { byEnding[endings.sorted(), default: []].append(prefix) }
            let groups = byEnding.map { (prefixes: $0.value.sorted(), endings: $0.key) }.sorted { $0.prefixes[0] < $1.prefixes[0] }
            for group in groups {
                let prefix =
                    width == 1 ? "" : width == 2 ? digitClass(group.prefixes) : group.prefixes.map(String.init).joined(separator: "|")
                parts.append(padding + (group.prefixes.count > 1 && width > 2 ? "(\(prefix))" : prefix) + digitClass(group.endings))
            }
        }
        return parts.count == 1 ? parts[0] : "(\(parts.joined(separator: "|")))"
    }

    /// Integers of `range`, exactly `width` digits with leading zeros: `fixedWidth(1900...2200,
    /// width: 4)` is `(19[0-9]{2}|2([01][0-9]{2}|200))`.
    static func fixedWidth(_ range: ClosedRange<Int>, width: Int) -> String {
        func any(_ width: Int) -> String { width == 1 ? "[0-9]" : "[0-9]{\(width)}" }
        func pattern(_ low: Int, _ high: Int, _ width: Int) -> String {
            if low == 0, high == pow10(width) - 1 { return any(width) }
            if width == 1 { return digitClass(Array(low...high)) }
            let unit = pow10(width - 1)
            let (a, b) = (low / unit, high / unit)
            if a == b { return "\(a)" + pattern(low % unit, high % unit, width - 1) }
            let (wholeLow, wholeHigh) = (low % unit == 0, high % unit == unit - 1)
            var parts: [String] = []
            if !wholeLow { parts.append("\(a)" + pattern(low % unit, unit - 1, width - 1)) }
            let (first, last) = (wholeLow ? a : a + 1, wholeHigh ? b : b - 1)
            if first <= last { parts.append(digitClass(Array(first...last)) + any(width - 1)) }
            if !wholeHigh { parts.append("\(b)" + pattern(0, high % unit, width - 1)) }
            return parts.count == 1 ? parts[0] : "(\(parts.joined(separator: "|")))"
        }
        return pattern(range.lowerBound, range.upperBound, width)
    }

    private static func pow10(_ n: Int) -> Int { (0..<n).reduce(1) { value, _ in value * 10 } }

    /// `0?`, `0{0,2}`, `0{1,2}`, `0`.
    private static func repeated(_ text: String, _ count: ClosedRange<Int>) -> String {
        switch (count.lowerBound, count.upperBound) {
        case (0, 1): return text + "?"
        case (let low, let high) where low == high: return String(repeating: text, count: low)
        default: return "\(text){\(count.lowerBound),\(count.upperBound)}"
        }
    }

    /// A class of decimal digits, runs as ranges: `[13578]`, `[0-9]`, or the digit alone.
    private static func digitClass(_ digits: [Int]) -> String {
        let sorted = Set(digits).sorted()
        if sorted.count == 1 { return String(sorted[0]) }
        var runs: [ClosedRange<Int>] = []
        for digit in sorted {
            if let last = runs.last, last.upperBound + 1 == digit {
                runs[runs.count - 1] = last.lowerBound...digit
            } else {
                runs.append(digit...digit)
            }
        }
        let inside = runs.map { $0.count >= 3 ? "\($0.lowerBound)-\($0.upperBound)" : $0.map(String.init).joined() }.joined()
        return "[\(inside)]"
    }
}
