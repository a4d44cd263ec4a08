import Foundation
import Testing

@testable import DashboardCore

@Suite("Revert: a whole batch, and the append-only log")
struct BatchRevertTests {
    /// Rows (courses or tasks) as text lines, whole rows, ordered by id.
    private func rows(_ f: AuditFixture, _ table: String) throws -> [String] {
        try f.store.database.rows("SELECT \(TestStore.dataColumns(table)) FROM \(table) ORDER BY 1").map { row in
            row.map { $0.text ?? "NULL" }.joined(separator: "|")
        }
    }

    @Test("round trip: a sync with changed, added and missing rows, reverted, leaves every earlier row identical")
    func roundTrip() throws {
        let f = try AuditFixture()
        try f.importFiles()
        let coursesBefore = try rows(f, "courses")
        let tasksBefore = try rows(f, "tasks")
        let changed = """
            task_id,course_id,title,due,completed
            T1,C1,One,2026-11-28,yes
            T2,C1,Two renamed,2026-11-29,no
            T3,C2,Three,2026-12-05,no
            T6,C1,Six,2026-12-24,no
            T7,C2,Seven,,no
            """
        let sync = try f.importFiles(changed, mode: .sync)
        #expect(sync.counts[.tasks] == ImportCounts(read: 5, inserted: 2, updated: 2, unchanged: 1, deleted: 2))
        // T6 and T7 are births: counted by the batch, no entry and no history row of their own.
        #expect(try f.births(batch: 2) == ["undated 1", "upcoming 1"])
        #expect(try f.store.database.int("SELECT count(*) FROM task_history WHERE batch_id = 2 AND change = 'insert'") == 0)
        let result = try f.revert(batch: 2)
        #expect(result.batchID == 3)
        #expect(result.counts[.tasks] == ImportCounts(inserted: 2, updated: 2, deleted: 2))
        // Every row that existed before is identical, whole row; the two added rows are tombstones.
        let tasksAfter = try rows(f, "tasks")
        #expect(Array(tasksAfter.filter { !$0.hasPrefix("T6|") && !$0.hasPrefix("T7|") }) == tasksBefore)
        #expect(
            try f.store.database.rows("SELECT task_id, deleted_batch FROM tasks WHERE task_id IN ('T6', 'T7') ORDER BY 1") == [
                [.text("T6"), .integer(3)], [.text("T7"), .integer(3)],
            ])
        #expect(try rows(f, "courses") == coursesBefore)
        #expect(try f.store.batch(id: 2)?.status == .reverted)
        #expect(try f.store.batch(id: 2)?.reason == "reverted by batch 3")
        #expect(try f.store.database.int("SELECT reverts_batch FROM batches WHERE batch_id = 3") == 2)
        var filter = AuditFilter()
        filter.batchID = 3
        // T2's rename went back without moving its bucket: no entry for it.
        #expect(
            try f.log(filter) == [
                "4 T1 completed→overdue revert", "5 T4 deleted→undated revert", "6 T5 deleted→completed revert",
                "7 T6 upcoming→deleted revert", "8 T7 undated→deleted revert",
            ])
        #expect(try f.store.auditEntries(filter).map(\.reason) == Array(repeating: "revert of batch 2", count: 5))
        // The revert wrote the births of batch 2 as its history rows, in its own transaction.
        #expect(
            try f.store.database.rows("SELECT task_id, existed FROM task_history WHERE batch_id = 2 AND change = 'insert' ORDER BY 1")
                == [[.text("T6"), .integer(0)], [.text("T7"), .integer(0)]])
    }

    @Test("reverting the revert batch re-applies the original batch")
    func revertTheRevert() throws {
        let f = try AuditFixture()
        try f.importFiles()
        let changed =
            AuditFixture.tasks.replacingOccurrences(of: "T2,C1,Two,", with: "T2,C1,Two renamed,")
            + "\nT6,C1,Six,2026-12-24,no\n"
        try f.importFiles(changed, mode: .sync)
        _ = try f.revert(batch: 2)
        let again = try f.revert(batch: 3)
        #expect(again.batchID == 4)
        #expect(try f.store.batch(id: 2)?.status == .committed)
        #expect(try f.store.batch(id: 2)?.reason == "re-applied by batch 4")
        #expect(try f.store.batch(id: 3)?.status == .reverted)
        // Values are the synced ones again (T6 live, T2 renamed).
        let live = try f.store.tasks()
        #expect(live.map(\.taskID) == ["T1", "T2", "T3", "T4", "T5", "T6"])
        #expect(live.first { $0.taskID == "T2" }?.title == "Two renamed")
    }

    @Test("a batch whose rows a later batch changed is refused unless forced; batches that wrote nothing are refused")
    func refusals() throws {
        let f = try AuditFixture()
        try f.importFiles()
        try f.importFiles(AuditFixture.tasks.replacingOccurrences(of: "T2,C1,Two,", with: "T2,C1,Two v2,"))
        try f.importFiles(AuditFixture.tasks.replacingOccurrences(of: "T2,C1,Two,", with: "T2,C1,Two v3,"))
        #expect(throws: AuditError.blockedBatch(batch: 2, blocking: [3])) { try f.revert(batch: 2) }
        _ = try f.revert(batch: 3)
        // With batch 3 reverted, batch 2 can go.
        _ = try f.revert(batch: 2)
        #expect(try f.store.tasks().first { $0.taskID == "T2" }?.title == "Two")
        #expect(throws: AuditError.batchAlreadyReverted(batch: 2, by: 5)) { try f.revert(batch: 2) }
        #expect(throws: AuditError.unknownBatch(42)) { try f.revert(batch: 42) }
        var dry = ImporterFixture.options(dryRun: true)
        dry.asOf = f.asOf
        _ = try f.base.importer.run(files: [.inMemory("tasks.csv", AuditFixture.tasks)], options: dry)
        #expect(throws: AuditError.batchNotRevertible(6, .dryRun)) { try f.revert(batch: 6) }
    }

    @Test("the audit log is append-only: reverts add entries, old ones never change")
    func appendOnly() throws {
        let f = try AuditFixture()
        try f.importFiles()
        try f.reclassify("T1", to: .upcoming)
        let before = try f.store.database.rows("SELECT * FROM audit ORDER BY entry_id")
        _ = try f.revert(1)
        _ = try f.revert(batch: 1, force: true)
        let after = try f.store.database.rows("SELECT * FROM audit ORDER BY entry_id")
        #expect(Array(after.prefix(before.count)) == before)
        #expect(after.count > before.count)
    }

    /// PostgreSQL refuses these edits to every role but the tables' owner, which the store's own
    /// connection is (a migration or a restore needs them): a role granted them is refused there
    /// (`PGStoreTests`, "the audit log refuses UPDATE, DELETE and TRUNCATE").
    @Test(
        "SQLite's triggers refuse an UPDATE or DELETE of an audit entry",
        .sqliteOnly("the store's own connection on PostgreSQL owns the tables: PGStoreTests checks a granted role"))
    func sqliteRefusesEdits() throws {
        let f = try AuditFixture()
        try f.importFiles()
        try f.reclassify("T1", to: .upcoming)
        do {
            try f.store.database.run("UPDATE audit SET reason = 'x' WHERE entry_id = 1")
            Issue.record("the audit log was edited")
        } catch let error as SQLiteError {
            #expect(error.message == "the audit log is append-only")
        }
        do {
            try f.store.database.run("DELETE FROM audit WHERE entry_id = 1")
            Issue.record("an audit entry was deleted")
        } catch let error as SQLiteError {
            #expect(error.message == "the audit log is append-only")
        }
    }
}
