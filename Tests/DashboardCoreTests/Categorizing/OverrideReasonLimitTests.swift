import Foundation
import Testing

@testable import DashboardCore

/// Issue 11, class 10: a reason longer than `ManualOverride.reasonCharacterLimit` is refused by
/// the core too (the command line checks it while parsing), never cut; the limit is counted in
/// characters as the user sees them.
@Suite("Override reasons have a documented length limit")
struct OverrideReasonLimitTests {
    @Test func aReasonOfTheLimitIsKeptAndOneMoreIsRefused() throws {
        let f = try AuditFixture()
        try f.importFiles()
        let before = try f.store.auditEntries().count
        let longest = String(repeating: "é", count: ManualOverride.reasonCharacterLimit)
        #expect(throws: AuditError.reasonTooLong(characters: 1_001)) { try f.reclassify("T1", to: .today, reason: longest + "x") }
        #expect(try f.store.auditEntries().count == before)
        let entry = try f.reclassify("T1", to: .today, reason: longest)
        #expect(entry.reason == longest)
        #expect(ManualOverride.reasonCharacterLimit == 1_000)
    }
}
