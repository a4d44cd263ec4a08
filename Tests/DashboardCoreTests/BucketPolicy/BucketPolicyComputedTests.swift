import Foundation
import Testing

@testable import DashboardCore

/// Builds the inputs of the bucket tables from text a reader can check by eye: instants are ISO 8601
/// with `Z` or an offset (so the local wall time is visible), dues are `due` column text.
enum BucketFixture {
    static func instant(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text), "not an ISO 8601 instant: \(text)")
    }

    static func zone(_ identifier: String) throws -> TimeZone {
        try #require(TimeZone(identifier: identifier), "unknown time zone \(identifier)")
    }

    static func asOf(_ instant: String, in zone: String) throws -> LocalAsOf {
        LocalAsOf(asOf: try self.instant(instant), timeZone: try self.zone(zone))
    }

    /// The bucket of a task whose `due` column reads `due` (empty: no due date).
    static func bucket(due: String, asOf: String, in zone: String, completed: Bool = false) throws -> Bucket {
        let parsed = try DueDateParser.parse(due, dateOrder: nil)
        return BucketPolicy.computed(due: parsed, state: SubmissionState(completed: completed), at: try self.asOf(asOf, in: zone))
    }
}

@Suite("BucketPolicy: the computed bucket")
struct BucketPolicyComputedTests {
    static let berlin = "Europe/Berlin"
    static let losAngeles = "America/Los_Angeles"

    // MARK: - Date-only dues

    /// One second either side of local midnight, in zones west and east of UTC and in UTC.
    static let aroundMidnight: [(zone: String, asOf: String, due: String, expected: Bucket)] = [
        (berlin, "2026-11-29T23:59:59+01:00", "2026-11-29", .today),
        (berlin, "2026-11-29T23:59:59+01:00", "2026-11-30", .upcoming),
        (berlin, "2026-11-30T00:00:00+01:00", "2026-11-29", .overdue),
        (berlin, "2026-11-30T00:00:00+01:00", "2026-11-30", .today),
        (berlin, "2026-11-30T00:00:01+01:00", "2026-11-29", .overdue),
        (berlin, "2026-11-30T00:00:01+01:00", "2026-11-30", .today),
        (losAngeles, "2026-11-29T23:59:59-08:00", "2026-11-29", .today),
        (losAngeles, "2026-11-29T23:59:59-08:00", "2026-11-30", .upcoming),
        (losAngeles, "2026-11-30T00:00:00-08:00", "2026-11-29", .overdue),
        (losAngeles, "2026-11-30T00:00:00-08:00", "2026-11-30", .today),
        (losAngeles, "2026-11-30T00:00:01-08:00", "2026-11-29", .overdue),
        (losAngeles, "2026-11-30T00:00:01-08:00", "2026-11-30", .today),
        ("UTC", "2026-11-29T23:59:59Z", "2026-11-29", .today),
        ("UTC", "2026-11-29T23:59:59Z", "2026-11-30", .upcoming),
        ("UTC", "2026-11-30T00:00:00Z", "2026-11-29", .overdue),
        ("UTC", "2026-11-30T00:00:00Z", "2026-11-30", .today),
        ("UTC", "2026-11-30T00:00:01Z", "2026-11-29", .overdue),
        ("UTC", "2026-11-30T00:00:01Z", "2026-11-30", .today),
    ]

    @Test("a date-only due passes at the end of its local day, to the second", arguments: aroundMidnight)
    func dateOnlyAroundMidnight(zone: String, asOf: String, due: String, expected: Bucket) throws {
        #expect(try BucketFixture.bucket(due: due, asOf: asOf, in: zone) == expected)
    }

    static let dateOnly: [(asOf: String, due: String, expected: Bucket)] = [
        ("2026-11-29T12:00:00+01:00", "2026-11-28", .overdue),
        ("2026-11-29T12:00:00+01:00", "2026-11-29", .today),
        ("2026-11-29T12:00:00+01:00", "2026-11-30", .upcoming),
        ("2026-11-29T12:00:00+01:00", "2025-11-29", .overdue),
        ("2026-11-29T12:00:00+01:00", "2027-11-29", .upcoming),
        ("2026-11-29T00:00:00+01:00", "2026-11-28", .overdue),
        ("2026-11-29T00:00:00+01:00", "2026-11-29", .today),
        ("2026-12-31T23:59:59+01:00", "2026-12-31", .today),
        ("2026-12-31T23:59:59+01:00", "2027-01-01", .upcoming),
        ("2027-01-01T00:00:00+01:00", "2026-12-31", .overdue),
        ("2027-01-01T00:00:00+01:00", "2027-01-01", .today),
    ]

