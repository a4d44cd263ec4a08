import Foundation
import Testing

@testable import DashboardCore

/// The effective bucket: an override in force wins, an expired or invalid one does not, and
/// stored values a hand edit made invalid are read one way by every caller.
@Suite("BucketPolicy: the effective bucket")
struct BucketPolicyEffectiveTests {
    typealias Pin = EffectiveBucket.Pin

    /// As of 14:00:00 in Berlin (13:00:00Z) on 2026-11-29. `pin` nil: no override.
    static let overrides: [(due: String, completed: Bool, pin: String?, until: String, bucket: Bucket, computed: Bucket, state: Pin)] = [
        ("2026-11-28", false, nil, "", .overdue, .overdue, .none),
        ("", false, nil, "", .undated, .undated, .none),
        ("2026-11-28", true, nil, "", .completed, .completed, .none),
        // In force: no end, or an end still ahead; it wins over every computed bucket.
        ("2026-11-28", false, "upcoming", "", .upcoming, .overdue, .inForce),
        ("", false, "today", "", .today, .undated, .inForce),
        ("2026-11-30", false, "overdue", "", .overdue, .upcoming, .inForce),
        ("2026-11-30", true, "overdue", "", .overdue, .completed, .inForce),
        ("2026-11-28", false, "completed", "", .completed, .overdue, .inForce),
        // A date end: in force all of that local day, expired from the next local midnight.
        ("2026-11-28", false, "upcoming", "2026-11-29", .upcoming, .overdue, .inForce),
        ("2026-11-28", false, "upcoming", "2026-11-30", .upcoming, .overdue, .inForce),
        ("2026-11-28", false, "upcoming", "2026-11-28", .overdue, .overdue, .expired),
        // A local end is read in the course's zone and ends at that moment, exactly.
        ("2026-11-28", false, "upcoming", "2026-11-29T13:59:59", .overdue, .overdue, .expired),
        ("2026-11-28", false, "upcoming", "2026-11-29T14:00:00", .overdue, .overdue, .expired),
        ("2026-11-28", false, "upcoming", "2026-11-29T14:00:01", .upcoming, .overdue, .inForce),
        // An instant end, exactly.
        ("2026-11-29T13:30:00Z", false, "upcoming", "2026-11-29T13:00:00Z", .today, .today, .expired),
        ("2026-11-29T13:30:00Z", false, "upcoming", "2026-11-29T13:00:01Z", .upcoming, .today, .inForce),
        // Invalid stored values: an override bucket that is no bucket pins nothing; an end
        // that is not a due text never comes; an expired override is expired whatever it pins.
        ("2026-11-28", false, "soon", "", .overdue, .overdue, .invalid),
        ("2026-11-28", false, "", "", .overdue, .overdue, .invalid),
        ("2026-11-28", false, "Today", "", .overdue, .overdue, .invalid),
        ("2026-11-28", false, "soon", "2026-11-28", .overdue, .overdue, .expired),
        ("2026-11-28", false, "upcoming", "next week", .upcoming, .overdue, .inForce),
        ("2026-11-28", false, "upcoming", "2026-02-30", .upcoming, .overdue, .inForce),
        // A due that is not a due text is no due.
        ("2026-02-30", false, nil, "", .undated, .undated, .none),
        ("tomorrow", false, nil, "", .undated, .undated, .none),
        ("tomorrow", false, "today", "", .today, .undated, .inForce),
    ]

    @Test("an override in force wins; an expired or invalid one leaves the computed bucket", arguments: overrides)
    func effective(
        due: String, completed: Bool, pin: String?, until: String, bucket: Bucket, computed: Bucket, state: Pin
    ) throws {
        let local = try BucketFixture.asOf("2026-11-29T14:00:00+01:00", in: "Europe/Berlin")
        let override = pin.map { StoredOverride(bucket: $0, until: until) }
        let result = BucketPolicy.effective(due: due, state: SubmissionState(completed: completed), override: override, at: local)
        #expect(result == EffectiveBucket(bucket: bucket, computed: computed, pin: state))
        #expect(result.isPinned == (state == .inForce))
    }

