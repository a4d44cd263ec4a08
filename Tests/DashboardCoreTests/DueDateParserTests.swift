import Foundation
import Testing

@testable import DashboardCore

@Suite("DueDateParser", .storeIndependent)
struct DueDateParserTests {
    static let forms = "use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] (course time) or add Z / ±HH:MM for an exact instant"

    static func date(_ y: Int, _ m: Int, _ d: Int) -> CivilDate { CivilDate(year: y, month: m, day: d) }

    @Test("an empty due is undated", arguments: ["", "   ", "\u{00A0}\t"])
    func undated(raw: String) throws {
        #expect(try DueDateParser.parse(raw, dateOrder: nil) == nil)
    }

    @Test(
        "ISO dates, local date-times and instants",
        arguments: [
            ("2026-11-29", DueDate.date(date(2026, 11, 29)), "2026-11-29"),
            (" 2026-11-29\u{00A0}", .date(date(2026, 11, 29)), "2026-11-29"),
            ("2026/11/29", .date(date(2026, 11, 29)), "2026-11-29"),
            ("2024-02-29", .date(date(2024, 2, 29)), "2024-02-29"),
            ("2000-02-29", .date(date(2000, 2, 29)), "2000-02-29"),
            ("1900-01-01", .date(date(1900, 1, 1)), "1900-01-01"),
            ("2200-12-31", .date(date(2200, 12, 31)), "2200-12-31"),
            ("2026-11-29T14:30", .local(date(2026, 11, 29), hour: 14, minute: 30, second: 0), "2026-11-29T14:30:00"),
            ("2026-11-29 14:30:05", .local(date(2026, 11, 29), hour: 14, minute: 30, second: 5), "2026-11-29T14:30:05"),
            ("2026-11-29t9:05", .local(date(2026, 11, 29), hour: 9, minute: 5, second: 0), "2026-11-29T09:05:00"),
            ("2026-11-29T23:59:59.999", .local(date(2026, 11, 29), hour: 23, minute: 59, second: 59), "2026-11-29T23:59:59"),
            ("2026-11-29T14:30Z", .instant(1_795_962_600), "2026-11-29T14:30:00Z"),
            ("2026-11-29 14:30 z", .instant(1_795_962_600), "2026-11-29T14:30:00Z"),
            ("2026-11-29T15:30+01:00", .instant(1_795_962_600), "2026-11-29T14:30:00Z"),
            ("2026-11-29T20:00+0530", .instant(1_795_962_600), "2026-11-29T14:30:00Z"),
            ("2026-11-29T11:30-03", .instant(1_795_962_600), "2026-11-29T14:30:00Z"),
            ("2026-11-29T00:30+01:00", .instant(1_795_908_600), "2026-11-28T23:30:00Z"),
            ("2026-11-29T23:30-05:00", .instant(1_796_013_000), "2026-11-30T04:30:00Z"),
            ("1969-12-31T23:59:59Z", .instant(-1), "1969-12-31T23:59:59Z"),
            ("1970-01-01T00:00:00Z", .instant(0), "1970-01-01T00:00:00Z"),
        ])
    func accepted(raw: String, expected: DueDate, storage: String) throws {
        let due = try DueDateParser.parse(raw, dateOrder: nil)
        #expect(due == expected)
        #expect(due?.storageText == storage)
        #expect(DueDate(storageText: storage) == expected)
    }

    @Test(
        "slashed, dotted and dashed day/month dates follow the given date order",
        arguments: [
            ("11/29/2026", DateOrder.mdy, "2026-11-29"), ("29/11/2026", .dmy, "2026-11-29"), ("29.11.2026", .dmy, "2026-11-29"),
            ("1/2/2026", .mdy, "2026-01-02"), ("1/2/2026", .dmy, "2026-02-01"), ("11-29-2026 14:00", .mdy, "2026-11-29T14:00:00"),
            ("29/11/2026 08:15+01:00", .dmy, "2026-11-29T07:15:00Z"), ("2026-11-29", .dmy, "2026-11-29"),
        ])
    func dateOrder(raw: String, order: DateOrder, storage: String) throws {
        #expect(try DueDateParser.parse(raw, dateOrder: order)?.storageText == storage)
    }

