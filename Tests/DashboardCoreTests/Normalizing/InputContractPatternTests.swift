import Foundation
import Testing

@testable import DashboardCore

/// The patterns of `dashboard schema` accept exactly what the parsers accept: each pattern is
/// run (as ICU reads it, anchored at both ends as Frictionless anchors it) over thousands of
/// values and compared with the parser's verdict.
@Suite("InputContract: the patterns agree with the parsers", .storeIndependent)
struct InputContractPatternTests {
    /// True when `pattern` matches the whole of `value`.
    static func matches(_ pattern: String, _ value: String) throws -> Bool {
        try matches(NSRegularExpression(pattern: "\\A(?:\(pattern))\\z"), value)
    }

    static func matches(_ regex: NSRegularExpression, _ value: String) -> Bool {
        regex.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
    }

    /// True when `parse` does not throw.
    static func accepts(_ parse: () throws -> Void) -> Bool {
        do {
            try parse()
            return true
        } catch {
            return false
        }
    }

    static let padding = ["", " ", "\u{A0}", "\t", "\n", "\u{3000}", " \u{2007}\r\n"]

    /// Dates in every layout the parser reads or almost reads, around the edges of the
    /// calendar and of the plausible years.
    static var dates: [String] {
        let years = ["1899", "1900", "1904", "2000", "2024", "2100", "2200", "2201", "0099", "199"]
        let months = [0, 1, 2, 4, 9, 11, 12, 13]
        let days = [0, 1, 9, 10, 28, 29, 30, 31, 32]
        func written(_ n: Int, _ width: Int) -> String {
            let digits = String(n)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var out: [String] = []
        for year in years {
            for month in months {
                for day in days {
                    for (mw, dw) in [(1, 1), (2, 2), (1, 2), (3, 2)] {
                        let (m, d) = (written(month, mw), written(day, dw))
                        for separator in ["-", "/", "."] {
                            out.append(year + separator + m + separator + d)
                            out.append(m + separator + d + separator + year)
                            out.append(d + separator + m + separator + year)
                        }
                        out.append("\(year)-\(m)/\(d)")
                        out.append("\(d)/\(m)-\(year)")
                    }
                }
            }
        }
        return out
    }

    /// Times after a valid date: separators, hours, seconds, fractions and offsets.
    static var times: [String] {
        var out: [String] = []
        for separator in ["T", "t", " ", "  ", "", "\t", "\u{A0}", "T "] {
            for hour in ["0", "9", "09", "23", "24", "123"] {
                for minutes in [":05", ":5", ":60", ""] {
                    for seconds in ["", ":00", ":59", ":60", ":5", ":07.1", ":07,123456789", ":07.1234567890", ":07.", ".5"] {
                        for offset in ["", "Z", "z", " Z", "+14:00", "-14:59", "+15:00", "-05", "+5", "+0530", "+05:3", "+05:30 ", "X"] {
                            out.append(separator + hour + minutes + seconds + offset)
                        }
                    }
                }
            }
        }
        return out
    }

    @Test("the due pattern accepts exactly what DueDateParser accepts, with or without a date order")
    func duePattern() throws {
        let others = ["", " ", "\u{A0}", "2024-02-29", "2026-11-29T", "T10:00", "2026-11-29x", "２０２６-11-29", "2026-11-29\u{A0}10:00"]
        for order in [nil, DateOrder.mdy, .dmy] {
            let regex = try NSRegularExpression(pattern: "\\A(?:\(ContractPattern.due(dateOrder: order)))\\z")
            var (checked, accepted) = (0, 0)
            var values = Self.dates + Self.times.map { "2024-02-29" + $0 } + Self.times.map { "29/02/2024" + $0 } + others
            values += Self.padding.flatMap { pad in ["2024-02-29", "2026-11-29 14:30", "11/29/2026"].map { pad + $0 + pad } }
            for value in values {
                let parsed = Self.accepts { _ = try DueDateParser.parse(value, dateOrder: order) }
                let matched = Self.matches(regex, value)
                #expect(matched == parsed, "\(value.debugDescription) with \(order?.rawValue ?? "no date order"): parser \(parsed)")
                checked += 1
                if parsed { accepted += 1 }
            }
            #expect(checked > 30_000 && accepted > 2_000 && checked - accepted > 2_000, "\(accepted) of \(checked) accepted")
        }
    }

    @Test("the priority and completed patterns accept exactly the parsers' words, in any case and trimmed")
    func wordPatterns() throws {
        let priority = ContractPattern.words(Priority.synonyms.keys)
        let completed = ContractPattern.words(CompletedParser.trueWords.union(CompletedParser.falseWords))
        let words = Array(Priority.synonyms.keys) + CompletedParser.trueWords + CompletedParser.falseWords
        var values = ["hig", "highh", "h i", "asap", "2", "yes!", "ye s", "İ", "\u{212A}", "✓✓", "nope", "HIGH HIGH"]
        for word in words {
            values += [word, word.uppercased(), word.capitalized, String(word.reversed())]
            values += Self.padding.map { $0 + word + $0 }
        }
        for value in values {
            #expect(try Self.matches(priority, value) == Self.accepts { _ = try Priority.parse(value) }, "\(value.debugDescription)")
            #expect(
                try Self.matches(completed, value) == Self.accepts { _ = try CompletedParser.parse(value) }, "\(value.debugDescription)")
        }
    }

