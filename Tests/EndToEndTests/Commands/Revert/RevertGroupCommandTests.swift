import DashboardCore
import Foundation
import Testing

/// `dashboard revert --group G`: a bulk reclassify undone whole, and re-applied; `audit`'s
/// title of a deleted task, and `audit` on a database from before groups.
@Suite struct RevertGroupCommandTests {
    @Test func revertGroupPutsEveryTaskAndOverrideBackExactly() throws {
        let sandbox = try BulkReclassifyCommandTests.imported()
        // m2 carries an override of its own before the snow day: the group revert restores it.
        #expect(try sandbox.dashboard(["reclassify", "m2", "--to", "today", "--reason", "ill", "--until", "2026-12-01"]).exitCode == 0)
        let before = try DatabaseSnapshot.data(sandbox.db) + DatabaseSnapshot.dump(sandbox.db, table: "overrides")
        #expect(try sandbox.dashboard(BulkReclassifyCommandTests.snow + ["--yes"]).exitCode == 0)
        let pinned = try DatabaseSnapshot.data(sandbox.db) + DatabaseSnapshot.dump(sandbox.db, table: "overrides")
        let last = try DatabaseSnapshot.int(sandbox.db, "SELECT max(entry_id) FROM audit")
        let revert = try sandbox.dashboard(["revert", "--group", "1", "--actor", "adams"])
        #expect(
            revert
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr:
                        "dashboard: reverted group 1 as group 2: 3 tasks put back (entries \(last + 1)–\(last + 3)); undo with `dashboard revert --group 2`\n"
                ))
        #expect(try DatabaseSnapshot.data(sandbox.db) + DatabaseSnapshot.dump(sandbox.db, table: "overrides") == before)
        #expect(
            try DatabaseSnapshot.lines(
                sandbox.db, "SELECT task_id, from_bucket, to_bucket, cause, reverts_entry, group_id FROM audit WHERE entry_id > \(last)")
                    == """
                    m1|upcoming|overdue|revert|\(last - 2)|2
                    m2|upcoming|today|revert|\(last - 1)|2
                    m3|upcoming|today|revert|\(last)|2

                    """)
        // Undone already: a second revert of group 1 is refused, and says how to re-apply it.
        let twice = try sandbox.dashboard(["revert", "--group", "1"])
        #expect(
            twice
                == CommandResult(
                    exitCode: 65, stdout: "",
                    stderr:
                        "dashboard: error: group 1 was already reverted (by entries \(last + 1), \(last + 2), \(last + 3)); revert the group that reverted it to re-apply it\n"
                ))
        // The revert is a group of its own: reverting it re-applies the snow day, the same
        // overrides (the group's own entries) and buckets.
        let reapply = try sandbox.dashboard(["revert", "--group", "2", "--format", "json"])
        #expect(reapply.exitCode == 0)
        GoldenFile.expectMatch(try sandbox.maskingRecordedAt(reapply.stdout), golden: "reclassify/revert-group.json")
        #expect(try DatabaseSnapshot.data(sandbox.db) + DatabaseSnapshot.dump(sandbox.db, table: "overrides") == pinned)
    }

    @Test func revertGroupIsRefusedByLaterChangesNamingThemUnlessForced() throws {
        let sandbox = try BulkReclassifyCommandTests.imported()
        #expect(try sandbox.dashboard(BulkReclassifyCommandTests.snow + ["--yes"]).exitCode == 0)
        #expect(try sandbox.dashboard(["reclassify", "m1", "--to", "today", "--reason", "handed in late"]).exitCode == 0)
        let later = try DatabaseSnapshot.int(sandbox.db, "SELECT max(entry_id) FROM audit")
        let first = try DatabaseSnapshot.int(sandbox.db, "SELECT min(entry_id) FROM audit WHERE group_id = 1")
        let before = try BulkReclassifyCommandTests.state(sandbox)
        let refused = try sandbox.dashboard(["revert", "--group", "1"])
        #expect(
            refused
                == CommandResult(
                    exitCode: 65, stdout: "",
                    stderr: """
                        dashboard: error: group 1 has later changes to its tasks: entry \(first) (task "m1"): \(later) (override); revert those first, or pass --force
                        dashboard: hint: --force reverts anyway and records which changes it went past

                        """))
        #expect(try BulkReclassifyCommandTests.state(sandbox) == before)
        #expect(try sandbox.dashboard(["revert", "--group", "1", "--force"]).exitCode == 0)
        #expect(
            try DatabaseSnapshot.lines(sandbox.db, "SELECT reason FROM audit WHERE task_id = 'm1' AND group_id = 2")
                == "revert of group 1, entry \(first) (override); forced past entries \(later)\n")
    }

    @Test(.sqliteFiles) func auditReadsADatabaseFromBeforeGroupsReadOnly() throws {
        let sandbox = try BulkReclassifyCommandTests.imported()
        // Stored entries to read (the import's births stored none).
        #expect(try sandbox.dashboard(["reclassify", "m1", "--to", "today", "--reason", "ill"]).exitCode == 0)
        #expect(try sandbox.dashboard(["reclassify", "m2", "--to", "today", "--reason", "ill"]).exitCode == 0)
        let database = try Database(path: sandbox.db, mode: .readWrite)
        try database.execute("DROP INDEX audit_by_group; ALTER TABLE audit DROP COLUMN group_id; PRAGMA user_version = 5")
        let all = try sandbox.dashboard(["audit", "--format", "csv"])
        #expect(all.exitCode == 0)
        // Each entry: no group (read as empty), stored (not derived).
        let rows = all.stdout.split(separator: "\r\n").dropFirst()
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.hasSuffix(",,false") }, "\(all)")
        let group = try sandbox.dashboard(["audit", "--group", "1"])
        #expect(group == CommandResult(exitCode: 0, stdout: "No audit entries match.\n", stderr: ""))
    }

    @Test func auditShowsADeletedTasksTitleFromItsTombstone() throws {
        let sandbox = try BulkReclassifyCommandTests.imported()
        let kept = BulkReclassifyCommandTests.tasks.split(separator: "\n").filter { !$0.hasPrefix("b2,") }.joined(separator: "\n") + "\n"
        _ = try sandbox.write("synced.csv", kept)
        let sync = try sandbox.dashboard(["import", "--mode", "sync", "--max-delete", "100%", "synced.csv", "--actor", "importer"])
        #expect(sync.exitCode == 0)
        let audit = try sandbox.dashboard(["audit", "--task", "b2", "--cause", "delete", "--format", "csv"])
        #expect(
            try sandbox.maskingRecordedAt(audit.stdout).split(separator: "\r\n").dropFirst()
                == ["1,YYYY-MM-DDTHH:MM:SSZ,2026-11-29T08:00:00Z,b2,Reading,bio,undated,deleted,delete,importer,,2,,,false,,,false"])
    }
}
