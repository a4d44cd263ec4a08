import Foundation
import Testing

/// `dashboard completions bash|zsh|fish`: the bash script, loaded in bash, completes commands,
/// verbs, the options of the command or verb at hand and the values of an option with choices.
@Suite(.storeIndependent) struct ShellCompletionTests {
    /// What the bash script offers for `words` (the last one is the word being completed).
    static func complete(_ sandbox: Sandbox, _ words: [String]) throws -> [String] {
        let script = try sandbox.run(["completions", "bash"])
        #expect(script.exitCode == 0 && script.stderr == "", "\(script)")
        try sandbox.write("dashboard.bash", script.stdout)
        let program = """
            source ./dashboard.bash
            COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
            _dashboard
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try sandbox.runTool("bash", ["-c", program, "bash"] + words)
        #expect(result.exitCode == 0 && result.stderr == "", "\(words): \(result)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesCommandsOptionsAndValues() throws {
        let sandbox = try Sandbox()
        #expect(try Self.complete(sandbox, ["dashboard", "rep"]) == ["report"])
        #expect(try Self.complete(sandbox, ["dashboard", "re"]) == ["reclassify", "revert", "report"])
        #expect(try Self.complete(sandbox, ["dashboard", "report", "--for"]) == ["--format"])
        #expect(try Self.complete(sandbox, ["dashboard", "report", "--format", ""]) == ["text", "markdown", "html", "json", "csv", "md"])
        #expect(try Self.complete(sandbox, ["dashboard", "report", "list", "--bucket", "u"]) == ["upcoming", "undated"])
        #expect(try Self.complete(sandbox, ["dashboard", "--db", "x.sqlite", "bat"]) == ["batches"])
        #expect(try Self.complete(sandbox, ["dashboard", "batches", ""]) == ["list", "show", "approve", "discard"])
        #expect(try Self.complete(sandbox, ["dashboard", "batches", "approve", "7", "--f"]) == ["--format", "--force"])
        // --limit belongs to `batches list`, not to `approve`.
        #expect(try Self.complete(sandbox, ["dashboard", "batches", "approve", "7", "--l"]) == [])
        #expect(try Self.complete(sandbox, ["dashboard", "batches", "list", "--l"]) == ["--limit"])
        #expect(try Self.complete(sandbox, ["dashboard", "--q"]) == ["--quiet"])
        #expect(try Self.complete(sandbox, ["dashboard", "completions", ""]) == ["bash", "zsh", "fish"])
        #expect(try Self.complete(sandbox, ["dashboard", "status", "--format", "j"]) == ["json"])
        // A value with no fixed set offers nothing, not the options.
        #expect(try Self.complete(sandbox, ["dashboard", "report", "--limit", ""]) == [])
    }

    @Test func everyShellHasAScriptAndAnUnknownShellIsAUsageError() throws {
        let sandbox = try Sandbox()
        let zsh = try sandbox.run(["completions", "zsh"])
        #expect(zsh.exitCode == 0 && zsh.stdout.hasPrefix("#compdef dashboard\n"), "\(zsh)")
        #expect(zsh.stdout.contains("(\"report|--format\") compadd -- text markdown html json csv md; return 0 ;;"))
        let fish = try sandbox.run(["completions", "fish"])
        #expect(fish.exitCode == 0, "\(fish)")
        #expect(fish.stdout.contains("complete -c dashboard -n __fish_use_subcommand -a report -d "))
        #expect(fish.stdout.contains("-l format -xa 'text markdown html json csv md'"))
        let usage = "dashboard: hint: see `dashboard completions --help`\n"
        #expect(
            try sandbox.run(["completions", "tcsh"])
                == CommandResult(
                    exitCode: 64, stdout: "", stderr: "dashboard: error: SHELL must be one of bash, zsh, fish, not \"tcsh\"\n" + usage))
        #expect(
            try sandbox.run(["completions"])
                == CommandResult(exitCode: 64, stdout: "", stderr: "dashboard: error: missing SHELL: bash, zsh or fish\n" + usage))
    }
}
