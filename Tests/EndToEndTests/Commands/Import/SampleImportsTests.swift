import Foundation
import Testing

/// The shipped drop folder `imports/`: the tool reports exactly the problems imports/README.md
/// documents, and the messy values normalize as described there.
@Suite struct SampleImportsTests {
    static let folder = DashboardBinary.packageRoot.appendingPathComponent("imports").path

    struct Problem: Hashable, CustomStringConvertible {
        let file: String
        let line: Int
        let code: String
        var description: String { "\(file):\(line) \(code)" }
    }

    static let expectedRejects = [
        Problem(file: "tasks.csv", line: 58, code: "unknown_course"),
        Problem(file: "tasks.csv", line: 65, code: "invalid_date"),
        Problem(file: "tasks.csv", line: 74, code: "ambiguous_date"),
        Problem(file: "tasks.csv", line: 82, code: "invalid_priority"),
        Problem(file: "tasks.csv", line: 89, code: "invalid_boolean"),
        Problem(file: "tasks.csv", line: 96, code: "implausible_date"),
        Problem(file: "tasks.csv", line: 101, code: "duplicate_id"),
    ]

    static let expectedWarnings = [
        Problem(file: "courses.csv", line: 1, code: "unknown_column"),
        Problem(file: "tasks.csv", line: 70, code: "blank_row"),
        Problem(file: "tasks.csv", line: 104, code: "duplicate_row"),
    ]

    static func problems(_ value: Any?) -> [Problem] {
        JSON.objects(value).map { item in
            Problem(
                file: URL(fileURLWithPath: item["file"] as? String ?? "").lastPathComponent, line: item["line"] as? Int ?? -1,
                code: item["code"] as? String ?? "")
        }
    }

    /// The (file, line, code) rows of the tables in imports/README.md: `| tasks.csv | 58 | … | `code` |`.
    static func documentedProblems() throws -> [Problem] {
        let readme = try String(contentsOfFile: folder + "/README.md", encoding: .utf8)
        return readme.split(separator: "\n").compactMap { line -> Problem? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 3, cells[1].hasSuffix(".csv"), let number = Int(cells[2]) else { return nil }
            let code = cells[cells.count - 2].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            return Problem(file: cells[1], line: number, code: code)
        }
    }