    @Test("a date-only due is today on the as-of date, overdue after it, upcoming before it", arguments: dateOnly)
    func dateOnlyAroundTheAsOfDate(asOf: String, due: String, expected: Bucket) throws {
        #expect(try BucketFixture.bucket(due: due, asOf: asOf, in: Self.berlin) == expected)
    }

    // MARK: - Timed dues

    /// As of 14:00:00 in Berlin (13:00:00Z); the next local midnight is 23:00:00Z.
    static let timed: [(due: String, expected: Bucket)] = [
        ("2026-11-28T23:59:59", .overdue),
        ("2026-11-29T13:59", .overdue),
        ("2026-11-29T13:59:59", .overdue),
        ("2026-11-29T14:00", .today),  // exactly at the as-of instant: not yet passed
        ("2026-11-29T14:00:01", .today),
        ("2026-11-29T14:01", .today),
        ("2026-11-29T23:59:59", .today),
        ("2026-11-30T00:00", .upcoming),
        ("2026-11-29T12:59:59Z", .overdue),
        ("2026-11-29T13:00:00Z", .today),
        ("2026-11-29T14:00:00+01:00", .today),
        ("2026-11-29T14:00:00Z", .today),  // 15:00 in Berlin
        ("2026-11-29T22:59:59Z", .today),
        ("2026-11-29T23:00:00Z", .upcoming),  // Berlin's next midnight
        ("2026-11-30T00:00:00+01:00", .upcoming),
    ]

    @Test("a timed due is overdue once the as-of instant is strictly after it, today until local midnight", arguments: timed)
    func timedDue(due: String, expected: Bucket) throws {
        #expect(try BucketFixture.bucket(due: due, asOf: "2026-11-29T14:00:00+01:00", in: Self.berlin) == expected)
    }

    /// As of 2026-11-29T13:00:00Z everywhere: the same local due text names a different instant
    /// in each course's zone.
    static let localDueInTheCourseZone: [(zone: String, due: String, expected: Bucket)] = [
        (berlin, "2026-11-29T14:00", .today),  // 13:00Z, exactly as of
        (berlin, "2026-11-29T13:30", .overdue),  // 12:30Z
        ("UTC", "2026-11-29T13:30", .today),  // 13:30Z
        ("Europe/London", "2026-11-29T14:00", .today),  // 14:00Z
        ("Asia/Tokyo", "2026-11-29T14:00", .overdue),  // 05:00Z; it is 22:00 in Tokyo
        ("Asia/Tokyo", "2026-11-30T00:30", .upcoming),  // 15:30Z, after Tokyo's midnight (15:00Z)
        (losAngeles, "2026-11-29T14:00", .today),  // 22:00Z; it is 05:00 in Los Angeles
        (losAngeles, "2026-11-29T04:59", .overdue),  // 12:59Z
        (losAngeles, "2026-11-30T00:00", .upcoming),  // 08:00Z on the 30th
    ]

    @Test("a local due is read in the course's time zone", arguments: localDueInTheCourseZone)
    func localDueInCourseZone(zone: String, due: String, expected: Bucket) throws {
        #expect(try BucketFixture.bucket(due: due, asOf: "2026-11-29T13:00:00Z", in: zone) == expected)
    }

    // MARK: - Different zones, same instant

    /// As of 2026-11-29T23:30:00Z: 00:30 on Nov 30 in Berlin, 15:30 on Nov 29 in Los Angeles.
    static let eitherSideOfMidnightUTC: [(due: String, berlin: Bucket, losAngeles: Bucket)] = [
        ("2026-11-28", .overdue, .overdue),
        ("2026-11-29", .overdue, .today),
        ("2026-11-30", .today, .upcoming),
        ("2026-12-01", .upcoming, .upcoming),
        ("2026-11-29T23:29:59Z", .overdue, .overdue),
        ("2026-11-29T23:30:00Z", .today, .today),
        ("2026-11-30T07:59:59Z", .today, .today),
        ("2026-11-30T08:00:00Z", .today, .upcoming),  // midnight in Los Angeles
        ("2026-11-30T22:59:59Z", .today, .upcoming),
        ("2026-11-30T23:00:00Z", .upcoming, .upcoming),  // midnight in Berlin
        ("2026-11-29T20:00", .overdue, .today),  // Berlin 19:00Z; Los Angeles 04:00Z on the 30th
        ("2026-11-30T08:00", .today, .upcoming),  // Berlin 07:00Z; Los Angeles 16:00Z
    ]

