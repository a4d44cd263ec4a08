import Foundation
import Testing

/// Each verb of `batches` and `report` owns its options: an option of a sibling verb is a
/// usage error (64) naming the option and the verb, before anything is opened; the options
/// of the verb keep working wherever they stand on the line.
@Suite struct VerbOptionsTests {
    static func refusal(_ option: String, _ verb: String) -> String {
        "dashboard: error: --\(option) is not an option of `dashboard \(verb)`\ndashboard: hint: see `dashboard \(verb) --help`\n"
    }

    @Test(arguments: [
        (["batches", "approve", "7", "--limit", "3"], "limit", "batches approve"),
        (["batches", "--limit", "3", "approve", "7"], "limit", "batches approve"),
        (["batches", "discard", "7", "--force"], "force", "batches discard"),
        (["batches", "list", "--actor", "alice"], "actor", "batches list"),
        (["batches", "show", "7", "--wait=5"], "wait", "batches show"),
        (["--db", "x.sqlite", "batches", "list", "--force"], "force", "batches list"),
    ])
    func anOptionOfAnotherVerbIsAUsageError(arguments: [String], option: String, verb: String) throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(arguments)
        #expect(result == CommandResult(exitCode: 64, stdout: "", stderr: Self.refusal(option, verb)))
        let left = try sandbox.listing()
        #expect(left.isEmpty, "a refused command created \(left)")
    }

    @Test func anOptionNoVerbHasIsStillUnknownToTheCommand() throws {
        let result = try Sandbox().run(["batches", "approve", "7", "--bogus"])
        #expect(
            result
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr:
                        "dashboard: error: unknown option --bogus for `dashboard batches`\ndashboard: hint: see `dashboard batches --help`\n"
                ))
    }

    @Test func theVerbsOwnOptionsAreAcceptedBeforeOrAfterIt() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["import", "courses.csv", "tasks.csv"]).exitCode == 0)
        let list = try sandbox.run(["batches", "list", "--limit", "1", "--format", "json"])
        #expect(list.exitCode == 0, "\(list)")
        #expect(try sandbox.run(["batches", "--format", "json", "--limit", "1", "list"]) == list)
        let missing = try sandbox.run(["batches", "approve", "99", "--force", "--actor", "alice", "--wait", "0"])
        #expect(missing.exitCode == 65, "\(missing)")
        #expect(missing.stderr.hasPrefix("dashboard: error: "), "\(missing)")
    }

    @Test func aChoiceIsCheckedByTheParserWithTheSameWords() throws {
        let sandbox = try Sandbox()
        let cases: [([String], String)] = [
            (
                ["report", "list", "--bucket", "late"],
                "--bucket must be one of overdue, today, upcoming, undated, completed, to_grade, excused, not \"late\""
            ),
            (["report", "grid", "--sort", "size"], "--sort must be due, priority, title or student, not \"size\""),
            (["report", "list", "--priority", "urgent"], "--priority must be low, normal or high, not \"urgent\""),
            (["import", "--mode", "mirror", "x.csv"], "--mode must be merge or sync, not \"mirror\""),
            (["status", "--format", "xml"], "--format must be one of text, json, prometheus, not \"xml\""),
        ]
        for (arguments, message) in cases {
            let result = try sandbox.run(arguments)
            #expect(result.exitCode == 64, "\(arguments): \(result)")
            #expect(result.stderr.hasPrefix("dashboard: error: \(message)\n"), "\(arguments): \(result)")
        }
        #expect(try sandbox.run(["report", "list", "--priority", "HIGH", "--format", "json"]).exitCode == 0)
    }
}
