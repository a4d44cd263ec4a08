import Foundation
import Testing

@testable import DashboardCore

/// An importer fixture plus the categorizer, overrides and reverts, all on one fixed clock.
final class AuditFixture {
    let base: ImporterFixture
    let utc = TimeZone(identifier: "UTC") ?? .current
    /// 2026-11-29T08:00:00Z.
    let asOf = ImporterFixture.asOf

    init() throws { base = try ImporterFixture() }

    var store: Store { base.store }

    /// Course C1 (America/New_York) and C2 (Europe/Berlin), and tasks:
    /// T1 due 2026-11-28 (overdue), T2 due 2026-11-29 (today), T3 due 2026-12-05 (upcoming),
    /// T4 undated, T5 completed.
    static let tasks = """
        task_id,course_id,title,due,completed
        T1,C1,One,2026-11-28,no
        T2,C1,Two,2026-11-29,no
        T3,C2,Three,2026-12-05,no
        T4,C2,Four,,no
        T5,C2,Five,2026-11-01,yes
        """

    @discardableResult
    func importFiles(_ tasks: String = AuditFixture.tasks, mode: ImportMode = .merge, overrideManual: Bool = false, asOf: Date? = nil)
        throws -> ImportResult
    {
        var options = ImporterFixture.options(mode, maxDelete: .percent(100))
        options.overrideManual = overrideManual
        if let asOf { options.asOf = asOf }
        return try base.importer.run(
            files: [.inMemory("courses.csv", ImporterFixture.courses), .inMemory("tasks.csv", tasks)], options: options)
    }

    func categorize(at instant: Date? = nil) throws -> CategorizeResult {
        try Categorizer(store: store, clock: FixedClock(instant ?? asOf)).categorize(
            asOf: instant ?? asOf, defaultTimeZone: utc, actor: "cron")
    }

    @discardableResult
    func reclassify(_ task: String, to bucket: Bucket, until: String? = nil, reason: String = "extension granted") throws -> AuditEntry {
        try ManualOverride(store: store, clock: FixedClock(asOf)).reclassify(
            taskID: task, to: bucket, reason: reason, until: until, actor: "adams", asOf: asOf, defaultTimeZone: utc)
    }

    var reverter: Reverter { Reverter(store: store, clock: FixedClock(asOf)) }

    func revert(_ entry: Int, force: Bool = false) throws -> RevertResult {
        try reverter.revert(entryID: entry, force: force, actor: "adams", asOf: asOf, defaultTimeZone: utc)
    }

    func revert(batch: Int, force: Bool = false) throws -> RevertResult {
        try reverter.revert(batchID: batch, force: force, actor: "adams", asOf: asOf, defaultTimeZone: utc)
    }

    /// `task: bucket` for every live task, by id.
    func buckets() throws -> [String: String] {
        var result: [String: String] = [:]
        for row in try store.database.rows("SELECT task_id, bucket FROM tasks WHERE deleted_batch IS NULL") {
            result[row[0].text ?? ""] = row[1].text ?? ""
        }
        return result
    }

    /// Entries as `id task from→to cause`, for compact exact comparisons.
    func log(_ filter: AuditFilter = AuditFilter()) throws -> [String] {
        try store.auditEntries(filter).map { "\($0.id) \($0.taskID) \($0.fromBucket)→\($0.toBucket) \($0.cause.rawValue)" }
    }

    /// The births batch `batch` recorded (`batch_births`), as `bucket tasks`, by bucket.
    func births(batch: Int) throws -> [String] {
        try store.database.rows("SELECT bucket, tasks FROM batch_births WHERE batch_id = ? ORDER BY bucket", [batch]).map {
            "\($0[0].text ?? "NULL") \($0[1].text ?? "NULL")"
        }
    }

    /// The tasks' creating batches (`tasks.created_batch`), as `task batch`, by task id.
    func createdBatches() throws -> [String] {
        try store.database.rows("SELECT task_id, created_batch FROM tasks ORDER BY task_id").map {
            "\($0[0].text ?? "NULL") \($0[1].text ?? "NULL")"
        }
    }

    func override(_ task: String) throws -> String? {
        try store.database.scalar("SELECT bucket || '#' || entry_id FROM overrides WHERE task_id = ?", [task])?.text
    }
}