    @Test("either side of midnight UTC, Berlin is on Nov 30 and Los Angeles still on Nov 29", arguments: eitherSideOfMidnightUTC)
    func twoZonesAcrossMidnightUTC(due: String, berlin: Bucket, losAngeles: Bucket) throws {
        let asOf = "2026-11-29T23:30:00Z"
        #expect(try BucketFixture.bucket(due: due, asOf: asOf, in: Self.berlin) == berlin)
        #expect(try BucketFixture.bucket(due: due, asOf: asOf, in: Self.losAngeles) == losAngeles)
    }

    @Test("the as-of date and next midnight either side of midnight UTC")
    func localAsOfAcrossMidnightUTC() throws {
        let berlin = try BucketFixture.asOf("2026-11-29T23:30:00Z", in: Self.berlin)
        #expect(berlin.date == CivilDate(year: 2026, month: 11, day: 30))
        #expect(berlin.nextMidnight == (try BucketFixture.instant("2026-11-30T23:00:00Z")))
        let losAngeles = try BucketFixture.asOf("2026-11-29T23:30:00Z", in: Self.losAngeles)
        #expect(losAngeles.date == CivilDate(year: 2026, month: 11, day: 29))
        #expect(losAngeles.nextMidnight == (try BucketFixture.instant("2026-11-30T08:00:00Z")))
    }

    /// Kiritimati (UTC+14) and Pago Pago (UTC−11) are 25 hours apart: from 10:00Z to 11:00Z they
    /// are two calendar days apart, the rest of the day one.
    static let kiritimatiAndPagoPago: [(asOf: String, due: String, kiritimati: Bucket, pagoPago: Bucket)] = [
        // 10:30Z: 00:30 on Nov 30 in Kiritimati, 23:30 on Nov 28 in Pago Pago.
        ("2026-11-29T10:30:00Z", "2026-11-28", .overdue, .today),
        ("2026-11-29T10:30:00Z", "2026-11-29", .overdue, .upcoming),
        ("2026-11-29T10:30:00Z", "2026-11-30", .today, .upcoming),
        ("2026-11-29T10:30:00Z", "2026-11-30T09:00", .today, .upcoming),  // 19:00Z on the 29th; 20:00Z on the 30th
        ("2026-11-29T10:30:00Z", "2026-11-29T10:45:00Z", .today, .today),
        ("2026-11-29T10:30:00Z", "2026-11-29T11:00:00Z", .today, .upcoming),  // midnight in Pago Pago
        // 12:00Z: 02:00 on Nov 30 in Kiritimati, 01:00 on Nov 29 in Pago Pago.
        ("2026-11-29T12:00:00Z", "2026-11-29", .overdue, .today),
        ("2026-11-29T12:00:00Z", "2026-11-30", .today, .upcoming),
    ]

    @Test("Kiritimati and Pago Pago are on different calendar days at one instant", arguments: kiritimatiAndPagoPago)
    func kiritimatiAgainstPagoPago(asOf: String, due: String, kiritimati: Bucket, pagoPago: Bucket) throws {
        #expect(try BucketFixture.bucket(due: due, asOf: asOf, in: "Pacific/Kiritimati") == kiritimati)
        #expect(try BucketFixture.bucket(due: due, asOf: asOf, in: "Pacific/Pago_Pago") == pagoPago)
    }

    @Test("at 10:30Z Kiritimati is on Nov 30 and Pago Pago on Nov 28")
    func kiritimatiAndPagoPagoDates() throws {
        let kiritimati = try BucketFixture.asOf("2026-11-29T10:30:00Z", in: "Pacific/Kiritimati")
        #expect(kiritimati.date == CivilDate(year: 2026, month: 11, day: 30))
        #expect(kiritimati.nextMidnight == (try BucketFixture.instant("2026-11-30T10:00:00Z")))
        let pagoPago = try BucketFixture.asOf("2026-11-29T10:30:00Z", in: "Pacific/Pago_Pago")
        #expect(pagoPago.date == CivilDate(year: 2026, month: 11, day: 28))
        #expect(pagoPago.nextMidnight == (try BucketFixture.instant("2026-11-29T11:00:00Z")))
    }

    // MARK: - Completed and undated

    static let anyDue = [
        "", "2020-01-01", "2026-11-28", "2026-11-29", "2026-12-25", "2026-11-29T13:00", "2026-11-29T23:00:00Z", "2099-01-01T00:00:00Z",
    ]

    @Test("a completed task is completed whatever its due and the as-of", arguments: anyDue)
    func completedWhateverTheDue(due: String) throws {
        for (asOf, zone) in [("2026-11-29T14:00:00+01:00", Self.berlin), ("2030-01-01T00:00:00Z", "Pacific/Kiritimati")] {
            #expect(try BucketFixture.bucket(due: due, asOf: asOf, in: zone, completed: true) == .completed)
        }
    }

