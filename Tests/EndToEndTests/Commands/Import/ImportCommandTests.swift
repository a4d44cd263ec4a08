import Foundation
import Testing

/// `dashboard import`: what a user and the nightly job see, and what ends up in the database.
@Suite struct ImportCommandTests {
    static let cleanSummary =
        "dashboard: import batch 1 committed (merge): 5 rows read, 5 inserted, 0 updated, 0 unchanged, 0 deleted, 0 rejected, 0 warnings\n"

    @Test func validFilesCommitWithOneSummaryLineOnStderrAndNothingOnStdout() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let result = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"])
        #expect(result == CommandResult(exitCode: 0, stdout: "", stderr: Self.cleanSummary))
        #expect(try DatabaseSnapshot.dump(sandbox.path("db.sqlite"), table: "courses") == Fixtures.storedCourses)
        #expect(try DatabaseSnapshot.dump(sandbox.path("db.sqlite"), table: "tasks") == Fixtures.storedTasks)
    }

    @Test func aFolderImportsEveryCSVInIt() throws {
        let sandbox = try Sandbox()
        try sandbox.write("drop/tasks.csv", Fixtures.tasks)
        try sandbox.write("drop/courses.csv", Fixtures.courses)
        try sandbox.write("drop/notes.txt", "not a CSV file")
        let result = try sandbox.run(["import", "drop/", "--db", "db.sqlite"])
        #expect(result == CommandResult(exitCode: 0, stdout: "", stderr: Self.cleanSummary))
        #expect(try DatabaseSnapshot.dump(sandbox.path("db.sqlite"), table: "tasks") == Fixtures.storedTasks)
    }

    @Test func standardInputIsReadForADash() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["--db", "db.sqlite", "import", "-"], stdin: Fixtures.courses)
        #expect(
            result
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr:
                        "dashboard: import batch 1 committed (merge): 2 rows read, 2 inserted, 0 updated, 0 unchanged, 0 deleted, 0 rejected, 0 warnings\n"
                ))
        #expect(try DatabaseSnapshot.dump(sandbox.path("db.sqlite"), table: "courses") == Fixtures.storedCourses)
    }

    @Test func quietCleanRunPrintsNothingAtAll() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let result = try sandbox.run(["--quiet", "--db", "db.sqlite", "import", "courses.csv", "tasks.csv"])
        #expect(result == CommandResult(exitCode: 0, stdout: "", stderr: ""))
        #expect(try DatabaseSnapshot.int(sandbox.path("db.sqlite"), "SELECT count(*) FROM tasks") == 3)
    }

    @Test func importingTheSameFilesTwiceChangesNothingTheSecondTime() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let db = sandbox.path("db.sqlite")
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        let before = try DatabaseSnapshot.data(db)
        let second = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"])
        #expect(
            second
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr:
                        "dashboard: import batch 2 committed (merge): 5 rows read, 0 inserted, 0 updated, 5 unchanged, 0 deleted, 0 rejected, 0 warnings; the same files as batch 1 into unchanged data: not compared again\n"
                ))
        #expect(try DatabaseSnapshot.data(db) == before)
        #expect(try DatabaseSnapshot.lines(db, "SELECT count(*) FROM task_history WHERE batch_id = 2") == "0\n")
    }

    @Test func aChangedRowIsUpdatedAndCounted() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        try sandbox.write("tasks.csv", Fixtures.tasks.replacingOccurrences(of: "Essay draft", with: "Essay final draft"))
        let result = try sandbox.run(["--db", "db.sqlite", "import", "tasks.csv"])
        #expect(
            result.stderr
                == "dashboard: import batch 2 committed (merge): 3 rows read, 0 inserted, 1 updated, 2 unchanged, 0 deleted, 0 rejected, 0 warnings\n"
        )
        #expect(
            try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT title, changed_batch FROM tasks WHERE task_id = 't3'")
                == "Essay final draft|2\n")
    }

    @Test func dryRunWritesNoData() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv"]).exitCode == 0)
        let before = try DatabaseSnapshot.data(sandbox.path("db.sqlite"))
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--dry-run", "courses.csv", "tasks.csv"])
        #expect(result.exitCode == 0)
        #expect(result.stdout == "")
        #expect(try DatabaseSnapshot.data(sandbox.path("db.sqlite")) == before)
    }

    // MARK: - Rejected rows

    static let badTasks = #"""
        task_id,course_id,title,due,priority,completed
        t1,bio,Lab report,2026-12-01,high,no
        t2,xyz,Essay,,low,yes
        t3,bio,"Quiz, ""final""",2026-02-30,high,no
        t4,his,Poster,,asap,no

        """#

    static let badTasksStderr = """
        bad.csv:3: error: course_id: course "xyz" is not in the database or in this import [unknown_course]
            hint: import the course first (or in the same run), or correct the course_id
        bad.csv:4: error: due: "2026-02-30" is not a date: month 2 of 2026 has 28 days [invalid_date]
            hint: use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] (course time) or add Z / ±HH:MM for an exact instant
        bad.csv:5: error: priority: "asap" is not a priority [invalid_priority]
            hint: use low, normal or high (also: hi, urgent, med, medium, lo, or empty for normal)

        """

    @Test func rejectedRowsExit65ListTheRowsOnStderrAndCommitTheValidRows() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write("bad.csv", Self.badTasks)
        let result = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "bad.csv"])
        #expect(result.exitCode == 65)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == Self.badTasksStderr
                + "dashboard: import batch 1 committed (merge): 6 rows read, 3 inserted, 0 updated, 0 unchanged, 0 deleted, 3 rejected, 0 warnings\n"
        )
        #expect(try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT task_id FROM tasks") == "t1\n")
        #expect(
            try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT line, code FROM batch_problems WHERE batch_id = 1 ORDER BY seq")
                == "3|unknown_course\n4|invalid_date\n5|invalid_priority\n")
    }

    @Test func rejectsFileHoldsEveryRejectedRowAsCSV() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write("bad.csv", Self.badTasks)
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--rejects", "rejects.csv", "courses.csv", "bad.csv"])
        #expect(result.exitCode == 65)
        let expected = #"""
            file,line,column,code,value,message
            bad.csv,3,course_id,unknown_course,xyz,"course ""xyz"" is not in the database or in this import"
            bad.csv,4,due,invalid_date,2026-02-30,"""2026-02-30"" is not a date: month 2 of 2026 has 28 days"
            bad.csv,5,priority,invalid_priority,asap,"""asap"" is not a priority"

            """#
        // CSVWriter's rule: CRLF line ends (issue 11, class 4).
        #expect(String(decoding: try sandbox.read("rejects.csv"), as: UTF8.self) == expected.replacingOccurrences(of: "\n", with: "\r\n"))
    }

    @Test func strictCommitsNothingWhenARowIsRejected() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let db = sandbox.path("db.sqlite")
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        let before = try DatabaseSnapshot.data(db)
        try sandbox.write("courses.csv", Fixtures.courses.replacingOccurrences(of: "Biology", with: "Biology I"))
        try sandbox.write("bad.csv", Self.badTasks)
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--strict", "courses.csv", "bad.csv"])
        #expect(result.exitCode == 65)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix(Self.badTasksStderr))
        #expect(
            result.stderr.hasSuffix(
                """
                dashboard: error: --strict: 3 row(s) rejected, nothing was imported
                dashboard: hint: fix the rows listed above, or run without --strict to import the valid rows

                """))
        #expect(try DatabaseSnapshot.data(db) == before)
        #expect(try DatabaseSnapshot.lines(db, "SELECT batch_id, status FROM batches ORDER BY batch_id") == "1|committed\n2|failed\n")
    }

    // MARK: - JSON

    static let resultKeys: Set<String> = [
        "schema", "batch_id", "status", "mode", "as_of", "reason", "read", "inserted", "updated", "unchanged", "deleted",
        "rejected", "counts", "files", "categorized", "rejects", "warnings", "unchanged_since",
    ]
    static let countKeys: Set<String> = ["read", "inserted", "updated", "unchanged", "deleted", "rejected", "warnings"]

    @Test func jsonResultHasEveryKeyAndTheFilesSHA256() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--format", "json", "courses.csv", "tasks.csv"])
        #expect(result.exitCode == 0)
        #expect(result.stderr == Self.cleanSummary)
        let json = try JSON.object(result.stdout)
        #expect(Set(json.keys) == Self.resultKeys)
        // One key, one meaning: the warnings *count* must not share its name with the list.
        #expect(JSON.duplicateKeys(result.stdout) == [])
        #expect(json["schema"] as? Int == 1)
        #expect(json["batch_id"] as? Int == 1)
        #expect(json["status"] as? String == "committed")
        #expect(json["mode"] as? String == "merge")
        #expect(json["as_of"] as? String == "2026-11-29T08:00:00Z")
        #expect(json["reason"] as? String == "")
        #expect(
            [json["read"], json["inserted"], json["updated"], json["deleted"], json["rejected"]].map { $0 as? Int } == [5, 5, 0, 0, 0])
        let counts = json["counts"] as? [String: Any] ?? [:]
        #expect(Set(counts.keys) == ["courses", "tasks", "total"])
        for kind in ["courses", "tasks", "total"] { #expect(JSON.keys(counts[kind]) == Self.countKeys) }
        #expect((counts["tasks"] as? [String: Any])?["inserted"] as? Int == 3)
        let files = JSON.objects(json["files"])
        #expect(files.map { $0["path"] as? String } == ["courses.csv", "tasks.csv"])
        #expect(files.map { $0["kind"] as? String } == ["courses", "tasks"])
        #expect(files.map { $0["rows"] as? Int } == [2, 3])
        for file in files {
            #expect(Set(file.keys) == ["path", "kind", "size", "sha256", "rows"])
            let name = file["path"] as? String ?? ""
            #expect(file["size"] as? Int == (try sandbox.read(name)).count)
            let sum = try sandbox.runTool("sha256sum", [name])
            #expect(file["sha256"] as? String == sum.stdout.split(separator: " ").first.map(String.init))
        }
        #expect(JSON.objects(json["rejects"]).isEmpty)
        #expect(JSON.objects(json["warnings"]).isEmpty)
    }

    @Test func jsonRejectsCarryEveryFieldOfTheProblem() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses + "chem,Chemistry,CHEM 1,UTC\n")
        try sandbox.write("bad.csv", Self.badTasks + "\nt5,bio,Lab report,2026-12-01,high,no\nt6,chem,Titration,,,maybe\n")
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--format", "json", "courses.csv", "bad.csv"])
        #expect(result.exitCode == 65)
        let json = try JSON.object(result.stdout)
        let rejects = JSON.objects(json["rejects"])
        let keys: Set<String> = ["code", "severity", "type", "file", "line", "row", "column", "value", "message", "hint"]
        for reject in rejects { #expect(Set(reject.keys) == keys) }
        #expect(rejects.map { $0["code"] as? String } == ["unknown_course", "invalid_date", "invalid_priority", "invalid_boolean"])
        #expect(rejects.map { $0["line"] as? Int } == [3, 4, 5, 8])
        #expect(rejects.map { $0["type"] as? String } == ["foreign-key", "type-error", "type-error", "type-error"])
        let last = rejects.last ?? [:]
        #expect(last["severity"] as? String == "error")
        #expect(last["file"] as? String == "bad.csv")
        #expect(last["row"] as? Int == 7)
        #expect(last["column"] as? String == "completed")
        #expect(last["value"] as? String == "maybe")
        #expect(last["message"] as? String == "\"maybe\" is not a yes/no value")
        #expect(last["hint"] as? String == "use true/false, yes/no, y/n, 1/0, x/empty, done/open or ✓")
        let warnings = JSON.objects(json["warnings"])
        #expect(warnings.map { $0["code"] as? String } == ["blank_row"])
        #expect(warnings.map { $0["line"] as? Int } == [6])
        #expect(json["rejected"] as? Int == 4)
    }
}

extension ImportCommandTests {
    @Test func unwritableRejectsFileFailsBeforeAnythingIsImported() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let db = sandbox.path("db.sqlite")
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv"]).exitCode == 0)
        let before = try DatabaseSnapshot.data(db)
        let batches = try DatabaseSnapshot.dump(db, table: "batches")
        try sandbox.write("bad.csv", Self.badTasks)
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--rejects", "no/such/dir/rejects.csv", "bad.csv"])
        #expect(result.exitCode == 74)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("dashboard: error: cannot write --rejects no/such/dir/rejects.csv: "), "\(result)")
        #expect(try DatabaseSnapshot.data(db) == before)
        #expect(try DatabaseSnapshot.dump(db, table: "batches") == batches)
    }
}

extension ImportCommandTests {
    @Test func textListsTheFirst20ProblemsAndSaysHowManyMoreWhileJSONAndRejectsCarryAll() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        var tasks = "task_id,course_id,title,priority\n"
        for i in 1...25 { tasks += "b\(i),bio,Task \(i),bogus\n" }
        try sandbox.write("many.csv", tasks)
        let text = try sandbox.run(["--db", "db.sqlite", "check", "--rejects", "rejects.csv", "courses.csv", "many.csv"])
        #expect(text.exitCode == 65)
        let problemLines = text.stderr.split(separator: "\n").filter { $0.hasPrefix("many.csv:") }
        #expect(problemLines.count == 20)
        #expect(problemLines.last?.hasPrefix("many.csv:21: error: priority: ") == true)
        #expect(text.stderr.contains("\n… and 5 more problems (all of them: --format json or --rejects FILE)\n"))
        #expect(String(decoding: try sandbox.read("rejects.csv"), as: UTF8.self).split(separator: "\r\n").count == 26)  // CRLF lines
        let json = try JSON.object(try sandbox.run(["--db", "db.sqlite", "check", "--format", "json", "courses.csv", "many.csv"]).stdout)
        #expect(JSON.objects(json["rejects"]).map { $0["line"] as? Int } == Array(2...26))
    }

    /// umask 000 gives 0660: the umask's mode, never a bit for others (issue 13).
    @Test func aNewDatabaseGetsTheUmasksModeWithoutOthersInWALMode() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let binary = try DashboardBinary.url().path
        let result = try sandbox.runTool("sh", ["-c", "umask 000 && exec \"$0\" --db db.sqlite import courses.csv", binary])
        #expect(result.exitCode == 0, "\(result)")
        let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.path("db.sqlite"))
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o660)
        #expect(try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "PRAGMA journal_mode") == "wal\n")
    }
}
