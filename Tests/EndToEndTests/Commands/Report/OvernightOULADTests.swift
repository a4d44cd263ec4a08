import Foundation
import Testing

/// Issue 28, item 3, on real course data: three nights of two OULAD courses
/// (Tests/Fixtures/OULAD), their exports and what changed between them made by
/// `oulad_nights.py` from the real submission dates, on its own (not from our output). Each
/// morning's grid must count, per course, exactly what the script counted: assignments the LMS
/// published (new), the students who withdrew (deleted), submissions (completed) and the dues
/// that passed (now overdue), with the window moving from one night to the next.
@Suite struct OvernightOULADTests {
    static let fixture = DashboardBinary.packageRoot.appendingPathComponent("Tests/Fixtures/OULAD")
    static let nights = ["2013-12-08", "2013-12-09", "2013-12-10"]

    @Test func eachMorningCountsWhatTheIndependentComputationCountsPerCourse() throws {
        let sandbox = try Sandbox()
        let script = Self.fixture.appendingPathComponent("oulad_nights.py").path
        let made = try PythonTools.run([script, Self.fixture.path, sandbox.path("exports")] + Self.nights, in: sandbox)
        guard made.exitCode == 0 else { throw HarnessError("oulad_nights.py failed:\n\(made)") }
        let expected = try JSON.object(made.stdout)
        let changes = try #require(expected["changes"] as? [[String: [String: Int]]])
        #expect(expected["rows"] as? [Int] == [2749, 3032, 3032], "the fixture or the script changed: \(made.stdout)")
        #expect(changes.count == 2)
        // Every kind the script can count is counted somewhere, so a kind we never count fails.
        for kind in ["new", "now_overdue", "completed", "deleted"] {
            #expect(changes[0].values.contains { ($0[kind] ?? 0) > 0 }, "night 2 has no \(kind): the data no longer checks it")
        }

        for (index, night) in Self.nights.enumerated() {
            for name in ["courses.csv", "tasks.csv"] {
                _ = try sandbox.write("drop/" + name, bytes: try sandbox.read("exports/night\(index + 1)/" + name))
            }
            let result = try sandbox.run([
                "--db", "db.sqlite", "--as-of", night + "T02:00:00Z", "nightly", "--imports", "drop", "--reports", "reports",
                "--mode", "sync",
            ])
            #expect(result.exitCode == 0, "\(result)")

            let morning = try sandbox.run(["--db", "db.sqlite", "--as-of", night + "T07:30:00Z", "report", "grid", "--format", "json"])
            #expect(morning.exitCode == 0, "\(morning)")
            let grid = try JSON.object(morning.stdout)
            let window = try #require(grid["changes"] as? [String: Any])
            var observed: [String: [String: Int]] = [:]
            for card in JSON.objects(grid["courses"]) {
                observed[card["course_id"] as? String ?? ""] = card["changes"] as? [String: Int]
            }
            guard index > 0 else {
                #expect(window["state"] as? String == "first_import")
                #expect(observed.values.allSatisfy { $0.isEmpty }, "a first import has nothing to compare with: \(observed)")
                continue
            }
            let want = changes[index - 1]
            #expect(window["state"] as? String == "changes")
            #expect(window["since"] as? String == Self.nights[index - 1] + "T02:00:00Z")
            #expect(observed == want, "night \(night): ours \(observed), the script's \(want)")
            var total: [String: Int] = [:]
            for counts in want.values { total.merge(counts, uniquingKeysWith: +) }
            #expect(window["totals"] as? [String: Int] == total)
        }
    }
}
