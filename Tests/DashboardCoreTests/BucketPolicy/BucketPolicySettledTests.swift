import Foundation
import Testing

@testable import DashboardCore

/// `BucketPolicy.settledBucket` (a task's bucket whatever its course's zone) and the
/// categorizer's SQL that skips settled tasks (`CategorizePass.settledSQL`), run on the same rows.
@Suite("BucketPolicy: tasks settled in every zone, and the categorizer's SQL for them")
struct BucketPolicySettledTests {
    /// The extreme offsets (UTC−12, UTC+14), both sides of the date line, half-hour and
    /// 45-minute offsets, and zones with DST.
    static let zones = [
        "Etc/GMT+12", "Pacific/Pago_Pago", "America/Los_Angeles", "America/New_York", "UTC", "Europe/Berlin", "Asia/Kathmandu",
        "Australia/Lord_Howe", "Pacific/Chatham", "Pacific/Kiritimati", "Etc/GMT-14",
    ]

    /// Midnight, noon and the last second of a UTC day, and the instants of two DST changes.
    static let asOfs = [
        "2026-11-29T00:00:00Z", "2026-11-29T12:00:00Z", "2026-11-29T23:59:59Z", "2026-03-08T07:00:00Z", "2026-10-25T01:00:00Z",
    ]

    /// Every stored due form on each day from four days before the UTC as-of date to four days
    /// after it, at the first and last second of the day, and no due.
    static func dues(around asOf: Date) -> [String] {
        let utcDay = BucketPolicy.settledWindow(asOf: asOf).overdueBefore.daysSinceEpoch + 1
        var dues = [""]
        for offset in -4...4 {
            let day = CivilDate(daysSinceEpoch: utcDay + offset)
            let start = Int64(day.daysSinceEpoch) * 86_400
            let forms: [DueDate] = [
                .date(day), .local(day, hour: 0, minute: 0, second: 0), .local(day, hour: 23, minute: 59, second: 59),
                .instant(start), .instant(start + 86_399),
            ]
            dues += forms.map(\.storageText)
        }
        return dues
    }

    @Test("the settled window is the UTC as-of date minus one day and plus two")
    func window() throws {
        for asOf in ["2026-11-29T00:00:00Z", "2026-11-29T23:59:59Z"] {
            let window = BucketPolicy.settledWindow(asOf: try BucketFixture.instant(asOf))
            #expect(window.overdueBefore.isoText == "2026-11-28")
            #expect(window.upcomingFrom.isoText == "2026-12-01")
        }
    }

    @Test("every zone's local date is the UTC date, the day before or the day after", arguments: asOfs)
    func everyZoneWithinADayOfUTC(asOf: String) throws {
        let instant = try BucketFixture.instant(asOf)
        let utcDay = BucketPolicy.settledWindow(asOf: instant).overdueBefore.daysSinceEpoch + 1
        let names = TimeZone.knownTimeZoneIdentifiers
        try #require(names.count > 300)
        for name in names {
            guard let zone = TimeZone(identifier: name) else { continue }
            let day = LocalAsOf(asOf: instant, timeZone: zone).date.daysSinceEpoch
            #expect(abs(day - utcDay) <= 1, "\(name) at \(asOf)")
        }
    }

