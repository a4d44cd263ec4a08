import Foundation
import Testing

@testable import DashboardCore

/// The computed bucket on the 2026 DST days of New York (02:00 EST → 03:00 EDT on March 8 at 07:00Z;
/// 02:00 EDT → 01:00 EST on November 1 at 06:00Z) and Berlin (02:00 CET → 03:00 CEST on March 29
/// at 01:00Z; 03:00 CEST → 02:00 CET on October 25 at 01:00Z). As-of instants carry the offset in
/// force, so the wall time can be read off the table.
@Suite("BucketPolicy across DST changes")
struct BucketPolicyDSTTests {
    static let newYork = "America/New_York"
    static let berlin = "Europe/Berlin"

    // MARK: - The as-of date and the next local midnight

    static let localAsOf: [(zone: String, asOf: String, date: String, nextMidnight: String)] = [
        (newYork, "2026-03-07T23:59:59-05:00", "2026-03-07", "2026-03-08T05:00:00Z"),
        (newYork, "2026-03-08T00:00:00-05:00", "2026-03-08", "2026-03-09T04:00:00Z"),
        (newYork, "2026-03-08T01:59:59-05:00", "2026-03-08", "2026-03-09T04:00:00Z"),
        (newYork, "2026-03-08T03:00:00-04:00", "2026-03-08", "2026-03-09T04:00:00Z"),
        (newYork, "2026-03-08T23:59:59-04:00", "2026-03-08", "2026-03-09T04:00:00Z"),
        (newYork, "2026-03-09T00:00:00-04:00", "2026-03-09", "2026-03-10T04:00:00Z"),
        (newYork, "2026-10-31T23:59:59-04:00", "2026-10-31", "2026-11-01T04:00:00Z"),
        (newYork, "2026-11-01T00:00:00-04:00", "2026-11-01", "2026-11-02T05:00:00Z"),
        (newYork, "2026-11-01T01:30:00-04:00", "2026-11-01", "2026-11-02T05:00:00Z"),
        (newYork, "2026-11-01T01:30:00-05:00", "2026-11-01", "2026-11-02T05:00:00Z"),
        (newYork, "2026-11-01T23:59:59-05:00", "2026-11-01", "2026-11-02T05:00:00Z"),
        (newYork, "2026-11-02T00:00:00-05:00", "2026-11-02", "2026-11-03T05:00:00Z"),
        (berlin, "2026-03-28T23:59:59+01:00", "2026-03-28", "2026-03-28T23:00:00Z"),
        (berlin, "2026-03-29T00:00:00+01:00", "2026-03-29", "2026-03-29T22:00:00Z"),
        (berlin, "2026-03-29T01:59:59+01:00", "2026-03-29", "2026-03-29T22:00:00Z"),
        (berlin, "2026-03-29T03:00:00+02:00", "2026-03-29", "2026-03-29T22:00:00Z"),
        (berlin, "2026-03-29T23:59:59+02:00", "2026-03-29", "2026-03-29T22:00:00Z"),
        (berlin, "2026-03-30T00:00:00+02:00", "2026-03-30", "2026-03-30T22:00:00Z"),
        (berlin, "2026-10-24T23:59:59+02:00", "2026-10-24", "2026-10-24T22:00:00Z"),
        (berlin, "2026-10-25T00:00:00+02:00", "2026-10-25", "2026-10-25T23:00:00Z"),
        (berlin, "2026-10-25T02:30:00+02:00", "2026-10-25", "2026-10-25T23:00:00Z"),
        (berlin, "2026-10-25T02:30:00+01:00", "2026-10-25", "2026-10-25T23:00:00Z"),
        (berlin, "2026-10-25T23:59:59+01:00", "2026-10-25", "2026-10-25T23:00:00Z"),
        (berlin, "2026-10-26T00:00:00+01:00", "2026-10-26", "2026-10-26T23:00:00Z"),
    ]

    @Test("the as-of date and the next local midnight on DST days", arguments: localAsOf)
    func asOfDateAndNextMidnight(zone: String, asOf: String, date: String, nextMidnight: String) throws {
        let local = try BucketFixture.asOf(asOf, in: zone)
        #expect(local.date.isoText == date)
        #expect(local.nextMidnight == (try BucketFixture.instant(nextMidnight)))
    }

    static let dayLengths: [(zone: String, midnight: String, hours: Double)] = [
        (newYork, "2026-03-07T00:00:00-05:00", 24),
        (newYork, "2026-03-08T00:00:00-05:00", 23),
        (newYork, "2026-11-01T00:00:00-04:00", 25),
        (berlin, "2026-03-29T00:00:00+01:00", 23),
        (berlin, "2026-10-25T00:00:00+02:00", 25),
    ]

    @Test("from local midnight the next local midnight is 23 hours away in spring, 25 in autumn", arguments: dayLengths)
    func dayLength(zone: String, midnight: String, hours: Double) throws {
        let local = try BucketFixture.asOf(midnight, in: zone)
        #expect(local.nextMidnight.timeIntervalSince(local.asOf) == hours * 3600)
    }

    // MARK: - Date-only dues on DST days

