import Foundation
import Testing

@testable import DashboardCore

/// Tasks alone into a database with courses, and syncs into a database with courses and no task.
extension ImportPathEquivalenceTests {
    // MARK: - (e) Tasks only, into a database with courses

    @Test("tasks alone into a database that has courses but no task are written directly")
    func tasksOnlyAfterCourses() throws {
        let twin = try TwinStores()
        twin.expectStaged(try twin.importBoth([("courses.csv", Self.courses)], Self.options()))
        let run = try twin.importBoth([("tasks.csv", Self.tasks)], Self.options())
        try twin.expectDirect(run, inserted: 20)
        #expect(run.result?.counts[.courses] == nil)
        let second = try twin.importBoth([("tasks.csv", Self.tasksA.replacingOccurrences(of: ",C2,", with: ",C4,"))], Self.options())
        twin.expectStaged(second)
        try twin.revertBoth(batch: 3)
        try twin.revertBoth(batch: 2)
        try twin.revertBoth(batch: 1)
    }

    // MARK: - (f) Sync into a database with courses and no task

    private static let fourCourses = """
        course_id,code,title,timezone
        C1,MATH,Algebra,America/New_York
        C2,BIO,Biology,Europe/Berlin
        C3,CHEM,Chemistry,
        C4,PHYS,Physics,Asia/Tokyo
        """

    /// C4 is gone, C1 renamed; tasks of C1, C2 and C4 (now unknown).
    private static let syncTasks = """
        task_id,course_id,title,due
        T1,C1,One,2026-11-28
        T2,C2,Two,2026-11-29T09:30
        T3,C4,Gone course,2026-12-01
        T4,C3,Four,
        """

    @Test("a sync deleting one course of four within --max-delete is written directly")
    func syncDeletesACourse() throws {
        let twin = try TwinStores()
        twin.expectStaged(try twin.importBoth([("courses.csv", Self.fourCourses)], Self.options()))
        let courses = Self.fourCourses.replacingOccurrences(of: "C4,PHYS,Physics,Asia/Tokyo", with: "C5,GEO,Geography,Europe/Oslo")
            .replacingOccurrences(of: "C1,MATH,Algebra", with: "C1,MATH,Algebra I")
        let run = try twin.importBoth(
            [("courses.csv", courses), ("tasks.csv", Self.syncTasks)], Self.options(.sync, maxDelete: .percent(100)))
        try twin.expectDirect(run, inserted: 3)
        #expect(run.result?.counts[.courses] == ImportCounts(read: 4, inserted: 1, updated: 1, unchanged: 2, deleted: 1))
        #expect(run.result?.rejects.map(\.code) == [.unknownCourse])
        try twin.revertBoth(batch: 2)
        try twin.revertBoth(batch: 1)
    }

    @Test("a sync deleting exactly as many courses as --max-delete allows is committed on both paths")
    func syncAtTheLimit() throws {
        let twin = try TwinStores()
        twin.expectStaged(try twin.importBoth([("courses.csv", Self.fourCourses)], Self.options()))
        let courses = Self.fourCourses.replacingOccurrences(of: "\nC4,PHYS,Physics,Asia/Tokyo", with: "")
        // 1 of 4 is 25%: within the limit, counted against the courses before the run.
        let run = try twin.importBoth(
            [("courses.csv", courses), ("tasks.csv", Self.syncTasks)], Self.options(.sync, maxDelete: .percent(25)))
        #expect(run.result?.status == .committed)
        #expect(run.failure == nil)
        #expect(run.result?.counts[.courses]?.deleted == 1)
    }

    @Test("a sync the delete guard holds is held on both paths, and approving it gives the same data")
    func syncHeldThenApproved() throws {
        let twin = try TwinStores()
        twin.expectStaged(try twin.importBoth([("courses.csv", Self.fourCourses)], Self.options()))
        let courses = Self.fourCourses.replacingOccurrences(of: "\nC4,PHYS,Physics,Asia/Tokyo", with: "")
        let run = try twin.importBoth(
            [("courses.csv", courses), ("tasks.csv", Self.syncTasks)], Self.options(.sync, maxDelete: .percent(10)))
        twin.expectStaged(run)
        #expect(run.result?.status == .held)
        try twin.approveBoth(batch: 2)
    }

    @Test("a run that restores a deleted course and adds its tasks is written directly")
    func restoredCourse() throws {
        let twin = try TwinStores()
        twin.expectStaged(try twin.importBoth([("courses.csv", Self.fourCourses)], Self.options()))
        let withoutC4 = Self.fourCourses.replacingOccurrences(of: "\nC4,PHYS,Physics,Asia/Tokyo", with: "")
        twin.expectStaged(try twin.importBoth([("courses.csv", withoutC4)], Self.options(.sync, maxDelete: .percent(100))))
        let run = try twin.importBoth([("courses.csv", Self.fourCourses), ("tasks.csv", Self.syncTasks)], Self.options())
        try twin.expectDirect(run, inserted: 4)
        #expect(run.result?.counts[.courses] == ImportCounts(read: 4, inserted: 1, unchanged: 3))
        try twin.revertBoth(batch: 3)
    }
}
