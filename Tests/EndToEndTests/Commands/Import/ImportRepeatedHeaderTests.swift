import Foundation
import Testing

/// Issue 27, item 5: exports joined into one file (`cat a.csv b.csv`). The file's own header
/// again is a `repeated_header` warning and nothing else is lost; a header of another layout is
/// a `mismatched_header` file error and nothing of the run is imported (docs/formats.md, "A
/// header again inside a file").
@Suite struct ImportRepeatedHeaderTests {
    static let hint =
        "    hint: exports joined into one file (cat a.csv b.csv) repeat their header: remove the line, or ignore this warning\n"

    static func warning(_ file: String, _ line: Int, headerLine: Int = 1) -> String {
        "\(file):\(line): warning: line \(line) repeats the header (line \(headerLine)) and was skipped [repeated_header]\n" + hint
    }

    @Test func twoTasksExportsJoinedImportEveryRowWithOneWarningAndTheJSONSaysWhere() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        // The second export has a BOM, CRLF lines and quoted, aliased header names.
        try sandbox.write(
            "tasks.csv",
            bytes: Data(
                ("task_id,course_id,title,due\nt1,bio,Lab report,2026-12-01\n"
                    + "\u{FEFF}\"Task ID\",\"Course\",\"Name\",\"Due Date\"\r\nt2,his,Essay,2026-12-02\r\n").utf8))
        let result = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"])
        #expect(
            result
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr: Self.warning("tasks.csv", 3)
                        + "dashboard: import batch 1 committed (merge): 4 rows read, 4 inserted, 0 updated, 0 unchanged, 0 deleted, 0 rejected, 1 warnings\n"
                ))
        #expect(
            try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT task_id, course_id, title, due FROM tasks ORDER BY task_id")
                == "t1|bio|Lab report|2026-12-01\nt2|his|Essay|2026-12-02\n")
        let json = try JSON.object(
            try sandbox.run(["--db", "other.sqlite", "check", "--format", "json", "courses.csv", "tasks.csv"]).stdout)
        let warnings = JSON.objects(json["warnings"])
        #expect(warnings.count == 1)
        #expect(warnings.first?["code"] as? String == "repeated_header")
        #expect(warnings.first?["type"] as? String == "duplicate-row")
        #expect(warnings.first?["severity"] as? String == "warning")
        #expect(warnings.first?["line"] as? Int == 3 && warnings.first?["row"] as? Int == 2)
        #expect(warnings.first?["column"] as? String == "" && warnings.first?["value"] as? String == "")
        #expect(JSON.objects(json["rejects"]).isEmpty)
        #expect(JSON.objects(json["files"]).map { $0["rows"] as? Int } == [2, 2])
    }

    @Test func aCoursesFileJoinedThreeTimesWarnsOncePerRepeatAndKeepsEveryCourse() throws {
        let sandbox = try Sandbox()
        let header = "course_id,title,code\n"
        try sandbox.write(
            "courses.csv", header + "bio,Biology,BIO\n" + header + "his,History,HIS\n\n" + "COURSE_ID,TITLE,CODE\n" + "art,Art,ART\n")
        let result = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv"])
        #expect(
            result
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr: Self.warning("courses.csv", 3)
                        + "courses.csv:5: warning: line 5 is blank and was skipped [blank_row]\n"
                        + "    hint: remove blank lines from the export, or ignore this warning\n" + Self.warning("courses.csv", 6)
                        + "dashboard: import batch 1 committed (merge): 3 rows read, 3 inserted, 0 updated, 0 unchanged, 0 deleted, 0 rejected, 3 warnings\n"
                ))
        #expect(
            try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT course_id, code, title FROM courses ORDER BY course_id")
                == "art|ART|Art\nbio|BIO|Biology\nhis|HIS|History\n")
    }

    @Test func aRepeatedHeaderInASyncDeletesNothingItShouldNot() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        let before = try DatabaseSnapshot.data(sandbox.path("db.sqlite"))
        let lines = Fixtures.tasks.split(separator: "\n").map(String.init)
        try sandbox.write("tasks.csv", ([lines[0], lines[1], lines[0], lines[2], lines[3]]).joined(separator: "\n") + "\n")
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "tasks.csv"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(
            result.stderr
                == Self.warning("tasks.csv", 3)
                + "dashboard: import batch 2 committed (sync): 3 rows read, 0 inserted, 0 updated, 3 unchanged, 0 deleted, 0 rejected, 1 warnings\n"
        )
        #expect(try DatabaseSnapshot.data(sandbox.path("db.sqlite")) == before)
    }

    @Test(
        arguments: [
            // A courses export appended to a tasks export.
            (
                "task_id,course_id,title\nt1,bio,Lab\ncourse_id,title,code\nart,Art,ART\n", 3,
                "line 3 is the header of a courses file (course_id, title, code) inside a tasks file: the rows after it cannot be read with the header on line 1 (task_id, course_id, title)",
                "course_id,title,code"
            ),
            // The same columns in another order: the rows after it would be read shifted.
            (
                "task_id,course_id,title,due\nt1,bio,Lab,2026-12-01\n\n\u{FEFF}course_id,task_id,due,title\r\nhis,t2,2026-12-02,Essay\r\n",
                4,
                "line 4 is a tasks header of another layout (course_id, task_id, due, title): the rows after it cannot be read with the header on line 1 (task_id, course_id, title, due)",
                "\u{FEFF}course_id,task_id,due,title"
            ),
            // Another set of columns: a priority where the first export had a due.
            (
                "task_id,course_id,title,due\nt1,bio,Lab,2026-12-01\ntask_id,course_id,title,priority\nt2,his,Essay,high\n", 3,
                "line 3 is a tasks header of another layout (task_id, course_id, title, priority): the rows after it cannot be read with the header on line 1 (task_id, course_id, title, due)",
                "task_id,course_id,title,priority"
            ),
        ])
    func aHeaderOfAnotherLayoutFailsTheRunNamingItsLineAndImportsNothing(tasks: String, line: Int, message: String, value: String)
        throws
    {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        let before = try DatabaseSnapshot.data(sandbox.path("db.sqlite"))
        try sandbox.write("joined.csv", tasks)
        try sandbox.write("more-courses.csv", "course_id,title\ngeo,Geography\n")
        let result = try sandbox.run(["--db", "db.sqlite", "import", "more-courses.csv", "joined.csv"])
        #expect(
            result
                == CommandResult(
                    exitCode: 65, stdout: "",
                    stderr:
                        "dashboard: error: joined.csv:\(line): \(message) [mismatched_header]; nothing was imported (recorded as failed batch 2)\n"
                        + "dashboard: hint: split the file at line \(line) and import the two parts as two files; exports can be joined into one file only when their headers are the same\n"
                ))
        #expect(try DatabaseSnapshot.data(sandbox.path("db.sqlite")) == before)
        #expect(
            try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT batch_id, status FROM batches ORDER BY batch_id")
                == "1|committed\n2|failed\n")
        let json = try JSON.object(
            try sandbox.run(["--db", "db.sqlite", "check", "--format", "json", "more-courses.csv", "joined.csv"]).stdout)
        let error = json["file_error"] as? [String: Any]
        #expect(json["status"] as? String == "failed")
        #expect(error?["code"] as? String == "mismatched_header" && error?["type"] as? String == "schema-error")
        #expect(error?["line"] as? Int == line && error?["row"] as? Int == 0 && error?["column"] as? String == "")
        #expect(error?["value"] as? String == value && error?["message"] as? String == message)
        #expect(try DatabaseSnapshot.data(sandbox.path("db.sqlite")) == before)
    }
}
