import Foundation
import Testing

/// `dashboard reclassify`: manual overrides (a pinned bucket, optionally until a day).
@Suite struct ReclassifyCommandTests {
    static let pin = ["reclassify", "t1", "--to", "today", "--reason", "extension granted", "--actor", "adams"]

    @Test func reclassifyPinsTheBucketAndSaysHowToUndoIt() throws {
        let sandbox = try AuditSetup.imported()
        let result = try sandbox.dashboard(Self.pin)
        #expect(
            result
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr: "dashboard: entry 1: task t1 pinned to today (was upcoming); undo with `dashboard revert 1`\n"))
        // The first entry of the log: the import's births stored none.
        #expect(try sandbox.auditLog() == "1|t1|upcoming|today|override|adams|-\n")
        #expect(
            try DatabaseSnapshot.dump(sandbox.db, table: "overrides") == "t1|1|today||extension granted|adams\n")
        #expect(try DatabaseSnapshot.lines(sandbox.db, "SELECT bucket FROM tasks WHERE task_id = 't1'") == "today\n")
        // categorize keeps the pin; the report shows it, pinned.
        #expect(try sandbox.dashboard(["categorize", "--actor", "cron"]).exitCode == 0)
        let report = try JSON.object(try sandbox.dashboard(["report", "list", "--format", "json"]).stdout)
        let t1 = ReportListCommandTests.tasks(report).first { $0["task_id"] as? String == "t1" }
        #expect(t1?["bucket"] as? String == "today")
        #expect(t1?["pinned"] as? Bool == true)
    }

    @Test func reclassifyJSONPrintsTheNewEntry() throws {
        let sandbox = try AuditSetup.imported()
        let result = try sandbox.dashboard(Self.pin + ["--until", "2026-12-03", "--format", "json"])
        #expect(result.exitCode == 0)
        #expect(
            try sandbox.maskingRecordedAt(result.stdout) == """
                {
                  "entry_id": 1,
                  "recorded_at": "YYYY-MM-DDTHH:MM:SSZ",
                  "as_of": "2026-11-29T08:00:00Z",
                  "task_id": "t1",
                  "task_title": "Lab report",
                  "course_id": "bio",
                  "from": "upcoming",
                  "to": "today",
                  "cause": "override",
                  "actor": "adams",
                  "reason": "extension granted",
                  "batch_id": null,
                  "reverts": null,
                  "reverted_by": [],
                  "conflict": false,
                  "override_until": "2026-12-03",
                  "override_before": null,
                  "group": null,
                  "derived": false
                }

                """)
        #expect(
            result.stderr
                == "dashboard: entry 1: task t1 pinned to today until 2026-12-03 (was upcoming); undo with `dashboard revert 1`\n")
    }

    @Test(arguments: [
        (["reclassify", "t1", "--reason", "x"], 64, "missing --to BUCKET"),
        (["reclassify", "t1", "--to", "today"], 64, "missing --reason TEXT: say why the task is reclassified"),
        (
            ["reclassify", "t1", "--to", "soon", "--reason", "x"], 64,
            "--to must be one of overdue, today, upcoming, undated, completed, excused, not \"soon\""
        ),
        (["reclassify", "t1", "--to", "today", "--reason", "  "], 64, "--reason must say why the task is reclassified"),
        (
            ["reclassify", "t1", "--to", "today", "--reason", "x", "--until", "2026-11-28"], 64,
            "--until 2026-11-28 is not after the as-of time 2026-11-29T08:00:00Z"
        ),
        (["reclassify", "t1", "--to", "today", "--reason", "x", "--until", "later"], 64, "cannot read --until \"later\""),
        (["reclassify", "--to", "today", "--reason", "x"], 64, "missing TASK (a task_id) or selection options (--course, --bucket, ...)"),
        (["reclassify", "t9", "--to", "today", "--reason", "x"], 65, "there is no task \"t9\""),
    ])
    func reclassifyRefusalsNameTheProblemAndChangeNothing(arguments: [String], code: Int32, message: String) throws {
        let sandbox = try AuditSetup.imported()
        let before = try DatabaseSnapshot.data(sandbox.db) + (try sandbox.auditLog())
        let hint =
            code == 65 ? "`dashboard audit` and `dashboard batches list` show what exists" : "see `dashboard reclassify --help`"
        #expect(
            try sandbox.dashboard(arguments)
                == CommandResult(exitCode: code, stdout: "", stderr: "dashboard: error: \(message)\ndashboard: hint: \(hint)\n"))
        #expect(try DatabaseSnapshot.data(sandbox.db) + (try sandbox.auditLog()) == before)
        #expect(try DatabaseSnapshot.int(sandbox.db, "SELECT count(*) FROM overrides") == 0)
    }

    @Test func anOverrideExpiresAtTheEndOfItsUntilDayInTheCourseTimeZone() throws {
        let sandbox = try AuditSetup.imported()
        let pin = ["reclassify", "t1", "--to", "overdue", "--reason", "late anyway", "--until", "2026-11-30", "--actor", "adams"]
        #expect(try sandbox.dashboard(pin).exitCode == 0)
        // 2026-12-01T04:59:59Z is 23:59:59 on Nov 30 in New York: still pinned.
        let before = try sandbox.dashboard(["categorize", "--format", "json", "--actor", "cron"], asOf: "2026-12-01T04:59:59Z")
        #expect(try JSON.object(before.stdout)["expired_overrides"] as? Int == 0)
        let after = try sandbox.dashboard(["categorize", "--format", "json", "--actor", "cron"], asOf: "2026-12-01T05:00:00Z")
        #expect(try JSON.object(after.stdout)["expired_overrides"] as? Int == 1)
        #expect(
            try DatabaseSnapshot.lines(sandbox.db, "SELECT entry_id, from_bucket, to_bucket, cause, reason FROM audit WHERE task_id = 't1'")
                == "1|upcoming|overdue|override|late anyway\n"
                + "3|overdue|today|time|override #1 (pinned to overdue) expired at 2026-11-30\n")
        #expect(try DatabaseSnapshot.int(sandbox.db, "SELECT count(*) FROM overrides") == 0)
    }

    @Test(.sqliteFiles) func reclassifyWithoutADatabaseExits66AndCreatesNone() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["--db", "nowhere.sqlite", "--as-of", AuditSetup.asOf] + Self.pin)
        #expect(result == AuditSetup.noDatabase("nowhere.sqlite"))
        #expect(try sandbox.listing() == [])
    }
}
