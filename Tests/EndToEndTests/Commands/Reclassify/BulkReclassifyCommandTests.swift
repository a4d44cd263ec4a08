import DashboardCore
import Foundation
import Testing

/// Bulk `dashboard reclassify` (the report's selection instead of a TASK): the preview, `--yes`
/// as one group, `--confirm`, and `dashboard revert --group`.
@Suite struct BulkReclassifyCommandTests {
    static let courses = """
        course_id,title,code,timezone,teacher
        math,Algebra,MATH 101,Europe/Berlin,Ada Okafor
        bio,Biology,BIO 101,America/New_York,Ben Adams

        """

    /// As of 2026-11-29T08:00Z: m1, m2 and b1 overdue, m3 today, m4 upcoming, m5 completed,
    /// b2 undated.
    static let tasks = """
        task_id,course_id,title,student_id,due,priority,completed
        m1,math,Worksheet 1,s1,2026-11-27,normal,no
        m2,math,Worksheet 2,s2,2026-11-28,high,no
        m3,math,Essay draft,s1,2026-11-29,normal,no
        m4,math,Project,s2,2026-12-03,low,no
        m5,math,Quiz,s1,2026-11-20,normal,yes
        b1,bio,Lab report,s1,2026-11-27,normal,no
        b2,bio,Reading,s3,,normal,no

        """

    /// A snow day in MATH 101: everything overdue or due today moves to upcoming until Sunday.
    static let snow = [
        "reclassify", "--course", "math", "--bucket", "overdue", "--bucket", "today", "--to", "upcoming", "--reason", "snow day",
        "--until", "2026-12-06",
    ]

    static func imported() throws -> Sandbox {
        let sandbox = try Sandbox()
        _ = try sandbox.write("courses.csv", courses)
        _ = try sandbox.write("tasks.csv", tasks)
        let result = try sandbox.dashboard(["import", "courses.csv", "tasks.csv", "--actor", "importer"])
        guard result.exitCode == 0 else { throw HarnessError("the fixture import failed\n\(result)") }
        return sandbox
    }

