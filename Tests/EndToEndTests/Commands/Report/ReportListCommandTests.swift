import Foundation
import Testing

/// `dashboard report list --format json`: every live course with its tasks (in sections by
/// bucket), each in its bucket as of `--as-of` in the course's time zone, overrides winning.
@Suite struct ReportListCommandTests {
    static let report = ["report", "list", "--format", "json"]

    /// Three courses in three zones, each with a task due (date only) on 2026-11-29.
    static func threeZones() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write(
            "courses.csv",
            "course_id,title,code,timezone\nber,Berlin,BER,Europe/Berlin\nla,Los Angeles,LA,America/Los_Angeles\nutc,Default,DEF,\n")
        try sandbox.write(
            "tasks.csv", "task_id,course_id,title,due\nb1,ber,Poster,2026-11-29\nl1,la,Poster,2026-11-29\nu1,utc,Poster,2026-11-29\n")
        let result = try sandbox.dashboard(["import", "courses.csv", "tasks.csv", "--actor", "importer"], asOf: "2026-11-29T12:00:00Z")
        guard result.exitCode == 0 else { throw HarnessError("the three-zone import failed\n\(result)") }
        return sandbox
    }

    /// Every task of a list report, course by course, section by section.
    static func tasks(_ report: [String: Any]) -> [[String: Any]] {
        JSON.objects(report["courses"]).flatMap { course in JSON.objects(course["sections"]).flatMap { JSON.objects($0["tasks"]) } }
    }

    /// A task as `id|course|title|student|due|priority|completed|bucket|pinned`.
    static func line(_ task: [String: Any]) -> String {
        ["task_id", "course_id", "title", "student_id", "due", "priority", "completed", "bucket", "pinned"].map { key in
            switch task[key] {
            case let text as String: return text
            case let flag as Bool: return flag ? "true" : "false"
            case is NSNull: return "null"
            default: return "?"
            }
        }.joined(separator: "|")
    }

    @Test func everyCourseWithItsTasksAndEveryKeyOfThem() throws {
        let sandbox = try AuditSetup.imported()
        let result = try sandbox.dashboard(Self.report + ["--include-completed"])
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        #expect(JSON.duplicateKeys(result.stdout) == [])
        let json = try JSON.object(result.stdout)
        #expect(json["schema"] as? Int == 2)
        #expect(json["as_of"] as? String == "2026-11-29T08:00:00Z")
        #expect(json["state"] as? String == "ok")
        let courses = JSON.objects(json["courses"])
        #expect(
            courses.map { c in ["course_id", "code", "title", "timezone"].map { c[$0] as? String ?? "?" }.joined(separator: "|") } == [
                "bio|BIO 101|Biology|America/New_York", "his|HIS 200|History|",
            ])
        let tasks = Self.tasks(json)
        for task in tasks {
            #expect(
                Set(task.keys) == [
                    "task_id", "course_id", "title", "student_id", "due", "priority", "completed", "bucket", "pinned", "days_late", "late",
                    "override", "status", "submitted_at", "submitted_late",
                ])
        }
        #expect(
            tasks.map(Self.line) == [
                "t1|bio|Lab report|s1|2026-12-01|high|false|upcoming|false",
                "t2|bio|Reading quiz, chapter 4|s2|null|low|true|completed|false",
                "t3|his|Essay draft|s1|2026-11-29T17:00:00+00:00|normal|false|today|false",
            ])
        // Completed tasks are listed only when asked for.
        let open = try JSON.object(try sandbox.dashboard(Self.report).stdout)
        #expect(Self.tasks(open).map { $0["task_id"] as? String ?? "?" } == ["t1", "t3"])
    }

    @Test func theSameDatabaseAndAsOfGiveByteIdenticalOutputAndTheReportWritesNothing() throws {
        let sandbox = try AuditSetup.imported()
        let before = try DatabaseSnapshot.data(sandbox.db) + (try sandbox.auditLog())
        let report = Self.report + ["--include-completed"]
        let first = try sandbox.dashboard(report, asOf: "2026-12-05T08:00:00Z")
        let second = try sandbox.dashboard(report, asOf: "2026-12-05T08:00:00Z")
        #expect(first == second)
        // The report computes buckets as of its as-of; the stored ones move only with categorize.
        #expect(try sandbox.buckets(first.stdout) == ["t1": "overdue", "t2": "completed", "t3": "overdue"])
        #expect(try DatabaseSnapshot.data(sandbox.db) + (try sandbox.auditLog()) == before)
    }

    @Test func bucketsFollowTheAsOfInEachCoursesTimeZone() throws {
        let sandbox = try Self.threeZones()
        // 23:30Z on Nov 29: 00:30 on Nov 30 in Berlin, 15:30 on Nov 29 in Los Angeles.
        let cases: [(asOf: String, timezone: String?, buckets: [String: String])] = [
            ("2026-11-29T22:59:59Z", nil, ["b1": "today", "l1": "today", "u1": "today"]),
            ("2026-11-29T23:00:00Z", nil, ["b1": "overdue", "l1": "today", "u1": "today"]),
            ("2026-11-29T23:30:00Z", nil, ["b1": "overdue", "l1": "today", "u1": "today"]),
            // A reader's --timezone never moves a bucket: u1's course has no zone and uses the
            // database's (UTC, recorded by the first import), whoever reads (SPEC §6).
            ("2026-11-29T23:30:00Z", "Asia/Tokyo", ["b1": "overdue", "l1": "today", "u1": "today"]),
            ("2026-11-30T00:00:00Z", nil, ["b1": "overdue", "l1": "today", "u1": "overdue"]),
            ("2026-11-30T07:59:59Z", nil, ["b1": "overdue", "l1": "today", "u1": "overdue"]),
            ("2026-11-30T08:00:00Z", nil, ["b1": "overdue", "l1": "overdue", "u1": "overdue"]),
            ("2026-11-28T23:00:00Z", nil, ["b1": "today", "l1": "upcoming", "u1": "upcoming"]),
            // A bare --as-of date is the start of that day in --timezone (10:00Z on Nov 28 for
            // Kiritimati); u1 is still read in the database's zone (Nov 28 in UTC).
            ("2026-11-29", "Pacific/Kiritimati", ["b1": "upcoming", "l1": "upcoming", "u1": "upcoming"]),
        ]
        for (asOf, timezone, buckets) in cases {
            let zone = timezone.map { ["--timezone", $0] } ?? []
            let result = try sandbox.dashboard(zone + Self.report, asOf: asOf)
            #expect(result.exitCode == 0, "\(result)")
            #expect(try sandbox.buckets(result.stdout) == buckets, "as of \(asOf) \(timezone ?? "")")
        }
        let kiritimati = try sandbox.dashboard(["--timezone", "Pacific/Kiritimati"] + Self.report, asOf: "2026-11-29")
        #expect(try JSON.object(kiritimati.stdout)["as_of"] as? String == "2026-11-28T10:00:00Z")
        // Only the database's own setting moves them, for every reader alike.
        let set = try sandbox.dashboard(["settings", "timezone", "Asia/Tokyo"], asOf: "2026-11-29T23:30:00Z")
        #expect(set.exitCode == 0, "\(set)")
        for zone in [[], ["--timezone", "America/Los_Angeles"]] {
            let result = try sandbox.dashboard(zone + Self.report, asOf: "2026-11-29T23:30:00Z")
            #expect(try sandbox.buckets(result.stdout) == ["b1": "overdue", "l1": "today", "u1": "overdue"], "\(zone)")
        }
    }

    @Test func aTimedDueIsTodayAtItsMinuteAndOverdueOneSecondLater() throws {
        let sandbox = try AuditSetup.imported()
        let cases = [("2026-11-29T17:00:00Z", "today"), ("2026-11-29T17:00:01Z", "overdue"), ("2026-11-28T23:59:59Z", "upcoming")]
        for (asOf, bucket) in cases {
            let result = try sandbox.dashboard(Self.report, asOf: asOf)
            #expect(try sandbox.buckets(result.stdout)["t3"] == bucket, "as of \(asOf)")
        }
    }

    @Test func anOverrideInForceWinsAndIsMarkedPinnedUntilItExpires() throws {
        let sandbox = try AuditSetup.imported()
        let pin = ["reclassify", "t3", "--to", "upcoming", "--reason", "extension", "--until", "2026-11-30", "--actor", "adams"]
        #expect(try sandbox.dashboard(pin).exitCode == 0)
        // his has no zone: the until day ends at midnight UTC. No categorize in between.
        let cases = [
            ("2026-11-29T08:00:00Z", "upcoming", true), ("2026-11-30T23:59:59Z", "upcoming", true),
            ("2026-12-01T00:00:00Z", "overdue", false),
        ]
        for (asOf, bucket, pinned) in cases {
            let t3 = Self.tasks(try JSON.object(try sandbox.dashboard(Self.report, asOf: asOf).stdout)).first {
                $0["task_id"] as? String == "t3"
            }
            #expect(t3?["bucket"] as? String == bucket, "as of \(asOf)")
            #expect(t3?["pinned"] as? Bool == pinned, "as of \(asOf)")
        }
    }

    @Test func withoutADatabaseTheStateIsNoDataAndNothingIsCreated() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["--db", "nowhere.sqlite", "--as-of", AuditSetup.asOf] + Self.report)
        #expect(result.exitCode == 0)
        #expect(result.stderr == "dashboard: no data imported yet; next step: dashboard import imports/\n")
        let json = try JSON.object(result.stdout)
        #expect(json["schema"] as? Int == 2)
        #expect(json["state"] as? String == "no_data")
        #expect(JSON.objects(json["courses"]).isEmpty)
        #expect(try sandbox.listing() == [])
    }

    @Test func aMissingOrUnknownReportKindOrFormatIsAUsageError() throws {
        let sandbox = try AuditSetup.imported()
        let hint = "dashboard: hint: see `dashboard report --help`\n"
        let which = "dashboard: error: say which report: `dashboard report grid` or `dashboard report list`\n"
        // `dashboard report` alone is the grid (SPEC §7), byte for byte.
        #expect(try sandbox.dashboard(["report"]) == (try sandbox.dashboard(["report", "grid"])))
        #expect(try sandbox.dashboard(["report"]).exitCode == 0)
        #expect(try sandbox.dashboard(["report", "table"]) == CommandResult(exitCode: 64, stdout: "", stderr: which + hint))
        #expect(
            try sandbox.dashboard(["report", "list", "--format", "xml"])
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr: "dashboard: error: --format must be one of text, markdown, html, json, csv, md, not \"xml\"\n" + hint))
        // `md` is Markdown, byte for byte.
        #expect(
            try sandbox.dashboard(["report", "list", "--format", "md"])
                == (try sandbox.dashboard(["report", "list", "--format", "markdown"])))
        #expect(try sandbox.dashboard(["report", "list", "--format", "md"]).stdout.hasPrefix("# Task lists as of "))
    }

    @Test func textIsTheDefaultOnATerminalOrNot() throws {
        let sandbox = try AuditSetup.imported()
        // The harness's stdout is a pipe, never a terminal: text all the same (JSON only when asked).
        for kind in ["grid", "list"] {
            let plain = try sandbox.dashboard(["report", kind])
            #expect(plain.exitCode == 0)
            #expect(plain == (try sandbox.dashboard(["report", kind, "--format", "text"])))
            #expect(plain.stdout.hasPrefix(kind == "grid" ? "Courses as of " : "Task lists as of "))
        }
        #expect(try sandbox.dashboard(["report", "grid", "--format", "json"]).stdout.hasPrefix("{\n  \"schema\": 2,"))
    }
}
