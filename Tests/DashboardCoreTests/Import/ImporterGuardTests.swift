import Foundation
import Testing

@testable import DashboardCore

@Suite("Importer: the delete guard and held batches")
struct ImporterGuardTests {
    /// 20 tasks imported, then a sync holding only 10 of them.
    private func heldFixture(limit: DeleteLimit = .percent(10)) throws -> (ImporterFixture, ImportResult, [[[SQLValue]]]) {
        let f = try ImporterFixture()
        try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", ImporterFixture.tasks(1...20))])
        let before = try f.dumpData()
        let result = try f.run([("tasks.csv", ImporterFixture.tasks(1...10))], ImporterFixture.options(.sync, maxDelete: limit))
        return (f, result, before)
    }

    @Test("a sync deleting more than the percentage is held before any write")
    func percentTrips() throws {
        let (f, result, before) = try heldFixture()
        #expect(result.status == .held)
        #expect(result.batchID == 2)
        #expect(result.counts[.tasks] == ImportCounts(read: 10, unchanged: 10, deleted: 10))
        #expect(
            result.reason
                == "sync would delete 10 of 20 tasks (50%), more than the delete limit 10%; nothing was changed. "
                + "Review batch 2's planned changes, then approve or discard it")
        #expect(try f.dumpData() == before)
        #expect(try f.store.database.int("SELECT count(*) FROM task_history WHERE batch_id = 2") == 0)
        #expect(try f.store.database.int("SELECT count(*) FROM held_tasks WHERE batch_id = 2") == 10)
        #expect(try f.store.batch(id: 2)?.status == .held)
    }

    @Test("a count limit trips above the count and lets the count itself through")
    func countLimit() throws {
        let (_, held, _) = try heldFixture(limit: .count(9))
        #expect(held.status == .held)
        #expect(held.reason.hasPrefix("sync would delete 10 of 20 tasks (50%), more than the delete limit 9;"))
        let (f, passed, _) = try heldFixture(limit: .count(10))
        #expect(passed.status == .committed)
        #expect(try f.store.tasks().count == 10)
    }

    @Test("approve applies the held rows as a new batch as of then; the held batch becomes approved")
    func approve() throws {
        let (f, _, _) = try heldFixture()
        let preview = try f.importer.preview(heldBatchID: 2)
        #expect(preview[.tasks] == ImportCounts(read: 10, unchanged: 10, deleted: 10))
        let later = ImporterFixture.asOf.addingTimeInterval(3600)
        let result = try f.importer.approve(batchID: 2, asOf: later, actor: "alice")
        #expect(result.status == .committed)
        #expect(result.batchID == 3)
        #expect(result.counts[.tasks]?.deleted == 10)
        #expect(try f.store.tasks().map(\.taskID) == (1...10).map { "T\($0)" }.sorted())
        let held = try #require(try f.store.batch(id: 2))
        #expect(held.status == .approved)
        #expect(held.reason == "approved by alice; applied as batch 3")
        let applied = try #require(try f.store.batch(id: 3))
        #expect(applied.status == .committed)
        #expect(applied.command == "approve")
        #expect(applied.asOf == "2026-11-29T09:00:00Z")
        #expect(applied.actor == "alice")
        #expect(
            applied.reason
                == "approval of held batch 2 (held because: sync would delete 10 of 20 tasks (50%), more than the delete limit 10%)")
        #expect(try f.store.database.int("SELECT approved_from FROM batches WHERE batch_id = 3") == 2)
        #expect(try f.store.database.int("SELECT count(*) FROM held_tasks") == 0)
        #expect(try f.store.database.int("SELECT count(*) FROM task_history WHERE batch_id = 3 AND change = 'delete'") == 10)
        #expect(try f.store.status().lastCommitted?.id == 3)
    }

    @Test("approving a held batch after newer batches committed is refused unless forced")
    func staleApproval() throws {
        let (f, _, _) = try heldFixture()
        try f.run([("tasks.csv", ImporterFixture.tasks(1...22, title: { "New \($0)" }))])
        let before = try f.dumpData()
        do {
            _ = try f.importer.approve(batchID: 2, asOf: ImporterFixture.asOf, actor: "alice")
            Issue.record("a stale held batch was approved")
        } catch {
            #expect(error.description == "batch 2 was held before batch 3 committed; approving it now could overwrite newer data")
        }
        #expect(try f.dumpData() == before)
        let forced = try f.importer.approve(batchID: 2, asOf: ImporterFixture.asOf, actor: "alice", force: true)
        #expect(forced.batchID == 4)
        #expect(forced.reason.hasSuffix("; forced past newer batches 3"))
    }

    @Test("approving a held sync of courses alone deletes only the missing courses' tasks")
    func approveCoursesOnly() throws {
        let f = try ImporterFixture()
        let courses = "course_id,title\nC1,One\nC2,Two\nC3,Three\n"
        let tasks = "task_id,course_id,title\nT1,C1,a\nT2,C2,b\nT3,C3,c\nT4,C3,d\n"
        try f.run([("courses.csv", courses), ("tasks.csv", tasks)])
        let held = try f.run([("courses.csv", "course_id,title\nC1,One\nC2,Two\n")], ImporterFixture.options(.sync))
        #expect(held.status == .held)
        #expect(try f.importer.preview(heldBatchID: 2)[.tasks] == ImportCounts(deleted: 2))
        let result = try f.importer.approve(batchID: 2, asOf: ImporterFixture.asOf, actor: "alice")
        #expect(result.counts[.tasks] == ImportCounts(deleted: 2))
        #expect(try f.store.tasks().map(\.taskID) == ["T1", "T2"])
    }

    @Test("discard drops the held rows and changes no data")
    func discard() throws {
        let (f, _, before) = try heldFixture()
        let record = try f.importer.discard(batchID: 2, actor: "bob")
        #expect(record.status == .discarded)
        #expect(try f.dumpData() == before)
        #expect(try f.store.database.int("SELECT count(*) FROM held_tasks") == 0)
    }

    @Test("only a held batch can be approved or discarded")
    func refusals() throws {
        let (f, _, _) = try heldFixture()
        #expect(throws: ImportFailure.self) { try f.importer.approve(batchID: 1, asOf: Date(), actor: "x") }
        do {
            _ = try f.importer.approve(batchID: 1, asOf: Date(), actor: "x")
        } catch {
            #expect(error.description == "batch 1 is committed, not held: only a held batch can be approved or discarded")
        }
        do {
            _ = try f.importer.discard(batchID: 42, actor: "x")
        } catch {
            #expect(error.description == "there is no batch 42")
        }
        _ = try f.importer.discard(batchID: 2, actor: "x")
        do {
            _ = try f.importer.approve(batchID: 2, asOf: Date(), actor: "x")
            Issue.record("a discarded batch was approved")
        } catch {
            #expect(error.description == "batch 2 is discarded, not held: only a held batch can be approved or discarded")
        }
    }

    @Test("a dry run computes the guard's verdict but holds nothing")
    func dryRunDoesNotHold() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", ImporterFixture.tasks(1...20))])
        let before = try f.dumpData()
        let result = try f.run([("tasks.csv", ImporterFixture.tasks(1...10))], ImporterFixture.options(.sync, dryRun: true))
        #expect(result.status == .dryRun)
        #expect(result.counts[.tasks]?.deleted == 10)
        #expect(result.reason == "a real import would be held: sync would delete 10 of 20 tasks (50%), more than the delete limit 10%")
        #expect(try f.dumpData() == before)
        #expect(try f.store.batch(id: 2)?.status == .dryRun)
        #expect(try f.store.database.int("SELECT count(*) FROM held_tasks") == 0)
    }

    @Test("DeleteLimit parses percentages and counts and refuses anything else")
    func deleteLimitParsing() {
        #expect(DeleteLimit("10%") == .percent(10))
        #expect(DeleteLimit(" 2.5% ") == .percent(2.5))
        #expect(DeleteLimit("500") == .count(500))
        #expect(DeleteLimit("0") == .count(0))
        for bad in ["", "%", "-1", "101%", "ten", "5 %x"] { #expect(DeleteLimit(bad) == nil, "\(bad)") }
        #expect(DeleteLimit.percent(10).allows(deleted: 1, live: 10))
        #expect(!DeleteLimit.percent(10).allows(deleted: 2, live: 10))
        #expect(!DeleteLimit.percent(10).allows(deleted: 1, live: 0))
        #expect(DeleteLimit.percent(0).allows(deleted: 0, live: 0))
    }
}
