import Foundation
import Testing

/// Bulk `reclassify` and `revert --group` refused: usage errors (64), unknown groups and too
/// large selections (65), each naming the problem and changing nothing.
@Suite struct BulkReclassifyRefusalTests {
    @Test func aSelectionOverTheLimitIsRefusedWithAHintAndChangesNothing() throws {
        let sandbox = try Sandbox()
        _ = try sandbox.write("courses.csv", BulkReclassifyCommandTests.courses)
        _ = try sandbox.write("tasks.csv", "task_id,course_id,title,due\n" + (0...10_000).map { "t\($0),math,Sheet,2026-11-20\n" }.joined())
        #expect(try sandbox.dashboard(["import", "courses.csv", "tasks.csv"]).exitCode == 0)
        let before = try BulkReclassifyCommandTests.state(sandbox)
        let result = try sandbox.dashboard(["reclassify", "--course", "math", "--to", "upcoming", "--reason", "x", "--yes"])
        #expect(
            result
                == CommandResult(
                    exitCode: 65, stdout: "",
                    stderr: """
                        dashboard: error: the selection holds 10001 tasks; one bulk change pins at most 10000
                        dashboard: hint: narrow the selection (--course, --bucket, ...) and run it in parts

                        """))
        #expect(try BulkReclassifyCommandTests.state(sandbox) == before)
    }

    @Test(arguments: [
        (
            ["reclassify", "m1", "--course", "math", "--to", "upcoming", "--reason", "x"], 64,
            "give either a TASK or selection options (--course, --bucket, ...), not both"
        ),
        (
            ["reclassify", "--to", "upcoming", "--reason", "x"], 64,
            "missing TASK (a task_id) or selection options (--course, --bucket, ...)"
        ),
        (
            ["reclassify", "m1", "--to", "upcoming", "--reason", "x", "--yes"], 64,
            "--yes goes with selection options (--course, --bucket, ...), not with one TASK"
        ),
        (
            ["reclassify", "--course", "math", "--to", "upcoming", "--reason", "x", "--confirm", "abc"], 64,
            "--confirm TOKEN goes with --yes (without --yes nothing is written anyway)"
        ),
        (["reclassify", "--course", "math", "--reason", "x", "--yes"], 64, "missing --to BUCKET"),
        (["reclassify", "--course", "math", "--to", "upcoming"], 64, "missing --reason TEXT: say why the tasks are reclassified"),
        (
            ["reclassify", "--course", "math", "--to", "upcoming", "--reason", " ", "--yes"], 64,
            "--reason must say why the task is reclassified"
        ),
        (
            ["reclassify", "--course", "math", "--to", "upcoming", "--reason", "x", "--until", "2026-11-28", "--yes"], 64,
            "--until 2026-11-28 is not after the as-of time 2026-11-29T08:00:00Z"
        ),
        (["reclassify", "--course", "math", "--to", "upcoming", "--reason", "x", "--until", "later"], 64, "cannot read --until \"later\""),
        (["revert", "5", "--group", "1"], 64, "give one of ENTRY, --batch ID or --group G"),
        (["revert", "--group", "9"], 65, "there is no group 9"),
    ])
    func refusalsNameTheProblemAndChangeNothing(arguments: [String], code: Int32, message: String) throws {
        let sandbox = try BulkReclassifyCommandTests.imported()
        let before = try BulkReclassifyCommandTests.state(sandbox)
        let result = try sandbox.dashboard(arguments)
        let hint =
            code == 65
            ? "`dashboard audit --cause override` shows the groups (column GROUP)" : "see `dashboard \(arguments[0]) --help`"
        #expect(result == CommandResult(exitCode: code, stdout: "", stderr: "dashboard: error: \(message)\ndashboard: hint: \(hint)\n"))
        #expect(try BulkReclassifyCommandTests.state(sandbox) == before)
    }
}
