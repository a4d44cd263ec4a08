import Foundation
import Testing

/// The zsh and fish scripts, loaded in their shells when those are installed (the Makefile does
/// not install them; the bash script is tested everywhere by `ShellCompletionTests`).
@Suite(.storeIndependent) struct ShellCompletionZshFishTests {
    static func installed(_ name: String) -> Bool {
        ["/usr/bin", "/bin", "/usr/local/bin"].contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }

    /// zsh with `compadd` and `_files` replaced by functions that print what they are given.
    @Test(.enabled(if: installed("zsh"))) func zshCompletesLikeBash() throws {
        let sandbox = try Sandbox()
        try sandbox.write("_dashboard", try sandbox.run(["completions", "zsh"]).stdout)
        let program = """
            compdef() { :; }
            compadd() { [[ $1 == -- ]] && shift; local w; for w in "$@"; do [[ $w == ${PREFIX}* ]] && print -r -- $w; done; }
            _files() { print -r -- "<files $*>"; }
            source ./_dashboard
            words=("$@"); CURRENT=$#; PREFIX=${words[CURRENT]}
            _dashboard
            """
        func complete(_ words: [String]) throws -> [String] {
            let result = try sandbox.runTool("zsh", ["-c", program, "zsh"] + words)
            #expect(result.stderr == "", "\(words): \(result)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["dashboard", "rep"]) == ["report"])
        #expect(try complete(["dashboard", "report", "--for"]) == ["--format"])
        #expect(try complete(["dashboard", "report", "--format", ""]) == ["text", "markdown", "html", "json", "csv"])
        #expect(try complete(["dashboard", "batches", "approve", "7", "--l"]) == [])
        #expect(try complete(["dashboard", "import", ""]) == ["<files >"])
        #expect(try complete(["dashboard", "report", "grid", "--out", ""]) == ["<files -/>"])
    }

    @Test(.enabled(if: installed("fish"))) func fishCompletesLikeBash() throws {
        let sandbox = try Sandbox()
        try sandbox.write("dashboard.fish", try sandbox.run(["completions", "fish"]).stdout)
        func complete(_ line: String) throws -> [String] {
            let result = try sandbox.runTool("fish", ["--no-config", "-c", "source dashboard.fish; complete -C $argv[1]", line])
            #expect(result.exitCode == 0 && result.stderr == "", "\(line): \(result)")
            return result.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        }
        #expect(try complete("dashboard rep") == ["report"])
        #expect(try complete("dashboard report --for") == ["--format"])
        #expect(try complete("dashboard report --format ") == ["csv", "html", "json", "markdown", "text"])
        #expect(try complete("dashboard batches approve 7 --f") == ["--force", "--format"])
        #expect(try complete("dashboard batches approve 7 --l") == [])
        #expect(try complete("dashboard batches ") == ["approve", "discard", "list", "show"])
    }
}