    @Test("the required pattern accepts a value that is not empty once normalized, as ids and titles are")
    func nonBlankPattern() throws {
        let values = ["", " ", "\u{A0}", "\u{3000}a", "a", " a ", "\n\t", "\u{200B}", "\u{1C}", "a\nb", "\u{2028}", " \u{85}x\u{85} "]
        for value in values {
            #expect(try Self.matches(ContractPattern.nonBlank, value) == !TextNormalizer.id(value).isEmpty, "\(value.debugDescription)")
            #expect(try Self.matches(ContractPattern.nonBlank, value) == !TextNormalizer.text(value).isEmpty, "\(value.debugDescription)")
        }
    }

    @Test("the time zone pattern accepts every name the catalog knows, in any case, and refuses what is not a name's shape")
    func timeZonePattern() throws {
        let names = Array(TimeZoneCatalog.canonicalByLowercase.values)
        #expect(names.count > 590)
        for name in names + names.map({ $0.lowercased() }) + names.map({ " \($0.uppercased())\u{A0}" }) {
            #expect(try Self.matches(ContractPattern.timeZone, name), "\(name)")
        }
        // The shape is only a necessary condition: the catalog refuses names of the right shape too.
        for refused in ["PST", "CEST", "Berlin", "Mars/Olympus", "Factory"] {
            #expect(throws: FieldProblem.self) { try TimeZoneCatalog.parse(refused) }
            #expect(try Self.matches(ContractPattern.timeZone, refused), "\(refused)")
        }
        for refused in ["+01:00", "Europe/", "Europe Berlin", "/UTC", "5EST", "Europe//Berlin", "UTC\u{200B}"] {
            #expect(throws: FieldProblem.self) { try TimeZoneCatalog.parse(refused) }
            #expect(try !Self.matches(ContractPattern.timeZone, refused), "\(refused)")
        }
        #expect(try Self.matches(ContractPattern.timeZone, ""))
    }

    @Test("the teacher's address pattern accepts exactly what the normalizer keeps, but for lengths")
    func emailPattern() throws {
        let locals = ["a", "amaka.okafor", "o'brien", "x+tag", "a..b", ".a", "a.", "a b", "\"a\"", "é", "!#$%&'*+-/=?^_`{|}~", ""]
        let domains = ["school.example", "x", "a-b.c", "-a.b", "a-.b", "a..b", "a_b.c", "école.fr", "[192.0.2.1]", "b.", ""]
        var values = [""]
        for local in locals {
            for domain in domains { values.append(local + "@" + domain) }
        }
        values += ["a@b@c", "a@b, c@d", "Amaka <a@b.c>", "a@b.c\u{200B}", "plain"]
        var checked = 0
        for value in values {
            for pad in [("", ""), (" ", "\u{A0}"), ("\t", "\n")] {
                let padded = pad.0 + value + pad.1
                let accepted = Self.accepts { _ = try RowNormalizer.teacherEmail(padded) }
                #expect(try Self.matches(ContractPattern.email, padded) == accepted, "\(padded.debugDescription)")
                checked += 1
            }
        }
        #expect(checked > 400)
        // Only the lengths are the normalizer's alone.
        let long = String(repeating: "a", count: 65) + "@x.org"
        #expect(!Self.accepts { _ = try RowNormalizer.teacherEmail(long) })
        #expect(try Self.matches(ContractPattern.email, long))
    }

