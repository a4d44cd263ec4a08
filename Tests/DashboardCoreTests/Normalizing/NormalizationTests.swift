import Foundation
import Testing

@testable import DashboardCore

/// Unicode scalars, so that tests tell NFC from NFD (`String ==` treats them as equal).
func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

@Suite("TextNormalizer", .storeIndependent)
struct TextNormalizerTests {
    @Test(
        "free text is trimmed and every whitespace run becomes one space",
        arguments: [
            ("  Essay  ", "Essay"),
            ("\u{00A0}Essay\u{00A0}", "Essay"),
            ("Once upon \na time", "Once upon a time"),
            ("Once upon \r\na time", "Once upon a time"),
            ("a\t\t b\r c\u{2028}d", "a b c d"),
            ("x\u{2003}\u{00A0} y", "x y"),
            ("\n\tlead and trail\r\n", "lead and trail"),
            ("", ""),
            (" \u{00A0}\t\n", ""),
            ("ha \"ha\" ha", "ha \"ha\" ha"),
        ])
    func text(raw: String, expected: String) {
        #expect(scalars(TextNormalizer.text(raw)) == scalars(expected))
    }

    @Test("free text and ids are put in Unicode NFC")
    func nfc() {
        #expect(scalars(TextNormalizer.text(" Cafe\u{301}  au  lait ")) == scalars("Caf\u{E9} au lait"))
        #expect(scalars(TextNormalizer.id(" Cafe\u{301} ")) == scalars("Caf\u{E9}"))
        #expect(scalars(TextNormalizer.nfc("A\u{30A}")) == ["\u{C5}"])
        #expect(scalars(TextNormalizer.nfc("plain ascii")) == scalars("plain ascii"))
    }

    @Test(
        "ids are trimmed and otherwise exact: case and inner spaces kept",
        arguments: [
            ("  C-101 ", "C-101"), ("\u{00A0}t1\t", "t1"), ("a  b", "a  b"), ("Abc", "Abc"), ("a\nb", "a\nb"), ("   ", ""),
        ])
    func id(raw: String, expected: String) {
        #expect(scalars(TextNormalizer.id(raw)) == scalars(expected))
    }

    @Test("trimmingUnicodeWhitespace trims spaces, tabs, line breaks and no-break spaces only at the ends")
    func trimming() {
        #expect(" \t\n x \u{00A0}y\u{00A0}\r\n".trimmingUnicodeWhitespace() == "x \u{00A0}y")
        #expect("".trimmingUnicodeWhitespace() == "")
        #expect("\u{00A0}\u{2003}".trimmingUnicodeWhitespace() == "")
        #expect("kept".trimmingUnicodeWhitespace() == "kept")
    }
}

@Suite("Priority.parse", .storeIndependent)
struct PriorityTests {
    @Test(
        "spellings and synonyms, case-insensitive, trimmed",
        arguments: [
            ("high", Priority.high), ("HIGH", .high), (" Hi ", .high), ("urgent", .high), ("Important", .high),
            ("normal", .normal), ("Med", .normal), ("medium", .normal), ("MID", .normal), ("default", .normal),
            ("", .normal), ("  ", .normal), ("\u{00A0}", .normal),
            ("low", .low), ("LO", .low), ("minor", .low), ("\tLow\n", .low),
        ])
    func accepted(raw: String, expected: Priority) throws {
        #expect(try Priority.parse(raw) == expected)
    }

    @Test("anything else is invalid_priority naming the raw value", arguments: ["highest", "1", "h", "none", "urgent!", "hígh"])
    func rejected(raw: String) {
        #expect(
            throws: FieldProblem(
                code: .invalidPriority, column: "priority", value: raw, message: "\"\(raw)\" is not a priority",
                hint: "use low, normal or high (also: hi, urgent, med, medium, lo, or empty for normal)")
        ) {
            try Priority.parse(raw)
        }
    }

    @Test("priorities sort low < normal < high, and high ranks first")
    func ordering() {
        #expect([Priority.high, .low, .normal].sorted() == [.low, .normal, .high])
        #expect([Priority.high, .normal, .low].map(\.rank) == [0, 1, 2])
    }
}

