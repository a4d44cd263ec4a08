import Foundation
import Testing

/// Issue 11, class 3: numbers read back from the database are not trusted for arithmetic. A
/// hand edit that puts the largest 64-bit value into a batch's counts made `batches list`,
/// `status` and `batches show` die of an overflow trap (SIGILL) while adding them up; the sum
/// now saturates.
@Suite("Hardening: numbers read from the database never trap")
struct HardeningStoredNumberTests {
    @Test(arguments: [
        ["batches", "list"], ["batches", "list", "--format", "json"], ["status"], ["status", "--format", "json"],
        ["batches", "show", "1"], ["batches", "show", "1", "--format", "json"],
    ])
    func hugeStoredCountsAreShownNotTrapped(_ arguments: [String]) throws {
        let sandbox = try AuditSetup.imported()
        let edit = try sandbox.sqlShell(
            "db.sqlite", "UPDATE batch_counts SET read = 9223372036854775807, deleted = -9223372036854775808 WHERE batch_id = 1")
        #expect(edit.exitCode == 0, "\(edit)")
        let result = try sandbox.dashboard(arguments)
        #expect(result.exitCode == 0, "\(arguments): \(result)")
        #expect(result.stdout.contains("9223372036854775807"), "\(arguments): \(result)")
    }

    /// Approving a held batch prints its rows read, as stored: the smallest 64-bit value made
    /// the thousands separator (`abs`) trap.
    @Test func approvingAHeldBatchWithTheSmallestStoredCountPrintsIt() throws {
        let sandbox = try AuditSetup.imported()
        try sandbox.write("fewer.csv", "task_id,course_id,title\nt1,bio,Lab report\n")
        let held = try sandbox.dashboard(["import", "--mode", "sync", "--max-delete", "0", "fewer.csv"])
        #expect(held.exitCode == 65, "\(held)")
        let edit = try sandbox.sqlShell("db.sqlite", "UPDATE batch_counts SET read = -9223372036854775808 WHERE batch_id = 2")
        #expect(edit.exitCode == 0, "\(edit)")
        let result = try sandbox.dashboard(["batches", "approve", "2"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.contains("-9,223,372,036,854,775,808 rows read"), "\(result)")
    }
}
