import Foundation
import Testing

/// `dashboard categorize`: buckets recomputed as of a fixed instant, each change logged once.
@Suite struct CategorizeCommandTests {
    static let unchanged = """
        {
          "schema": 1,
          "as_of": "2026-11-29T08:00:00Z",
          "tasks": 3,
          "entries": 0,
          "by_cause": {},
          "conflicts": 0,
          "expired_overrides": 0,
          "cleared_overrides": 0
        }

        """

    @Test func textRunPrintsOneSummaryLineOnStderrAndNothingOnStdout() throws {
        let sandbox = try AuditSetup.imported()
        let result = try sandbox.dashboard(["categorize", "--actor", "cron"])
        #expect(
            result
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr:
                        "dashboard: categorize as of 2026-11-29T08:00:00Z: 3 live tasks, 0 bucket changes recorded, 0 overrides expired\n"
                ))
    }

    @Test func jsonCarriesSchemaAsOfAndEveryCount() throws {
        let sandbox = try AuditSetup.imported()
        let result = try sandbox.dashboard(["categorize", "--format", "json", "--actor", "cron"])
        #expect(result.exitCode == 0)
        #expect(result.stdout == Self.unchanged)
        #expect(
            result.stderr
                == "dashboard: categorize as of 2026-11-29T08:00:00Z: 3 live tasks, 0 bucket changes recorded, 0 overrides expired\n")
        #expect(JSON.duplicateKeys(result.stdout) == [])
    }

    @Test func theSameAsOfTwiceRecordsNothingTheSecondTime() throws {
        let sandbox = try AuditSetup.imported()
        let later = "2026-11-30T08:00:00Z"
        let first = try sandbox.dashboard(["categorize", "--format", "json", "--actor", "cron"], asOf: later)
        #expect(try JSON.object(first.stdout)["entries"] as? Int == 1)
        let tasksAfterFirst = try DatabaseSnapshot.dump(sandbox.db, table: "tasks")
        let logAfterFirst = try sandbox.auditLog()
        let second = try sandbox.dashboard(["categorize", "--format", "json", "--actor", "cron"], asOf: later)
        #expect(second.exitCode == 0)
        #expect(second.stdout == Self.unchanged.replacingOccurrences(of: AuditSetup.asOf, with: later))
        #expect(try DatabaseSnapshot.dump(sandbox.db, table: "tasks") == tasksAfterFirst)
        #expect(try sandbox.auditLog() == logAfterFirst)
    }

    @Test func aLaterAsOfRecordsTimeEntriesForTheTasksThatMoved() throws {
        let sandbox = try AuditSetup.imported()
        // Dec 2, 08:00Z: t3 (his, UTC, due Nov 29 17:00) and t1 (bio, New York, due Dec 1) are overdue.
        let result = try sandbox.dashboard(["categorize", "--format", "json", "--actor", "cron"], asOf: "2026-12-02T08:00:00Z")
        #expect(
            result.stdout == """
                {
                  "schema": 1,
                  "as_of": "2026-12-02T08:00:00Z",
                  "tasks": 3,
                  "entries": 2,
                  "by_cause": {
                    "time": 2
                  },
                  "conflicts": 0,
                  "expired_overrides": 0,
                  "cleared_overrides": 0
                }

                """)
        #expect(
            result.stderr
                == "dashboard: categorize as of 2026-12-02T08:00:00Z: 3 live tasks, 2 bucket changes recorded (2 time), 0 overrides expired\n"
        )
        #expect(
            try sandbox.auditLog() == """
                1|t1|upcoming|overdue|time|cron|-
                2|t3|today|overdue|time|cron|-

                """)
        #expect(
            try DatabaseSnapshot.lines(sandbox.db, "SELECT task_id, bucket FROM tasks ORDER BY 1")
                == "t1|overdue\nt2|completed\nt3|overdue\n")
        #expect(
            try DatabaseSnapshot.lines(sandbox.db, "SELECT DISTINCT as_of FROM audit WHERE cause = 'time'") == "2026-12-02T08:00:00Z\n")
    }

    @Test func eachCourseMovesAtMidnightInItsOwnTimeZone() throws {
        let sandbox = try AuditSetup.imported()
        try sandbox.write("tasks.csv", "task_id,course_id,title,due\nb9,bio,Poster,2026-11-29\nh9,his,Map,2026-11-29\n")
        #expect(try sandbox.dashboard(["import", "tasks.csv", "--actor", "importer"]).exitCode == 0)
        // 2026-11-30T03:00Z is Nov 30 in UTC (his) but still 22:00 on Nov 29 in New York (bio).
        let result = try sandbox.dashboard(["categorize", "--actor", "cron"], asOf: "2026-11-30T03:00:00Z")
        #expect(result.exitCode == 0)
        #expect(
            try DatabaseSnapshot.lines(sandbox.db, "SELECT task_id, from_bucket, to_bucket FROM audit WHERE cause = 'time' ORDER BY 1")
                == "h9|today|overdue\nt3|today|overdue\n")
        // The database's default zone decides for courses without one (his), never a reader's
        // --timezone: the first import recorded UTC.
        let report = ["report", "list", "--format", "json", "--include-completed"]
        let utcBuckets = ["b9": "today", "h9": "today", "t1": "upcoming", "t2": "completed", "t3": "today"]
        let utc = try sandbox.dashboard(report, asOf: "2026-11-29T16:00:00Z")
        #expect(try sandbox.buckets(utc.stdout) == utcBuckets)
        let tokyoReader = try sandbox.dashboard(["--timezone", "Asia/Tokyo"] + report, asOf: "2026-11-29T16:00:00Z")
        #expect(try sandbox.buckets(tokyoReader.stdout) == utcBuckets)
        // With the database's zone set to Tokyo: at 16:00Z it is already 01:00 on Nov 30 there,
        // and t3's 17:00 is read as Tokyo time (08:00Z), for every reader.
        #expect(try sandbox.dashboard(["settings", "timezone", "Asia/Tokyo"], asOf: "2026-11-29T16:00:00Z").exitCode == 0)
        for zone in [[], ["--timezone", "UTC"]] {
            let tokyo = try sandbox.dashboard(zone + report, asOf: "2026-11-29T16:00:00Z")
            #expect(
                try sandbox.buckets(tokyo.stdout) == ["b9": "today", "h9": "overdue", "t1": "upcoming", "t2": "completed", "t3": "overdue"])
        }
    }

    @Test func quietPrintsNothingAtAll() throws {
        let sandbox = try AuditSetup.imported()
        let result = try sandbox.dashboard(["categorize", "--quiet", "--actor", "cron"], asOf: "2026-12-02T08:00:00Z")
        #expect(result == CommandResult(exitCode: 0, stdout: "", stderr: ""))
        #expect(try DatabaseSnapshot.int(sandbox.db, "SELECT count(*) FROM audit WHERE cause = 'time'") == 2)
    }

    @Test func dashboardAsOfFromTheEnvironmentWorksLikeTheOption() throws {
        let sandbox = try AuditSetup.imported()
        let result = try sandbox.run(
            ["--db", "db.sqlite", "categorize", "--format", "json", "--actor", "cron"],
            environment: ["DASHBOARD_AS_OF": "2026-12-02T08:00:00Z"])
        #expect(result.exitCode == 0)
        #expect(try JSON.object(result.stdout)["as_of"] as? String == "2026-12-02T08:00:00Z")
        #expect(try JSON.object(result.stdout)["entries"] as? Int == 2)
        #expect(
            result.stderr
                == "dashboard: categorize as of 2026-12-02T08:00:00Z: 3 live tasks, 2 bucket changes recorded (2 time), 0 overrides expired\n"
        )
    }

    @Test func anUnreadableAsOfIsAUsageErrorAndChangesNothing() throws {
        let sandbox = try AuditSetup.imported()
        let before = try sandbox.auditLog()
        let hint = "dashboard: hint: use 2026-11-29, 2026-11-29T08:00 (in --timezone) or 2026-11-29T08:00:00Z\n"
        let option = try sandbox.run(["--db", "db.sqlite", "categorize", "--as-of", "yesterday"])
        #expect(
            option
                == CommandResult(
                    exitCode: 64, stdout: "", stderr: "dashboard: error: --as-of \"yesterday\" cannot be read as a time\n" + hint))
        let environment = try sandbox.run(["--db", "db.sqlite", "categorize"], environment: ["DASHBOARD_AS_OF": "soon"])
        #expect(
            environment
                == CommandResult(
                    exitCode: 64, stdout: "", stderr: "dashboard: error: DASHBOARD_AS_OF=\"soon\" cannot be read as a time\n" + hint)
        )
        #expect(try sandbox.auditLog() == before)
    }

    @Test func aWrongFormatOrAnArgumentIsAUsageError() throws {
        let sandbox = try AuditSetup.imported()
        #expect(
            try sandbox.dashboard(["categorize", "--format", "csv"])
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr:
                        "dashboard: error: --format must be one of text, json, not \"csv\"\ndashboard: hint: see `dashboard categorize --help`\n"
                ))
        #expect(
            try sandbox.dashboard(["categorize", "everything"])
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr: "dashboard: error: unexpected argument \"everything\"\ndashboard: hint: see `dashboard categorize --help`\n"))
    }

    @Test(.sqliteFiles) func withoutADatabaseItExits66AndCreatesNone() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["--db", "nowhere.sqlite", "--as-of", AuditSetup.asOf, "categorize"])
        #expect(result == AuditSetup.noDatabase("nowhere.sqlite"))
        #expect(try sandbox.listing() == [])
    }
}

