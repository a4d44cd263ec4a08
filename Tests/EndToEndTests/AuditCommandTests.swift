import Foundation
import Testing

/// `dashboard audit` in text, JSON and CSV with every filter, and the conflicts an import
/// records on a pinned task (or, with `--override-manual`, the overrides it clears).
@Suite struct AuditCommandTests {
    static let later = "2026-11-30T08:00:00Z"
    static let conflictReason =
        "the import changed this task while override #4 pins it to today; the override was kept (import --override-manual lets the import win)"

    /// The log every test here starts from:
    /// 1–3 import of t1, t2, t3 (batch 1, importer); 4 override of t1 (adams); 5 the conflict of
    /// batch 2 (cron renamed t1); 6 t3 today→overdue (time, cron, as of Nov 30);
    /// 7 override of t3 with a formula-like reason (adams); 8 its revert (adams).
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
            (["revert", "7", "--actor", "adams"], later),
        ]
        for (arguments, asOf) in steps {
            let result = try sandbox.dashboard(arguments, asOf: asOf)
            guard result.exitCode == 0 else { throw HarnessError("scenario step \(arguments) failed\n\(result)") }
        }
        return sandbox
    }

    /// The entry ids `audit ARGS --format json` lists.
    func ids(_ sandbox: Sandbox, _ arguments: [String]) throws -> [Int] {
        let result = try sandbox.dashboard(["audit", "--format", "json"] + arguments)
        #expect(result.exitCode == 0, "\(result)")
        return JSON.objects(try JSON.object(result.stdout)["entries"]).compactMap { $0["entry_id"] as? Int }
    }

    @Test func textIsATableOldestFirstWithNotesForConflictsRevertsAndExpiry() throws {
        let sandbox = try Self.scenario()
        let result = try sandbox.dashboard(["audit"])
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        #expect(
            try sandbox.maskingRecordedAt(result.stdout) == """
                ID  RECORDED              TASK  TITLE                    COURSE  FROM      TO         CAUSE     ACTOR     BATCH  GROUP  NOTE
                 1  YYYY-MM-DDTHH:MM:SSZ  t1    Lab report v2            bio     -         upcoming   import    importer  1      -
                 2  YYYY-MM-DDTHH:MM:SSZ  t2    Reading quiz, chapter 4  bio     -         completed  import    importer  1      -
                 3  YYYY-MM-DDTHH:MM:SSZ  t3    Essay draft              his     -         today      import    importer  1      -
                 4  YYYY-MM-DDTHH:MM:SSZ  t1    Lab report v2            bio     upcoming  today      override  adams     -      -      extension granted
                 5  YYYY-MM-DDTHH:MM:SSZ  t1    Lab report v2            bio     today     today      import    cron      2      -      CONFLICT: \(Self.conflictReason)
                 6  YYYY-MM-DDTHH:MM:SSZ  t3    Essay draft              his     today     overdue    time      cron      -      -
                 7  YYYY-MM-DDTHH:MM:SSZ  t3    Essay draft              his     overdue   upcoming   override  adams     -      -      =SUM(A1:A2), per "Ms" Adams; reverted by 8; until 2026-12-05
                 8  YYYY-MM-DDTHH:MM:SSZ  t3    Essay draft              his     upcoming  overdue    revert    adams     -      -      reverts 7; revert of entry 7 (override)

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
        #expect(entries.count == 8)
        let keys: Set<String> = [
            "entry_id", "recorded_at", "as_of", "task_id", "task_title", "course_id", "from", "to", "cause", "actor", "reason",
            "batch_id", "reverts", "reverted_by", "conflict", "override_until", "override_before", "group",
        ]
        for entry in entries { #expect(Set(entry.keys) == keys) }
        #expect(
            entries.map { $0["as_of"] as? String ?? "" } == Array(repeating: AuditSetup.asOf, count: 5)
                + Array(repeating: Self.later, count: 3))
        let seven = try sandbox.dashboard(["audit", "--format", "json", "--task", "t3", "--cause", "override"])
        #expect(
            try sandbox.maskingRecordedAt(seven.stdout) == """
                {
                  "schema": 1,
                  "entries": [
                    {
                      "entry_id": 7,
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
                        8
                      ],
                      "conflict": false,
                      "override_until": "2026-12-05",
                      "override_before": null,
                      "group": null
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
            "entry_id,recorded_at,as_of,task_id,task_title,course_id,from,to,cause,actor,reason,batch_id,reverts,reverted_by,conflict,override_until,group",
            "3,YYYY-MM-DDTHH:MM:SSZ,2026-11-29T08:00:00Z,t3,Essay draft,his,,today,import,importer,,1,,,false,,",
            "6,YYYY-MM-DDTHH:MM:SSZ,2026-11-30T08:00:00Z,t3,Essay draft,his,today,overdue,time,cron,,,,,false,,",
            "7,YYYY-MM-DDTHH:MM:SSZ,2026-11-30T08:00:00Z,t3,Essay draft,his,overdue,upcoming,override,adams,\"'=SUM(A1:A2), per \"\"Ms\"\" Adams\",,,8,false,2026-12-05,",
            "8,YYYY-MM-DDTHH:MM:SSZ,2026-11-30T08:00:00Z,t3,Essay draft,his,upcoming,overdue,revert,adams,revert of entry 7 (override),,7,,false,,",
        ]
        #expect(try sandbox.maskingRecordedAt(result.stdout) == expected.map { $0 + "\r\n" }.joined())
        let empty = try sandbox.dashboard(["audit", "--format", "csv", "--task", "t9"])
        #expect(empty.stdout == expected[0] + "\r\n")
    }

    @Test func filtersCombineWithAndAndRepeat() throws {
        let sandbox = try Self.scenario()
        #expect(try ids(sandbox, ["--task", "t1"]) == [1, 4, 5])
        #expect(try ids(sandbox, ["--task", "t1", "--task", "t2"]) == [1, 2, 4, 5])
        #expect(try ids(sandbox, ["--course", "his"]) == [3, 6, 7, 8])
        #expect(try ids(sandbox, ["--course", "bio", "--course", "his"]) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(try ids(sandbox, ["--cause", "override"]) == [4, 7])
        #expect(try ids(sandbox, ["--cause", "time", "--cause", "revert"]) == [6, 8])
        #expect(try ids(sandbox, ["--course", "bio", "--cause", "override"]) == [4])
        #expect(try ids(sandbox, ["--conflicts"]) == [5])
        #expect(try ids(sandbox, ["--batch", "1"]) == [1, 2, 3])
        #expect(try ids(sandbox, ["--batch", "2"]) == [5])
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
        #expect(try ids(sandbox, ["--since", "2000-01-01"]) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(try ids(sandbox, ["--since", "2199-12-31"]) == [])
        #expect(try ids(sandbox, ["--since", recorded]).last == 8)
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
                      "entry_id": 5,
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
                      "override_before": 4,
                      "group": null
                    }
                  ]
                }

                """)
        #expect(try DatabaseSnapshot.dump(sandbox.db, table: "overrides") == "t1|4|today||extension granted|adams\n")
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
                == "entry_id,recorded_at,as_of,task_id,task_title,course_id,from,to,cause,actor,reason,batch_id,reverts,reverted_by,conflict,override_until,group\r\n"
                + "1,YYYY-MM-DDTHH:MM:SSZ,2026-11-29T08:00:00Z,t1,Lab report v2,bio,,upcoming,import,importer,,1,,,false,,\r\n"
                + "5,YYYY-MM-DDTHH:MM:SSZ,2026-11-29T08:00:00Z,t1,Lab report v2,bio,today,upcoming,import,cron,the import cleared override #4 (pinned to today); --override-manual,2,,,false,,\r\n"
        )
        #expect(try ids(sandbox, ["--conflicts"]) == [])
        #expect(try DatabaseSnapshot.int(sandbox.db, "SELECT count(*) FROM overrides") == 0)
        #expect(
            try DatabaseSnapshot.lines(sandbox.db, "SELECT title, bucket FROM tasks WHERE task_id = 't1'") == "Lab report v2|upcoming\n")
        // The cleared override is revertible: the old values come back, and the pin with them.
        #expect(try sandbox.dashboard(["revert", "5", "--actor", "adams"]).exitCode == 0)
        #expect(try DatabaseSnapshot.dump(sandbox.db, table: "overrides") == "t1|4|today||extension granted|adams\n")
        #expect(try DatabaseSnapshot.lines(sandbox.db, "SELECT title, bucket FROM tasks WHERE task_id = 't1'") == "Lab report|today\n")
    }
}