@Suite("CompletedParser", .storeIndependent)
struct CompletedParserTests {
    @Test(
        "true spellings",
        arguments: ["true", "TRUE", "yes", "Yes", "y", "Y", "1", "x", "X", "done", "Done", "✓", "✔", "t", "completed", " yes\u{00A0}"])
    func trueValues(raw: String) throws {
        #expect(try CompletedParser.parse(raw) == true)
    }

    @Test(
        "false spellings, empty included", arguments: ["false", "False", "no", "NO", "n", "0", "", "   ", "open", "OPEN", "✗", "f", "todo"])
    func falseValues(raw: String) throws {
        #expect(try CompletedParser.parse(raw) == false)
    }

    @Test("anything else is invalid_boolean naming the raw value", arguments: ["maybe", "2", "✘", "-", "yes please", "nope"])
    func rejected(raw: String) {
        #expect(
            throws: FieldProblem(
                code: .invalidBoolean, column: "completed", value: raw, message: "\"\(raw)\" is not a yes/no value",
                hint: "use true/false, yes/no, y/n, 1/0, x/empty, done/open or ✓")
        ) {
            try CompletedParser.parse(raw)
        }
    }
}

@Suite("TimeZoneCatalog", .storeIndependent)
struct TimeZoneCatalogTests {
    @Test(
        "IANA names are accepted case-insensitively and given their canonical spelling",
        arguments: [
            ("Europe/Berlin", "Europe/Berlin"), ("europe/berlin", "Europe/Berlin"), ("  America/New_York ", "America/New_York"),
            ("AMERICA/ARGENTINA/BUENOS_AIRES", "America/Argentina/Buenos_Aires"), ("Asia/Kathmandu", "Asia/Kathmandu"),
            ("UTC", "UTC"), ("utc", "UTC"), ("", ""), (" \u{00A0}", ""),
        ])
    func accepted(raw: String, expected: String) throws {
        #expect(try TimeZoneCatalog.parse(raw) == expected)
    }