    /// An override until a DST day's date ends at that day's real local midnight (23 or 25
    /// hours after the one before).
    static let endOnDSTDays: [(zone: String, until: String, asOf: String, state: Pin)] = [
        ("America/New_York", "2026-03-08", "2026-03-09T03:59:59Z", .inForce),  // 23:59:59 EDT
        ("America/New_York", "2026-03-08", "2026-03-09T04:00:00Z", .expired),
        ("America/New_York", "2026-11-01", "2026-11-02T04:59:59Z", .inForce),  // 23:59:59 EST
        ("America/New_York", "2026-11-01", "2026-11-02T05:00:00Z", .expired),
        ("Europe/Berlin", "2026-03-29", "2026-03-29T21:59:59Z", .inForce),  // 23:59:59 CEST
        ("Europe/Berlin", "2026-03-29", "2026-03-29T22:00:00Z", .expired),
        ("Europe/Berlin", "2026-10-25", "2026-10-25T22:59:59Z", .inForce),  // 23:59:59 CET
        ("Europe/Berlin", "2026-10-25", "2026-10-25T23:00:00Z", .expired),
        // 02:30 in the skipped hour is 03:30 EDT (07:30Z).
        ("America/New_York", "2026-03-08T02:30:00", "2026-03-08T07:29:59Z", .inForce),
        ("America/New_York", "2026-03-08T02:30:00", "2026-03-08T07:30:00Z", .expired),
        // 01:30 on the fall-back day is its first occurrence, 01:30 EDT (05:30Z).
        ("America/New_York", "2026-11-01T01:30:00", "2026-11-01T05:29:59Z", .inForce),
        ("America/New_York", "2026-11-01T01:30:00", "2026-11-01T05:30:00Z", .expired),
    ]

    @Test("an override's end on a DST day", arguments: endOnDSTDays)
    func endOnDSTDay(zone: String, until: String, asOf: String, state: Pin) throws {
        let local = LocalAsOf(asOf: try BucketFixture.instant(asOf), timeZone: try BucketFixture.zone(zone))
        let result = BucketPolicy.effective(
            due: "", state: .open, override: StoredOverride(bucket: "today", until: until), at: local)
        #expect(result.pin == state)
        #expect(result.bucket == (state == .inForce ? .today : .undated))
    }

    /// Stored columns decoded as reports read them (`TaskRecord(storedTaskID:…)`), as of 14:00
    /// in Berlin on 2026-11-29: only an integer 1 is completed; a due that is not text, or not
    /// a due text, is no due.
    static let storedValues: [(due: SQLValue, completed: SQLValue, bucket: Bucket)] = [
        (.text("2026-11-28"), .integer(1), .completed),
        (.text("2026-11-28"), .integer(0), .overdue),
        (.text("2026-11-28"), .integer(2), .overdue),
        (.text("2026-11-28"), .real(1.5), .overdue),
        (.text("2026-11-28"), .text("1"), .overdue),
        (.text("2026-11-28"), .null, .overdue),
        (.null, .integer(0), .undated),
        (.integer(20_261_128), .integer(0), .undated),
        (.text("2026-02-30"), .integer(0), .undated),
        (.text("2026-11-29T13:00:00Z"), .integer(0), .today),
        (.text("2026-11-29T14:00:01"), .integer(0), .today),
        (.text("2026-11-30"), .integer(0), .upcoming),
    ]

    @Test("stored values are bucketed as reports decode them", arguments: storedValues)
    func storedValue(due: SQLValue, completed: SQLValue, bucket: Bucket) throws {
        let task = TaskRecord(
            storedTaskID: "T1", courseID: "C1", title: "Essay", studentID: "", due: due, priority: .text("normal"), completed: completed)
        let local = try BucketFixture.asOf("2026-11-29T14:00:00+01:00", in: "Europe/Berlin")
        #expect(BucketPolicy.effective(task, override: nil, at: local) == EffectiveBucket(bucket: bucket, computed: bucket, pin: .none))
        #expect(TaskRecord.storedCompleted(completed) == (bucket == .completed))
    }
}
