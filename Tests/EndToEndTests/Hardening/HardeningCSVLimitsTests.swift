import DashboardCore
import Foundation
import Testing

/// Issue 11, class 9: the CSV reader's caps (docs/formats.md). A field keeps at most
/// `CSVReader.fieldKeepLimit` bytes in memory; a header may not pass `CSVReader.maxFields`
/// columns; a wider data row is cut in memory but keeps its real field count.
@Suite struct HardeningCSVLimitsTests {
    static let bigField = String(repeating: "N", count: CSVReader.fieldKeepLimit * 2 + 123)

    @Test func aFieldPastTheKeepLimitInAnIgnoredColumnImports() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write("tasks.csv", "task_id,course_id,title,notes\nt1,bio,Essay,\"\(Self.bigField)\"\nt2,bio,Quiz,short\n")
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--format", "json", "courses.csv", "tasks.csv"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(JSON.objects(try JSON.object(result.stdout)["warnings"]).compactMap { $0["code"] as? String } == ["unknown_column"])
        #expect(
            try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT task_id, title FROM tasks ORDER BY 1") == "t1|Essay\nt2|Quiz\n")
    }

    @Test func aFieldPastTheKeepLimitInAUsedColumnIsValueTooLong() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write("tasks.csv", "task_id,course_id,title\nt1,bio,\"\(Self.bigField)\"\nt2,bio,Quiz\n")
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--format", "json", "courses.csv", "tasks.csv"])
        #expect(result.exitCode == 65)
        let rejects = JSON.objects(try JSON.object(result.stdout)["rejects"])
        #expect(
            rejects.map { "\($0["file"] ?? ""):\($0["line"] ?? 0) \($0["column"] ?? "") \($0["code"] ?? "")" } == [
                "tasks.csv:2 title value_too_long"
            ])
        #expect(try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT task_id FROM tasks ORDER BY 1") == "t2\n")
    }

    static func header(columns: Int) -> String {
        "task_id,course_id,title" + (4...columns).map { ",x\($0)" }.joined() + "\n"
    }

    @Test func aHeaderPastTheColumnCapStopsTheFileNamingItsLine() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write("tasks.csv", Self.header(columns: CSVReader.maxFields + 1) + "t1,bio,Essay\n")
        let result = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"])
        #expect(result.exitCode == 65)
        #expect(
            result.stderr.hasPrefix(
                "dashboard: error: tasks.csv:1: the record starting on line 1 has more than 1024 fields (columns) [too_many_columns]; nothing was imported"
            ), "\(result)")
        #expect(try DatabaseSnapshot.int(sandbox.path("db.sqlite"), "SELECT count(*) FROM courses") == 0)
        #expect(try DatabaseSnapshot.int(sandbox.path("db.sqlite"), "SELECT count(*) FROM tasks") == 0)

        let checked = try sandbox.run(["check", "--format", "json", "tasks.csv"])
        #expect(checked.exitCode == 65)
        let fileError = try JSON.object(checked.stdout)["file_error"] as? [String: Any]
        #expect(fileError?["code"] as? String == "too_many_columns")
        #expect(fileError?["type"] as? String == "source-error")
        #expect(fileError?["line"] as? Int == 1)
    }

    @Test func aHeaderAtTheColumnCapImports() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        let filler = String(repeating: ",", count: CSVReader.maxFields - 3)
        try sandbox.write("tasks.csv", Self.header(columns: CSVReader.maxFields) + "t1,bio,Essay\(filler)\n")
        let result = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT task_id FROM tasks") == "t1\n")
    }

    @Test func aRowCutInMemoryKeepsItsRealFieldCountAndABlankOneStaysBlank() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        let wide = "w1,bio,Wide" + String(repeating: ",v", count: 4_000)
        let blank = String(repeating: ",", count: 5_000)
        try sandbox.write("tasks.csv", "task_id,course_id,title\n\(wide)\n\(blank)\nt2,bio,Quiz\n")
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--format", "json", "courses.csv", "tasks.csv"])
        #expect(result.exitCode == 65)
        let json = try JSON.object(result.stdout)
        let rejects = JSON.objects(json["rejects"])
        #expect(rejects.compactMap { $0["message"] as? String } == ["the row has 4003 fields, the header has 3"])
        #expect(rejects.compactMap { $0["line"] as? Int } == [2])
        #expect(JSON.objects(json["warnings"]).map { "\($0["code"] ?? ""):\($0["line"] ?? 0)" } == ["blank_row:3"])
        #expect(try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT task_id FROM tasks") == "t2\n")
    }
}
