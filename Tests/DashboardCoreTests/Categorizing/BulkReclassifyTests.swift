import Foundation
import Testing

@testable import DashboardCore

/// Bulk `reclassify`: the selection is the report's, on random data; `--yes` pins exactly it as
/// one group; the token tells a changed selection.
@Suite("Bulk reclassify: the report's selection, one group")
struct BulkReclassifyTests {
    static let utc = ReportSample.utc
    static let asOf = ReportSample.asOf

    /// The ids `report list` lists for `query` (the pure pipeline over every task loaded), in
    /// the list's order.
    static func listedIDs(_ store: Store, _ query: ReportQuery) throws -> [String] {
        let source = try ReportSource.load(store, asOf: asOf, defaultTimeZone: utc, onlyCourses: query.courses)
        let report = ReportBuilder.build(
            .list, courses: source, facts: ReportSample.freshFacts, query: query, asOf: asOf, defaultTimeZone: utc)
        return report.groups.flatMap { $0.sections.flatMap { $0.tasks.map(\.task.taskID) } }
    }

    @Test("the selection is exactly the list's tasks, in its order, for random data and options (12 seeds)")
    func selectionEqualsTheReportsOnRandomData() throws {
        var checkedTasks = 0
        for seed in UInt64(1)...12 {
            var random = StreamingReportRandomData(seed: seed)
            let courses = random.courses(count: 4...8, tasks: 30...70)
            let (fixture, store) = try StreamingReportStoreTests.database(courses, random: &random)
            for _ in 0..<8 {
                var query = random.query(courses: courses)
                (query.limit, query.page) = (nil, 1)
                let selection = BulkSelection(
                    query: query, bucket: random.pick(Bucket.pinnable), until: random.pick([nil, "2026-12-31", "2026-11-28"]),
                    asOf: Self.asOf, defaultTimeZone: Self.utc)
                let expected = try Self.listedIDs(store, query)
                if selection.until == "2026-11-28", !expected.isEmpty {
                    // An end already passed in the selected tasks' zones: refused whole.
                    #expect(throws: AuditError.expiryPassed(until: "2026-11-28", asOf: "2026-11-29T08:00:00Z")) {
                        try BulkReclassify.plan(store, selection)
                    }
                    continue
                }
                let plan = try BulkReclassify.plan(store, selection)
                #expect(plan.tasks.map(\.taskID) == expected, "seed \(seed) \(query)")
                checkedTasks += expected.count
                // Skipped exactly when an override in force pins the target with the same end.
                let source = try ReportSource.load(store, asOf: Self.asOf, defaultTimeZone: Self.utc)
                let pinned = Set(source.flatMap { $0.tasks.filter { $0.pinned && $0.bucket == selection.bucket }.map(\.task.taskID) })
                for task in plan.tasks where task.skipped { #expect(pinned.contains(task.taskID), "seed \(seed) \(task.taskID)") }
            }
            _ = fixture
        }
        #expect(checkedTasks > 1_000)
    }

    @Test("--yes pins exactly the selection, one entry each under one new group, and the group revert undoes it (6 seeds)")
    func applyPinsTheSelectionAsOneGroup() throws {
        for seed in UInt64(1)...6 {
            var random = StreamingReportRandomData(seed: seed &+ 100)
            let courses = random.courses(count: 3...6, tasks: 20...50)
            let (fixture, _) = try StreamingReportStoreTests.database(courses, random: &random)
            let store = fixture.store
            var query = random.query(courses: courses)
            (query.limit, query.page) = (nil, 1)
            let selection = BulkSelection(query: query, bucket: .upcoming, until: "2026-12-06", asOf: Self.asOf, defaultTimeZone: Self.utc)
            let preview = try BulkReclassify.plan(store, selection)
            let manual = ManualOverride(store: store, clock: FixedClock(Self.asOf))
            let applied = try manual.reclassify(selection: selection, reason: "snow day", actor: "adams", confirm: preview.token)
            #expect(applied.tasks.map(\.taskID) == preview.tasks.map(\.taskID), "seed \(seed)")
            var filter = AuditFilter()
            filter.causes = [.override]
            let entries = try store.auditEntries(filter)
            #expect(entries.map(\.taskID) == applied.pinned.map(\.taskID), "seed \(seed)")
            #expect(entries.map(\.id) == applied.pinned.compactMap(\.entryID), "seed \(seed)")
            #expect(Set(entries.map(\.groupID)) == (applied.pinned.isEmpty ? [] : [1]), "seed \(seed)")
            #expect(entries.allSatisfy { $0.reason == "snow day" && $0.overrideUntil == "2026-12-06" && $0.actor == "adams" })
            // Every pinned task now shows upcoming: a second preview skips them all.
            let again = try BulkReclassify.plan(store, selection)
            let pinnedIDs = Set(applied.pinned.map(\.taskID))
            let notSkipped = again.tasks.filter { pinnedIDs.contains($0.taskID) }.filter { !$0.skipped }
            #expect(notSkipped.isEmpty, "seed \(seed)")
            guard !applied.pinned.isEmpty else { continue }
            let reverted = try Reverter(store: store, clock: FixedClock(Self.asOf)).revert(
                groupID: 1, force: false, actor: "adams", asOf: Self.asOf, defaultTimeZone: Self.utc)
            #expect(reverted.groupID == 2)
            #expect(reverted.entries.map(\.revertsEntry) == entries.map(\.id))
            #expect(reverted.entries.allSatisfy { $0.cause == .revert && $0.groupID == 2 })
        }
    }

