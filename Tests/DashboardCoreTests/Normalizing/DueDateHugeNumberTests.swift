import Foundation
import Testing

@testable import DashboardCore

/// Issue 11, class 3: numbers inside a due or an as-of time are read with a fixed number of
/// digits, so a 30-digit year, hour, minute, second or offset is a refusal, never an
/// overflow trap; the stored forms read back the same way.
@Suite("Dues and times with huge numbers", .storeIndependent)
struct DueDateHugeNumberTests {
    static let huge = "999999999999999999999999999999"

    @Test(
        "a huge number anywhere in a due is invalid_date",
        arguments: [
            "\(huge)-01-01", "2026-\(huge)-01", "2026-01-\(huge)", "2026-11-30T\(huge):00", "2026-11-30T10:\(huge)",
            "2026-11-30T10:00:\(huge)", "2026-11-30T10:00+\(huge)", "2026-11-30T10:00-\(huge):00",
            "01/02/\(huge)", "\(huge)/01/2026", "9223372036854775808-01-01", "-9223372036854775808-01-01",
        ])
    func hugeNumbersAreRefused(raw: String) {
        #expect(throws: FieldProblem.self) { try DueDateParser.parse(raw, dateOrder: .dmy) }
        #expect(Timestamp.parse(raw, timeZone: TimeZone(identifier: "UTC") ?? .current) == nil)
        #expect(DueDate(storageText: raw) == nil)
    }

    @Test("a fraction of a second is digits, not a number: any number of them is read without a trap and dropped")
    func hugeFractionIsDropped() throws {
        let raw = "2026-11-30T10:00:00.\(Self.huge)"
        #expect(
            try DueDateParser.parse(raw, dateOrder: .dmy)
                == .local(CivilDate(year: 2026, month: 11, day: 30), hour: 10, minute: 0, second: 0))
        #expect(Timestamp.parse(raw + "Z", timeZone: TimeZone(identifier: "UTC") ?? .current) == Date(timeIntervalSince1970: 1_796_032_800))
    }

    @Test("the extreme instants a stored due can hold print and read back without a trap")
    func extremeInstants() {
        for seconds: Int64 in [-2_208_988_800, 7_289_654_399, 0] {
            let text = DueDate.instant(seconds).storageText
            #expect(DueDate(storageText: text) == .instant(seconds), "\(text)")
        }
    }
}
