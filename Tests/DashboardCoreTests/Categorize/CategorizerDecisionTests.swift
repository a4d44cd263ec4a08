import Foundation
import Testing

@testable import DashboardCore

/// `Categorizer.decide` and `Categorizer.deleted` are the whole policy of a categorize pass, as
/// pure code over values: the store only reads candidates and writes the changes they return.
/// As of Sunday 2026-11-29 08:00 UTC, a task due 2026-11-20 is overdue and one due 2026-12-10
/// upcoming.
@Suite("Categorizer: the decisions of a pass, over values", .storeIndependent)
struct CategorizerDecisionTests {
    static let asOf = Date(timeIntervalSince1970: 1_795_939_200)  // 2026-11-29T08:00:00Z

    static func context(planCause: AuditCause = .import, overrideManual: Bool = false) -> Categorizer.PassContext {
        Categorizer.PassContext(
            asOf: asOf, defaultTimeZone: TimeZone(identifier: "UTC") ?? .current, actor: "t", recordedAt: asOf, batchID: 4,
            planCause: planCause, planReason: planCause == .revert ? "revert of batch 2" : "", overrideManual: overrideManual)
    }

    static func task(
        due: String = "2026-11-20", stored: String, change: String? = nil, override: (Int, String, String)? = nil,
        state: SubmissionState = .open
    ) -> PassCandidate {
        PassCandidate(
            taskID: "T1", courseID: "C1", due: due, state: state, bucket: stored, timeZone: "UTC", overrideEntry: override?.0,
            override: override.map { StoredOverride(bucket: $0.1, until: $0.2) }, change: change)
    }

    static func decide(_ task: PassCandidate, _ context: Categorizer.PassContext = context()) -> (BucketChange?, CategorizeResult) {
        var zones = CourseZones(asOf: context.asOf, defaultTimeZone: context.defaultTimeZone)
        var result = CategorizeResult()
        let change = Categorizer.decide(task, context: context, zones: &zones, result: &result)
        return (change, result)
    }

    @Test("a task whose stored bucket is right records nothing")
    func settled() {
        #expect(Self.decide(Self.task(stored: "overdue")).0 == nil)
    }

    @Test("a task the clock moved gets a time entry without the batch")
    func time() throws {
        let change = try #require(Self.decide(Self.task(stored: "upcoming")).0)
        #expect(change.from == "upcoming" && change.to == "overdue" && change.cause == .time && change.reason.isEmpty)
        #expect(!change.withBatch && !change.conflict && !change.clearOverride)
    }

    /// SPEC §11: only open work gets a bucket; every other state has its place, whatever the due.
    @Test(
        "a task an import turned in, completed or excused leaves its bucket for its state's place, with the batch",
        arguments: [(SubmissionState.submitted, "to_grade"), (.completed, "completed"), (.excused, "excused")])
    func stateMoves(state: SubmissionState, place: String) throws {
        let moved = try #require(Self.decide(Self.task(stored: "overdue", change: "update", state: state)).0)
        #expect(moved.from == "overdue" && moved.to == place && moved.cause == .import && moved.withBatch && !moved.conflict)
        // Already in its place: nothing to record, however far its due has passed.
        #expect(Self.decide(Self.task(due: "2020-01-01", stored: place, state: state)).0 == nil)
        // Reopened (a state back to open): its bucket by its due again.
        let reopened = try #require(Self.decide(Self.task(stored: place, change: "update")).0)
        #expect(reopened.from == place && reopened.to == "overdue" && reopened.cause == .import)
    }

    @Test("an inserted task comes from no bucket; a restored one from deleted, as a restore after an import")
    func insertAndRestore() throws {
        let inserted = try #require(Self.decide(Self.task(stored: "overdue", change: "insert")).0)
        #expect(inserted.from == "" && inserted.to == "overdue" && inserted.cause == .import && inserted.withBatch)
        let restored = try #require(Self.decide(Self.task(stored: "overdue", change: "restore")).0)
        #expect(restored.from == deletedBucketName && restored.cause == .restore)
        let reverted = try #require(Self.decide(Self.task(stored: "overdue", change: "restore"), Self.context(planCause: .revert)).0)
        #expect(reverted.cause == .revert && reverted.reason == "revert of batch 2")
    }

    @Test("an expired override is cleared, with the reason stored in the log")
    func expired() throws {
        let (change, result) = Self.decide(Self.task(stored: "upcoming", override: (7, "upcoming", "2026-11-25")))
        let cleared = try #require(change)
        #expect(cleared.clearOverride && cleared.to == "overdue" && cleared.overrideBefore == 7)
        #expect(cleared.reason == "override #7 (pinned to upcoming) expired at 2026-11-25")
        #expect(result.expiredOverrides == 1)
    }

    @Test("an import that changes a pinned task records a conflict and keeps the override")
    func conflict() throws {
        let (change, result) = Self.decide(Self.task(stored: "upcoming", change: "update", override: (7, "upcoming", "")))
        let kept = try #require(change)
        #expect(kept.conflict && !kept.clearOverride && kept.from == "upcoming" && kept.to == "upcoming")
        #expect(kept.reason.hasPrefix("the import changed this task while override #7 pins it to upcoming"))
        #expect(result.conflicts == 1)
    }

    @Test("with --override-manual the import clears the override and the task gets its computed bucket")
    func overrideManual() throws {
        let (change, result) = Self.decide(
            Self.task(stored: "upcoming", change: "update", override: (7, "upcoming", "")), Self.context(overrideManual: true))
        let cleared = try #require(change)
        #expect(cleared.clearOverride && !cleared.conflict && cleared.to == "overdue")
        #expect(cleared.reason == "the import cleared override #7 (pinned to upcoming); the import was told to override manual pins")
        #expect(result.clearedOverrides == 1)
    }

    @Test("a pinned task the plan does not name keeps its pinned bucket and records nothing")
    func pinned() {
        #expect(Self.decide(Self.task(stored: "upcoming", override: (7, "upcoming", ""))).0 == nil)
    }

    @Test("a deleted task's entry: delete after an import, the plan's cause after a revert")
    func deleted() {
        let imported = Categorizer.deleted(taskID: "T1", courseID: "C1", bucket: "today", overrideEntry: 3, context: Self.context())
        #expect(imported.cause == .delete && imported.to == deletedBucketName && imported.overrideBefore == 3 && imported.withBatch)
        let reverted = Categorizer.deleted(
            taskID: "T1", courseID: "C1", bucket: "today", overrideEntry: nil, context: Self.context(planCause: .revert))
        #expect(reverted.cause == .revert && reverted.reason == "revert of batch 2")
    }
}