    @Test("a settled bucket is the computed bucket in every zone", arguments: asOfs)
    func settledIsTheSameEverywhere(asOf: String) throws {
        let instant = try BucketFixture.instant(asOf)
        let locals = try Self.zones.map { LocalAsOf(asOf: instant, timeZone: try BucketFixture.zone($0)) }
        var settled = 0
        for due in Self.dues(around: instant) {
            for state in SubmissionState.allCases {
                guard let bucket = BucketPolicy.settledBucket(due: due, state: state, asOf: instant) else { continue }
                settled += 1
                for local in locals {
                    #expect(
                        BucketPolicy.computed(due: due, state: state, at: local) == bucket,
                        "\(due) \(state) in \(local.timeZone.identifier) at \(asOf)")
                }
            }
        }
        // Submitted, completed or excused with any of the 46 dues (SPEC §11: their places
        // whatever the due), undated without one; overdue and upcoming on the three days
        // either side outside the window, in five forms each.
        #expect(settled == 3 * 46 + 1 + 15 + 15)
    }

    @Test("the categorizer's SQL skips a task exactly when its stored bucket is its settled bucket", arguments: asOfs)
    func sqlSkipsExactlyTheSettledTasks(asOf: String) throws {
        let instant = try BucketFixture.instant(asOf)
        let f = try ImporterFixture()
        let database = f.store.database
        try database.run("INSERT INTO courses (course_id, code, title) VALUES ('C1', 'C1', 'Course')")
        var expected: Set<String> = []
        var count = 0
        for due in Self.dues(around: instant) {
            for state in SubmissionState.allCases {
                for stored in Bucket.allCases {
                    count += 1
                    let id = "T\(count)"
                    try database.run(
                        "INSERT INTO tasks (task_id, course_id, title, due, completed, status, bucket) VALUES (?, 'C1', 'Task', ?, ?, ?, ?)",
                        [id, due, state == .completed ? 1 : 0, state.rawValue, stored.rawValue])
                    if BucketPolicy.settledBucket(due: due, state: state, asOf: instant) == stored { expected.insert(id) }
                }
            }
        }
        // A state a hand edit set against `completed` is never skipped: the pass decides it.
        for (status, completed) in [("submitted", 1), ("completed", 0), ("open", 1)] {
            count += 1
            try database.run(
                "INSERT INTO tasks (task_id, course_id, title, due, completed, status, bucket) VALUES (?, 'C1', 'Task', '', ?, ?, 'completed')",
                ["T\(count)", completed, status])
        }
        let skipped = try Self.skipped(database, asOf: instant)
        #expect(skipped == expected)
        #expect(expected.count == 3 * 46 + 1 + 15 + 15, "every settled task is skipped once, under its one stored bucket")
    }

    /// The one gap, documented on `CategorizePass.settledSQL`: a due a hand edit made unreadable
    /// is read as undated by the policy, but the SQL compares it as text. As of
    /// 2026-11-29T08:00:00Z (window 2026-11-28 … 2026-12-01).
    static let handEditedDues: [(due: String, stored: Bucket, skipped: Bool)] = [
        ("2026-02-30", .overdue, true),  // sorts before 2026-11-28: keeps its stored overdue
        ("2027-02-30", .upcoming, true),  // sorts after 2026-12-01: keeps its stored upcoming
        ("garbage", .upcoming, true),  // letters sort after digits
        ("2026-11-31", .overdue, false),  // inside the window: the pass reads it, as undated
        ("2026-02-30", .undated, false),  // looked at, and found undated: no change
        ("garbage", .undated, false),
    ]

    @Test("a due a hand edit made unreadable is undated by the policy; the SQL compares it as text", arguments: handEditedDues)
    func handEditedDue(due: String, stored: Bucket, skipped: Bool) throws {
        let instant = try BucketFixture.instant("2026-11-29T08:00:00Z")
        let f = try ImporterFixture()
        let database = f.store.database
        try database.run("INSERT INTO courses (course_id, code, title) VALUES ('C1', 'C1', 'Course')")
        try database.run(
            "INSERT INTO tasks (task_id, course_id, title, due, completed, bucket) VALUES ('T1', 'C1', 'Task', ?, 0, ?)",
            [due, stored.rawValue])
        #expect(try Self.skipped(database, asOf: instant) == (skipped ? ["T1"] : []))
        #expect(BucketPolicy.settledBucket(due: due, state: .open, asOf: instant) == .undated)
        #expect(
            BucketPolicy.computed(due: due, state: .open, at: LocalAsOf(asOf: instant, timeZone: try BucketFixture.zone("UTC")))
                == .undated)
    }

    /// The live tasks `CategorizePass.settledSQL` skips at `asOf`, bound as the pass binds it.
    static func skipped(_ database: Database, asOf: Date) throws -> Set<String> {
        let window = BucketPolicy.settledWindow(asOf: asOf)
        let rows = try database.rows(
            "SELECT u.task_id FROM tasks u WHERE u.deleted_batch IS NULL AND \(CategorizePass.settledSQL)",
            [window.overdueBefore.isoText, window.upcomingFrom.isoText])
        return Set(rows.map { $0[0].text ?? "" })
    }
}
