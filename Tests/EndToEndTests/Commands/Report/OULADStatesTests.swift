import Foundation
import Testing

/// Issue 31 on real data: the OULAD slice (`Tests/Fixtures/OULAD`, written by the converter's
/// `--states`: graded assessments `completed`, a submission not yet graded `submitted`, the
/// rest `open`) imports with no reject, and each course's to-grade, completed and late counts
/// are what the CSV alone says. The expected counts are computed here from the CSV's text
/// (SPEC §11's rule for dates: late when handed in on a later date than the due), not by our
/// code.
@Suite struct OULADStatesTests {
    /// Inside AAA-2013J's term.
    static let asOf = TeacherPagesTests.asOf

    struct Expected {
        var submitted = 0
        var completed = 0
        var open = 0
        var late = 0
        var submittedLate = 0
    }

    /// Each course's counts from the CSV.
    static func expected() throws -> [String: Expected] {
        var courses: [String: Expected] = [:]
        for task in try TeacherPagesTests.tasks() {
            var counts = courses[task.course] ?? Expected()
            switch task.status {
            case "submitted": counts.submitted += 1
            case "completed": counts.completed += 1
            case "open": counts.open += 1
            default: Issue.record("\(task.id): a state the converter does not write: \(task.status)")
            }
            // The converter writes dates only (YYYY-MM-DD, whose text orders as the dates do);
            // an exam has no due and is never late.
            #expect([0, 10].contains(task.due.count) && [0, 10].contains(task.submittedAt.count), "\(task.id)")
            if task.status != "open", !task.submittedAt.isEmpty, !task.due.isEmpty, task.submittedAt > task.due {
                counts.late += 1
                if task.status == "submitted" { counts.submittedLate += 1 }
            }
            courses[task.course] = counts
        }
        return courses
    }

    func run(_ sandbox: Sandbox, _ arguments: [String]) throws -> CommandResult {
        try sandbox.run(["--db", "db.sqlite", "--as-of", Self.asOf] + arguments)
    }

    /// The number of tasks a JSON list holds per course.
    func listed(_ sandbox: Sandbox, _ arguments: [String]) throws -> [String: Int] {
        let result = try run(sandbox, ["report", "list", "--format", "json"] + arguments)
        #expect(result.exitCode == 0, "\(arguments): \(result.stderr)")
        var counts: [String: Int] = [:]
        for course in JSON.objects(try JSON.object(result.stdout)["courses"]) {
            let tasks = JSON.objects(course["sections"]).reduce(0) { $0 + JSON.objects($1["tasks"]).count }
            counts[course["course_id"] as? String ?? "?", default: 0] += tasks
        }
        return counts.filter { $0.value > 0 }
    }

    @Test func eachCoursesToGradeCompletedAndLateCountsAreTheCSVs() throws {
        let expected = try Self.expected()
        #expect(expected.count == 2 && expected.values.allSatisfy { $0.submitted > 0 && $0.late > 0 }, "the slice has both")
        let sandbox = try Sandbox()
        for name in ["courses.csv", "tasks.csv"] {
            _ = try sandbox.write("drop/" + name, bytes: try Data(contentsOf: TeacherPagesTests.fixture.appendingPathComponent(name)))
        }
        let imported = try run(sandbox, ["import", "drop", "--format", "json"])
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        let total = expected.values.reduce(0) { $0 + $1.submitted + $1.completed + $1.open }
        // Every row of both files (a course per course id of the tasks) read and inserted.
        let rows = (total + expected.count).formatted(.number.locale(Locale(identifier: "en_US")))
        #expect(
            imported.stderr.contains(" \(rows) rows read, \(rows) inserted,") && imported.stderr.contains(" 0 rejected"),
            "\(imported.stderr)")
        let grid = try JSON.object(try run(sandbox, ["report", "grid", "--format", "json"]).stdout)
        for card in JSON.objects(grid["courses"]) {
            let id = card["course_id"] as? String ?? "?"
            let counts = (card["counts"] as? [String: Any] ?? [:]).compactMapValues { $0 as? Int }
            let want = try #require(expected[id])
            #expect(counts["to_grade"] == want.submitted, "\(id): \(counts)")
            #expect(counts["completed"] == want.completed, "\(id): \(counts)")
            #expect(counts["excused"] == 0, "\(id): \(counts)")
            let open = ["overdue", "today", "upcoming", "undated"].reduce(0) { $0 + (counts[$1] ?? 0) }
            #expect(open == want.open, "\(id): only open tasks get a bucket: \(counts)")
        }
        #expect(try listed(sandbox, ["--late", "--include-completed"]) == expected.mapValues(\.late))
        #expect(try listed(sandbox, ["--status", "submitted"]) == expected.mapValues(\.submitted))
        #expect(try listed(sandbox, ["--status", "SUBMITTED", "--late"]) == expected.mapValues(\.submittedLate).filter { $0.value > 0 })
        #expect(try run(sandbox, ["verify"]).exitCode == 0)
    }
}
