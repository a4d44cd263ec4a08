import Foundation
import Testing

@testable import DashboardCore

@Suite("Manual overrides: reclassify, conflicts, --override-manual, expiry")
struct OverrideTests {
    @Test("reclassify pins the bucket and categorize keeps it")
    func pin() throws {
        let f = try AuditFixture()
        try f.importFiles()
        let entry = try f.reclassify("T1", to: .upcoming)
        #expect(entry.id == 1, "the first entry: the import recorded no births")
        #expect(entry.cause == .override)
        #expect(entry.fromBucket == "overdue")
        #expect(entry.toBucket == "upcoming")
        #expect(entry.reason == "extension granted")
        #expect(entry.actor == "adams")
        #expect(entry.overrideBefore == nil)
        #expect(try f.override("T1") == "upcoming#1")
        #expect(try f.buckets()["T1"] == "upcoming")
        #expect(try f.categorize().entries == 0)
        #expect(try f.buckets()["T1"] == "upcoming")
    }

    @Test("refusals: unknown task, empty reason, an until already passed, an unreadable until")
    func refusals() throws {
        let f = try AuditFixture()
        try f.importFiles()
        #expect(throws: AuditError.unknownTask("T9")) { try f.reclassify("T9", to: .today) }
        #expect(throws: AuditError.emptyReason) { try f.reclassify("T1", to: .today, reason: "  ") }
        #expect(throws: AuditError.expiryPassed(until: "2026-11-28", asOf: "2026-11-29T08:00:00Z")) {
            try f.reclassify("T1", to: .today, until: "2026-11-28")
        }
        #expect(throws: AuditError.invalidExpiry("soon")) { try f.reclassify("T1", to: .today, until: "soon") }
        #expect(try f.store.auditEntries().count == 0)
    }

    @Test("an import that changes an overridden task keeps the override and records a conflict")
    func conflict() throws {
        let f = try AuditFixture()
        try f.importFiles()
        try f.reclassify("T1", to: .upcoming)
        let result = try f.importFiles(AuditFixture.tasks.replacingOccurrences(of: "T1,C1,One,", with: "T1,C1,One (revised),"))
        #expect(result.categorized?.conflicts == 1)
        let conflict = try #require(try f.store.auditEntry(id: 2))
        #expect(conflict.conflict)
        #expect(conflict.cause == .import)
        #expect(conflict.fromBucket == "upcoming")
        #expect(conflict.toBucket == "upcoming")
        #expect(conflict.overrideBefore == 1)
        #expect(
            conflict.reason
                == "the import changed this task while override #1 pins it to upcoming; the override was kept (an import told to override manual pins lets the import win)"
        )
        #expect(try f.override("T1") == "upcoming#1")
        var filter = AuditFilter()
        filter.conflictsOnly = true
        #expect(try f.store.auditEntries(filter).map(\.id) == [2])
    }

    @Test("--override-manual lets the import win, logs the cleared override, and reverting that re-pins it")
    func overrideManual() throws {
        let f = try AuditFixture()
        try f.importFiles()
        try f.reclassify("T1", to: .upcoming)
        let revised = AuditFixture.tasks.replacingOccurrences(of: "T1,C1,One,", with: "T1,C1,One (revised),")
        let result = try f.importFiles(revised, overrideManual: true)
        #expect(result.categorized?.clearedOverrides == 1)
        let cleared = try #require(try f.store.auditEntry(id: 2))
        #expect(cleared.cause == .import)
        #expect(cleared.fromBucket == "upcoming")
        #expect(cleared.toBucket == "overdue")
        #expect(cleared.reason == "the import cleared override #1 (pinned to upcoming); the import was told to override manual pins")
        #expect(try f.override("T1") == nil)
        // Reverting the import's entry restores the task's values and re-pins the override.
        let revert = try f.revert(2)
        #expect(try f.override("T1") == "upcoming#1")
        #expect(try f.store.tasks().first { $0.taskID == "T1" }?.title == "One")
        #expect(revert.entries.map(\.toBucket) == ["upcoming"])
    }

    @Test("an override expires at the end of its until day, recorded as a time entry")
    func expiry() throws {
        let f = try AuditFixture()
        try f.importFiles()
        try f.reclassify("T1", to: .upcoming, until: "2026-11-30")
        // 2026-11-30 23:59 in New York (C1): still pinned; only T2 (due Nov 29) moved on.
        let before = try f.categorize(at: Date(timeIntervalSince1970: 1_796_101_140))
        #expect(before.expiredOverrides == 0)
        #expect(try f.log() == ["1 T1 overdue→upcoming override", "2 T2 today→overdue time"])
        #expect(try f.override("T1") == "upcoming#1")
        // 2026-12-01 00:00 in New York: expired.
        let result = try f.categorize(at: Date(timeIntervalSince1970: 1_796_101_200))
        #expect(result.expiredOverrides == 1)
        #expect(try f.override("T1") == nil)
        let entry = try #require(try f.store.auditEntries().last)
        #expect(entry.cause == .time)
        #expect("\(entry.taskID) \(entry.fromBucket)→\(entry.toBucket)" == "T1 upcoming→overdue")
        #expect(entry.reason == "override #1 (pinned to upcoming) expired at 2026-11-30")
        #expect(entry.overrideBefore == 1)
    }
}
