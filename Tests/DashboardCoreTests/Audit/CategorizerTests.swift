import Foundation
import Testing

@testable import DashboardCore

@Suite("Categorizer: buckets in the database and the entries they record")
struct CategorizerTests {
    @Test("an import records each new task's bucket with cause import and its batch")
    func importRecordsBuckets() throws {
        let f = try AuditFixture()
        let result = try f.importFiles()
        #expect(result.categorized?.entries == 5)
        #expect(result.categorized?.byCause == [.import: 5])
        #expect(try f.buckets() == ["T1": "overdue", "T2": "today", "T3": "upcoming", "T4": "undated", "T5": "completed"])
        #expect(
            try f.log() == [
                "1 T1 →overdue import", "2 T2 →today import", "3 T3 →upcoming import", "4 T4 →undated import", "5 T5 →completed import",
            ])
        #expect(try f.store.auditEntries().map(\.batchID) == Array(repeating: 1, count: 5))
        #expect(try f.store.auditEntries().map(\.actor) == Array(repeating: "tester", count: 5))
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
        #expect(try f.log().last == "6 T2 today→overdue time")
        #expect(try f.store.auditEntry(id: 6)?.batchID == nil)
        #expect(try f.categorize(at: later).entries == 0)
    }

    @Test("an import that changes a due records the move with cause import; an identical import records nothing")
    func importChanges() throws {
        let f = try AuditFixture()
        try f.importFiles()
        try f.importFiles()
        #expect(try f.store.auditEntries().count == 5)
        let result = try f.importFiles(
            AuditFixture.tasks.replacingOccurrences(of: "T3,C2,Three,2026-12-05", with: "T3,C2,Three,2026-11-20"))
        #expect(result.categorized?.byCause == [.import: 1])
        #expect(try f.log().last == "6 T3 upcoming→overdue import")
        #expect(try f.store.auditEntry(id: 6)?.batchID == 3)
    }

    @Test("a sync delete is a delete entry; the task coming back is a restore entry")
    func deleteAndRestore() throws {
        let f = try AuditFixture()
        try f.importFiles()
        let withoutT1 = AuditFixture.tasks.replacingOccurrences(of: "T1,C1,One,2026-11-28,no\n", with: "")
        try f.importFiles(withoutT1, mode: .sync)
        #expect(try f.log().last == "6 T1 overdue→deleted delete")
        try f.importFiles(mode: .sync)
        #expect(try f.log().last == "7 T1 deleted→overdue restore")
        #expect(try f.buckets()["T1"] == "overdue")
    }
}