// MARK: - Shared by the categorize, reclassify, revert, audit and report end-to-end tests

/// The starting point of the audit tests: Fixtures' courses and tasks imported into db.sqlite.
enum AuditSetup {
    /// The as-of every command runs with unless a test says otherwise.
    static let asOf = "2026-11-29T08:00:00Z"

    /// Imports Fixtures' set as of `asOf` by actor `importer`: batch 1 creates t1 (upcoming), t2
    /// (completed) and t3 (today), births that store no entry (the log starts empty).
    static func imported() throws -> Sandbox {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let result = try sandbox.dashboard(["import", "courses.csv", "tasks.csv", "--actor", "importer"])
        guard result.exitCode == 0 else { throw HarnessError("the fixture import failed\n\(result)") }
        return sandbox
    }

    /// What every command that needs the database says when there is none.
    static func noDatabase(_ path: String) -> CommandResult {
        CommandResult(
            exitCode: 66, stdout: "",
            stderr: "dashboard: error: no database at \(path) yet\ndashboard: hint: import data first: `dashboard import imports/`\n")
    }
}

extension Sandbox {
    var db: String { path("db.sqlite") }

    /// Runs `dashboard --db db.sqlite --as-of AS_OF ARGS`.
    func dashboard(_ arguments: [String], asOf: String = AuditSetup.asOf, environment: [String: String] = [:]) throws
        -> CommandResult
    {
        try run(["--db", "db.sqlite", "--as-of", asOf] + arguments, environment: environment)
    }

