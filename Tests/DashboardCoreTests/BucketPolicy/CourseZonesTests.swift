import Foundation
import Testing

@testable import DashboardCore

/// A course's zone is its own when this machine knows it, else the default one; buckets and
/// override ends follow that zone.
@Suite("CourseZones: which zone a course's dates are read in")
struct CourseZonesTests {
    static let zones: [(name: String, defaultZone: String, resolved: String)] = [
        ("", "America/Los_Angeles", "America/Los_Angeles"),
        ("", "Asia/Tokyo", "Asia/Tokyo"),
        ("Europe/Berlin", "America/Los_Angeles", "Europe/Berlin"),
        ("Pacific/Kiritimati", "UTC", "Pacific/Kiritimati"),
        ("Mars/Olympus_Mons", "America/Los_Angeles", "America/Los_Angeles"),
        ("Mars/Olympus_Mons", "Europe/Berlin", "Europe/Berlin"),
        (" Europe/Berlin", "Asia/Tokyo", "Asia/Tokyo"),
    ]

    @Test("a course's own zone when it is known, else the default", arguments: zones)
    func resolves(name: String, defaultZone: String, resolved: String) throws {
        let zone = CourseZones.timeZone(named: name, default: try BucketFixture.zone(defaultZone))
        #expect(zone.identifier == resolved)
        #expect(name.isEmpty || CourseZones.knows(name) == (resolved != defaultZone))
        var zones = CourseZones(
            asOf: try BucketFixture.instant("2026-11-29T23:30:00Z"), defaultTimeZone: try BucketFixture.zone(defaultZone))
        #expect(zones.timeZone(named: name).identifier == resolved)
        #expect(zones.local(name).timeZone.identifier == resolved)
    }

    /// As of 2026-11-29T23:30:00Z (00:30 on Nov 30 in Berlin, 15:30 on Nov 29 in Los Angeles),
    /// a task due 2026-11-29, and an override until 2026-11-29, in a course whose `timezone`
    /// column holds `name`.
    static let bucketsByCourseZone: [(name: String, defaultZone: String, bucket: Bucket, overrideEnded: Bool)] = [
        ("", "America/Los_Angeles", .today, false),
        ("", "Europe/Berlin", .overdue, true),
        ("Europe/Berlin", "America/Los_Angeles", .overdue, true),
        ("America/Los_Angeles", "Europe/Berlin", .today, false),
        ("UTC", "Europe/Berlin", .today, false),
        ("Pacific/Kiritimati", "America/Los_Angeles", .overdue, true),
        ("Mars/Olympus_Mons", "America/Los_Angeles", .today, false),
        ("Mars/Olympus_Mons", "Europe/Berlin", .overdue, true),
    ]

    @Test("a course without a zone, or with an unknown one, is bucketed in the default zone", arguments: bucketsByCourseZone)
    func bucketInCourseZone(name: String, defaultZone: String, bucket: Bucket, overrideEnded: Bool) throws {
        var zones = CourseZones(
            asOf: try BucketFixture.instant("2026-11-29T23:30:00Z"), defaultTimeZone: try BucketFixture.zone(defaultZone))
        let local = zones.local(name)
        #expect(BucketPolicy.computed(due: "2026-11-29", state: .open, at: local) == bucket)
        let pinned = BucketPolicy.effective(
            due: "2026-11-29", state: .open, override: StoredOverride(bucket: "upcoming", until: "2026-11-29"), at: local)
        #expect(pinned.pin == (overrideEnded ? .expired : .inForce))
    }

    @Test("names that resolve to one zone share its as-of; each name keeps its own zone")
    func sharesOneAsOfPerZone() throws {
        var zones = CourseZones(
            asOf: try BucketFixture.instant("2026-11-29T10:30:00Z"), defaultTimeZone: try BucketFixture.zone("Pacific/Pago_Pago"))
        let dates = ["", "Mars/Olympus_Mons", "Pacific/Pago_Pago", "Pacific/Kiritimati", "", "UTC"].map { zones.local($0).date.isoText }
        #expect(dates == ["2026-11-28", "2026-11-28", "2026-11-28", "2026-11-30", "2026-11-28", "2026-11-29"])
    }
}
