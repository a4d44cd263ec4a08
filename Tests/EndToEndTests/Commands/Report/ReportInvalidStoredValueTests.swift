import Foundation
import Testing

/// A stored value a hand edit made invalid is shown as invalid in every report format, never
/// read as a valid one (`priority = 'urgent'` used to show as normal, `completed = 2` as false).
@Suite("Reports: invalid stored values", .sqliteFiles)
struct ReportInvalidStoredValueTests {
    private func plantedSandbox(_ sql: String) throws -> Sandbox {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        #expect(try sandbox.runTool("sqlite3", ["db.sqlite", "PRAGMA ignore_check_constraints = 1; " + sql]).exitCode == 0)
        return sandbox
    }

    static let urgentAndTwo =
        "UPDATE tasks SET priority = 'urgent' WHERE task_id = 't1'; UPDATE tasks SET completed = 2 WHERE task_id = 't2';"

    @Test func csvNamesTheInvalidValuesInTheirColumnsAndTheStatus() throws {
        let sandbox = try plantedSandbox(Self.urgentAndTwo)
        let result = try sandbox.run(["--db", "db.sqlite", "report", "list", "--include-completed", "--format", "csv"])
        #expect(result.exitCode == 0)
        let lines = [
            "course_id,course_code,task_id,title,student_id,due,priority,completed,bucket,status,"
                + "days_late,late,override_until,override_reason,override_actor,submission_status,submitted_at,submitted_late",
            #"bio,BIO 101,t1,Lab report,s1,2026-12-01,invalid,false,upcoming,"upcoming; invalid priority ""urgent""",,,,,,open,,false"#,
            #"bio,BIO 101,t2,"Reading quiz, chapter 4",s2,,low,invalid,undated,no due date; invalid completed 2,,,,,,open,,false"#,
            "his,HIS 200,t3,Essay draft,s1,2026-11-29T17:00:00+00:00,normal,false,today,due today,,,,,,open,,false",
        ]
        #expect(result.stdout == lines.map { $0 + "\r\n" }.joined())
    }

    @Test(arguments: ["text", "markdown", "html"])
    func humanReadableFormatsShowTheWords(_ format: String) throws {
        let sandbox = try plantedSandbox(Self.urgentAndTwo)
        let result = try sandbox.run(["--db", "db.sqlite", "report", "list", "--include-completed", "--format", format])
        #expect(result.exitCode == 0)
        let quote = format == "html" ? "&quot;" : "\""
        #expect(result.stdout.contains("invalid priority \(quote)urgent\(quote)"), "\(result.stdout)")
        #expect(result.stdout.contains("invalid completed 2"))
        // t1's priority column says invalid (never normal, the priority it sorts as).
        let priorityCell = [
            "text": "s1       2026-12-01  invalid   upcoming", "markdown": "| invalid |",
            "html": "<td data-label=\"Priority\">invalid</td>",
        ]
        #expect(result.stdout.contains(priorityCell[format] ?? "?"), "\(result.stdout)")
    }

    @Test func jsonGivesTheStoredValueAndNamesIt() throws {
        let sandbox = try plantedSandbox(Self.urgentAndTwo)
        let result = try sandbox.run(["--db", "db.sqlite", "report", "list", "--include-completed", "--format", "json"])
        let tasks = try JSON.object(result.stdout)
        let flat = JSON.objects(tasks["courses"]).flatMap { JSON.objects($0["sections"]) }
            .flatMap { JSON.objects($0["tasks"]) }
        let byID = Dictionary(uniqueKeysWithValues: flat.map { ($0["task_id"] as? String ?? "", $0) })
        #expect(byID["t1"]?["priority"] as? String == "urgent")
        #expect(byID["t1"]?["invalid"] as? [String] == ["priority"])
        #expect(byID["t2"]?["completed"] as? Int == 2)
        #expect(byID["t2"]?["invalid"] as? [String] == ["completed"])
        #expect(byID["t3"]?["invalid"] == nil, "a valid task has no invalid key")
    }

    @Test(arguments: [["grid"], ["grid", "--format", "json"], ["list"]])
    func everyReportWarnsOnStderrHowManyTasksHoldAnInvalidValue(_ arguments: [String]) throws {
        let sandbox = try plantedSandbox(Self.urgentAndTwo)
        let result = try sandbox.run(["--db", "db.sqlite", "report"] + arguments)
        #expect(result.exitCode == 0)
        #expect(
            result.stderr.contains(
                "dashboard: warning: 2 tasks hold a stored value a hand edit made invalid (shown as invalid); `dashboard verify` lists them\n"
            ), "\(result.stderr)")
        let clean = try Sandbox()
        try Fixtures.writeValidSet(clean)
        #expect(try clean.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        #expect(!(try clean.run(["--db", "db.sqlite", "report"] + arguments).stderr.contains("invalid")))
    }

    @Test func anInvalidPriorityMatchesNoPriorityFilter() throws {
        let sandbox = try plantedSandbox(Self.urgentAndTwo)
        for priority in ["normal", "high"] {
            let result = try sandbox.run(["--db", "db.sqlite", "report", "list", "--priority", priority, "--format", "csv"])
            #expect(!result.stdout.contains("t1,"), "\(priority): \(result.stdout)")
        }
    }

    @Test func anInvalidDueOrAHugeYearIsInvalidNotATrap() throws {
        let sandbox = try plantedSandbox(
            "UPDATE tasks SET due = '2026-02-30' WHERE task_id = 't1'; UPDATE tasks SET due = '99999999999999999999-01-01T00:00:00Z' WHERE task_id = 't3'; UPDATE tasks SET completed = 1e300 WHERE task_id = 't2';"
        )
        let result = try sandbox.run(["--db", "db.sqlite", "report", "list", "--include-completed", "--format", "csv"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains("no due date; invalid due \"\"2026-02-30\"\""))
        #expect(result.stdout.contains("invalid due \"\"99999999999999999999-01-01T00:00:00Z\"\""))
        #expect(result.stdout.contains("invalid completed 1e+300"))
        for command in [["report", "grid"], ["categorize"], ["status"], ["verify"]] {
            let run = try sandbox.run(["--db", "db.sqlite"] + command)
            #expect([0, 65].contains(run.exitCode), "\(command): \(run)")
        }
    }
}
