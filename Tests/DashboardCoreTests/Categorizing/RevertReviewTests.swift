import Foundation
import Testing

@testable import DashboardCore

@Suite("Revert: overrides and chains found in review")
struct RevertReviewTests {
    @Test("reverting a batch that cleared an override (--override-manual) brings the override back")
    func batchRevertRestoresClearedOverride() throws {
        let f = try AuditFixture()
        try f.importFiles()
        try f.reclassify("T1", to: .upcoming)
        let revised = AuditFixture.tasks.replacingOccurrences(of: "T1,C1,One,", with: "T1,C1,One (revised),")
        try f.importFiles(revised, overrideManual: true)
        #expect(try f.override("T1") == nil)
        _ = try f.revert(batch: 2)
        #expect(try f.override("T1") == "upcoming#1")
        #expect(try f.buckets()["T1"] == "upcoming")
        #expect(try f.store.tasks().first { $0.taskID == "T1" }?.title == "One")
    }

    @Test("a revert of a revert of a revert leaves the original batch reverted")
    func chainOfReverts() throws {
        let f = try AuditFixture()
        try f.importFiles()
        try f.importFiles(AuditFixture.tasks.replacingOccurrences(of: "T2,C1,Two,", with: "T2,C1,Two v2,"))
        _ = try f.revert(batch: 2)  // batch 3
        _ = try f.revert(batch: 3)  // batch 4: 2 in effect again
        #expect(try f.store.batch(id: 2)?.status == .committed)
        _ = try f.revert(batch: 4)  // batch 5: 3 in effect again, so 2 is undone again
        #expect(try f.store.batch(id: 4)?.status == .reverted)
        #expect(try f.store.batch(id: 3)?.status == .committed)
        #expect(try f.store.batch(id: 2)?.status == .reverted)
        #expect(try f.store.batch(id: 2)?.reason == "reverted again by batch 5")
        #expect(try f.store.tasks().first { $0.taskID == "T2" }?.title == "Two")
        #expect(throws: AuditError.batchAlreadyReverted(batch: 2, by: 3)) { try f.revert(batch: 2) }
    }

    @Test("forcing the revert of an import entry keeps a newer manual override")
    func forcedRevertKeepsNewerOverride() throws {
        let f = try AuditFixture()
        try f.importFiles()
        try f.importFiles(AuditFixture.tasks.replacingOccurrences(of: "T3,C2,Three,2026-12-05", with: "T3,C2,Three,2026-11-20"))
        #expect(try f.log() == ["1 T3 upcoming→overdue import"])
        try f.reclassify("T3", to: .today)
        _ = try f.revert(1, force: true)
        #expect(try f.override("T3") == "today#2")
        #expect(try f.store.tasks().first { $0.taskID == "T3" }?.due == "2026-12-05")
    }

    @Test("--bucket completed counts completed tasks in what it hides and shows")
    func bucketCompletedCounts() {
        let course = ReportCourse(
            course: ReportSample.course("C1"),
            tasks: [
                ReportSample.task("T1", "C1", "a", bucket: .completed), ReportSample.task("T2", "C1", "b", bucket: .overdue),
                ReportSample.task("T3", "C1", "c", bucket: .upcoming),
            ])
        let report = ReportBuilder.build(
            .list, courses: [course], facts: ReportSample.freshFacts, query: ReportSample.query { $0.buckets = [.completed] },
            asOf: ReportSample.asOf, defaultTimeZone: ReportSample.utc)
        #expect(report.matchingTasks == 1)
        #expect(report.hiddenTasks == 2)
    }
}
