import Foundation
import Testing

/// Counts of a batch that changed nothing (a dry run, a held, failed, discarded or approved
/// batch) read "would insert / would update / would delete" wherever they are shown; a
/// committed or reverted batch's read "inserted / updated / deleted" (issue 14, item 4).
@Suite struct BatchCountWordingTests {
    /// `batches show`'s count table headings, spaces collapsed (the widths follow the kinds shown).
    static let happenedHeader = "KIND READ INSERTED UPDATED UNCHANGED DELETED REJECTED WARNINGS"
    static let wouldHeader = "KIND READ WOULD INSERT WOULD UPDATE UNCHANGED WOULD DELETE REJECTED WARNINGS"

    /// A database with batch 1 (committed: 2 courses, 3 tasks, Fixtures' valid set).
    func imported() throws -> Sandbox {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        return sandbox
    }

    /// The lines of `text`, each with its runs of spaces collapsed to one.
    func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.replacingOccurrences(of: " +", with: " ", options: .regularExpression) }
    }

    /// The status line of the last import, without its time.
    func lastImport(_ sandbox: Sandbox) throws -> String {
        let status = try sandbox.run(["--db", "db.sqlite", "status"]).stdout
        let line = lines(status).first { $0.hasPrefix("Last import: ") } ?? ""
        return line.replacingOccurrences(of: #" at \S+: "#, with: ": ", options: .regularExpression)
    }

    @Test func aDryRunSaysWhatItWouldInsertUpdateAndDelete() throws {
        let sandbox = try imported()
        try sandbox.write("courses.csv", Fixtures.courses.replacingOccurrences(of: "Biology", with: "Biology I"))
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--dry-run", "courses.csv"])
        #expect(
            result
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr:
                        "dashboard: import batch 2 dry run (merge), nothing written: 2 rows read, would insert 0, would update 1, 1 unchanged, would delete 0, 0 rejected, 0 warnings\n"
                ))
        // `status` names the last import that could change data (a dry run never does).
        #expect(try lastImport(sandbox) == "Last import: batch 1 committed: 5 read, 5 inserted, 0 updated, 0 deleted, 0 rejected")
        let show = try sandbox.run(["--db", "db.sqlite", "batches", "show", "2"])
        #expect(lines(show.stdout).contains(Self.wouldHeader))
    }

    @Test func aCommittedBatchSaysWhatItDid() throws {
        let sandbox = try imported()
        #expect(try lastImport(sandbox) == "Last import: batch 1 committed: 5 read, 5 inserted, 0 updated, 0 deleted, 0 rejected")
        let show = try sandbox.run(["--db", "db.sqlite", "batches", "show", "1"])
        #expect(lines(show.stdout).contains(Self.happenedHeader))
        let list = try sandbox.run(["--db", "db.sqlite", "batches", "list"])
        #expect(
            list.stdout == """
                ID  COMMAND  STATUS     MODE   AS OF                 READ  INS  UPD  DEL  REJ  WARN
                 1  import   committed  merge  2026-11-29T08:00:00Z     5    5    0    0    0     0

                """)
    }

    @Test func aFailedBatchSaysWhatItWouldHaveDone() throws {
        let sandbox = try imported()
        try sandbox.write("bad.csv", "student,grade\ns1,A\n")
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "bad.csv"]).exitCode == 65)
        let last = try lastImport(sandbox)
        #expect(last.hasPrefix("Last import: batch 2 failed: "), "\(last)")
        #expect(last.contains(" read, would insert 0, would update 0, would delete 0, 0 rejected"), "\(last)")
        #expect(lines(try sandbox.run(["--db", "db.sqlite", "batches", "show", "2"]).stdout).contains(Self.wouldHeader))
    }

    @Test func heldDiscardedAndApprovedBatchesSayWouldAndTheApprovalSaysWhatItDid() throws {
        let sandbox = try imported()
        try sandbox.write("tasks1.csv", "task_id,course_id,title\n" + "t9,bio,Lab report 2\n")
        let held = try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "tasks1.csv"])
        #expect(held.exitCode == 65)
        #expect(
            held.stderr.hasSuffix(
                ". Counts: 1 rows read, would insert 1, would update 0, 0 unchanged, would delete 3, 0 rejected, 0 warnings\n"))
        #expect(try lastImport(sandbox) == "Last import: batch 2 held: 1 read, would insert 1, would update 0, would delete 3, 0 rejected")
        #expect(lines(try sandbox.run(["--db", "db.sqlite", "batches", "show", "2"]).stdout).contains(Self.wouldHeader))

        #expect(try sandbox.run(["--db", "db.sqlite", "batches", "discard", "2"]).exitCode == 0)
        #expect(lines(try sandbox.run(["--db", "db.sqlite", "batches", "show", "2"]).stdout).contains(Self.wouldHeader))

        #expect(try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "tasks1.csv"]).exitCode == 65)
        let approve = try sandbox.run(["--db", "db.sqlite", "batches", "approve", "3"])
        #expect(
            approve.stderr
                == "dashboard: approve: batch 4 committed (sync): 1 rows read, 1 inserted, 0 updated, 0 unchanged, 3 deleted, 0 rejected, 0 warnings\n"
        )
        #expect(lines(try sandbox.run(["--db", "db.sqlite", "batches", "show", "3"]).stdout).contains(Self.wouldHeader))
        #expect(lines(try sandbox.run(["--db", "db.sqlite", "batches", "show", "4"]).stdout).contains(Self.happenedHeader))

        let list = try sandbox.run(["--db", "db.sqlite", "batches", "list"])
        #expect(
            list.stdout == """
                ID  COMMAND  STATUS     MODE   AS OF                 READ  INS  UPD  DEL  REJ  WARN
                 4  approve  committed  sync   2026-11-29T08:00:00Z     1    1    0    3    0     0
                 3  import   approved   sync   2026-11-29T08:00:00Z     1  (1)  (0)  (3)    0     0
                 2  import   discarded  sync   2026-11-29T08:00:00Z     1  (1)  (0)  (3)    0     0
                 1  import   committed  merge  2026-11-29T08:00:00Z     5    5    0    0    0     0
                (N): would insert, update or delete; that batch (dry_run, held, failed, discarded, approved) changed nothing

                """)
    }

    @Test func aRevertedBatchKeepsWhatItDid() throws {
        let sandbox = try imported()
        #expect(try sandbox.run(["--db", "db.sqlite", "revert", "--batch", "1"]).exitCode == 0)
        #expect(lines(try sandbox.run(["--db", "db.sqlite", "batches", "show", "1"]).stdout).contains(Self.happenedHeader))
    }
}
