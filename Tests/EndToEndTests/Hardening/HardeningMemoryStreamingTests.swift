import DashboardCore
import Foundation
import Testing

/// Issue 11, class 9: problems past the in-memory limit of `ProblemSpool` are spooled, and
/// every output that lists them (`--format json`, `--rejects`, the batch record, `batches
/// show`) still carries each one, in file order.
@Suite struct HardeningMemoryStreamingTests {
    /// More rejected rows than the spool keeps in memory.
    static let rejected = ProblemSpool.defaultMemoryLimit + 250

    /// A tasks file whose every row names an unknown course, with an unknown column (one
    /// warning, on line 1).
    static func allRejected() -> String {
        var text = "task_id,course_id,title,extra\n"
        for i in 1...rejected { text += "r\(i),nope,Title \(i),x\n" }
        return text
    }

    static var expectedLines: [Int] { Array(2...(rejected + 1)) }

    @Test func checkListsEveryRejectInJSONAndInTheRejectsFile() throws {
        let sandbox = try Sandbox()
        try sandbox.write("tasks.csv", Self.allRejected())
        let result = try sandbox.run(["--db", "db.sqlite", "check", "--format", "json", "--rejects", "rejects.csv", "tasks.csv"])
        #expect(result.exitCode == 65)
        let json = try JSON.object(result.stdout)
        let rejects = JSON.objects(json["rejects"])
        #expect(rejects.compactMap { $0["line"] as? Int } == Self.expectedLines)
        #expect(Set(rejects.compactMap { $0["code"] as? String }) == ["unknown_course"])
        #expect(JSON.objects(json["warnings"]).compactMap { $0["code"] as? String } == ["unknown_column"])
        let csv = String(decoding: try sandbox.read("rejects.csv"), as: UTF8.self).split(separator: "\r\n")
        #expect(csv.count == Self.rejected + 1)
        #expect(csv.dropFirst().map { Int($0.split(separator: ",")[1]) ?? 0 } == Self.expectedLines)
        #expect(!sandbox.exists("db.sqlite"))
        // The text summary reads only the first 20 from the spool, and counts the rest.
        let text = try sandbox.run(["--db", "db.sqlite", "check", "tasks.csv"])
        #expect(text.stderr.split(separator: "\n").filter { $0.hasPrefix("tasks.csv:") }.count == 20)
        #expect(text.stderr.contains("\n… and \(Self.rejected + 1 - 20) more problems (all of them: --format json or --rejects FILE)\n"))
    }

    @Test func theBatchRecordAndBatchesShowCarryEveryProblem() throws {
        let sandbox = try Sandbox()
        try sandbox.write("tasks.csv", Self.allRejected())
        let imported = try sandbox.run(["--db", "db.sqlite", "import", "--format", "json", "tasks.csv"])
        #expect(imported.exitCode == 65)
        #expect(JSON.objects(try JSON.object(imported.stdout)["rejects"]).count == Self.rejected)
        let db = sandbox.path("db.sqlite")
        #expect(try DatabaseSnapshot.int(db, "SELECT count(*) FROM batch_problems WHERE batch_id = 1") == Self.rejected + 1)
        #expect(
            try DatabaseSnapshot.lines(db, "SELECT line FROM batch_problems WHERE batch_id = 1 ORDER BY seq")
                == ([1] + Self.expectedLines).map { "\($0)\n" }.joined())

        let shown = try sandbox.run(["--db", "db.sqlite", "batches", "show", "1", "--format", "json"])
        #expect(shown.exitCode == 0)
        let json = try JSON.object(shown.stdout)
        #expect(JSON.objects(json["rejects"]).compactMap { $0["line"] as? Int } == Self.expectedLines)
        #expect(JSON.objects(json["warnings"]).count == 1)

        let text = try sandbox.run(["--db", "db.sqlite", "batches", "show", "1"])
        #expect(text.exitCode == 0)
        #expect(text.stdout.components(separatedBy: "[unknown_course]").count - 1 == Self.rejected)
        #expect(
            text.stdout.hasSuffix(
                "tasks.csv:\(Self.rejected + 1): error: course_id: course \"nope\" is not in the database or in this import [unknown_course]\n    hint: import the course first (or in the same run), or correct the course_id\n"
            ))
    }

    @Test func streamedJSONIsByteForByteTheRenderedValue() throws {
        let sandbox = try Sandbox()
        try sandbox.write("tasks.csv", Self.allRejected())
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "tasks.csv"]).exitCode == 65)
        // The same document built whole from the database, the way it was before streaming.
        let store = try StoreUnderTest.store(sandbox.path("db.sqlite"))
        guard let batch = try store.batch(id: 1), case .object(let pairs) = batch.json else {
            Issue.record("batch 1 is missing")
            return
        }
        let problems = try store.problems(batchID: 1)
        let whole = JSONValue.object(
            [("schema", .int(1))] + pairs + [
                ("rejects", .array(problems.filter { $0.severity == .error }.map(\.json))),
                ("warnings", .array(problems.filter { $0.severity == .warning }.map(\.json))),
            ])
        let shown = try sandbox.run(["--db", "db.sqlite", "batches", "show", "1", "--format", "json"])
        #expect(shown.stdout == whole.rendered() + "\n")

        let audit = try sandbox.run(["--db", "db.sqlite", "audit", "--format", "json"])
        let entries = try store.auditEntries()
        #expect(audit.stdout == JSONValue.object([("schema", .int(1)), ("entries", .array(entries.map(\.json)))]).rendered() + "\n")
    }
}
