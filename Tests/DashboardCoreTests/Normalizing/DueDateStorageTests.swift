import Foundation
import Testing

@testable import DashboardCore

/// The stored due text is written and read back without the general parser (a million-task
/// import, report and categorization go through it); both must agree with the parser exactly.
@Suite("Due dates: the stored text's fast path equals the general parser", .storeIndependent)
struct DueDateStorageTests {
    @Test("every form round-trips, and the fast reader gives what the parser gives")
    func roundTrips() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let day = CivilDate(daysSinceEpoch: Int.random(in: -25_567...84_000, using: &generator))  // 1900…2199
            let h = Int.random(in: 0..<24, using: &generator)
            let m = Int.random(in: 0..<60, using: &generator)
            let s = Int.random(in: 0..<60, using: &generator)
            let instant = Int64(day.daysSinceEpoch) * 86_400 + Int64(h * 3600 + m * 60 + s)
            for due in [DueDate.date(day), .local(day, hour: h, minute: m, second: s), .instant(instant)] {
                let text = due.storageText
                #expect(DueDate.canonical(text) == due, "\(text)")
                #expect(try DueDateParser.parse(text, dateOrder: nil) == due, "\(text)")
                #expect(DueDate(storageText: text) == due, "\(text)")
            }
        }
    }

    @Test(
        "texts that are not exactly a stored form are left to the parser",
        arguments: [
            "2026-02-29", "2024-02-30", "2026-13-01", "2026-00-10", "2026-11-29T24:00:00", "2026-11-29T10:60:00",
            "2026-11-29T10:00:60", "2026-11-29 10:00:00", "2026-11-29T10:00:00+01:00", "2026-11-29T10:00", "26-11-29",
            "2026/11/29", "2026-11-2a", "", "2026-11-29T10:00:00z", "２０２６-11-29",
        ])
    func notCanonical(_ text: String) throws {
        #expect(DueDate.canonical(text) == nil)
        #expect(DueDate(storageText: text) == (try? DueDateParser.parse(text, dateOrder: nil)) ?? nil)
    }

    @Test("an instant accepted on 2200-12-31 west of UTC is stored in 2201 and still read back (it used to read as undated)")
    func storedYearOutsideTheInputRange() throws {
        let due = try #require(try DueDateParser.parse("2200-12-31T23:00-05:00", dateOrder: nil))
        #expect(due.storageText == "2201-01-01T04:00:00Z")
        #expect(DueDate(storageText: due.storageText) == due)
    }

    @Test("the written text has the documented shapes")
    func shapes() {
        let day = CivilDate(year: 2026, month: 3, day: 5)
        #expect(DueDate.date(day).storageText == "2026-03-05")
        #expect(DueDate.local(day, hour: 7, minute: 8, second: 9).storageText == "2026-03-05T07:08:09")
        #expect(DueDate.instant(Int64(day.daysSinceEpoch) * 86_400 + 3_599).storageText == "2026-03-05T00:59:59Z")
        #expect(DueDate.date(CivilDate(year: 987, month: 1, day: 2)).storageText == "0987-01-02")
    }
}
