import Foundation
import Testing

/// `dashboard import --mode sync` with the delete guard, and `dashboard batches` to review,
/// approve or discard what it held.
@Suite struct BatchesCommandTests {
    /// A database with 20 tasks, and tasks10.csv holding only the first 10 of them.
    func twentyTasks() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", "course_id,title\nbio,Biology\n")
        try sandbox.write("tasks20.csv", Fixtures.numberedTasks(20))
        try sandbox.write("tasks10.csv", Fixtures.numberedTasks(10))
        let first = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks20.csv"])
        #expect(first.exitCode == 0, "\(first)")
        return sandbox
    }

    static let heldReason =
        "sync would delete 10 of 20 tasks (50%), more than --max-delete 10%; nothing was changed. Review it with `dashboard batches show 2`, then `dashboard batches approve 2` or `dashboard batches discard 2`"

    @Test func syncThatWouldDeleteTooMuchIsHeldAndChangesNothing() throws {
        let sandbox = try twentyTasks()
        let db = sandbox.path("db.sqlite")
        let before = try DatabaseSnapshot.data(db)
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "courses.csv", "tasks10.csv"])
        #expect(
            result
                == CommandResult(
                    exitCode: 65, stdout: "",
                    stderr:
                        "dashboard: error: batch 2 held: \(Self.heldReason). Counts: 11 rows read, would insert 0, would update 0, 11 unchanged, would delete 10, 0 rejected, 0 warnings\n"
                ))
        #expect(try DatabaseSnapshot.data(db) == before)
        #expect(
            try DatabaseSnapshot.lines(db, "SELECT batch_id, status, mode FROM batches ORDER BY 1") == "1|committed|merge\n2|held|sync\n")
    }

    @Test func listShowsTheHeldBatchOnStdout() throws {
        let sandbox = try twentyTasks()
        _ = try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "courses.csv", "tasks10.csv"])
        let list = try sandbox.run(["--db", "db.sqlite", "batches", "list"])
        let expected = """
            ID  COMMAND  STATUS     MODE   AS OF                 READ  INS  UPD   DEL  REJ  WARN
             2  import   held       sync   2026-11-29T08:00:00Z    11  (0)  (0)  (10)    0     0
             1  import   committed  merge  2026-11-29T08:00:00Z    21   21    0     0    0     0
            (N): would insert, update or delete; that batch (dry_run, held, failed, discarded, approved) changed nothing

            """
        #expect(list == CommandResult(exitCode: 0, stdout: expected, stderr: ""))
        let json = try JSON.object(try sandbox.run(["--db", "db.sqlite", "batches", "list", "--format", "json"]).stdout)
        #expect(JSON.objects(json["batches"]).map { $0["status"] as? String } == ["held", "committed"])
    }

    @Test func showDescribesTheHeldBatchAndWhatApprovingWouldDo() throws {
        let sandbox = try twentyTasks()
        _ = try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "courses.csv", "tasks10.csv"])
        let show = try sandbox.run(["--db", "db.sqlite", "batches", "show", "2"])
        #expect(show.exitCode == 0)
        #expect(show.stderr == "")
        let lines = show.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "Batch 2: held (import, sync, max delete 10%)")
        #expect(lines.contains("Reason: \(Self.heldReason)"))
        #expect(lines.contains { $0.hasPrefix("File: tasks10.csv (tasks, ") && $0.contains("10 rows, sha256 ") })
        let tail = """
            KIND     READ  WOULD INSERT  WOULD UPDATE  UNCHANGED  WOULD DELETE  REJECTED  WARNINGS
            courses     1             0             0          1             0         0         0
            tasks      10             0             0         10            10         0         0
            Approving it now would:
              courses: insert 0, update 0, leave 1 unchanged, delete 0
              tasks: insert 0, update 0, leave 10 unchanged, delete 10
            Tasks it would delete (10):
            \((11...20).map { "  t\($0)  \"Worksheet \($0)\" (course bio): due \"2026-12-\($0)\", priority \"normal\", completed false\n" }.joined())Next step: dashboard batches approve 2   or   dashboard batches discard 2

            """
        #expect(show.stdout.hasSuffix(tail))

        let json = try sandbox.run(["--db", "db.sqlite", "batches", "show", "2", "--format", "json"])
        #expect(JSON.duplicateKeys(json.stdout) == [])
        let object = try JSON.object(json.stdout)
        #expect(object["status"] as? String == "held")
        let would = object["approve_would"] as? [String: Any] ?? [:]
        #expect((would["tasks"] as? [String: Any])?["deleted"] as? Int == 10)
    }

    @Test func approveAppliesTheHeldBatchAndSoftDeletesTheMissingTasks() throws {
        let sandbox = try twentyTasks()
        let db = sandbox.path("db.sqlite")
        _ = try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "courses.csv", "tasks10.csv"])
        let approve = try sandbox.run(["--db", "db.sqlite", "batches", "approve", "2", "--actor", "alice"])
        #expect(
            approve
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr:
                        "dashboard: approve: batch 3 committed (sync): 11 rows read, 0 inserted, 0 updated, 11 unchanged, 10 deleted, 0 rejected, 0 warnings\n"
                ))
        #expect(try DatabaseSnapshot.int(db, "SELECT count(*) FROM tasks") == 20)
        #expect(
            try DatabaseSnapshot.lines(db, "SELECT task_id FROM tasks WHERE deleted_batch IS NOT NULL ORDER BY task_id")
                == "t11\nt12\nt13\nt14\nt15\nt16\nt17\nt18\nt19\nt20\n")
        #expect(try DatabaseSnapshot.int(db, "SELECT count(*) FROM tasks WHERE deleted_batch IS NULL AND task_id <= 't10'") == 10)
        #expect(
            try DatabaseSnapshot.lines(db, "SELECT status, reason FROM batches WHERE batch_id = 2")
                == "approved|approved by alice; applied as batch 3\n")
        #expect(
            try DatabaseSnapshot.lines(db, "SELECT command, status, approved_from FROM batches WHERE batch_id = 3")
                == "approve|committed|2\n")

        let again = try sandbox.run(["--db", "db.sqlite", "batches", "approve", "2"])
        #expect(again.exitCode == 65)
        #expect(again.stdout == "")
        #expect(again.stderr.hasPrefix("dashboard: error: batch 2 is approved, not held"))
    }

    @Test func discardDropsTheHeldBatchAndChangesNothing() throws {
        let sandbox = try twentyTasks()
        let db = sandbox.path("db.sqlite")
        let before = try DatabaseSnapshot.data(db)
        _ = try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "courses.csv", "tasks10.csv"])
        let discard = try sandbox.run(["--db", "db.sqlite", "batches", "discard", "2"])
        #expect(discard == CommandResult(exitCode: 0, stdout: "", stderr: "dashboard: batch 2 discarded; nothing was changed\n"))
        #expect(try DatabaseSnapshot.data(db) == before)
        #expect(try DatabaseSnapshot.lines(db, "SELECT status FROM batches WHERE batch_id = 2") == "discarded\n")
        #expect(try DatabaseSnapshot.int(db, "SELECT count(*) FROM held_tasks") == 0)

        let approve = try sandbox.run(["--db", "db.sqlite", "batches", "approve", "2"])
        #expect(approve.exitCode == 65)
        #expect(try DatabaseSnapshot.data(db) == before)
    }

    @Test(arguments: ["60%", "15"])
    func aHigherDeleteLimitLetsTheSyncThrough(_ limit: String) throws {
        let sandbox = try twentyTasks()
        let db = sandbox.path("db.sqlite")
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "--max-delete", limit, "courses.csv", "tasks10.csv"])
        #expect(
            result
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr:
                        "dashboard: import batch 2 committed (sync): 11 rows read, 0 inserted, 0 updated, 11 unchanged, 10 deleted, 0 rejected, 0 warnings\n"
                ))
        #expect(try DatabaseSnapshot.int(db, "SELECT count(*) FROM tasks WHERE deleted_batch = 2") == 10)
    }

    @Test(arguments: ["49%", "9"])
    func aLowerDeleteLimitStillHolds(_ limit: String) throws {
        let sandbox = try twentyTasks()
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "--max-delete", limit, "courses.csv", "tasks10.csv"])
        #expect(result.exitCode == 65)
        #expect(try DatabaseSnapshot.int(sandbox.path("db.sqlite"), "SELECT count(*) FROM tasks WHERE deleted_batch IS NOT NULL") == 0)
    }

    @Test func showOfAMissingBatchIsAnErrorOnStderr() throws {
        let sandbox = try twentyTasks()
        let result = try sandbox.run(["--db", "db.sqlite", "batches", "show", "42"])
        #expect(result.exitCode != 0)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("dashboard: error: there is no batch 42\n"))
    }
}