    @Test func checkReportsExactlyTheDocumentedProblems() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["--db", "db.sqlite", "check", "--format", "json", Self.folder])
        #expect(result.exitCode == 65)
        let json = try JSON.object(result.stdout)
        #expect(Self.problems(json["rejects"]) == Self.expectedRejects)
        #expect(Self.problems(json["warnings"]) == Self.expectedWarnings)
        let counts = json["counts"] as? [String: Any] ?? [:]
        #expect((counts["courses"] as? [String: Any])?["inserted"] as? Int == 5)
        #expect((counts["tasks"] as? [String: Any])?["inserted"] as? Int == 98)
        #expect(json["rejected"] as? Int == 7)
        #expect(!sandbox.exists("db.sqlite"))
    }

    @Test func theReadmeTablesListTheSameProblems() throws {
        #expect(try Self.documentedProblems() == Self.expectedRejects + Self.expectedWarnings)
    }

    @Test func textCheckNamesEveryProblemWithFileAndLine() throws {
        let result = try Sandbox().run(["check", Self.folder + "/"])
        #expect(result.exitCode == 65)
        #expect(result.stdout == "")
        let located = result.stderr.split(separator: "\n").compactMap { line -> Problem? in
            guard let match = line.firstMatch(of: /\/imports\/([a-z]+\.csv):(\d+): (?:error|warning): .*\[([a-z_]+)\]/) else { return nil }
            return Problem(file: String(match.1), line: Int(match.2) ?? -1, code: String(match.3))
        }
        #expect(Set(located) == Set(Self.expectedRejects + Self.expectedWarnings))
        #expect(
            result.stderr.hasSuffix(
                "dashboard: check dry run (merge), nothing written: 111 rows read, would insert 103, would update 0, 0 unchanged, would delete 0, 7 rejected, 3 warnings\n"
            ))
    }

    @Test func importNormalizesTheMessyValues() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["--db", "db.sqlite", "import", Self.folder])
        #expect(result.exitCode == 65)
        let db = sandbox.path("db.sqlite")
        #expect(try DatabaseSnapshot.int(db, "SELECT count(*) FROM courses") == 5)
        #expect(try DatabaseSnapshot.int(db, "SELECT count(*) FROM tasks") == 98)
        #expect(
            try DatabaseSnapshot.lines(db, "SELECT course_id, code, timezone, teacher FROM courses ORDER BY course_id") == """
                bio-101-nyc|BIO 101|America/New_York|Dr. Maria Alvarez
                eng-105|ENG 105||Mr. David Okafor
                hst-220-syd|HIST 220|Australia/Sydney|Ms. Olivia Nguyen
                jpn-150-tyo|JPN 150|Asia/Tokyo|田中 美咲 (Tanaka Misaki)
                mat-210-ber|MAT 210|Europe/Berlin|Prof. Jürgen Müller

                """)
        let sql = """
            SELECT task_id, course_id, title, student_id, due, priority, completed FROM tasks
            WHERE task_id IN ('T1003', 'T1006', 'T1009', 'T1012', 'T1015', 'T1021', 'T1041', 'T1097', 'T1098') ORDER BY task_id
            """
        #expect(
            try DatabaseSnapshot.lines(db, sql) == """
                T1003|bio-101-nyc|Reading quiz: chapter 4 (photosynthesis)|s2006|2026-11-21|normal|0
                T1006|bio-101-nyc|Field journal: campus biodiversity|s2026||normal|1
                T1009|bio-101-nyc|Midterm review questions|s2039|2026-11-20T15:00:00Z|high|1
                T1012|bio-101-nyc|Ecology case study: Yellowstone wolves|s2022|2026-11-26|normal|0
                T1015|bio-101-nyc|Final project proposal|s2001|2026-12-01T15:00:00Z|low|0
                T1021|mat-210-ber|Gram-Schmidt-Verfahren (Präsentation)|s2004|2026-12-15|normal|0
                T1041|jpn-150-tyo|Oral exam preparation|s2023|2026-12-05T01:00:00Z|high|1
                T1097|eng-105|Essay: "Dulce et Decorum Est", a close reading|s2017|2026-12-05|high|0
                T1098|bio-101-nyc|Group presentation: the carbon cycle|s2023|2026-12-10T14:00:00|normal|0

                """)
        #expect(try DatabaseSnapshot.lines(db, "SELECT title FROM tasks WHERE task_id = 'T1010'") == "Genetics vocabulary flashcards\n")
    }

    @Test func importingTheSampleTwiceChangesNothing() throws {
        let sandbox = try Sandbox()
        _ = try sandbox.run(["--db", "db.sqlite", "import", Self.folder])
        let before = try DatabaseSnapshot.data(sandbox.path("db.sqlite"))
        let second = try sandbox.run(["--db", "db.sqlite", "import", "--format", "json", Self.folder])
        #expect(second.exitCode == 65)
        let json = try JSON.object(second.stdout)
        #expect([json["inserted"], json["updated"], json["deleted"], json["unchanged"]].map { $0 as? Int } == [0, 0, 0, 103])
        #expect(try DatabaseSnapshot.data(sandbox.path("db.sqlite")) == before)
    }

    /// The example data-quality suite (Examples/DataQualitySuite, docs/library.md) tests the
    /// shipped sample under its own names: its copies stay byte for byte the sample.
    @Test func theExampleSuitesMessyExportsAreTheShippedSample() throws {
        let root = DashboardBinary.packageRoot
        let exports = root.appendingPathComponent("Examples/DataQualitySuite/Tests/DataQualitySuiteTests/Exports")
        for name in ["courses.csv", "tasks.csv"] {
            let sample = try Data(contentsOf: root.appendingPathComponent("imports/\(name)"))
            let copy = try Data(contentsOf: exports.appendingPathComponent("messy-\(name)"))
            #expect(copy == sample, "Examples/.../Exports/messy-\(name) differs from imports/\(name): copy it again")
        }
    }
}