    @Test("an open task without a due date is undated whatever the as-of and zone")
    func undatedWithoutDue() throws {
        for (asOf, zone) in [
            ("2026-11-29T14:00:00+01:00", Self.berlin), ("1970-01-01T00:00:00Z", "UTC"), ("2200-12-31T23:59:59Z", Self.losAngeles),
        ] {
            #expect(BucketPolicy.computed(due: nil, state: .open, at: try BucketFixture.asOf(asOf, in: zone)) == .undated)
        }
    }

    /// Stored (canonical) due text, as of 14:00:00 in Berlin (13:00:00Z).
    static let storedTasks: [(due: String, completed: Bool, expected: Bucket)] = [
        ("", false, .undated),
        ("", true, .completed),
        ("2026-11-28", false, .overdue),
        ("2026-11-28", true, .completed),
        ("2026-11-29", false, .today),
        ("2026-11-30", false, .upcoming),
        ("2026-11-29T13:59:59", false, .overdue),
        ("2026-11-29T14:00:00", false, .today),
        ("2026-11-30T00:00:00", false, .upcoming),
        ("2026-11-29T12:59:59Z", false, .overdue),
        ("2026-11-29T13:00:00Z", false, .today),
        ("2026-11-29T23:00:00Z", false, .upcoming),
    ]

    @Test("a stored task is bucketed from its canonical due text", arguments: storedTasks)
    func storedTask(due: String, completed: Bool, expected: Bucket) throws {
        let task = TaskRecord(taskID: "T1", courseID: "C1", title: "Essay", due: due, completed: completed)
        #expect(BucketPolicy.computed(for: task, at: try BucketFixture.asOf("2026-11-29T14:00:00+01:00", in: Self.berlin)) == expected)
    }
}

@Suite("BucketPolicy: when an override ends")
struct BucketPolicyExpiryTests {
    static let cases: [(until: String, zone: String, asOf: String, expired: Bool)] = [
        // A date expires at the end of that local day, not before.
        ("2026-11-29", "Europe/Berlin", "2026-11-28T23:59:59+01:00", false),
        ("2026-11-29", "Europe/Berlin", "2026-11-29T00:00:00+01:00", false),
        ("2026-11-29", "Europe/Berlin", "2026-11-29T23:59:59+01:00", false),
        ("2026-11-29", "Europe/Berlin", "2026-11-30T00:00:00+01:00", true),
        ("2026-11-29", "Europe/Berlin", "2026-11-29T23:30:00Z", true),  // 00:30 on Nov 30 in Berlin
        ("2026-11-29", "America/Los_Angeles", "2026-11-29T23:30:00Z", false),  // 15:30 on Nov 29 in Los Angeles
        ("2026-11-29", "America/Los_Angeles", "2026-11-30T07:59:59Z", false),
        ("2026-11-29", "America/Los_Angeles", "2026-11-30T08:00:00Z", true),
        ("2026-11-01", "America/New_York", "2026-11-02T04:59:59Z", false),  // 23:59:59 EST at the end of a 25-hour day
        ("2026-11-01", "America/New_York", "2026-11-02T05:00:00Z", true),
        // An instant expires exactly at that instant, whatever the zone.
        ("2026-11-29T13:00:00Z", "Europe/Berlin", "2026-11-29T12:59:59Z", false),
        ("2026-11-29T13:00:00Z", "Europe/Berlin", "2026-11-29T13:00:00Z", true),
        ("2026-11-29T13:00:00Z", "Europe/Berlin", "2026-11-29T13:00:01Z", true),
        ("2026-11-29T13:00:00Z", "Pacific/Pago_Pago", "2026-11-29T12:59:59Z", false),
        ("2026-11-29T13:00:00Z", "Pacific/Pago_Pago", "2026-11-29T13:00:00Z", true),
        // A local date-time is read in the course's zone and expires at that instant.
        ("2026-11-29T14:00:00", "Europe/Berlin", "2026-11-29T13:59:59+01:00", false),
        ("2026-11-29T14:00:00", "Europe/Berlin", "2026-11-29T14:00:00+01:00", true),
        ("2026-11-29T14:00:00", "America/Los_Angeles", "2026-11-29T14:00:00+01:00", false),
    ]

    @Test("an override expires at the end of its until date, or exactly at its until instant", arguments: cases)
    func expiry(until: String, zone: String, asOf: String, expired: Bool) throws {
        #expect(BucketPolicy.hasExpired(until: until, at: try BucketFixture.asOf(asOf, in: zone)) == expired)
    }
}