    @Test(
        "slashed dates without a date order are ambiguous_date, with a hint when the order is obvious",
        arguments: [
            ("11/29/2026", " (this one looks like month/day/year)"), ("29/11/2026", " (this one looks like day/month/year)"),
            ("01/02/2026", ""), ("1.2.2026 10:00", ""), ("11/29/1850", " (this one looks like month/day/year)"),
        ])
    func ambiguous(raw: String, hintSuffix: String) {
        #expect(
            throws: FieldProblem(
                code: .ambiguousDate, column: "due", value: raw, message: "\"\(raw)\" could be month/day or day/month",
                hint: "give the date order (month/day or day/month), or write the date as YYYY-MM-DD" + hintSuffix)
        ) {
            try DueDateParser.parse(raw, dateOrder: nil)
        }
    }

    @Test(
        "years outside 1900–2200 are implausible_date",
        arguments: [
            ("1899-12-31", 1899, nil), ("2201-01-01", 2201, nil), ("0026-11-29", 26, nil), ("9999-01-01T10:00Z", 9999, nil),
            ("11/29/1850", 1850, DateOrder.mdy),
        ])
    func implausible(raw: String, year: Int, order: DateOrder?) {
        #expect(
            throws: FieldProblem(
                code: .implausibleDate, column: "due", value: raw, message: "the year \(year) is outside 1900–2200",
                hint: "check the year; dates outside 1900–2200 are treated as typing errors")
        ) {
            try DueDateParser.parse(raw, dateOrder: order)
        }
    }

    @Test(
        "anything else is invalid_date saying why",
        arguments: [
            ("tomorrow", "it does not start with a date"),
            ("20261129", "expected YYYY-MM-DD"),
            ("2026-1129", "expected YYYY-MM-DD"),
            ("2026-11/29", "expected YYYY-MM-DD"),
            ("26-11-29", "expected YYYY-MM-DD"),
            ("2026-13-01", "there is no month 13"),
            ("2026-00-10", "there is no month 0"),
            ("2026-02-29", "month 2 of 2026 has 28 days"),
            ("2026-11-31", "month 11 of 2026 has 30 days"),
            ("2026-11-00", "month 11 of 2026 has 30 days"),
            ("2026-11-29 extra", "expected a time such as T14:30"),
            ("2026-11-29Z", "expected a time such as T14:30"),
            ("2026-11-29T14:3", "expected a time such as T14:30"),
            ("2026-11-29T14", "expected a time such as T14:30"),
            ("2026-11-29T14:30:5", "seconds must have two digits"),
            ("2026-11-29T14:30:05.", "expected digits after the decimal point"),
            ("2026-11-29T24:00", "the time is out of range"),
            ("2026-11-29T14:60", "the time is out of range"),
            ("2026-11-29T14:30:60", "the time is out of range"),
            ("2026-11-29T14:30+15:00", "the offset +15:00 is out of range: offsets run from -14:00 to +14:00"),
            ("2026-11-29T14:30+01:60", "the offset +01:60 has more than 59 minutes"),
            ("2026-11-29T14:30+1", "expected an offset such as +01:00"),
            ("2026-11-29T14:30+01:0", "expected an offset such as +01:00"),
            ("2026-11-29T14:30 tomorrow", "unexpected text after the date"),
            ("2026-11-29T14:30Z+01:00", "unexpected text after the date"),
        ])
    func invalid(raw: String, why: String) {
        #expect(
            throws: FieldProblem(
                code: .invalidDate, column: "due", value: raw, message: "\"\(raw)\" is not a date: \(why)", hint: Self.forms)
        ) {
            try DueDateParser.parse(raw, dateOrder: nil)
        }
    }

    @Test(
        "offsets run from -14:00 to +14:00 inclusive, not one minute beyond, in every spelling",
        arguments: [
            ("2026-11-29T14:30+14:00", "2026-11-29T00:30:00Z"), ("2026-11-29T14:30-14:00", "2026-11-30T04:30:00Z"),
            ("2026-11-29T14:30+1400", "2026-11-29T00:30:00Z"), ("2026-11-29T14:30-14", "2026-11-30T04:30:00Z"),
            ("2026-11-29T14:30+13:59", "2026-11-29T00:31:00Z"), ("2026-11-29T14:30-13:59", "2026-11-30T04:29:00Z"),
            ("2026-11-29T14:30+00:00", "2026-11-29T14:30:00Z"), ("2026-11-29T14:30-00:00", "2026-11-29T14:30:00Z"),
        ])
    func offsetsAtTheEdges(raw: String, storage: String) throws {
        #expect(try DueDateParser.parse(raw, dateOrder: nil)?.storageText == storage)
    }

    @Test(
        "an offset beyond ±14:00 is invalid_date saying the rule, whatever its minutes and spelling",
        arguments: [
            ("+14:59", "+14:59"), ("-14:30", "-14:30"), ("+14:01", "+14:01"), ("-14:01", "-14:01"), ("+1401", "+14:01"),
            ("-1459", "-14:59"), ("+15", "+15:00"), ("-15:00", "-15:00"), ("+99:00", "+99:00"), (" +14:30", "+14:30"),
        ])
    func offsetsBeyondTheRule(offset: String, written: String) {
        let raw = "2026-11-29T14:30" + offset
        #expect(
            throws: FieldProblem(
                code: .invalidDate, column: "due", value: raw,
                message: "\"\(raw)\" is not a date: the offset \(written) is out of range: offsets run from -14:00 to +14:00",
                hint: Self.forms)
        ) {
            try DueDateParser.parse(raw, dateOrder: nil)
        }
    }

    @Test(
        "an offset's minutes are 00–59, also under 14 hours",
        arguments: [("+05:60", "+05:60"), ("-0099", "-00:99"), ("+14:60", "+14:60")])
    func offsetMinutesOutOfRange(offset: String, written: String) {
        let raw = "2026-11-29T14:30" + offset
        #expect(
            throws: FieldProblem(
                code: .invalidDate, column: "due", value: raw,
                message: "\"\(raw)\" is not a date: the offset \(written) has more than 59 minutes", hint: Self.forms)
        ) {
            try DueDateParser.parse(raw, dateOrder: nil)
        }
    }

    @Test(
        "a fraction of a second of any number of digits is accepted and dropped: the second is kept, never rounded up",
        arguments: [
            ("2026-11-29T14:30:15.1", "2026-11-29T14:30:15"), ("2026-11-29T14:30:15,123456789", "2026-11-29T14:30:15"),
            ("2026-11-29T14:30:15.1234567890", "2026-11-29T14:30:15"),
            ("2026-11-29T23:59:59.999999999999999999999999999999", "2026-11-29T23:59:59"),
            ("2026-11-29T14:30:15.0000000000001Z", "2026-11-29T14:30:15Z"),
            ("2026-11-29T14:30:15.99999999999+01:00", "2026-11-29T13:30:15Z"),
        ])
    func fractionsOfAnyLength(raw: String, storage: String) throws {
        let due = try DueDateParser.parse(raw, dateOrder: nil)
        #expect(due?.storageText == storage)
        // The stored text reads back as the same due (DueDate.canonical), as a re-import compares it.
        #expect(DueDate(storageText: storage) == due)
    }

    @Test("--as-of and the other times read by the same parser follow the same offset and fraction rules")
    func timesFollowTheDueRules() {
        let utc = TimeZone(identifier: "UTC") ?? .current
        #expect(Timestamp.parse("2026-11-29T08:00+14:00", timeZone: utc) == Date(timeIntervalSince1970: 1_795_888_800))
        #expect(Timestamp.parse("2026-11-29T08:00+14:30", timeZone: utc) == nil)
        #expect(Timestamp.whyUnreadable("2026-11-29T08:00+14:30") == "has an offset out of range: offsets run from -14:00 to +14:00")
        #expect(Timestamp.whyUnreadable("2026-11-29T08:00-14:01") == "has an offset out of range: offsets run from -14:00 to +14:00")
        #expect(Timestamp.whyUnreadable("2026-11-29T08:00+05:60") == "cannot be read as a time")
        #expect(Timestamp.parse("2026-11-29T08:00:00.1234567890123Z", timeZone: utc) == Date(timeIntervalSince1970: 1_795_939_200))
    }

    @Test("storage text that is not canonical is read back only when it parses")
    func storageTextRoundTrip() {
        #expect(DueDate(storageText: "2026-11-29T14:30:00Z") == .instant(1_795_962_600))
        #expect(DueDate(storageText: "not a date") == nil)
        #expect(DueDate(storageText: "11/29/2026") == nil)
    }

    @Test("CivilDate counts days from 1970-01-01 and back, across leap years and centuries")
    func civilDateDays() {
        #expect(CivilDate(year: 1970, month: 1, day: 1).daysSinceEpoch == 0)
        #expect(CivilDate(year: 2000, month: 3, day: 1).daysSinceEpoch == 11_017)
        #expect(CivilDate(year: 1900, month: 1, day: 1).daysSinceEpoch == -25_567)
        #expect(CivilDate(daysSinceEpoch: 20_786) == CivilDate(year: 2026, month: 11, day: 29))
        for days in stride(from: -25_567, through: 84_000, by: 37) {
            #expect(CivilDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
        #expect(CivilDate.daysIn(month: 2, year: 1900) == 28)
        #expect(CivilDate.daysIn(month: 2, year: 2000) == 29)
        #expect(CivilDate(year: 987, month: 6, day: 5).isoText == "0987-06-05")
    }
}
