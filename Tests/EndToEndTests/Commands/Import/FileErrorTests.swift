import Foundation
import Testing

/// File-level errors: the whole run fails (exit 65), stderr names the file and the line, and no
/// course or task row changes, even the ones of a good file imported in the same run.
@Suite struct FileErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        /// The whole first stderr line (the hint follows on a second line).
        let error: String
        let hint: String
        var testDescription: String { name }

        init(_ name: String, _ text: String, error: String, hint: String) {
            self.init(name, bytes: Array(text.utf8), error: error, hint: hint)
        }

        init(_ name: String, bytes: [UInt8], error: String, hint: String) {
            self.name = name
            self.bytes = bytes
            self.error = error
            self.hint = hint
        }
    }

    static let cases: [Case] = [
        Case(
            "missing column", "task_id,title,due\nt1,Lab,2026-12-01\n",
            error: "bad.csv:1: the tasks file has no course_id column [missing_column]",
            hint: "add a course_id column (accepted names: courseid, course, courseref)"),
        Case(
            "duplicate column", "task_id,course_id,title,Title\nt1,bio,Lab,Lab 2\n",
            error: "bad.csv:1: column title appears twice (fields 3 and 4) [duplicate_column]",
            hint: "keep one of the two columns, or rename the other"),
        Case(
            "invalid UTF-8 after a quoted newline",
            bytes: Array("task_id,course_id,title\nt1,bio,\"two\nlines\"\nt2,bio,Caf".utf8) + [0xE9, 0x0A],
            error: "bad.csv:4: the file is not valid UTF-8: line 4 holds bytes that are not valid UTF-8 [invalid_encoding]",
            hint: "save the file as UTF-8, or pass --encoding windows-1252 (or latin1) if that is what it is"),
        Case(
            "unterminated quote", "task_id,course_id,title\nt1,bio,ok\nt2,bio,\"Essay\nt3,bio,Quiz\n",
            error: "bad.csv:3: a quoted field opened on line 3 is never closed [unterminated_quote]",
            hint: "close the quote; a quote inside a quoted field is written twice (\"\")"),
        Case(
            "empty file", "",
            error: "bad.csv:1: the file is empty [empty_file]",
            hint: "export it again: a file needs at least its header line"),
        Case(
            "unknown file kind", "student,grade\ns1,A\n",
            error:
                "bad.csv:1: the header names neither a courses file (course_id, title) nor a tasks file (task_id, course_id, title) [unknown_file_kind]",
            hint: "the first line must be the header; name the columns as in docs/formats.md"),
    ]

    @Test(arguments: cases)
    func fileLevelErrorFailsTheRunAndChangesNoRow(_ example: Case) throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let db = sandbox.path("db.sqlite")
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        let before = try DatabaseSnapshot.data(db)

        // A good courses file that would change a row, and the bad file, in one run.
        try sandbox.write("courses.csv", Fixtures.courses.replacingOccurrences(of: "Biology", with: "Biology I"))
        try sandbox.write("bad.csv", bytes: Data(example.bytes))
        let result = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "bad.csv"])

        #expect(result.exitCode == 65)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                dashboard: error: \(example.error); nothing was imported (recorded as failed batch 2)
                dashboard: hint: \(example.hint)

                """)
        #expect(try DatabaseSnapshot.data(db) == before)
        #expect(try DatabaseSnapshot.lines(db, "SELECT status FROM batches WHERE batch_id = 2") == "failed\n")
    }

    @Test(arguments: cases)
    func checkReportsTheSameFileLevelError(_ example: Case) throws {
        let sandbox = try Sandbox()
        try sandbox.write("bad.csv", bytes: Data(example.bytes))
        let result = try sandbox.run(["--db", "db.sqlite", "check", "bad.csv"])
        #expect(result.exitCode == 65)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                dashboard: error: \(example.error); nothing was imported
                dashboard: hint: \(example.hint)

                """)
        #expect(!sandbox.exists("db.sqlite"))
    }

    @Test func fileLevelErrorInJSONModeIsAFailedResultOnStdout() throws {
        let sandbox = try Sandbox()
        try sandbox.write("bad.csv", "task_id,title\nt1,Lab\n")
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--format", "json", "bad.csv"])
        #expect(result.exitCode == 65)
        let json = try JSON.object(result.stdout)
        #expect(json["status"] as? String == "failed")
        #expect(json["batch_id"] as? Int == 1)
        let fileError = json["file_error"] as? [String: Any] ?? [:]
        #expect(fileError["code"] as? String == "missing_column")
        #expect(fileError["file"] as? String == "bad.csv")
        #expect(fileError["line"] as? Int == 1)
        #expect(result.stderr.hasPrefix("dashboard: error: bad.csv:1: the tasks file has no course_id column [missing_column]"))
    }

    @Test func windows1252FileImportsWithTheEncodingOption() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write("tasks.csv", bytes: Data(Array("task_id,course_id,title\nt1,bio,Caf".utf8) + [0xE9, 0x0A]))
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--encoding", "windows-1252", "courses.csv", "tasks.csv"])
        #expect(result.exitCode == 0)
        #expect(try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT title FROM tasks") == "Café\n")
    }
}