    @Test("a selection over the limit is refused whole, counting every task")
    func aSelectionOverTheLimitIsRefused() throws {
        let course = CourseRecord(courseID: "c", code: "C", title: "Big", term: "", teacher: "", timezone: "")
        let tasks = (0...BulkReclassify.taskLimit).map { number in
            ReportTask(task: TaskRecord(taskID: "t\(number)", courseID: "c", title: "Sheet"), bucket: .undated, pinned: false)
        }
        var random = StreamingReportRandomData(seed: 1)
        let (fixture, store) = try StreamingReportStoreTests.database([ReportCourse(course: course, tasks: tasks)], random: &random)
        let selection = BulkSelection(query: ReportQuery(), bucket: .upcoming, until: nil, asOf: Self.asOf, defaultTimeZone: Self.utc)
        #expect(throws: AuditError.bulkTooLarge(count: BulkReclassify.taskLimit + 1, limit: BulkReclassify.taskLimit)) {
            try BulkReclassify.plan(store, selection)
        }
        var narrowed = selection
        narrowed.query.search = "nothing like it"
        #expect(try BulkReclassify.plan(store, narrowed).tasks.isEmpty)
        _ = fixture
    }

    @Test("the token changes with a task's bucket, a task more or less, the bucket or the end; not with the order")
    func tokenFingerprintsTheSelection() {
        func task(_ id: String, _ from: Bucket, skipped: Bool = false) -> BulkTask {
            BulkTask(taskID: id, courseID: "c", courseCode: "C", title: "T", from: from, skipped: skipped, entryID: nil)
        }
        let base = [task("a", .overdue), task("b", .today)]
        let token = BulkReclassify.token(base, .upcoming, "")
        #expect(token.count == 12)
        #expect(BulkReclassify.token(base.reversed(), .upcoming, "") == token)
        #expect(BulkReclassify.token([task("a", .overdue), task("b", .overdue)], .upcoming, "") != token)
        #expect(BulkReclassify.token([task("a", .overdue)], .upcoming, "") != token)
        #expect(BulkReclassify.token(base + [task("c", .today)], .upcoming, "") != token)
        #expect(BulkReclassify.token(base, .undated, "") != token)
        #expect(BulkReclassify.token(base, .upcoming, "2026-12-06") != token)
        #expect(BulkReclassify.token([task("a", .overdue), task("b", .today, skipped: true)], .upcoming, "") != token)
        let plan = BulkPlan(tasks: base, bucket: .upcoming, until: "", token: token + ".9.3", groupID: nil)
        var asked: [ChangeMarks] = []
        let changed = { (marks: ChangeMarks) in
            asked.append(marks)
            return ["b", "z"]
        }
        // The marks after the fingerprint do not count; the case of the digits does not either.
        #expect(throws: Never.self) { try BulkReclassify.check(plan, confirm: nil, changedSince: changed) }
        #expect(throws: Never.self) { try BulkReclassify.check(plan, confirm: token.uppercased() + ".5.1", changedSince: changed) }
        #expect(throws: Never.self) { try BulkReclassify.check(plan, confirm: token, changedSince: changed) }
        #expect(asked.isEmpty)
        #expect(throws: AuditError.selectionChanged(confirm: "0123456789ab.5.1", now: plan, changed: ["b", "z"])) {
            try BulkReclassify.check(plan, confirm: "0123456789ab.5.1", changedSince: changed)
        }
        #expect(asked == [ChangeMarks(lastEntry: 5, lastBatch: 1)])
        // A token without marks: nothing to name.
        #expect(throws: AuditError.selectionChanged(confirm: "0123456789ab", now: plan, changed: nil)) {
            try BulkReclassify.check(plan, confirm: "0123456789ab", changedSince: changed)
        }
    }
}