    /// The database's bytes and its write-ahead log's (nil when there is none).
    static func files(_ sandbox: Sandbox) throws -> [Data?] {
        [sandbox.db, sandbox.db + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    /// Every table a reclassification or a revert writes, whole.
    static func state(_ sandbox: Sandbox) throws -> String {
        try DatabaseSnapshot.data(sandbox.db) + "overrides:\n" + DatabaseSnapshot.dump(sandbox.db, table: "overrides")
            + "audit:\n" + sandbox.auditLog()
    }

    static func token(_ sandbox: Sandbox, _ arguments: [String]) throws -> String {
        let preview = try JSON.object(try sandbox.dashboard(arguments + ["--format", "json"]).stdout)
        guard let token = preview["confirm"] as? String else { throw HarnessError("no token in the preview") }
        return token
    }

    @Test func thePreviewListsTheTasksInTextAndJSONAndWritesNothing() throws {
        let sandbox = try Self.imported()
        let before = try Self.files(sandbox)
        let text = try sandbox.dashboard(Self.snow)
        let json = try sandbox.dashboard(Self.snow + ["--format", "json"])
        #expect(text.exitCode == 0)
        #expect(json.exitCode == 0)
        GoldenFile.expectMatch(text.stdout, golden: "reclassify/preview.txt")
        GoldenFile.expectMatch(json.stdout, golden: "reclassify/preview.json")
        let token = try Self.token(sandbox, Self.snow)
        #expect(
            text.stderr
                == "dashboard: would pin 3 tasks to upcoming until 2026-12-06; nothing was written: run again with --yes --confirm \(token) to pin exactly these\n"
        )
        #expect(json.stderr == text.stderr)
        #expect(try Self.files(sandbox) == before)
    }

    @Test(arguments: [
        ["--course", "math"], ["--teacher", "okafor"], ["--bucket", "overdue"], ["--student", "s1", "--include-completed"],
        ["--bucket", "completed"], ["--search", "worksheet"], ["--priority", "high", "--priority", "low"], ["--include-completed"],
        ["--course", "BIO 101", "--bucket", "undated"],
    ])
    func theSelectionIsExactlyWhatReportListLists(options: [String]) throws {
        let sandbox = try Self.imported()
        let preview = try JSON.object(
            try sandbox.dashboard(["reclassify", "--to", "undated", "--reason", "x", "--format", "json"] + options).stdout)
        let report = try JSON.object(try sandbox.dashboard(["report", "list", "--format", "json"] + options).stdout)
        let listed = ReportListCommandTests.tasks(report).compactMap { $0["task_id"] as? String }
        #expect(!listed.isEmpty)
        #expect(JSON.objects(preview["tasks"]).compactMap { $0["task_id"] as? String } == listed)
    }

    @Test func yesPinsEveryTaskAsOneGroupAndSaysHowToUndoIt() throws {
        let sandbox = try Self.imported()
        let last = try DatabaseSnapshot.int(sandbox.db, "SELECT max(entry_id) FROM audit")
        let result = try sandbox.dashboard(Self.snow + ["--yes", "--actor", "adams"])
        #expect(result.exitCode == 0)
        GoldenFile.expectMatch(result.stdout, golden: "reclassify/preview.txt")
        #expect(
            result.stderr
                == "dashboard: group 1: pinned 3 tasks to upcoming until 2026-12-06 (entries \(last + 1)–\(last + 3)); undo with `dashboard revert --group 1`\n"
        )
        #expect(
            try DatabaseSnapshot.lines(
                sandbox.db,
                "SELECT task_id, from_bucket, to_bucket, cause, actor, reason, override_until, group_id FROM audit WHERE entry_id > \(last)"
            )
                == """
                m1|overdue|upcoming|override|adams|snow day|2026-12-06|1
                m2|overdue|upcoming|override|adams|snow day|2026-12-06|1
                m3|today|upcoming|override|adams|snow day|2026-12-06|1

                """)
        #expect(
            try DatabaseSnapshot.dump(sandbox.db, table: "overrides") == """
                m1|\(last + 1)|upcoming|2026-12-06|snow day|adams
                m2|\(last + 2)|upcoming|2026-12-06|snow day|adams
                m3|\(last + 3)|upcoming|2026-12-06|snow day|adams

                """)
        #expect(
            try DatabaseSnapshot.lines(sandbox.db, "SELECT task_id, bucket FROM tasks ORDER BY 1")
                == "b1|overdue\nb2|undated\nm1|upcoming\nm2|upcoming\nm3|upcoming\nm4|upcoming\nm5|completed\n")
        let audit = try sandbox.dashboard(["audit", "--group", "1"])
        GoldenFile.expectMatch(try sandbox.maskingRecordedAt(audit.stdout), golden: "reclassify/audit-group.txt")
        let csv = try sandbox.dashboard(["audit", "--group", "1", "--format", "csv"])
        GoldenFile.expectMatch(try sandbox.maskingRecordedAt(csv.stdout), golden: "reclassify/audit-group.csv")
        let json = try sandbox.dashboard(["audit", "--group", "1", "--format", "json"])
        GoldenFile.expectMatch(try sandbox.maskingRecordedAt(json.stdout), golden: "reclassify/audit-group.json")
    }

    @Test func aTaskAlreadyPinnedToTheTargetWithTheSameEndIsListedAndSkipped() throws {
        let sandbox = try Self.imported()
        let overdue = [
            "reclassify", "--course", "math", "--bucket", "overdue", "--to", "upcoming", "--reason", "snow day", "--until", "2026-12-06",
        ]
        #expect(try sandbox.dashboard(overdue + ["--yes"]).exitCode == 0)
        let all = ["reclassify", "--course", "math", "--to", "upcoming", "--reason", "snow day", "--until", "2026-12-06"]
        let preview = try sandbox.dashboard(all)
        #expect(preview.exitCode == 0)
        GoldenFile.expectMatch(preview.stdout, golden: "reclassify/preview-skipped.txt")
        let token = try Self.token(sandbox, all)
        #expect(
            preview.stderr
                == "dashboard: would pin 2 tasks to upcoming until 2026-12-06; 2 already pinned so, skipped; nothing was written: run again with --yes --confirm \(token) to pin exactly these\n"
        )
        #expect(try sandbox.dashboard(all + ["--yes"]).exitCode == 0)
        let again = try sandbox.dashboard(all + ["--yes"])
        #expect(again.exitCode == 0)
        #expect(again.stderr == "dashboard: nothing to reclassify: the 4 tasks selected are already pinned to upcoming until 2026-12-06\n")
    }

    @Test func aSelectionMatchingNothingSaysSoAndExitsZero() throws {
        let sandbox = try Self.imported()
        let before = try Self.state(sandbox)
        for yes in [[], ["--yes"]] {
            let result = try sandbox.dashboard(
                ["reclassify", "--course", "nope", "--to", "upcoming", "--reason", "x"] + yes)
            #expect(result.exitCode == 0)
            #expect(result.stdout == "No task matches the selection.\n")
            #expect(
                result.stderr
                    == "dashboard: nothing to reclassify: no task matches --course nope (`dashboard report list` with the same options lists the same tasks)\n"
            )
        }
        #expect(try Self.state(sandbox) == before)
    }

    @Test func aSelectionThatChangedSinceThePreviewIsShownAndNothingIsWritten() throws {
        let sandbox = try Self.imported()
        let token = try Self.token(sandbox, Self.snow)
        // Between preview and apply, an import moves m4's due into the past: it is overdue now.
        _ = try sandbox.write(
            "tasks.csv", Self.tasks.replacingOccurrences(of: "m4,math,Project,s2,2026-12-03", with: "m4,math,Project,s2,2026-11-28"))
        #expect(try sandbox.dashboard(["import", "tasks.csv", "--actor", "importer"]).exitCode == 0)
        let before = try Self.state(sandbox)
        let now = try Self.token(sandbox, Self.snow)
        let result = try sandbox.dashboard(Self.snow + ["--yes", "--confirm", token])
        #expect(result.exitCode == 65)
        GoldenFile.expectMatch(result.stdout, golden: "reclassify/changed.txt")
        #expect(
            result.stderr == """
                dashboard: error: the selection changed since the preview (--confirm \(token), now \(now)); changed since: m4 (overdue now); nothing was written
                dashboard: hint: review the 4 tasks listed above; to pin them, run again with --yes --confirm \(now)

                """)
        #expect(try Self.state(sandbox) == before)
        let applied = try sandbox.dashboard(Self.snow + ["--yes", "--confirm", now, "--format", "json"])
        #expect(applied.exitCode == 0)
        GoldenFile.expectMatch(applied.stdout, golden: "reclassify/applied.json")
        #expect(try DatabaseSnapshot.int(sandbox.db, "SELECT count(*) FROM overrides") == 4)
    }

    @Test func aTaskBornSinceThePreviewIsNamedAsChanged() throws {
        let sandbox = try Self.imported()
        let token = try Self.token(sandbox, Self.snow)
        // Between preview and apply, an import creates m6, overdue: selected now. Its birth is no
        // entry, yet it changed the selection as much as a moved task does.
        _ = try sandbox.write("tasks.csv", Self.tasks + "m6,math,Worksheet 6,s3,2026-11-20,normal,no\n")
        #expect(try sandbox.dashboard(["import", "tasks.csv", "--actor", "importer"]).exitCode == 0)
        let before = try Self.state(sandbox)
        let now = try Self.token(sandbox, Self.snow)
        let result = try sandbox.dashboard(Self.snow + ["--yes", "--confirm", token])
        #expect(result.exitCode == 65)
        #expect(
            result.stderr == """
                dashboard: error: the selection changed since the preview (--confirm \(token), now \(now)); changed since: m6 (overdue now); nothing was written
                dashboard: hint: review the 4 tasks listed above; to pin them, run again with --yes --confirm \(now)

                """)
        #expect(try Self.state(sandbox) == before)
    }

    @Test func aSelectionTheClockAloneChangedIsRefusedAndSaysSo() throws {
        let sandbox = try Self.imported()
        let token = try Self.token(sandbox, Self.snow)
        // Four days later m4 (due 2026-12-03) is due today: selected, with no entry or batch.
        let later = "2026-12-03T08:00:00Z"
        let result = try sandbox.dashboard(Self.snow + ["--yes", "--confirm", token], asOf: later)
        let now = try JSON.object(try sandbox.dashboard(Self.snow + ["--format", "json"], asOf: later).stdout)["confirm"] as? String
        #expect(result.exitCode == 65)
        #expect(
            result.stderr.hasPrefix(
                "dashboard: error: the selection changed since the preview (--confirm \(token), now \(now ?? "?")); no task changed since: the clock or a course moved the selection; nothing was written\n"
            ))
        #expect(try DatabaseSnapshot.int(sandbox.db, "SELECT count(*) FROM overrides") == 0)
    }
}
