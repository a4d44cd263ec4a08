import Foundation
import Testing

@testable import DashboardCore

/// `RevertPolicy`: what a revert may undo and what it records, as pure code over values.
@Suite("RevertPolicy: what a revert may undo", .storeIndependent)
struct RevertPolicyTests {
    static func entry(_ id: Int, _ cause: AuditCause, conflict: Bool = false, overrideBefore: Int? = nil) -> AuditEntry {
        AuditEntry(
            id: id, recordedAt: "", asOf: "", taskID: "T1", courseID: "C1", fromBucket: "today", toBucket: "upcoming", cause: cause,
            actor: "a", reason: "", batchID: nil, revertsEntry: nil, revertedBy: [], conflict: conflict, overrideUntil: "",
            overrideBefore: overrideBefore)
    }

    @Test("a time entry, an entry already reverted and a blocked entry are refused; force goes past later entries")
    func checkEntry() {
        #expect(throws: AuditError.timeEntry(3)) {
            try RevertPolicy.checkEntry(Self.entry(3, .time), latestRevertInForce: nil, blocking: [], force: true)
        }
        #expect(throws: AuditError.alreadyReverted(entry: 3, by: 9)) {
            try RevertPolicy.checkEntry(Self.entry(3, .override), latestRevertInForce: 9, blocking: [], force: true)
        }
        #expect(throws: AuditError.blockedEntry(entry: 3, task: "T1", blocking: [(5, .import)])) {
            try RevertPolicy.checkEntry(Self.entry(3, .override), latestRevertInForce: nil, blocking: [(5, .import)], force: false)
        }
        #expect(throws: Never.self) {
            try RevertPolicy.checkEntry(Self.entry(3, .override), latestRevertInForce: nil, blocking: [(5, .import)], force: true)
        }
        #expect(
            RevertPolicy.entryReason(Self.entry(3, .override), blocking: [(5, .import), (6, .time)])
                == "revert of entry 3 (override); forced past entries 5, 6")
    }

    @Test("a batch: already reverted names its last revert; only committed batches; blocked unless forced")
    func checkBatch() {
        #expect(throws: AuditError.batchAlreadyReverted(batch: 2, by: 7)) {
            try RevertPolicy.checkBatch(2, status: .reverted, lastRevert: { 7 }, blocking: [], force: false)
        }
        #expect(throws: AuditError.batchNotRevertible(2, .held)) {
            try RevertPolicy.checkBatch(2, status: .held, lastRevert: { 7 }, blocking: [], force: false)
        }
        #expect(throws: AuditError.blockedBatch(batch: 2, blocking: [4])) {
            try RevertPolicy.checkBatch(2, status: .committed, lastRevert: { 7 }, blocking: [4], force: false)
        }
        #expect(RevertPolicy.batchReason(2, blocking: [4, 5]) == "revert of batch 2; forced past batches 4, 5")
    }

    @Test("which override comes back, the counts of an entry's revert batch, a chain of reverts")
    func recorded() {
        #expect(RevertPolicy.restoresOverride(Self.entry(1, .override)))
        #expect(RevertPolicy.restoresOverride(Self.entry(1, .import, overrideBefore: 4)))
        #expect(!RevertPolicy.restoresOverride(Self.entry(1, .import, conflict: true, overrideBefore: 4)))
        #expect(!RevertPolicy.restoresOverride(Self.entry(1, .delete, overrideBefore: 4)))
        #expect(RevertPolicy.counts(ofChange: "delete") == ImportCounts(deleted: 1))
        #expect(RevertPolicy.counts(ofChange: "restore") == ImportCounts(inserted: 1))
        #expect(RevertPolicy.counts(ofChange: "update") == ImportCounts(updated: 1))
        #expect(RevertPolicy.chainStatus(step: 0, revertBatch: 9) == (.committed, "re-applied by batch 9"))
        #expect(RevertPolicy.chainStatus(step: 1, revertBatch: 9) == (.reverted, "reverted again by batch 9"))
    }
}
