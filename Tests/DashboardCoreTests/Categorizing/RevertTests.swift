import Foundation
import Testing

@testable import DashboardCore

@Suite("Revert: one entry")
struct RevertTests {
    @Test("reverting an override returns the computed bucket; reverting that revert re-pins it")
    func overrideRoundTrip() throws {
        let f = try AuditFixture()
        try f.importFiles()
        try f.reclassify("T1", to: .upcoming)
        let revert = try f.revert(1)
        #expect(revert.batchID == nil)
        #expect(
            revert.entries.map { "\($0.id) \($0.fromBucket)→\($0.toBucket) \($0.cause.rawValue) reverts \($0.revertsEntry ?? 0)" } == [
                "2 upcoming→overdue revert reverts 1"
            ])
        #expect(revert.entries[0].reason == "revert of entry 1 (override)")
        #expect(try f.override("T1") == nil)
        #expect(try f.buckets()["T1"] == "overdue")
        #expect(try f.store.auditEntry(id: 1)?.revertedBy == [2])
        let again = try f.revert(2)
        #expect(again.entries.map { "\($0.fromBucket)→\($0.toBucket) reverts \($0.revertsEntry ?? 0)" } == ["overdue→upcoming reverts 2"])
        #expect(try f.override("T1") == "upcoming#1")
        #expect(try f.buckets()["T1"] == "upcoming")
    }

    @Test("a second override replaced by a revert brings back the first one")
    func stackedOverrides() throws {
        let f = try AuditFixture()
        try f.importFiles()
        try f.reclassify("T1", to: .upcoming)
        let second = try f.reclassify("T1", to: .today, reason: "talked to the student")
        #expect(second.overrideBefore == 1)
        _ = try f.revert(2)
        #expect(try f.override("T1") == "upcoming#1")
        #expect(try f.buckets()["T1"] == "upcoming")
    }

    @Test("a time entry cannot be reverted")
    func timeEntryRefused() throws {
        let f = try AuditFixture()
        try f.importFiles()
        _ = try f.categorize(at: f.asOf.addingTimeInterval(2 * 86_400))
        #expect(throws: AuditError.timeEntry(1)) { try f.revert(1) }
    }

    @Test("an entry with later changes to the same task is refused, naming them, unless --force")
    func blocked() throws {
        let f = try AuditFixture()
        try f.importFiles()
        try f.reclassify("T1", to: .upcoming)
        try f.reclassify("T1", to: .today, reason: "again")
        do {
            _ = try f.revert(1)
            Issue.record("a blocked revert went through")
        } catch {
            // The typed value; its words (naming `--force`) are the executable's, checked by
            // RevertCommandTests.
            #expect(error as? AuditError == .blockedEntry(entry: 1, task: "T1", blocking: [(id: 2, cause: .override)]))
        }
        #expect(try f.override("T1") == "today#2")
        let forced = try f.revert(1, force: true)
        #expect(forced.entries[0].reason == "revert of entry 1 (override); forced past entries 2")
        // Entry 1 had no override before it: the forced revert leaves none.
        #expect(try f.override("T1") == nil)
        #expect(try f.buckets()["T1"] == "overdue")
    }

    @Test("an entry already reverted is refused, naming the revert")
    func alreadyReverted() throws {
        let f = try AuditFixture()
        try f.importFiles()
        try f.reclassify("T1", to: .upcoming)
        _ = try f.revert(1)
        #expect(throws: AuditError.alreadyReverted(entry: 1, by: 2)) { try f.revert(1) }
        #expect(throws: AuditError.unknownEntry(99)) { try f.revert(99) }
    }

    @Test("reverting a delete entry restores the task; reverting that deletes it again")
    func deleteEntry() throws {
        let f = try AuditFixture()
        try f.importFiles()
        let withoutT1 = AuditFixture.tasks.replacingOccurrences(of: "T1,C1,One,2026-11-28,no\n", with: "")
        try f.importFiles(withoutT1, mode: .sync)
        #expect(try f.log() == ["1 T1 overdue→deleted delete"])
        let restore = try f.revert(1)
        #expect(restore.batchID == 3)
        #expect(try f.log().last == "2 T1 deleted→overdue revert")
        #expect(try f.store.tasks().map(\.taskID) == ["T1", "T2", "T3", "T4", "T5"])
        #expect(try f.store.batch(id: 3)?.command == "revert")
        #expect(try f.store.batch(id: 3)?.counts[.tasks] == ImportCounts(inserted: 1))
        _ = try f.revert(2)
        #expect(try f.log().last == "3 T1 overdue→deleted revert")
        #expect(try f.store.tasks().map(\.taskID) == ["T2", "T3", "T4", "T5"])
    }

    @Test("reverting an import entry puts the task's previous values back")
    func importEntry() throws {
        let f = try AuditFixture()
        try f.importFiles()
        let before = try f.base.dump("tasks")
        try f.importFiles(AuditFixture.tasks.replacingOccurrences(of: "T3,C2,Three,2026-12-05", with: "T3,C2,Three later,2026-11-20"))
        #expect(try f.log() == ["1 T3 upcoming→overdue import"])
        _ = try f.revert(1)
        #expect(try f.log().last == "2 T3 overdue→upcoming revert")
        #expect(try f.base.dump("tasks") == before)
    }
}