    /// The audit log, one entry a line: `id|task|from|to|cause|actor|batch` (`-` for no batch).
    func auditLog() throws -> String {
        try DatabaseSnapshot.lines(
            db,
            "SELECT entry_id, task_id, from_bucket, to_bucket, cause, actor, coalesce(CAST(batch_id AS TEXT), '-') FROM audit ORDER BY 1")
    }

    /// `task_id: bucket` of every task in a `report list --format json` output.
    func buckets(_ reportJSON: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for task in ReportListCommandTests.tasks(try JSON.object(reportJSON)) {
            result[task["task_id"] as? String ?? "?"] = task["bucket"] as? String ?? "?"
        }
        return result
    }

    /// `text` with every recorded-at time of the log, and every batch's finished (else started)
    /// time, replaced by a placeholder of the same width (recorded-at is the machine's clock, the
    /// one value `--as-of` does not fix; a derived birth line is recorded at its creating batch's).
    func maskingRecordedAt(_ text: String) throws -> String {
        var masked = text
        let times = try DatabaseSnapshot.lines(
            db, "SELECT recorded_at FROM audit UNION SELECT coalesce(finished_at, started_at) FROM batches")
        for line in times.split(separator: "\n") {
            masked = masked.replacingOccurrences(of: String(line), with: "YYYY-MM-DDTHH:MM:SSZ")
        }
        return masked
    }
}
