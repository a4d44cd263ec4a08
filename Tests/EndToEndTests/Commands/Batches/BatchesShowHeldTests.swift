import Foundation
import Testing

/// `dashboard batches show ID` of a held batch lists what approving it would change, row by
/// row, and `batches approve` then changes exactly that (issue 14, item 8).
@Suite struct BatchesShowHeldTests {
    /// Batch 1 imports three courses and eight tasks; batch 2 (a sync) deletes t08; batch 3, a
    /// sync that deletes a course and three tasks, is held. Approving it would insert course
    /// geo and tasks t09, t10, restore t08, update course bio (two fields) and tasks t01 (two
    /// fields), t02 (title, completed), t03 (its course), delete course hist and tasks t05,
    /// t06, t07.
    static func heldSandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write(
            "courses1.csv",
            """
            course_id,code,title,term,teacher,timezone
            bio,BIO 101,Biology,Fall 2026,Dr. Alvarez,America/New_York
            chem,CHEM 110,Chemistry,Fall 2026,Dr. Okafor,
            hist,HIST 200,History,Fall 2026,Mr. Brandt,Europe/Berlin

            """)
        let tasks = """
            task_id,course_id,title,student_id,due,priority,completed
            t01,bio,Lab report 1,s1,2026-12-01,normal,no
            t02,bio,Reading quiz,s2,2026-12-02,low,no
            t03,bio,Field notes,s3,,normal,no
            t04,chem,Titration lab,s1,2026-12-03,high,no
            t05,chem,Problem set 2,s2,2026-12-04,normal,yes
            t06,hist,Essay 1,s3,2026-12-05,normal,no
            t07,hist,Source analysis,s1,2026-12-06,normal,no

            """
        try sandbox.write("tasks1.csv", tasks + "t08,chem,Safety quiz,s3,2026-11-20,normal,yes\n")
        try sandbox.write("tasks2.csv", tasks)
        try sandbox.write(
            "courses3.csv",
            """
            course_id,code,title,term,teacher,timezone
            bio,BIO 101,Biology I,Fall 2026,Dr. Maria Alvarez,America/New_York
            chem,CHEM 110,Chemistry,Fall 2026,Dr. Okafor,
            geo,GEO 120,Geography,Fall 2026,Ms. Lindqvist,Europe/Stockholm

            """)
        try sandbox.write(
            "tasks3.csv",
            """
            task_id,course_id,title,student_id,due,priority,completed
            t01,bio,Lab report 1,s1,2026-12-08,high,no
            t02,bio,Reading quiz (chapter 5),s2,2026-12-02,low,yes
            t03,chem,Field notes,s3,,normal,no
            t04,chem,Titration lab,s1,2026-12-03,high,no
            t08,chem,Safety quiz,s3,2026-11-20,normal,yes
            t09,geo,Map project,s2,2026-12-10,normal,no
            t10,geo,Climate zones quiz,s3,2026-12-11 14:00,low,no

            """)
        let runs: [([String], Int32)] = [
            (["import", "courses1.csv", "tasks1.csv"], 0),
            (["import", "--mode", "sync", "--max-delete", "100%", "courses1.csv", "tasks2.csv"], 0),
            (["import", "--mode", "sync", "courses3.csv", "tasks3.csv"], 65),
        ]
        for (arguments, code) in runs {
            let result = try sandbox.run(["--db", "db.sqlite"] + arguments)
            #expect(result.exitCode == code, "\(arguments): \(result)")
        }
        return sandbox
    }

    /// The output with the batch's own start and end times (the wall clock) replaced.
    static func timesMasked(_ text: String) -> String {
        text.replacingOccurrences(
            of: #"(Started |finished |"started_at": "|"finished_at": ")\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"#, with: "$1<time>",
            options: .regularExpression)
    }

    @Test func showOfAHeldBatchListsEveryChangeWithItsFieldsOldToNew() throws {
        let sandbox = try Self.heldSandbox()
        let before = try DatabaseSnapshot.data(sandbox.path("db.sqlite"))
        let show = try sandbox.run(["--db", "db.sqlite", "batches", "show", "3"])
        #expect(show.exitCode == 0)
        #expect(show.stderr == "")
        GoldenFile.expectMatch(Data(Self.timesMasked(show.stdout).utf8), golden: "batches-show-held.txt")
        // Showing writes nothing.
        #expect(try DatabaseSnapshot.data(sandbox.path("db.sqlite")) == before)
    }

    @Test func showOfAHeldBatchInJSONListsEveryChange() throws {
        let sandbox = try Self.heldSandbox()
        let show = try sandbox.run(["--db", "db.sqlite", "batches", "show", "3", "--format", "json"])
        #expect(show.exitCode == 0)
        #expect(show.stderr == "")
        #expect(JSON.duplicateKeys(show.stdout) == [])
        GoldenFile.expectMatch(Data(Self.timesMasked(show.stdout).utf8), golden: "batches-show-held.json")
    }

    @Test func limitShowsTheFirstRowsOfEachSectionAndSaysHowManyMore() throws {
        let sandbox = try Self.heldSandbox()
        let show = try sandbox.run(["--db", "db.sqlite", "batches", "show", "3", "--limit", "1"])
        #expect(show.exitCode == 0)
        #expect(show.stderr == "")
        GoldenFile.expectMatch(Data(Self.timesMasked(show.stdout).utf8), golden: "batches-show-held-limit-1.txt")

        let json = try JSON.object(
            try sandbox.run(["--db", "db.sqlite", "batches", "show", "3", "--limit", "1", "--format", "json"]).stdout)
        #expect(json["approve_limit"] as? Int == 1)
        let changes = JSON.objects(json["approve_changes"]).map { "\($0["kind"] ?? "") \($0["action"] ?? "") \($0["id"] ?? "")" }
        #expect(
            changes == [
                "courses insert geo", "courses update bio", "courses delete hist", "tasks insert t09", "tasks restore t08",
                "tasks update t01", "tasks delete t05",
            ])

        // --limit 0 lists everything: the same as the default when no section has more than 50.
        let all = try sandbox.run(["--db", "db.sqlite", "batches", "show", "3", "--limit", "0"])
        let standard = try sandbox.run(["--db", "db.sqlite", "batches", "show", "3"])
        #expect(all == standard)
        let allJSON = try JSON.object(
            try sandbox.run(["--db", "db.sqlite", "batches", "show", "3", "--limit", "0", "--format", "json"]).stdout)
        #expect(allJSON["approve_limit"] is NSNull)
        #expect(JSON.objects(allJSON["approve_changes"]).count == 12)
    }

    @Test(arguments: [
        ("-1", #"--limit must be a whole number from 0 to 1000000, not "-1""#),
        ("1000001", #"--limit must be a whole number from 0 to 1000000, not "1000001""#),
        ("many", #"--limit must be a whole number from 0 to 1000000, not "many""#),
    ])
    func aBadLimitIsAUsageError(value: String, message: String) throws {
        let sandbox = try Self.heldSandbox()
        let result = try sandbox.run(["--db", "db.sqlite", "batches", "show", "3", "--limit", value])
        #expect(result.exitCode == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("dashboard: error: \(message)\n"), "\(result.stderr)")
    }

    @Test func anUnknownBatchIsADataErrorNamingTheList() throws {
        let sandbox = try Self.heldSandbox()
        let result = try sandbox.run(["--db", "db.sqlite", "batches", "show", "99", "--limit", "5"])
        #expect(
            result
                == CommandResult(
                    exitCode: 65, stdout: "",
                    stderr: "dashboard: error: there is no batch 99\ndashboard: hint: `dashboard batches list` shows the batches\n"))
    }

    @Test func approvingChangesExactlyWhatShowListed() throws {
        let sandbox = try Self.heldSandbox()
        try HeldApproval.expectApprovalMatchesListing(sandbox, batch: 3, force: false)
    }

    /// A tasks-only held batch whose course a later sync deleted: show says approving rejects
    /// those tasks and needs --force; the listing still equals what the approval does.
    @Test func aCourseDeletedSinceTheHoldIsRejectedAndApprovalNeedsForce() throws {
        let sandbox = try Self.heldSandbox()
        // Discard the held batch 3, hold a tasks-only sync (batch 4), then delete course chem (batch 5).
        #expect(try sandbox.run(["--db", "db.sqlite", "batches", "discard", "3"]).exitCode == 0)
        try sandbox.write(
            "tasks4.csv",
            """
            task_id,course_id,title,student_id,due,priority,completed
            t01,bio,Lab report 1,s1,2026-12-09,normal,no
            t04,chem,Titration lab,s1,2026-12-03,low,no
            t09,chem,Buffer lab,s2,2026-12-12,normal,no

            """)
        try sandbox.write("courses5.csv", "course_id,code,title\nbio,BIO 101,Biology\nhist,HIST 200,History\n")
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "tasks4.csv"]).exitCode == 65)
        let sync = try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "--max-delete", "100%", "courses5.csv"])
        #expect(sync.exitCode == 0, "\(sync)")
        let show = try sandbox.run(["--db", "db.sqlite", "batches", "show", "4"])
        let summary = """
            Approving it now would:
              tasks: insert 0, update 1, leave 0 unchanged, delete 4, reject 2 more (their course was deleted after the batch was held)
              Batch 5 committed after this one: approving it needs --force.
            Tasks it would update (1):
              t01  "Lab report 1" (course bio): due "2026-12-01" → "2026-12-09"
            Tasks it would delete (4):
              t02  "Reading quiz" (course bio): student_id "s2", due "2026-12-02", priority "low", completed false
              t03  "Field notes" (course bio): student_id "s3", priority "normal", completed false
              t06  "Essay 1" (course hist): student_id "s3", due "2026-12-05", priority "normal", completed false
              t07  "Source analysis" (course hist): student_id "s1", due "2026-12-06", priority "normal", completed false
            Next step: dashboard batches approve 4 --force   or   dashboard batches discard 4

            """
        #expect(show.stdout.contains(summary), "\(show.stdout)")
        try HeldApproval.expectApprovalMatchesListing(sandbox, batch: 4, force: true)
    }
}
