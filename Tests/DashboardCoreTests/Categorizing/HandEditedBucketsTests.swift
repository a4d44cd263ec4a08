import Foundation
import Testing

@testable import DashboardCore

/// The categorizer stores, and reports show, the bucket `BucketPolicy` gives, also for values a
/// hand edit made invalid (each used to read some of them its own way).
@Suite("Hand-edited values: the categorizer and reports give one bucket")
struct HandEditedBucketsTests {
    /// A hand edit (with SQLite's CHECK constraints off), after an optional override of T3 to
    /// `today` until 2026-12-01; then the task's bucket and whether it is pinned. AuditFixture:
    /// T2 due 2026-11-29 (today), T3 due 2026-12-05 (upcoming), T5 completed, due 2026-11-01.
    /// Values PostgreSQL's columns store too (a due or an end that is no date: text there).
    static let edits: [(pinT3: Bool, sql: String, task: String, bucket: Bucket, pinned: Bool)] = [
        (false, "UPDATE tasks SET due = 'tomorrow' WHERE task_id = 'T2'", "T2", .undated, false),
        (true, "UPDATE overrides SET until = '2026-11-28' WHERE task_id = 'T3'", "T3", .upcoming, false),
        (true, "UPDATE overrides SET until = 'someday' WHERE task_id = 'T3'", "T3", .today, true),
        (true, "UPDATE tasks SET completed = 1 WHERE task_id = 'T3'", "T3", .today, true),
    ]

    /// Values only SQLite stores, its CHECK constraints off: PostgreSQL's `completed` is a
    /// `bigint` checked to be 0 or 1 and an override's bucket is checked, so there the edit
    /// itself is refused.
    static let editsOnlySQLiteStores: [(pinT3: Bool, sql: String, task: String, bucket: Bucket, pinned: Bool)] = [
        (false, "UPDATE tasks SET completed = 2 WHERE task_id = 'T5'", "T5", .overdue, false),
        (false, "UPDATE tasks SET completed = 1.5 WHERE task_id = 'T5'", "T5", .overdue, false),
        (false, "UPDATE tasks SET completed = '1abc' WHERE task_id = 'T5'", "T5", .overdue, false),
        (true, "UPDATE overrides SET bucket = 'soon' WHERE task_id = 'T3'", "T3", .upcoming, false),
    ]

    @Test("categorize stores the bucket reports show", arguments: edits)
    func categorizeAndReportsAgree(pinT3: Bool, sql: String, task: String, bucket: Bucket, pinned: Bool) throws {
        try Self.expectAgreement(pinT3: pinT3, sql: sql, task: task, bucket: bucket, pinned: pinned)
    }

    @Test(
        "categorize stores the bucket reports show, for values a typed column refuses",
        .sqliteOnly("values PostgreSQL's typed, CHECKed columns refuse: runs in the SQLite pass"), arguments: editsOnlySQLiteStores)
    func categorizeAndReportsAgreeOnInvalidValues(pinT3: Bool, sql: String, task: String, bucket: Bucket, pinned: Bool) throws {
        try Self.expectAgreement(pinT3: pinT3, sql: sql, task: task, bucket: bucket, pinned: pinned)
    }

    static func expectAgreement(pinT3: Bool, sql: String, task: String, bucket: Bucket, pinned: Bool) throws {
        let f = try AuditFixture()
        try f.importFiles()
        if pinT3 { try f.reclassify("T3", to: .today, until: "2026-12-01") }
        try TestStore.executeUnchecked(f.store.database, sql)
        _ = try f.categorize()
        #expect(try f.buckets()[task] == bucket.rawValue)
        let shown = try ReportSource.load(f.store, asOf: f.asOf, defaultTimeZone: f.utc).flatMap(\.tasks).first { $0.task.taskID == task }
        #expect(shown?.bucket == bucket)
        #expect(shown?.pinned == pinned)
        // A second pass finds nothing to change.
        #expect(try f.categorize().entries == 0)
    }

    @Test(
        "reverting an override puts back the bucket reports show, for a hand-edited completed value",
        .sqliteOnly("a completed of 1.5, which PostgreSQL's bigint column checked to be 0 or 1 refuses: runs in the SQLite pass"))
    func revertAgrees() throws {
        let f = try AuditFixture()
        try f.importFiles()
        let entry = try f.reclassify("T5", to: .today)
        try f.store.database.execute("PRAGMA ignore_check_constraints = 1; UPDATE tasks SET completed = 1.5 WHERE task_id = 'T5';")
        _ = try f.revert(entry.id)
        #expect(try f.buckets()["T5"] == "overdue")
        let shown = try ReportSource.load(f.store, asOf: f.asOf, defaultTimeZone: f.utc).flatMap(\.tasks).first { $0.task.taskID == "T5" }
        #expect(shown?.bucket == .overdue)
    }
}
