import Foundation
import Testing

@testable import DashboardCore

@Suite("Importer: merge and sync")
struct ImporterMergeSyncTests {
    @Test("a first import inserts every valid row and records the batch")
    func firstImport() throws {
        let f = try ImporterFixture()
        let result = try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", ImporterFixture.tasks(1...3))])
        #expect(result.status == .committed)
        #expect(result.batchID == 1)
        #expect(result.counts[.courses] == ImportCounts(read: 2, inserted: 2))
        #expect(result.counts[.tasks] == ImportCounts(read: 3, inserted: 3))
        #expect(try f.store.tasks().map(\.taskID) == ["T1", "T2", "T3"])
        #expect(
            try f.store.courses() == [
                CourseRecord(courseID: "C1", code: "MATH", title: "Algebra", timezone: "America/New_York"),
                CourseRecord(courseID: "C2", code: "BIO", title: "Biology", timezone: "Europe/Berlin"),
            ])
        let batch = try #require(try f.store.batch(id: 1))
        #expect(batch.status == .committed)
        #expect(batch.files.map(\.path) == ["courses.csv", "tasks.csv"])
        #expect(batch.files.map(\.rows) == [2, 3])
    }

    @Test("courses are applied before tasks whatever the order of the files")
    func coursesFirst() throws {
        let f = try ImporterFixture()
        let result = try f.run([("b.csv", ImporterFixture.tasks(1...2)), ("a.csv", ImporterFixture.courses)])
        #expect(result.total.rejected == 0)
        #expect(result.files.map(\.path) == ["a.csv", "b.csv"])
        #expect(try f.store.tasks().count == 2)
    }

    @Test("importing identical files twice reports nothing changed and writes no row")
    func identicalTwice() throws {
        let f = try ImporterFixture()
        let files = [("courses.csv", ImporterFixture.courses), ("tasks.csv", ImporterFixture.tasks(1...5))]
        try f.run(files)
        let before = try f.dumpData()
        let second = try f.run(files)
        #expect(second.counts[.tasks] == ImportCounts(read: 5, unchanged: 5))
        #expect(second.counts[.courses] == ImportCounts(read: 2, unchanged: 2))
        #expect(try f.dumpData() == before)
        #expect(try f.store.database.int("SELECT count(*) FROM task_history WHERE batch_id = 2") == 0)
        #expect(try f.store.database.int("SELECT count(*) FROM course_history WHERE batch_id = 2") == 0)
    }

    @Test("merge updates changed rows, keeps their previous values and never deletes")
    func mergeUpdates() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", ImporterFixture.tasks(1...3))])
        let changed = "task_id,course_id,title,due\nT1,C1,Task 1,2026-12-02\nT2,C1,Renamed,2026-12-03\n"
        let result = try f.run([("tasks.csv", changed)])
        #expect(result.counts[.tasks] == ImportCounts(read: 2, updated: 1, unchanged: 1))
        #expect(try f.store.tasks().map(\.title) == ["Task 1", "Renamed", "Task 3"])
        let history = try f.store.database.rows(
            "SELECT task_id, change, existed, title, changed_batch FROM task_history WHERE batch_id = 2")
        #expect(history == [[.text("T2"), .text("update"), .integer(1), .text("Task 2"), .integer(1)]])
    }

    @Test("sync soft-deletes live rows missing from the files and keeps their values")
    func syncDeletes() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", ImporterFixture.tasks(1...20))])
        let result = try f.run([("tasks.csv", ImporterFixture.tasks(1...19))], ImporterFixture.options(.sync))
        #expect(result.status == .committed)
        #expect(result.counts[.tasks] == ImportCounts(read: 19, unchanged: 19, deleted: 1))
        #expect(try f.store.tasks().count == 19)
        #expect(
            try f.store.database.rows("SELECT task_id, deleted_batch FROM tasks WHERE deleted_batch IS NOT NULL") == [
                [.text("T20"), .integer(2)]
            ])
        #expect(
            try f.store.database.rows("SELECT task_id, change, title FROM task_history WHERE batch_id = 2") == [
                [.text("T20"), .text("delete"), .text("Task 20")]
            ])
        // Courses were not in the import: a task sync never deletes courses.
        #expect(try f.store.courses().count == 2)
    }

    @Test("a row that comes back after a sync deleted it is restored and counted as inserted")
    func restoreAfterDelete() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", ImporterFixture.tasks(1...20))])
        try f.run([("tasks.csv", ImporterFixture.tasks(1...19))], ImporterFixture.options(.sync))
        let result = try f.run([("tasks.csv", ImporterFixture.tasks(1...20))], ImporterFixture.options(.sync))
        #expect(result.counts[.tasks] == ImportCounts(read: 20, inserted: 1, unchanged: 19))
        #expect(try f.store.tasks().count == 20)
        #expect(
            try f.store.database.rows("SELECT change, deleted_batch FROM task_history WHERE batch_id = 3") == [
                [.text("restore"), .integer(2)]
            ])
    }

    @Test("a sync of courses deletes the missing course and its tasks; tasks naming it are unknown_course")
    func syncCoursesCascades() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", ImporterFixture.tasks(1...3, course: "C2"))])
        let onlyC1 = "course_id,title\nC1,Algebra\n"
        let result = try f.run([("courses.csv", onlyC1)], ImporterFixture.options(.sync, maxDelete: .percent(100)))
        #expect(result.counts[.courses]?.deleted == 1)
        #expect(result.counts[.courses]?.updated == 1)  // code MATH → C1, timezone cleared
        #expect(result.counts[.tasks] == ImportCounts(deleted: 3))
        #expect(try f.store.tasks().isEmpty)
        let again = try f.run([("tasks.csv", ImporterFixture.tasks(4...4, course: "C2"))])
        #expect(again.rejects.map(\.code) == [.unknownCourse])
    }

    @Test("a task reusing an id with other values is duplicate_id; an exact repeat is duplicate_row")
    func duplicates() throws {
        let f = try ImporterFixture()
        let tasks = "task_id,course_id,title\nT1,C1,One\nT1,C1,One\nT1,C1,Other\n"
        let result = try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", tasks)])
        #expect(result.problems.map(\.code) == [.duplicateRow, .duplicateID])
        #expect(result.problems.map(\.line) == [3, 4])
        #expect(result.problems[1].message == "task_id \"T1\" was already used on line 2 with different values; the first row was kept")
        #expect(result.problems[1].frictionlessType == "primary-key")
        #expect(result.counts[.tasks] == ImportCounts(read: 3, inserted: 1, rejected: 1, warnings: 1))
        #expect(try f.store.tasks().map(\.title) == ["One"])
    }

    @Test("rejected rows do not stop valid rows")
    func rejectsKeepValidRows() throws {
        let f = try ImporterFixture()
        let tasks = "task_id,course_id,title,priority\nT1,C1,One,high\nT2,C1,Two,extreme\nT3,C9,Three,\n"
        let result = try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", tasks)])
        #expect(result.status == .committed)
        #expect(
            result.rejects.map { "\($0.line):\($0.row):\($0.column):\($0.code.rawValue)" } == [
                "3:2:priority:invalid_priority", "4:3:course_id:unknown_course",
            ])
        #expect(try f.store.tasks().map(\.taskID) == ["T1"])
        #expect(try f.store.problems(batchID: 1).map(\.code) == [.invalidPriority, .unknownCourse])
    }
}