    @Test("the language pattern accepts exactly the tags the normalizer keeps: well-formed, of a supported language")
    func languagePattern() throws {
        let languages = ["en", "DE", "fr", "Es", "jA", "zh", "pt", "xx", "e", "deu", "german", "x", "i", "dé", "3d"]
        let rests = [
            "", "-AT", "_at", "-Hant", "-Hant-TW", "-419", "-1996", "-Latn-RS-1996", "-u-ca-gregory", "-x-priv", "-abc", "--AT", "-AT-",
            "-a", "-x", "-AT-DE", "-a-bc-x-y", " AT", "-Latn-Latn", "-12", "-1234", "-abcd5", "-abcdefghi", "-AT-x-a-b-c",
            "-a-bc-b-cd", "-x-abcdefghi", "-AT_1996_u_co_phonebk", "-ab-c", "-abc-def", "-aaa-bbb-ccc-ddd", "-u-ca", "-4",
        ]
        var checked = 0
        let regex = try NSRegularExpression(pattern: "\\A(?:\(ContractPattern.language))\\z")
        for language in languages {
            for rest in rests {
                for pad in [("", ""), (" ", "\u{A0}"), ("\t", "\n")] {
                    let value = pad.0 + language + rest + pad.1
                    let accepted = Self.accepts { _ = try RowNormalizer.language(value) }
                    #expect(Self.matches(regex, value) == accepted, "\(value.debugDescription)")
                    checked += 1
                }
            }
        }
        #expect(checked > 1000)
        #expect(try Self.matches(ContractPattern.language, ""))
        #expect(try Self.matches(ContractPattern.language, " "))
    }

    @Test("the id patterns accept exactly the ids the normalizer keeps: no invisible format character, required ones not blank")
    func idPatterns() throws {
        var values = ["", " ", "\u{A0}", "a", " a ", "C1", "C 1", "\u{3000}x", "\u{1B}[31m", "a\tb", "é", "e\u{301}", "👩‍💻", "\u{85}x\u{85}"]
        // Every format character of the Basic Multilingual Plane, alone, first, inside, last, padded.
        for value in UInt32(0xA0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.generalCategory == .format else { continue }
            values += ["\(scalar)", "\(scalar)C1", "C\(scalar)1", "C1\(scalar)", " \(scalar) "]
        }
        #expect(values.count > 200)
        let required = try NSRegularExpression(pattern: "\\A(?:\(ContractPattern.requiredID))\\z")
        let optional = try NSRegularExpression(pattern: "\\A(?:\(ContractPattern.optionalID))\\z")
        for value in values {
            let clean = InvisibleCharacters.find(in: value).isEmpty
            #expect(Self.matches(required, value) == (clean && !TextNormalizer.id(value).isEmpty), "\(value.debugDescription)")
            #expect(Self.matches(optional, value) == clean, "\(value.debugDescription)")
        }
        // Above the Basic Multilingual Plane the pattern cannot name them (docs/formats.md): the
        // dashboard refuses a tag character, a validator does not.
        for astral in ["C1\u{E0041}", "\u{1D173}C1", "C\u{110BD}1"] {
            #expect(!InvisibleCharacters.find(in: astral).isEmpty)
            #expect(Self.matches(required, astral), "\(astral.debugDescription)")
        }
    }

    @Test(
        "numbers are written compactly",
        arguments: [
            (ContractPattern.fixedWidth(1900...2200, width: 4), "(19[0-9]{2}|2([01][0-9]{2}|200))"),
            (ContractPattern.fixedWidth(0...9999, width: 4), "[0-9]{4}"),
            (ContractPattern.number(1...12, maxDigits: 2), "(0?[1-9]|1[0-2])"),
            (ContractPattern.number(1...31, maxDigits: 3), "(0{0,2}[1-9]|0?[12][0-9]|0?3[01])"),
            (ContractPattern.number(0...14, maxDigits: 2, minDigits: 2), "(0[0-9]|1[0-4])"),
            (ContractPattern.number([2], maxDigits: 2), "0?2"),
        ])
    func numbers(pattern: String, expected: String) {
        #expect(pattern == expected)
    }

    @Test("white space is the set the normalizers trim, as \\u escapes")
    func whiteSpace() {
        #expect(
            ContractPattern.whiteSpaceClass == "\\u0009-\\u000d \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028-\\u2029\\u202f\\u205f\\u3000")
    }
}
