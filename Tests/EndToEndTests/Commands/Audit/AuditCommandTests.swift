import Foundation
import Testing

/// `dashboard audit` in text, JSON and CSV with every filter, and the conflicts an import
/// records on a pinned task (or, with `--override-manual`, the overrides it clears).
@Suite struct AuditCommandTests {
    static let later = "2026-11-30T08:00:00Z"
    static let conflictReason =
        "the import changed this task while override #1 pins it to today; the override was kept (import --override-manual lets the import win)"

    /// The log every test here starts from (batch 1, importer, created t1, t2 and t3: births, no
    /// entries): 1 override of t1 (adams); 2 the conflict of batch 2 (cron renamed t1);
    /// 3 t3 today→overdue (time, cron, as of Nov 30); 4 override of t3 with a formula-like
    /// reason (adams); 5 its revert (adams).
    static func scenario() throws -> Sandbox {
        let sandbox = try AuditSetup.imported()
        try sandbox.write("renamed.csv", Fixtures.tasks.replacingOccurrences(of: "Lab report,", with: "Lab report v2,"))
        let steps: [([String], String)] = [
            (["reclassify", "t1", "--to", "today", "--reason", "extension granted", "--actor", "adams"], AuditSetup.asOf),
            (["import", "renamed.csv", "--actor", "cron"], AuditSetup.asOf),
            (["categorize", "--actor", "cron"], later),
            (
                [
                    "reclassify", "t3", "--to", "upcoming", "--reason", "=SUM(A1:A2), per \"Ms\" Adams", "--until", "2026-12-05",
                    "--actor", "adams",
                ], later
            ),
            (["revert", "4", "--actor", "adams"], later),
        ]
        for (arguments, asOf) in steps {
            let result = try sandbox.dashboard(arguments, asOf: asOf)
            guard result.exitCode == 0 else { throw HarnessError("scenario step \(arguments) failed\n\(result)") }
        }
        return sandbox
    }

    /// The entry ids `audit ARGS --format json` lists, nil for a derived birth line (no id).
    func ids(_ sandbox: Sandbox, _ arguments: [String]) throws -> [Int?] {
        let result = try sandbox.dashboard(["audit", "--format", "json"] + arguments)
        #expect(result.exitCode == 0, "\(result)")
        return JSON.objects(try JSON.object(result.stdout)["entries"]).map { entry in
            #expect((entry["derived"] as? Bool) == (entry["entry_id"] is NSNull), "\(entry)")
            return entry["entry_id"] as? Int
        }
    }

