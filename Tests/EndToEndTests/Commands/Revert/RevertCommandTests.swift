import Foundation
import Testing

/// `dashboard revert`: one audit entry, or a whole batch (`--batch`).
@Suite struct RevertCommandTests {
    /// The override `ReclassifyCommandTests` pins (entry 1 after `AuditSetup.imported()`, whose births store no entry).
    static let pin = ReclassifyCommandTests.pin

    // MARK: - revert ENTRY

    @Test func revertingAnOverrideReturnsTheComputedBucketAndRevertingThatRepinsIt() throws {
        let sandbox = try AuditSetup.imported()
        #expect(try sandbox.dashboard(Self.pin).exitCode == 0)
        let revert = try sandbox.dashboard(["revert", "1", "--actor", "adams"])
        #expect(
            revert
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr: "dashboard: reverted entry 1: 1 audit entry recorded (entry 2); undo with `dashboard revert 2`\n"))
        #expect(try sandbox.auditLog() == "1|t1|upcoming|today|override|adams|-\n2|t1|today|upcoming|revert|adams|-\n")
        #expect(try DatabaseSnapshot.int(sandbox.db, "SELECT count(*) FROM overrides") == 0)
        #expect(try DatabaseSnapshot.dump(sandbox.db, table: "tasks") == Fixtures.storedTasks)
        let again = try sandbox.dashboard(["revert", "2", "--format", "json", "--actor", "adams"])
        #expect(again.exitCode == 0)
        let json = try JSON.object(again.stdout)
        #expect(json["schema"] as? Int == 1)
        #expect(json["batch_id"] is NSNull)
        #expect(
            JSON.objects(json["entries"]).map { "\($0["entry_id"] ?? "") \($0["reverts"] ?? "") \($0["to"] ?? "") \($0["reason"] ?? "")" }
                == ["3 2 today revert of entry 2 (revert)"])
        #expect(try DatabaseSnapshot.dump(sandbox.db, table: "overrides") == "t1|1|today||extension granted|adams\n")
    }

    @Test func aTimeEntryCannotBeReverted() throws {
        let sandbox = try AuditSetup.imported()
        #expect(try sandbox.dashboard(["categorize", "--actor", "cron"], asOf: "2026-11-30T08:00:00Z").exitCode == 0)
        #expect(try sandbox.auditLog() == "1|t3|today|overdue|time|cron|-\n")
        #expect(
            try sandbox.dashboard(["revert", "1"])
                == CommandResult(
                    exitCode: 65, stdout: "",
                    stderr: """
                        dashboard: error: entry 1 records the clock moving on (cause time); there is nothing to revert
                        dashboard: hint: to move the task by hand, pin it with `dashboard reclassify`

                        """))
        #expect(try DatabaseSnapshot.int(sandbox.db, "SELECT count(*) FROM audit") == 1)
    }

    @Test func aBlockedRevertNamesTheBlockingEntriesAndForceGoesThrough() throws {
        let sandbox = try AuditSetup.imported()
        #expect(try sandbox.dashboard(Self.pin).exitCode == 0)
        #expect(
            try sandbox.dashboard(["reclassify", "t1", "--to", "overdue", "--reason", "no extension", "--actor", "baker"]).exitCode == 0)
        let before = try DatabaseSnapshot.data(sandbox.db) + (try sandbox.auditLog())
        #expect(
            try sandbox.dashboard(["revert", "1"])
                == CommandResult(
                    exitCode: 65, stdout: "",
                    stderr: """
                        dashboard: error: entry 1 has later changes to task "t1": entries 2 (override); revert those first, or pass --force
                        dashboard: hint: --force reverts anyway and records which changes it went past

                        """))
        #expect(try DatabaseSnapshot.data(sandbox.db) + (try sandbox.auditLog()) == before)
        let forced = try sandbox.dashboard(["revert", "1", "--force", "--actor", "adams"])
        #expect(
            forced
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr: "dashboard: reverted entry 1: 1 audit entry recorded (entry 3); undo with `dashboard revert 3`\n"))
        #expect(
            try DatabaseSnapshot.lines(sandbox.db, "SELECT from_bucket, to_bucket, reverts_entry, reason FROM audit WHERE entry_id = 3")
                == "overdue|upcoming|1|revert of entry 1 (override); forced past entries 2\n")
        #expect(try DatabaseSnapshot.int(sandbox.db, "SELECT count(*) FROM overrides") == 0)
        #expect(
            try sandbox.dashboard(["revert", "1"])
                == CommandResult(
                    exitCode: 65, stdout: "",
                    stderr: "dashboard: error: entry 1 was already reverted by entry 3; revert 3 to re-apply it\n"))
    }

    @Test(.sqliteFiles) func revertUsageErrorsAndUnknownIDs() throws {
        let sandbox = try AuditSetup.imported()
        let usage = "dashboard: hint: see `dashboard revert --help`\n"
        let exists = "dashboard: hint: `dashboard audit` and `dashboard batches list` show what exists\n"
        let cases: [([String], CommandResult)] = [
            (
                ["revert", "1", "--batch", "1"],
                CommandResult(exitCode: 64, stdout: "", stderr: "dashboard: error: give one of ENTRY, --batch ID or --group G\n" + usage)
            ),
            (
                ["revert"],
                CommandResult(
                    exitCode: 64, stdout: "",
                    stderr: "dashboard: error: missing ENTRY (an audit entry id), --batch ID or --group G\n" + usage)
            ),
            (
                ["revert", "four"],
                CommandResult(
                    exitCode: 64, stdout: "",
                    stderr: "dashboard: error: ENTRY must be a whole number from 1 to 9007199254740991, not \"four\"\n" + usage)
            ),
            (
                ["revert", "--batch", "x"],
                CommandResult(
                    exitCode: 64, stdout: "",
                    stderr: "dashboard: error: --batch must be a whole number from 1 to 9007199254740991, not \"x\"\n" + usage)
            ),
            (["revert", "99"], CommandResult(exitCode: 65, stdout: "", stderr: "dashboard: error: there is no audit entry 99\n" + exists)),
            (
                ["revert", "--batch", "99"],
                CommandResult(exitCode: 65, stdout: "", stderr: "dashboard: error: there is no batch 99\n" + exists)
            ),
        ]
        for (arguments, expected) in cases {
            #expect(try sandbox.dashboard(arguments) == expected, "\(arguments)")
        }
        #expect(try DatabaseSnapshot.int(sandbox.db, "SELECT count(*) FROM audit") == 0)
        let none = try Sandbox()
        #expect(try none.run(["--db", "nowhere.sqlite", "revert", "1"]) == AuditSetup.noDatabase("nowhere.sqlite"))
        #expect(try none.listing() == [])
    }

    // MARK: - revert --batch

    /// A sync of t1 changed, t2 missing (deleted), t3 completed and t4 new.
    static let syncedTasks = """
        task_id,course_id,title,student_id,due,priority,completed
        t1,bio,Lab report (revised),s1,2026-11-28,high,no
        t3,his,Essay draft,s1,2026-11-29T17:00,,yes
        t4,his,New essay,s3,2026-12-10,,

        """

    @Test func revertingASyncBatchRestoresEveryRowAndRevertingTheRevertReappliesIt() throws {
        let sandbox = try AuditSetup.imported()
        try sandbox.write("synced.csv", Self.syncedTasks)
        let beforeSync = try DatabaseSnapshot.data(sandbox.db)
        let sync = try sandbox.dashboard(["import", "--mode", "sync", "--max-delete", "100%", "synced.csv", "--actor", "importer"])
        #expect(sync.exitCode == 0, "\(sync)")
        let afterSync = try DatabaseSnapshot.data(sandbox.db)
        let revert = try sandbox.dashboard(["revert", "--batch", "2", "--actor", "adams"])
        #expect(
            revert
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr:
                        "dashboard: reverted batch 2 as batch 3: 4 audit entries recorded (entry 4); undo with `dashboard revert --batch 3`\n"
                ))
        // Every earlier row is back, whole; the row the batch inserted is a tombstone of batch 3.
        #expect(
            try DatabaseSnapshot.lines(sandbox.db, "SELECT \(DatabaseSnapshot.taskDataColumns) FROM tasks WHERE task_id <> 't4' ORDER BY 1")
                == Fixtures.storedTasks)
        #expect(try DatabaseSnapshot.dump(sandbox.db, table: "courses") == Fixtures.storedCourses)
        // Besides t4's tombstone, batch 2 keeps its count of births (t4, upcoming).
        #expect(
            try DatabaseSnapshot.data(sandbox.db).replacingOccurrences(
                of: "t4|his|New essay|s3|2026-12-10|normal|0|3|3|upcoming||2|open|\n", with: ""
            ).replacingOccurrences(of: "2|upcoming|1\n", with: "") == beforeSync)
        // The sync stored entries for its moves only (t4's birth is none); the revert records t4's
        // tombstone like the others, and writes t4's birth as batch 2's history row.
        #expect(
            try sandbox.auditLog()
                == "1|t1|upcoming|overdue|import|importer|2\n2|t3|today|completed|import|importer|2\n"
                + "3|t2|completed|deleted|delete|importer|2\n"
                + "4|t1|overdue|upcoming|revert|adams|3\n5|t2|deleted|completed|revert|adams|3\n"
                + "6|t3|completed|today|revert|adams|3\n7|t4|upcoming|deleted|revert|adams|3\n")
        #expect(
            try DatabaseSnapshot.lines(sandbox.db, "SELECT batch_id, task_id, change, existed FROM task_history ORDER BY 1, 2")
                == "2|t1|update|1\n2|t2|delete|1\n2|t3|update|1\n2|t4|insert|0\n"
                + "3|t1|update|1\n3|t2|restore|1\n3|t3|update|1\n3|t4|delete|1\n")
        #expect(
            try DatabaseSnapshot.lines(
                sandbox.db, "SELECT batch_id, command, status, reason, coalesce(CAST(reverts_batch AS TEXT), '-') FROM batches ORDER BY 1")
                == "1|import|committed||-\n2|import|reverted|reverted by batch 3|-\n3|revert|committed|revert of batch 2|2\n")
        let reapply = try sandbox.dashboard(["revert", "--batch", "3", "--actor", "adams"])
        #expect(
            reapply
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr:
                        "dashboard: reverted batch 3 as batch 4: 4 audit entries recorded (entry 8); undo with `dashboard revert --batch 4`\n"
                ))
        #expect(try DatabaseSnapshot.data(sandbox.db) == afterSync)
        #expect(
            try DatabaseSnapshot.lines(sandbox.db, "SELECT batch_id, status, reason FROM batches WHERE batch_id IN (2, 3) ORDER BY 1")
                == "2|committed|re-applied by batch 4\n3|reverted|reverted by batch 4\n")
    }

    @Test func aBatchWithLaterChangesIsRefusedNamingThemUnlessForced() throws {
        let sandbox = try AuditSetup.imported()
        for title in ["Lab report v2", "Lab report v3"] {
            try sandbox.write("tasks.csv", Fixtures.tasks.replacingOccurrences(of: "Lab report,", with: "\(title),"))
            #expect(try sandbox.dashboard(["import", "tasks.csv", "--actor", "importer"]).exitCode == 0)
        }
        #expect(
            try sandbox.dashboard(["revert", "--batch", "2"])
                == CommandResult(
                    exitCode: 65, stdout: "",
                    stderr: """
                        dashboard: error: batch 2 has later changes to the same rows: batches 3; revert those first, or pass --force
                        dashboard: hint: --force reverts anyway and records which changes it went past

                        """))
        #expect(try DatabaseSnapshot.lines(sandbox.db, "SELECT title FROM tasks WHERE task_id = 't1'") == "Lab report v3\n")
        let forced = try sandbox.dashboard(["revert", "--batch", "2", "--force", "--format", "json", "--actor", "adams"])
        #expect(forced.exitCode == 0)
        #expect(try JSON.object(forced.stdout)["batch_id"] as? Int == 4)
        #expect(try DatabaseSnapshot.lines(sandbox.db, "SELECT title FROM tasks WHERE task_id = 't1'") == "Lab report\n")
    }
}
