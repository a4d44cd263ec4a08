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
        #expect(result.reason.hasPrefix("sync would delete 10 of 20 tasks (50%), more than --max-delete 10%; nothing was changed."))
        #expect(try f.dumpData() == before)
        #expect(try f.store.database.int("SELECT count(*) FROM task_history WHERE batch_id = 2") == 0)
        #expect(try f.store.database.int("SELECT count(*) FROM held_tasks WHERE batch_id = 2") == 10)
        #expect(try f.store.batch(id: 2)?.status == .held)
    }

    @Test("a count limit trips above the count and lets the count itself through")
    func countLimit() throws {
        let (_, held, _) = try heldFixture(limit: .count(9))
        #expect(held.status == .held)
        #expect(held.reason.hasPrefix("sync would delete 10 of 20 tasks (50%), more than --max-delete 9;"))
        let (f, passed, _) = try heldFixture(limit: .count(10))
        #expect(passed.status == .committed)
        #expect(try f.store.tasks().count == 10)
    }

    @Test("approve applies the held batch as of then, and it becomes committed")
    func approve() throws {
        let (f, _, _) = try heldFixture()
        let preview = try f.importer.preview(heldBatchID: 2)
        #expect(preview[.tasks] == ImportCounts(read: 10, unchanged: 10, deleted: 10))
        let later = ImporterFixture.asOf.addingTimeInterval(3600)
        let result = try f.importer.approve(batchID: 2, asOf: later, actor: "alice")
        #expect(result.status == .committed)
        #expect(result.counts[.tasks]?.deleted == 10)
        #expect(try f.store.tasks().map(\.taskID) == (1...10).map { "T\($0)" }.sorted())
        let batch = try #require(try f.store.batch(id: 2))
        #expect(batch.status == .committed)
        #expect(batch.asOf == "2026-11-29T09:00:00Z")
        #expect(batch.reason == "approved by alice (held because: sync would delete 10 of 20 tasks (50%), more than --max-delete 10%)")
        #expect(try f.store.database.int("SELECT count(*) FROM held_tasks") == 0)
        #expect(try f.store.database.int("SELECT count(*) FROM task_history WHERE batch_id = 2 AND change = 'delete'") == 10)
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
        #expect(result.reason == "a real import would be held: sync would delete 10 of 20 tasks (50%), more than --max-delete 10%")
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
