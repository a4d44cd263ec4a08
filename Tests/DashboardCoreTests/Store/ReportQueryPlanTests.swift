import Foundation
import Testing

@testable import DashboardCore

/// `report list --course X` reads one course's tasks through the `tasks_by_course` index, not
/// by scanning every task (the 0.05 s figure at a million tasks depends on it).
@Suite("Report: one course's tasks are found through an index")
struct ReportQueryPlanTests {
    /// 40 courses of 50 tasks each, imported the way a school's first import is.
    private func fixture(forceStaging: Bool) throws -> ImporterFixture {
        let fixture = try ImporterFixture()
        var courses = "course_id,code,title,timezone\n"
        var tasks = "task_id,course_id,title,due\n"
        for c in 1...40 {
            courses += "C\(c),CODE\(c),Course \(c),Europe/Berlin\n"
            for t in 1...50 { tasks += "T\(c)-\(t),C\(c),Task \(t),2026-12-\(String(format: "%02d", t % 28 + 1))\n" }
        }
        var options = ImporterFixture.options()
        options.forceStaging = forceStaging
        try fixture.run([("courses.csv", courses), ("tasks.csv", tasks)], options)
        return fixture
    }

    private func plan(_ store: Store, _ sql: String, _ values: [SQLBindable]) throws -> [String] {
        try store.database.rows("EXPLAIN QUERY PLAN " + sql, values).map { $0.last?.text ?? "" }
    }

    @Test(
        "the course filter searches tasks_by_course, after a direct and after a staged first import",
        .sqliteOnly("SQLite's query plan: runs in the SQLite pass (PostgreSQL plans by its statistics)"), arguments: [false, true])
    func courseFilterUsesTheIndex(forceStaging: Bool) throws {
        let fixture = try fixture(forceStaging: forceStaging)
        let details = try plan(fixture.store, Store.tasksSQL(" AND t.course_id IN (?)"), ["C7"])
        #expect(details.contains { $0.contains("SEARCH t USING INDEX tasks_by_course (course_id=?)") }, "plan: \(details)")
        #expect(!details.contains { $0.hasPrefix("SCAN t") }, "no full scan of tasks; plan: \(details)")
        // Two courses: still the index, once per id.
        let two = try plan(fixture.store, Store.tasksSQL(" AND t.course_id IN (?, ?)"), ["C7", "C9"])
        #expect(two.contains { $0.contains("USING INDEX tasks_by_course") }, "plan: \(two)")
    }

    @Test(
        "without a course filter every task is read once, in task_id order, without a sort",
        .sqliteOnly("SQLite's query plan: runs in the SQLite pass (PostgreSQL plans by its statistics)"))
    func wholeReportScansInKeyOrder() throws {
        let fixture = try fixture(forceStaging: false)
        let details = try plan(fixture.store, Store.tasksSQL(""), [])
        #expect(details.first == "SCAN t", "plan: \(details)")
        #expect(!details.contains { $0.contains("TEMP B-TREE") }, "no sort of a million rows; plan: \(details)")
    }

    @Test("the pushed-down load returns exactly the course's tasks, as the full load does")
    func pushedDownLoadMatchesTheFullLoad() throws {
        let fixture = try fixture(forceStaging: false)
        let utc = TimeZone(identifier: "UTC")!
        let all = try ReportSource.load(fixture.store, asOf: ImporterFixture.asOf, defaultTimeZone: utc)
        let one = try ReportSource.load(fixture.store, asOf: ImporterFixture.asOf, defaultTimeZone: utc, onlyCourses: ["CODE7"])
        #expect(one.count == 1)
        #expect(one.first?.course.courseID == "C7")
        #expect(one.first?.tasks.count == 50)
        #expect(one.first?.tasks.map(\.task.taskID) == all.first { $0.course.courseID == "C7" }?.tasks.map(\.task.taskID))
        #expect(one.first?.tasks.map(\.bucket) == all.first { $0.course.courseID == "C7" }?.tasks.map(\.bucket))
    }
}
