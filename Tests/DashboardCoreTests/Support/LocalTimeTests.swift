import Foundation
import Testing

@testable import DashboardCore

@Suite("LocalTime and Timestamp")
struct LocalTimeTests {
    /// `LocalTime.instant` for a wall time written `YYYY-MM-DDTHH:MM:SS`.
    static func instant(ofWallTime wall: String, in zone: String) throws -> Date {
        let parts = wall.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        try #require(parts.count == 6, "not a wall time: \(wall)")
        let date = CivilDate(year: parts[0], month: parts[1], day: parts[2])
        return LocalTime.instant(date: date, hour: parts[3], minute: parts[4], second: parts[5], in: try BucketFixture.zone(zone))
    }

    // MARK: - LocalTime.instant

    static let ordinary: [(zone: String, wall: String, expected: String)] = [
        ("UTC", "2026-11-29T14:00:00", "2026-11-29T14:00:00Z"),
        ("Europe/Berlin", "2026-11-29T14:00:00", "2026-11-29T13:00:00Z"),
        ("Europe/Berlin", "2026-07-01T14:00:00", "2026-07-01T12:00:00Z"),
        ("America/Los_Angeles", "2026-11-29T14:00:00", "2026-11-29T22:00:00Z"),
        ("Asia/Kolkata", "2026-11-29T00:00:00", "2026-11-28T18:30:00Z"),
        ("Pacific/Kiritimati", "2026-11-30T00:00:00", "2026-11-29T10:00:00Z"),
        ("Pacific/Pago_Pago", "2026-11-29T00:00:00", "2026-11-29T11:00:00Z"),
        ("America/New_York", "1969-12-31T19:00:00", "1970-01-01T00:00:00Z"),
    ]

    @Test("a wall time is read with the zone's offset at that time", arguments: ordinary)
    func ordinaryWallTime(zone: String, wall: String, expected: String) throws {
        #expect(try Self.instant(ofWallTime: wall, in: zone) == (try BucketFixture.instant(expected)))
    }

    /// A skipped hour is read with the offset before the jump: 02:xx lands xx minutes after the
    /// jump, on the same instant as 03:xx. Havana skips midnight itself (00:00 CST → 01:00 CDT), so
    /// its midnight is the day's first instant, 01:00 CDT.
    static let skipped: [(zone: String, wall: String, expected: String)] = [
        ("America/New_York", "2026-03-08T00:00:00", "2026-03-08T05:00:00Z"),
        ("America/New_York", "2026-03-08T01:59:59", "2026-03-08T06:59:59Z"),
        ("America/New_York", "2026-03-08T02:00:00", "2026-03-08T07:00:00Z"),  // = 03:00 EDT
        ("America/New_York", "2026-03-08T02:30:00", "2026-03-08T07:30:00Z"),  // = 03:30 EDT
        ("America/New_York", "2026-03-08T02:59:59", "2026-03-08T07:59:59Z"),  // = 03:59:59 EDT
        ("America/New_York", "2026-03-08T03:00:00", "2026-03-08T07:00:00Z"),
        ("America/New_York", "2026-03-08T03:30:00", "2026-03-08T07:30:00Z"),
        ("America/New_York", "2026-03-09T00:00:00", "2026-03-09T04:00:00Z"),
        ("Europe/Berlin", "2026-03-29T00:00:00", "2026-03-28T23:00:00Z"),
        ("Europe/Berlin", "2026-03-29T01:59:59", "2026-03-29T00:59:59Z"),
        ("Europe/Berlin", "2026-03-29T02:00:00", "2026-03-29T01:00:00Z"),  // = 03:00 CEST
        ("Europe/Berlin", "2026-03-29T02:30:00", "2026-03-29T01:30:00Z"),  // = 03:30 CEST
        ("Europe/Berlin", "2026-03-29T03:00:00", "2026-03-29T01:00:00Z"),
        ("Europe/Berlin", "2026-03-29T03:30:00", "2026-03-29T01:30:00Z"),
        ("Europe/Berlin", "2026-03-30T00:00:00", "2026-03-29T22:00:00Z"),
        ("America/Havana", "2026-03-08T00:00:00", "2026-03-08T05:00:00Z"),  // = 01:00 CDT
        ("America/Havana", "2026-03-08T01:00:00", "2026-03-08T05:00:00Z"),
    ]

    @Test("a wall time in a skipped hour lands after the jump by as much as it is after its start", arguments: skipped)
    func skippedHour(zone: String, wall: String, expected: String) throws {
        #expect(try Self.instant(ofWallTime: wall, in: zone) == (try BucketFixture.instant(expected)))
    }