    static let dateOnly: [(zone: String, asOf: String, due: String, expected: Bucket)] = [
        (newYork, "2026-03-08T23:59:59-04:00", "2026-03-08", .today),
        (newYork, "2026-03-09T00:00:00-04:00", "2026-03-08", .overdue),
        // 04:30Z is 00:30 EDT on the 9th (with the morning's EST offset it would still be the 8th).
        (newYork, "2026-03-09T04:30:00Z", "2026-03-08", .overdue),
        (newYork, "2026-03-09T04:30:00Z", "2026-03-09", .today),
        // 04:30Z is 23:30 EST on the 1st (with the morning's EDT offset it would be the 2nd).
        (newYork, "2026-11-02T04:30:00Z", "2026-11-01", .today),
        (newYork, "2026-11-02T04:30:00Z", "2026-11-02", .upcoming),
        (newYork, "2026-11-02T04:59:59Z", "2026-11-01", .today),
        (newYork, "2026-11-02T05:00:00Z", "2026-11-01", .overdue),
        (newYork, "2026-11-02T05:00:00Z", "2026-11-02", .today),
        (berlin, "2026-03-29T21:59:59Z", "2026-03-29", .today),  // 23:59:59 CEST
        (berlin, "2026-03-29T22:00:00Z", "2026-03-29", .overdue),
        (berlin, "2026-10-25T22:30:00Z", "2026-10-25", .today),  // 23:30 CET
        (berlin, "2026-10-25T23:00:00Z", "2026-10-25", .overdue),
        (berlin, "2026-10-25T23:00:00Z", "2026-10-26", .today),
    ]

    @Test("a date-only due on a DST day passes at that day's real local midnight", arguments: dateOnly)
    func dateOnlyOnDSTDays(zone: String, asOf: String, due: String, expected: Bucket) throws {
        #expect(try BucketFixture.bucket(due: due, asOf: asOf, in: zone) == expected)
    }

    // MARK: - Spring forward: a skipped hour

    /// 02:00–02:59 never appear on the clock. By policy a time in that hour is read with the
    /// offset before the jump, so it lands as far after the jump as it was after 02:00: 02:30 means
    /// 03:30 daylight time (07:30Z in New York, 01:30Z in Berlin). Such a due is therefore still
    /// `today` at 03:15, although its wall time looks earlier.
    static let springForward: [(zone: String, asOf: String, due: String, expected: Bucket)] = [
        // One second before the jump (06:59:59Z).
        (newYork, "2026-03-08T01:59:59-05:00", "2026-03-08T01:59:58", .overdue),
        (newYork, "2026-03-08T01:59:59-05:00", "2026-03-08T01:59:59", .today),
        (newYork, "2026-03-08T01:59:59-05:00", "2026-03-08T02:30", .today),
        (newYork, "2026-03-08T01:59:59-05:00", "2026-03-08T03:00", .today),
        (newYork, "2026-03-08T01:59:59-05:00", "2026-03-08T23:59:59", .today),  // 03:59:59Z on the 9th
        (newYork, "2026-03-08T01:59:59-05:00", "2026-03-09T00:00", .upcoming),  // 04:00Z, the next midnight
        // The first instant after the jump (07:00Z): 02:00 is read as 03:00 EDT, exactly now.
        (newYork, "2026-03-08T03:00:00-04:00", "2026-03-08T01:59:59", .overdue),
        (newYork, "2026-03-08T03:00:00-04:00", "2026-03-08T02:00", .today),
        (newYork, "2026-03-08T03:00:00-04:00", "2026-03-08T03:00", .today),
        // 03:15 EDT (07:15Z): 02:30 is 03:30 EDT, still ahead; 02:14 is 03:14 EDT, passed.
        (newYork, "2026-03-08T03:15:00-04:00", "2026-03-08T02:30", .today),
        (newYork, "2026-03-08T03:15:00-04:00", "2026-03-08T02:14", .overdue),
        (newYork, "2026-03-08T03:15:00-04:00", "2026-03-08T03:14", .overdue),
        (newYork, "2026-03-08T03:15:00-04:00", "2026-03-08T03:16", .today),
        (newYork, "2026-03-08T03:30:00-04:00", "2026-03-08T02:30", .today),
        (newYork, "2026-03-08T03:30:01-04:00", "2026-03-08T02:30", .overdue),
        // Berlin: one second before the jump (00:59:59Z).
        (berlin, "2026-03-29T01:59:59+01:00", "2026-03-29T01:59:58", .overdue),
        (berlin, "2026-03-29T01:59:59+01:00", "2026-03-29T01:59:59", .today),
        (berlin, "2026-03-29T01:59:59+01:00", "2026-03-29T02:30", .today),
        (berlin, "2026-03-29T01:59:59+01:00", "2026-03-29T03:00", .today),
        (berlin, "2026-03-29T01:59:59+01:00", "2026-03-29T23:59:59", .today),  // 21:59:59Z
        (berlin, "2026-03-29T01:59:59+01:00", "2026-03-30T00:00", .upcoming),  // 22:00Z, the next midnight
        (berlin, "2026-03-29T03:15:00+02:00", "2026-03-29T02:30", .today),
        (berlin, "2026-03-29T03:15:00+02:00", "2026-03-29T03:14", .overdue),
        (berlin, "2026-03-29T03:30:00+02:00", "2026-03-29T02:30", .today),
        (berlin, "2026-03-29T03:30:01+02:00", "2026-03-29T02:30", .overdue),
    ]

