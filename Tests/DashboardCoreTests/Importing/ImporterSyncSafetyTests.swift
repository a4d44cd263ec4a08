import Foundation
import Testing

@testable import DashboardCore

@Suite("Importer: a sync never deletes what the file holds but could not import")
struct ImporterSyncSafetyTests {
    @Test("a rejected row keeps its live row in a sync: it is reported, not deleted")
    func rejectedRowIsNotDeleted() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", ImporterFixture.tasks(1...20))])
        let broken = ImporterFixture.tasks(1...20).replacingOccurrences(of: "T5,C1,Task 5,2026-12-06", with: "T5,C1,Task 5,2026-13-01")
        let result = try f.run([("tasks.csv", broken)], ImporterFixture.options(.sync))
        #expect(result.status == .committed)
        #expect(result.counts[.tasks] == ImportCounts(read: 20, unchanged: 19, rejected: 1))
        #expect(try f.store.tasks().count == 20)
        #expect(try f.store.tasks().first { $0.taskID == "T5" }?.due == "2026-12-06")
    }

    @Test("a rejected course keeps itself and its tasks in a sync; tasks naming it stay valid")
    func rejectedCourseKeepsItsTasks() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", ImporterFixture.tasks(1...3, course: "C2"))])
        let courses = "course_id,code,title,timezone\nC1,MATH,Algebra,America/New_York\nC2,BIO,Biology,CEST\n"
        let result = try f.run(
            [("courses.csv", courses), ("tasks.csv", ImporterFixture.tasks(1...3, course: "C2"))], ImporterFixture.options(.sync))
        #expect(result.rejects.map(\.code) == [.invalidTimezone])
        #expect(result.counts[.courses] == ImportCounts(read: 2, unchanged: 1, rejected: 1))
        #expect(result.counts[.tasks] == ImportCounts(read: 3, unchanged: 3))
        #expect(try f.store.courses().map(\.courseID) == ["C1", "C2"])
        #expect(try f.store.tasks().count == 3)
    }

    @Test("a task naming a course whose row was rejected says so")
    func unknownCourseBecauseItsRowWasRejected() throws {
        let f = try ImporterFixture()
        let courses = "course_id,title,timezone\nC9,Nine,Mars/Base\n"
        let result = try f.run([("courses.csv", courses), ("tasks.csv", ImporterFixture.tasks(1...1, course: "C9"))])
        #expect(result.rejects.map(\.code) == [.invalidTimezone, .unknownCourse])
        #expect(result.rejects[1].message == "course \"C9\" is not in the database and its own row in this import was rejected")
    }

    @Test("rows too broken to read their id hold a sync that would delete")
    func unidentifiedRowsHoldTheSync() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", ImporterFixture.tasks(1...20))])
        let before = try f.dumpData()
        // T20 loses a field: its id cannot be trusted, so T20 may or may not be in the file.
        let broken = ImporterFixture.tasks(1...19) + "T20,C1,2026-12-03\n"
        let result = try f.run([("tasks.csv", broken)], ImporterFixture.options(.sync, maxDelete: .percent(100)))
        #expect(result.status == .held)
        #expect(
            result.reason.hasPrefix(
                "1 tasks row(s) were too broken to read their ids (wrong field count or quotes), so a sync cannot tell whether the 1 tasks it would delete are really gone"
            ))
        #expect(try f.dumpData() == before)
    }

    @Test("a file whose header changes between the two reads fails without writing")
    func headerChangedBetweenReads() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", ImporterFixture.courses)])
        let before = try f.dumpData()
        final class Flip: @unchecked Sendable { var opened = 0 }
        let flip = Flip()
        let file = InputFile(path: "tasks.csv", size: 10) {
            flip.opened += 1
            let text = flip.opened == 1 ? "task_id,course_id,title\nT1,C1,Homework\n" : "title,course_id,task_id\nHomework,C1,T1\n"
            return MemoryByteSource(text)
        }
        do {
            _ = try f.importer.run(files: [file], options: ImporterFixture.options())
            Issue.record("an import with a changed header succeeded")
        } catch {
            guard case .fileProblem(let problem, _) = error else { Issue.record("\(error)"); return }
            #expect(problem.code == .unreadableFile)
            #expect(problem.message == "the file's header changed while it was being imported")
        }
        #expect(try f.dumpData() == before)
    }
}