    @Test func textIsATableOldestFirstWithNotesForConflictsRevertsAndExpiry() throws {
        let sandbox = try Self.scenario()
        let result = try sandbox.dashboard(["audit"])
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        #expect(
            try sandbox.maskingRecordedAt(result.stdout) == """
                ID  RECORDED              TASK  TITLE          COURSE  FROM      TO        CAUSE     ACTOR  BATCH  GROUP  NOTE
                 1  YYYY-MM-DDTHH:MM:SSZ  t1    Lab report v2  bio     upcoming  today     override  adams  -      -      extension granted
                 2  YYYY-MM-DDTHH:MM:SSZ  t1    Lab report v2  bio     today     today     import    cron   2      -      CONFLICT: \(Self.conflictReason)
                 3  YYYY-MM-DDTHH:MM:SSZ  t3    Essay draft    his     today     overdue   time      cron   -      -
                 4  YYYY-MM-DDTHH:MM:SSZ  t3    Essay draft    his     overdue   upcoming  override  adams  -      -      =SUM(A1:A2), per "Ms" Adams; reverted by 5; until 2026-12-05
                 5  YYYY-MM-DDTHH:MM:SSZ  t3    Essay draft    his     upcoming  overdue   revert    adams  -      -      reverts 4; revert of entry 4 (override)

                """)
        let none = try sandbox.dashboard(["audit", "--task", "t9"])
        #expect(none == CommandResult(exitCode: 0, stdout: "No audit entries match.\n", stderr: ""))
    }

    @Test func jsonHasTheSchemaAndEveryKeyOfEveryEntry() throws {
        let sandbox = try Self.scenario()
        let result = try sandbox.dashboard(["audit", "--format", "json"])
        #expect(result.exitCode == 0)
        #expect(JSON.duplicateKeys(result.stdout) == [])
        let json = try JSON.object(result.stdout)
        #expect(Set(json.keys) == ["schema", "entries"])
        #expect(json["schema"] as? Int == 1)
        let entries = JSON.objects(json["entries"])
        #expect(entries.count == 5)
        let keys: Set<String> = [
            "entry_id", "recorded_at", "as_of", "task_id", "task_title", "course_id", "from", "to", "cause", "actor", "reason",
            "batch_id", "reverts", "reverted_by", "conflict", "override_until", "override_before", "group", "derived",
        ]
        for entry in entries { #expect(Set(entry.keys) == keys) }
        // Without --task no derived birth line: every entry listed is stored.
        #expect(entries.map { $0["derived"] as? Bool } == Array(repeating: false, count: 5))
        #expect(
            entries.map { $0["as_of"] as? String ?? "" } == Array(repeating: AuditSetup.asOf, count: 2)
                + Array(repeating: Self.later, count: 3))
        let seven = try sandbox.dashboard(["audit", "--format", "json", "--task", "t3", "--cause", "override"])
        #expect(
            try sandbox.maskingRecordedAt(seven.stdout) == """
                {
                  "schema": 1,
                  "entries": [
                    {
                      "entry_id": 4,
                      "recorded_at": "YYYY-MM-DDTHH:MM:SSZ",
                      "as_of": "2026-11-30T08:00:00Z",
                      "task_id": "t3",
                      "task_title": "Essay draft",
                      "course_id": "his",
                      "from": "overdue",
                      "to": "upcoming",
                      "cause": "override",
                      "actor": "adams",
                      "reason": "=SUM(A1:A2), per \\"Ms\\" Adams",
                      "batch_id": null,
                      "reverts": null,
                      "reverted_by": [
                        5
                      ],
                      "conflict": false,
                      "override_until": "2026-12-05",
                      "override_before": null,
                      "group": null,
                      "derived": false
                    }
                  ]
                }

                """)
    }

    @Test func csvHasTheHeaderCRLFLineEndsQuotingAndFormulaProtection() throws {
        let sandbox = try Self.scenario()
        let result = try sandbox.dashboard(["audit", "--format", "csv", "--task", "t3"])
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        let expected = [
            "entry_id,recorded_at,as_of,task_id,task_title,course_id,from,to,cause,actor,reason,batch_id,reverts,reverted_by,conflict,override_until,group,derived",
            // The birth, derived from batch 1: no entry id, in the bucket entry 3 moved t3 from.
            ",YYYY-MM-DDTHH:MM:SSZ,2026-11-29T08:00:00Z,t3,Essay draft,his,,today,import,importer,,1,,,false,,,true",
            "3,YYYY-MM-DDTHH:MM:SSZ,2026-11-30T08:00:00Z,t3,Essay draft,his,today,overdue,time,cron,,,,,false,,,false",
            "4,YYYY-MM-DDTHH:MM:SSZ,2026-11-30T08:00:00Z,t3,Essay draft,his,overdue,upcoming,override,adams,\"'=SUM(A1:A2), per \"\"Ms\"\" Adams\",,,5,false,2026-12-05,,false",
            "5,YYYY-MM-DDTHH:MM:SSZ,2026-11-30T08:00:00Z,t3,Essay draft,his,upcoming,overdue,revert,adams,revert of entry 4 (override),,4,,false,,,false",
        ]
        #expect(try sandbox.maskingRecordedAt(result.stdout) == expected.map { $0 + "\r\n" }.joined())
        let empty = try sandbox.dashboard(["audit", "--format", "csv", "--task", "t9"])
        #expect(empty.stdout == expected[0] + "\r\n")
    }

    @Test func filtersCombineWithAndAndRepeat() throws {
        let sandbox = try Self.scenario()
        // With --task, each task's derived birth line (nil: no id) comes first, in the order given.
        #expect(try ids(sandbox, ["--task", "t1"]) == [nil, 1, 2])
        #expect(try ids(sandbox, ["--task", "t1", "--task", "t2"]) == [nil, nil, 1, 2])
        #expect(try ids(sandbox, ["--task", "t2"]) == [nil])
        #expect(try ids(sandbox, ["--course", "his"]) == [3, 4, 5])
        #expect(try ids(sandbox, ["--course", "bio", "--course", "his"]) == [1, 2, 3, 4, 5])
        #expect(try ids(sandbox, ["--cause", "override"]) == [1, 4])
        #expect(try ids(sandbox, ["--cause", "time", "--cause", "revert"]) == [3, 5])
        #expect(try ids(sandbox, ["--course", "bio", "--cause", "override"]) == [1])
        #expect(try ids(sandbox, ["--conflicts"]) == [2])
        #expect(try ids(sandbox, ["--conflicts", "--task", "t1"]) == [2])
        // Batch 1 created the tasks and stored no entry; its births are derived for --task only.
        #expect(try ids(sandbox, ["--batch", "1"]) == [])
        #expect(try ids(sandbox, ["--batch", "1", "--task", "t2"]) == [nil])
        #expect(try ids(sandbox, ["--task", "t3", "--cause", "import"]) == [nil])
        #expect(try ids(sandbox, ["--task", "t3", "--course", "bio"]) == [])
        #expect(try ids(sandbox, ["--batch", "2"]) == [2])
        #expect(try ids(sandbox, ["--batch", "2", "--task", "t3"]) == [])
    }

    @Test func sinceIsTheRecordedTimeReadInTheTimeZoneGiven() throws {
        let started = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let sandbox = try Self.scenario()
        let finished = Date()
        let recorded = try DatabaseSnapshot.lines(sandbox.db, "SELECT max(recorded_at) FROM audit").trimmingCharacters(in: .newlines)
        let formatter = ISO8601DateFormatter()
        let last = try #require(formatter.date(from: recorded))
        // recorded-at is the machine's clock, not --as-of.
        #expect(last >= started && last <= finished)
        #expect(try ids(sandbox, ["--since", "2000-01-01"]) == [1, 2, 3, 4, 5])
        #expect(try ids(sandbox, ["--since", "2199-12-31"]) == [])
        #expect(try ids(sandbox, ["--since", recorded]).last == 5)
        // A derived birth line is filtered by its creating batch's time like a stored entry.
        #expect(try ids(sandbox, ["--task", "t2", "--since", "2000-01-01"]) == [nil])
        #expect(try ids(sandbox, ["--task", "t2", "--since", "2199-12-31"]) == [])
        #expect(try ids(sandbox, ["--since", formatter.string(from: last.addingTimeInterval(1))]) == [])
        // The same instant written as Tokyo wall-clock time, read with --timezone.
        let tokyo = DateFormatter()
        tokyo.locale = Locale(identifier: "en_US_POSIX")
        tokyo.timeZone = TimeZone(identifier: "Asia/Tokyo")
        tokyo.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let local = tokyo.string(from: last)
        #expect(try ids(sandbox, ["--timezone", "Asia/Tokyo", "--since", local]) == (try ids(sandbox, ["--since", recorded])))
        let next = tokyo.string(from: last.addingTimeInterval(1))
        #expect(try ids(sandbox, ["--timezone", "Asia/Tokyo", "--since", next]) == [])
    }

    @Test func badFiltersAreUsageErrorsAndNoDatabaseIs66() throws {
        let sandbox = try Self.scenario()
        let hint = "dashboard: hint: see `dashboard audit --help`\n"
        #expect(
            try sandbox.dashboard(["audit", "--cause", "weather"])
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr: "dashboard: error: --cause must be one of time, import, override, delete, restore, revert, not \"weather\"\n"
                        + hint))
        #expect(
            try sandbox.dashboard(["audit", "--since", "last week"])
                == CommandResult(
                    exitCode: 64, stdout: "", stderr: "dashboard: error: --since \"last week\" cannot be read as a time\n" + hint))
        #expect(
            try sandbox.dashboard(["audit", "--batch", "two"])
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr: "dashboard: error: --batch must be a whole number from 1 to 9007199254740991, not \"two\"\n" + hint))
        #expect(
            try sandbox.dashboard(["audit", "--format", "xml"])
                == CommandResult(
                    exitCode: 64, stdout: "", stderr: "dashboard: error: --format must be one of text, json, csv, not \"xml\"\n" + hint))
        let none = try Sandbox()
        #expect(try none.run(["--db", "nowhere.sqlite", "audit"]) == AuditSetup.noDatabase("nowhere.sqlite"))
        #expect(try none.listing() == [])
    }

    // MARK: - Imports against overrides

    @Test func anImportChangingAPinnedTaskKeepsTheOverrideAndRecordsExactlyOneConflict() throws {
        let sandbox = try Self.scenario()
        let result = try sandbox.dashboard(["audit", "--conflicts", "--format", "json"])
        #expect(
            try sandbox.maskingRecordedAt(result.stdout) == """
                {
                  "schema": 1,
                  "entries": [
                    {
                      "entry_id": 2,
                      "recorded_at": "YYYY-MM-DDTHH:MM:SSZ",
                      "as_of": "2026-11-29T08:00:00Z",
                      "task_id": "t1",
                      "task_title": "Lab report v2",
                      "course_id": "bio",
                      "from": "today",
                      "to": "today",
                      "cause": "import",
                      "actor": "cron",
                      "reason": "\(Self.conflictReason)",
                      "batch_id": 2,
                      "reverts": null,
                      "reverted_by": [],
                      "conflict": true,
                      "override_until": null,
                      "override_before": 1,
                      "group": null,
                      "derived": false
                    }
                  ]
                }

                """)
        #expect(try DatabaseSnapshot.dump(sandbox.db, table: "overrides") == "t1|1|today||extension granted|adams\n")
        #expect(try DatabaseSnapshot.lines(sandbox.db, "SELECT title, bucket FROM tasks WHERE task_id = 't1'") == "Lab report v2|today\n")
    }

    @Test func overrideManualLetsTheImportWinAndLogsTheClearedOverride() throws {
        let sandbox = try AuditSetup.imported()
        #expect(
            try sandbox.dashboard(["reclassify", "t1", "--to", "today", "--reason", "extension granted", "--actor", "adams"]).exitCode == 0)
        try sandbox.write("renamed.csv", Fixtures.tasks.replacingOccurrences(of: "Lab report,", with: "Lab report v2,"))
        let result = try sandbox.dashboard(["import", "renamed.csv", "--override-manual", "--format", "json", "--actor", "cron"])
        #expect(result.exitCode == 0, "\(result)")
        let categorized = try JSON.object(result.stdout)["categorized"] as? [String: Any]
        #expect(categorized?["cleared_overrides"] as? Int == 1)
        #expect(categorized?["conflicts"] as? Int == 0)
        let log = try sandbox.dashboard(["audit", "--task", "t1", "--cause", "import", "--format", "csv"])
        #expect(
            try sandbox.maskingRecordedAt(log.stdout)
                == "entry_id,recorded_at,as_of,task_id,task_title,course_id,from,to,cause,actor,reason,batch_id,reverts,reverted_by,conflict,override_until,group,derived\r\n"
                + ",YYYY-MM-DDTHH:MM:SSZ,2026-11-29T08:00:00Z,t1,Lab report v2,bio,,upcoming,import,importer,,1,,,false,,,true\r\n"
                + "2,YYYY-MM-DDTHH:MM:SSZ,2026-11-29T08:00:00Z,t1,Lab report v2,bio,today,upcoming,import,cron,the import cleared override #1 (pinned to today); --override-manual,2,,,false,,,false\r\n"
        )
        #expect(try ids(sandbox, ["--conflicts"]) == [])
        #expect(try DatabaseSnapshot.int(sandbox.db, "SELECT count(*) FROM overrides") == 0)
        #expect(
            try DatabaseSnapshot.lines(sandbox.db, "SELECT title, bucket FROM tasks WHERE task_id = 't1'") == "Lab report v2|upcoming\n")
        // The cleared override is revertible: the old values come back, and the pin with them.
        #expect(try sandbox.dashboard(["revert", "2", "--actor", "adams"]).exitCode == 0)
        #expect(try DatabaseSnapshot.dump(sandbox.db, table: "overrides") == "t1|1|today||extension granted|adams\n")
        #expect(try DatabaseSnapshot.lines(sandbox.db, "SELECT title, bucket FROM tasks WHERE task_id = 't1'") == "Lab report|today\n")
    }
}
