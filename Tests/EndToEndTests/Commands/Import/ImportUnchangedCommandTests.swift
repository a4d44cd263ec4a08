import Foundation
import Testing

/// `dashboard import` of the same files twice: the second run says it relied on the first and
/// compared nothing; a hand edit in the sqlite3 shell in between makes it compare, and the
/// files win (SPEC §5: changes are computed against the database).
@Suite struct ImportUnchangedCommandTests {
    static let asOf = "2026-11-29T08:00:00Z"

    @Test func theSameFilesAgainSayTheyWereNotComparedAndAHandEditInTheShellIsUndone() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let first = try sandbox.run(["--db", "db.sqlite", "--as-of", Self.asOf, "import", "courses.csv", "tasks.csv"])
        #expect(first.exitCode == 0, "\(first)")
        let again = try sandbox.run(["--db", "db.sqlite", "--as-of", Self.asOf, "import", "courses.csv", "tasks.csv"])
        #expect(again.exitCode == 0, "\(again)")
        #expect(again.stderr.hasSuffix("; the same files as batch 1 into unchanged data: not compared again\n"), "\(again)")
        let json = try sandbox.run(["--db", "db.sqlite", "--as-of", Self.asOf, "import", "courses.csv", "tasks.csv", "--format", "json"])
        #expect(try JSON.object(json.stdout)["unchanged_since"] as? Int == 2)

        // The sqlite3 shell, as an administrator fixing a title by hand.
        let (task, title) = try Self.firstTask(sandbox)
        let edit = try sandbox.sqlShell("db.sqlite", "UPDATE tasks SET title = 'Edited by hand' WHERE task_id = '\(task)'")
        #expect(edit.exitCode == 0, "\(edit)")
        let undone = try sandbox.run(["--db", "db.sqlite", "--as-of", Self.asOf, "import", "courses.csv", "tasks.csv", "--format", "json"])
        #expect(undone.exitCode == 0, "\(undone)")
        let result = try JSON.object(undone.stdout)
        #expect(result["unchanged_since"] is NSNull)
        #expect(result["updated"] as? Int == 1)
        #expect(try Self.firstTask(sandbox) == (task, title))
    }

    static func firstTask(_ sandbox: Sandbox) throws -> (String, String) {
        let rows = try sandbox.sqlShell("db.sqlite", "SELECT task_id, title FROM tasks ORDER BY task_id LIMIT 1").stdout
        let parts = rows.trimmingCharacters(in: .newlines).split(separator: "|", maxSplits: 1).map(String.init)
        return (parts.first ?? "", parts.count > 1 ? parts[1] : "")
    }
}
