import Foundation
import Testing

/// Every help screen (the overview, each command's, each verb's) and the man page, byte for
/// byte against Goldens/help/; `dashboard help COMMAND [VERB]` prints the same screen as
/// `dashboard COMMAND [VERB] --help`. `UPDATE_GOLDENS=1` rewrites them (see `GoldenFile`).
@Suite(.storeIndependent) struct HelpScreenGoldenTests {
    /// The commands the overview lists, each with the verbs its help lists.
    static func screens(_ sandbox: Sandbox) throws -> [(command: String, verbs: [String])] {
        let overview = try sandbox.run(["--help"]).stdout
        return try CLIBasicsTests.listedCommands(overview).map { command in
            (command, Self.listedVerbs(try sandbox.run([command, "--help"]).stdout))
        }
    }

    /// The verbs a command's help lists in its `Verbs` section.
    static func listedVerbs(_ help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("Verbs") }) else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test func everyHelpScreenMatchesItsGolden() throws {
        let sandbox = try Sandbox()
        var names = ["overview.txt", "dashboard.1"]
        let overview = try sandbox.run(["--help"])
        #expect(overview.exitCode == 0 && overview.stderr == "")
        GoldenFile.expectMatch(overview.stdout, golden: "help/overview.txt")
        #expect(try sandbox.run(["help"]) == overview, "`dashboard help` differs from `dashboard --help`")
        for (command, verbs) in try Self.screens(sandbox) {
            let help = try sandbox.run([command, "--help"])
            #expect(help.exitCode == 0 && help.stderr == "", "\(command): \(help)")
            GoldenFile.expectMatch(help.stdout, golden: "help/\(command).txt")
            #expect(try sandbox.run(["help", command]) == help, "`dashboard help \(command)` differs")
            names.append("\(command).txt")
            for verb in verbs {
                let verbHelp = try sandbox.run([command, verb, "--help"])
                #expect(verbHelp.exitCode == 0 && verbHelp.stderr == "", "\(command) \(verb): \(verbHelp)")
                GoldenFile.expectMatch(verbHelp.stdout, golden: "help/\(command)-\(verb).txt")
                #expect(try sandbox.run(["help", command, verb]) == verbHelp, "`dashboard help \(command) \(verb)` differs")
                #expect(try sandbox.run([command, "-h", verb]) == verbHelp, "`dashboard \(command) -h \(verb)` differs")
                names.append("\(command)-\(verb).txt")
            }
        }
        let man = try sandbox.run(["help", "--man"])
        #expect(man.exitCode == 0 && man.stderr == "")
        GoldenFile.expectMatch(man.stdout, golden: "help/dashboard.1")
        GoldenFile.pruneWhenUpdating("help", keep: names)
        #expect(GoldenFile.listing("help") == names.sorted(), "Goldens/help holds other files than the help screens")
    }

    /// The verbs `batches` and `report` have, as their help lists them.
    @Test func theVerbsAreListed() throws {
        let screens = try Self.screens(try Sandbox())
        let verbs = Dictionary(screens.map { ($0.command, $0.verbs) }) { first, _ in first }
        #expect(verbs["batches"] == ["list", "show", "approve", "discard"])
        #expect(verbs["report"] == ["grid", "list"])
        #expect(verbs["access"] == ["grant-teacher", "revoke", "list"])
        #expect(screens.filter { !$0.verbs.isEmpty }.map(\.command) == ["report", "batches", "settings", "access"])
    }

    @Test func helpIgnoresTheSettingsOfTheEnvironment() throws {
        let sandbox = try Sandbox()
        let help = try sandbox.run(["help", "report"])
        let broken = ["DASHBOARD_TZ": "Mars/Olympus", "DASHBOARD_AS_OF": "someday"]
        #expect(try sandbox.run(["help", "report"], environment: broken) == help)
        #expect(try sandbox.run(["completions", "bash"], environment: broken).exitCode == 0)
    }
}