    @Test(
        "abbreviations, offsets and unknown names are invalid_timezone",
        arguments: ["PST", "CEST", "+01:00", "GMT+1", "Europe/Berlinn", "Mars/Olympus", "Berlin"])
    func rejected(raw: String) {
        #expect(
            throws: FieldProblem(
                code: .invalidTimezone, column: "timezone", value: raw, message: "\"\(raw)\" is not an IANA time zone name",
                hint: "use a name such as Europe/Berlin or America/New_York (not an abbreviation like PST)")
        ) {
            try TimeZoneCatalog.parse(raw)
        }
        #expect(TimeZoneCatalog.canonicalName(raw) == nil)
    }

    @Test("current IANA names that Foundation's identifier list lacks on Linux are accepted")
    func currentNamesMissingFromFoundationList() {
        // TimeZone.knownTimeZoneIdentifiers on Linux (swift-corelibs-foundation, ICU) lists
        // Asia/Calcutta but not Asia/Kolkata, and no Etc/ names, although tzdata ships them.
        #expect(TimeZoneCatalog.canonicalName("asia/kolkata") == "Asia/Kolkata")
        #expect(TimeZoneCatalog.canonicalName("Etc/UTC") == "Etc/UTC")
        #expect(TimeZoneCatalog.canonicalName("America/Argentina/Buenos_Aires") == "America/Argentina/Buenos_Aires")
        #expect(TimeZoneCatalog.canonicalName("posix/Europe/Berlin") == nil)
    }

    /// The zone and link names of the system's tzdata (the package the Makefile installs), as
    /// `zic` reads them: `Z NAME …` and `L TARGET NAME` lines of tzdata.zi.
    static func tzdataNames() throws -> [String] {
        let text = try String(contentsOfFile: "/usr/share/zoneinfo/tzdata.zi", encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            if words.count >= 2, words[0] == "Z" { return String(words[1]) }
            if words.count >= 3, words[0] == "L" { return String(words[2]) }
            return nil
        }
    }

    @Test("every zone and link name tzdata ships is known, in any case, stored in tzdata's spelling (Factory aside)")
    func everyTzdataName() throws {
        let names = try Self.tzdataNames().filter { $0 != "Factory" }
        #expect(names.count > 590, "\(names.count) names in tzdata.zi")
        #expect(Set(names.map { $0.lowercased() }).count == names.count, "two tzdata names differ only in case")
        for name in names {
            #expect(try TimeZoneCatalog.parse(name) == name)
            #expect(try TimeZoneCatalog.parse(name.lowercased()) == name)
            #expect(try TimeZoneCatalog.parse(" \(name.uppercased())\u{A0}") == name)
        }
        #expect(Set(TimeZoneCatalog.canonicalByLowercase.values) == Set(names + ["UTC"]))
    }

    @Test(
        "the single names at the top of zoneinfo and the backward links are zones, a case variant is the name it varies",
        arguments: [
            ("EST5EDT", "EST5EDT"), ("est5edt", "EST5EDT"), ("CST6CDT", "CST6CDT"), ("MST7MDT", "MST7MDT"), ("pst8pdt", "PST8PDT"),
            ("EST", "EST"), ("MST", "MST"), ("HST", "HST"), ("GMT", "GMT"), ("gmt+0", "GMT+0"), ("UTC", "UTC"), ("Zulu", "Zulu"),
            ("CET", "CET"), ("Etc/GMT+5", "Etc/GMT+5"), ("etc/gmt-14", "Etc/GMT-14"), ("US/Eastern", "US/Eastern"),
            ("us/eastern", "US/Eastern"), ("Asia/Calcutta", "Asia/Calcutta"), ("NZ-CHAT", "NZ-CHAT"),
        ])
    func singleNamesAndLinks(raw: String, expected: String) throws {
        #expect(try TimeZoneCatalog.parse(raw) == expected)
    }

    @Test("a tzdata name means what tzdata says: EST5EDT keeps US daylight saving time, EST is UTC-5 all year")
    func namesMeanWhatTzdataSays() throws {
        let july = Date(timeIntervalSince1970: 1_783_000_000)  // 2026-07-02
        let january = Date(timeIntervalSince1970: 1_768_000_000)  // 2026-01-09
        let zone = { (name: String) in try #require(TimeZone(identifier: try TimeZoneCatalog.parse(name))) }
        #expect(try zone("est5edt").secondsFromGMT(for: july) == -4 * 3600)
        #expect(try zone("EST5EDT").secondsFromGMT(for: january) == -5 * 3600)
        #expect(try zone("EST").secondsFromGMT(for: july) == -5 * 3600)
        #expect(try zone("Etc/GMT+5").secondsFromGMT(for: july) == -5 * 3600)
    }

    @Test(
        "abbreviations tzdata does not name a zone by, zoneinfo's other files and its folders are unknown",
        arguments: [
            "PST", "CEST", "IST", "GMT+1", "EST5", "posixrules", "localtime", "right/UTC", "posix/EST5EDT", "zone.tab",
            "tzdata.zi", "leapseconds", "iso3166.tab", "Etc", "America", "US", "Europe/",
        ])
    func otherFilesAreUnknown(raw: String) {
        #expect(TimeZoneCatalog.canonicalName(raw) == nil)
        #expect(throws: FieldProblem.self) { try TimeZoneCatalog.parse(raw) }
    }

    @Test("Factory, tzdata's placeholder for a zone not set, is refused saying so", arguments: ["Factory", "factory"])
    func factoryIsRefused(raw: String) {
        #expect(TimeZoneCatalog.canonicalName(raw) == nil)
        #expect(
            throws: FieldProblem(
                code: .invalidTimezone, column: "timezone", value: raw,
                message: "\"\(raw)\" is tzdata's placeholder for a zone that is not set, not a time zone",
                hint: "name the course's zone (such as Europe/Berlin), or leave the cell empty for the database's default zone")
        ) {
            try TimeZoneCatalog.parse(raw)
        }
    }
}