    @Test("local dues around the spring-forward jump, and 02:30 inside the skipped hour", arguments: springForward)
    func springForwardDues(zone: String, asOf: String, due: String, expected: Bucket) throws {
        #expect(try BucketFixture.bucket(due: due, asOf: asOf, in: zone) == expected)
    }

    @Test("02:30 in the skipped hour is read as 03:30 daylight time")
    func skippedHourInstant() throws {
        let newYork = try BucketFixture.zone(Self.newYork)
        let march8 = CivilDate(year: 2026, month: 3, day: 8)
        #expect(
            LocalTime.instant(date: march8, hour: 2, minute: 30, second: 0, in: newYork)
                == (try BucketFixture.instant("2026-03-08T03:30:00-04:00")))
        let berlin = try BucketFixture.zone(Self.berlin)
        let march29 = CivilDate(year: 2026, month: 3, day: 29)
        #expect(
            LocalTime.instant(date: march29, hour: 2, minute: 30, second: 0, in: berlin)
                == (try BucketFixture.instant("2026-03-29T03:30:00+02:00")))
    }

    // MARK: - Fall back: a repeated hour

    /// 01:00–01:59 (New York) and 02:00–02:59 (Berlin) happen twice. A due in that hour means its
    /// first occurrence (daylight time), so once the clock has run through it the first time the due
    /// is overdue, even while the clock shows the same, earlier wall times a second time.
    static let fallBack: [(zone: String, asOf: String, due: String, expected: Bucket)] = [
        // New York: 01:30 is 05:30Z (EDT), not 06:30Z (EST).
        (newYork, "2026-11-01T01:15:00-04:00", "2026-11-01T01:30", .today),
        (newYork, "2026-11-01T01:15:00-04:00", "2026-11-01T01:14", .overdue),
        (newYork, "2026-11-01T01:30:00-04:00", "2026-11-01T01:30", .today),
        (newYork, "2026-11-01T01:30:01-04:00", "2026-11-01T01:30", .overdue),
        (newYork, "2026-11-01T01:15:00-05:00", "2026-11-01T01:30", .overdue),  // 06:15Z: the clock shows 01:15 again
        (newYork, "2026-11-01T01:15:00-05:00", "2026-11-01T00:59:59", .overdue),
        (newYork, "2026-11-01T01:15:00-05:00", "2026-11-01T02:00", .today),  // 02:00 happens once, EST: 07:00Z
        (newYork, "2026-11-01T01:15:00-05:00", "2026-11-01T23:59:59", .today),  // 04:59:59Z on the 2nd
        (newYork, "2026-11-01T01:15:00-05:00", "2026-11-02T00:00", .upcoming),  // 05:00Z, the next midnight
        // Berlin: 02:30 is 00:30Z (CEST), not 01:30Z (CET).
        (berlin, "2026-10-25T02:15:00+02:00", "2026-10-25T02:30", .today),
        (berlin, "2026-10-25T02:30:00+02:00", "2026-10-25T02:30", .today),
        (berlin, "2026-10-25T02:30:01+02:00", "2026-10-25T02:30", .overdue),
        (berlin, "2026-10-25T02:15:00+01:00", "2026-10-25T02:30", .overdue),  // 01:15Z: the clock shows 02:15 again
        (berlin, "2026-10-25T02:15:00+01:00", "2026-10-25T03:00", .today),  // 03:00 happens once, CET: 02:00Z
        (berlin, "2026-10-25T02:15:00+01:00", "2026-10-25T23:59:59", .today),  // 22:59:59Z
        (berlin, "2026-10-25T02:15:00+01:00", "2026-10-26T00:00", .upcoming),  // 23:00Z, the next midnight
    ]

    @Test("a repeated local time on the fall-back day means its first occurrence", arguments: fallBack)
    func fallBackDues(zone: String, asOf: String, due: String, expected: Bucket) throws {
        #expect(try BucketFixture.bucket(due: due, asOf: asOf, in: zone) == expected)
    }

    @Test("01:30 in New York and 02:30 in Berlin on the fall-back day are their first, daylight-time occurrence")
    func repeatedHourInstant() throws {
        let newYork = try BucketFixture.zone(Self.newYork)
        let november1 = CivilDate(year: 2026, month: 11, day: 1)
        #expect(
            LocalTime.instant(date: november1, hour: 1, minute: 30, second: 0, in: newYork)
                == (try BucketFixture.instant("2026-11-01T01:30:00-04:00")))
        let berlin = try BucketFixture.zone(Self.berlin)
        let october25 = CivilDate(year: 2026, month: 10, day: 25)
        #expect(
            LocalTime.instant(date: october25, hour: 2, minute: 30, second: 0, in: berlin)
                == (try BucketFixture.instant("2026-10-25T02:30:00+02:00")))
    }
}
