import Foundation
import Testing

@testable import DashboardCore

@Suite("Categorizer: buckets in the database and the entries they record")
struct CategorizerTests {
    @Test("an import records no entry for the tasks it creates: each keeps its creating batch, the batch its births per bucket")
    func importRecordsBirths() throws {
        let f = try AuditFixture()
        let result = try f.importFiles()
        #expect(result.categorized == CategorizeResult(tasks: 5))
        #expect(try f.buckets() == ["T1": "overdue", "T2": "today", "T3": "upcoming", "T4": "undated", "T5": "completed"])
        #expect(try f.log() == [])
        #expect(try f.store.database.int("SELECT count(*) FROM task_history") == 0)
        #expect(try f.createdBatches() == ["T1 1", "T2 1", "T3 1", "T4 1", "T5 1"])
        #expect(try f.births(batch: 1) == ["completed 1", "overdue 1", "today 1", "undated 1", "upcoming 1"])
        let births = try f.store.births(of: ["T1", "T5"])
        #expect(births.map(\.batchID) == [1, 1])
        #expect(births.map(\.actor) == ["tester", "tester"])
        #expect(births.map(\.storedBucket) == ["overdue", "completed"])
    }

    @Test("categorize with the same as-of records nothing; a later as-of records time entries")
    func categorizeIsIdempotent() throws {
        let f = try AuditFixture()
        try f.importFiles()
        #expect(try f.categorize() == CategorizeResult(tasks: 5))
        #expect(try f.categorize() == CategorizeResult(tasks: 5))
        // Two days later in New York and Berlin: T2 (due Nov 29) is overdue.
        let later = f.asOf.addingTimeInterval(2 * 86_400)
        let result = try f.categorize(at: later)
        #expect(result.entries == 1)
        #expect(result.byCause == [.time: 1])
        #expect(try f.log() == ["1 T2 today→overdue time"])
        #expect(try f.store.auditEntry(id: 1)?.batchID == nil)
        #expect(try f.categorize(at: later).entries == 0)
    }

    @Test("an import that changes a due records the move with cause import; an identical import records nothing")
    func importChanges() throws {
        let f = try AuditFixture()
        try f.importFiles()
        try f.importFiles()
        #expect(try f.store.auditEntries().count == 0)
        #expect(try f.births(batch: 2) == [])
        let result = try f.importFiles(
            AuditFixture.tasks.replacingOccurrences(of: "T3,C2,Three,2026-12-05", with: "T3,C2,Three,2026-11-20"))
        #expect(result.categorized?.byCause == [.import: 1])
        #expect(try f.log() == ["1 T3 upcoming→overdue import"])
        #expect(try f.store.auditEntry(id: 1)?.batchID == 3)
        #expect(try f.births(batch: 3) == [])
    }

    @Test("a sync delete is a delete entry; the task coming back is a restore entry")
    func deleteAndRestore() throws {
        let f = try AuditFixture()
        try f.importFiles()
        let withoutT1 = AuditFixture.tasks.replacingOccurrences(of: "T1,C1,One,2026-11-28,no\n", with: "")
        try f.importFiles(withoutT1, mode: .sync)
        #expect(try f.log() == ["1 T1 overdue→deleted delete"])
        try f.importFiles(mode: .sync)
        #expect(try f.log() == ["1 T1 overdue→deleted delete", "2 T1 deleted→overdue restore"])
        #expect(try f.createdBatches().first == "T1 1", "a restored task keeps the batch that created it")
        #expect(try f.births(batch: 3) == [], "a restore is no birth")
        #expect(try f.buckets()["T1"] == "overdue")
    }
}