    /// A repeated wall time means its first (daylight-time) occurrence; the hour after the repeat
    /// happens once, in standard time.
    static let repeated: [(zone: String, wall: String, expected: String)] = [
        ("America/New_York", "2026-11-01T00:00:00", "2026-11-01T04:00:00Z"),
        ("America/New_York", "2026-11-01T00:59:59", "2026-11-01T04:59:59Z"),
        ("America/New_York", "2026-11-01T01:00:00", "2026-11-01T05:00:00Z"),  // not 06:00Z
        ("America/New_York", "2026-11-01T01:30:00", "2026-11-01T05:30:00Z"),  // not 06:30Z
        ("America/New_York", "2026-11-01T01:59:59", "2026-11-01T05:59:59Z"),  // not 06:59:59Z
        ("America/New_York", "2026-11-01T02:00:00", "2026-11-01T07:00:00Z"),
        ("America/New_York", "2026-11-02T00:00:00", "2026-11-02T05:00:00Z"),
        ("Europe/Berlin", "2026-10-25T00:00:00", "2026-10-24T22:00:00Z"),
        ("Europe/Berlin", "2026-10-25T01:59:59", "2026-10-24T23:59:59Z"),
        ("Europe/Berlin", "2026-10-25T02:00:00", "2026-10-25T00:00:00Z"),  // not 01:00Z
        ("Europe/Berlin", "2026-10-25T02:30:00", "2026-10-25T00:30:00Z"),  // not 01:30Z
        ("Europe/Berlin", "2026-10-25T02:59:59", "2026-10-25T00:59:59Z"),  // not 01:59:59Z
        ("Europe/Berlin", "2026-10-25T03:00:00", "2026-10-25T02:00:00Z"),
        ("Europe/Berlin", "2026-10-26T00:00:00", "2026-10-25T23:00:00Z"),
    ]

    @Test("a repeated wall time on the fall-back day means its first occurrence", arguments: repeated)
    func repeatedHour(zone: String, wall: String, expected: String) throws {
        #expect(try Self.instant(ofWallTime: wall, in: zone) == (try BucketFixture.instant(expected)))
    }

    /// Two days around each 2026 transition, every five minutes.
    static let transitions: [(zone: String, from: String)] = [
        ("America/New_York", "2026-03-07T12:00:00Z"),
        ("America/New_York", "2026-10-31T12:00:00Z"),
        ("Europe/Berlin", "2026-03-28T12:00:00Z"),
        ("Europe/Berlin", "2026-10-24T12:00:00Z"),
    ]

    @Test("every wall time the clock shows maps back to the earliest instant showing it", arguments: transitions)
    func wallTimesRoundTrip(zone: String, from: String) throws {
        let timeZone = try BucketFixture.zone(zone)
        let start = Int64(try BucketFixture.instant(from).timeIntervalSince1970)
        func wallSeconds(_ instant: Int64) -> Int64 {
            instant + Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant))))
        }
        for step in Int64(0)..<(2 * 24 * 12) {
            let instant = start + step * 300
            let wall = wallSeconds(instant)
            // The same wall time an hour earlier means this is the second pass of a repeated hour.
            let expected = wallSeconds(instant - 3600) == wall ? instant - 3600 : instant
            let days = Int(floorDiv(wall, 86_400))
            let time = Int(wall - Int64(days) * 86_400)
            let back = LocalTime.instant(
                date: CivilDate(daysSinceEpoch: days), hour: time / 3600, minute: time / 60 % 60, second: time % 60, in: timeZone)
            #expect(
                Int64(back.timeIntervalSince1970) == expected,
                "wall time of \(Timestamp.text(Date(timeIntervalSince1970: TimeInterval(instant))))")
        }
    }

    // MARK: - Timestamp

    static let parsed: [(text: String, zone: String, expected: String)] = [
        ("2026-11-29T08:00:00Z", "America/New_York", "2026-11-29T08:00:00Z"),
        ("2026-11-29T09:00:00+01:00", "America/New_York", "2026-11-29T08:00:00Z"),
        ("2026-11-29T08:00", "America/New_York", "2026-11-29T13:00:00Z"),  // local: read in the zone
        ("2026-11-29", "America/New_York", "2026-11-29T05:00:00Z"),  // a bare date: the start of that day
        ("2026-11-29", "Pacific/Kiritimati", "2026-11-28T10:00:00Z"),
        ("2026-03-08T02:30", "America/New_York", "2026-03-08T07:30:00Z"),  // skipped: 03:30 EDT
        ("2026-11-01T01:30", "America/New_York", "2026-11-01T05:30:00Z"),  // repeated: the first, EDT
        ("2026-03-29", "Europe/Berlin", "2026-03-28T23:00:00Z"),
    ]

    @Test("Timestamp.parse reads instants exactly and local times in the zone", arguments: parsed)
    func timestampParse(text: String, zone: String, expected: String) throws {
        let instant = Timestamp.parse(text, timeZone: try BucketFixture.zone(zone))
        #expect(instant == (try BucketFixture.instant(expected)))
    }

    @Test("Timestamp.parse refuses text that is not a date", arguments: ["", "tomorrow", "11/29/2026", "2026-13-01", "2026-11-29T25:00"])
    func timestampParseRefuses(text: String) throws {
        #expect(Timestamp.parse(text, timeZone: try BucketFixture.zone("UTC")) == nil)
    }

    static let texts: [(seconds: Double, text: String)] = [
        (0, "1970-01-01T00:00:00Z"),
        (1_795_962_600, "2026-11-29T14:30:00Z"),
        (1_795_962_600.9, "2026-11-29T14:30:00Z"),  // to the second, rounded down
        (-0.5, "1969-12-31T23:59:59Z"),
        (-1, "1969-12-31T23:59:59Z"),
    ]

    @Test("Timestamp.text is UTC with a Z, to the second", arguments: texts)
    func timestampText(seconds: Double, text: String) throws {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(Timestamp.text(date) == text)
        #expect(
            Timestamp.parse(text, timeZone: try BucketFixture.zone("Europe/Berlin")) == Date(timeIntervalSince1970: seconds.rounded(.down)))
    }
}
