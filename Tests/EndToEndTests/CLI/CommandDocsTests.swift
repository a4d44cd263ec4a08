import Foundation
import Testing

/// The documentation and the declarations agree: README's command table lists exactly the
/// declared commands and verbs; every `--option` README.md and docs/*.md mention is declared
/// (save a few of other programs, named below), every declared option is documented, and every
/// `dashboard …` line they show uses only options its command or verb declares.
@Suite(.storeIndependent) struct CommandDocsTests {
    /// What the help screens declare: the commands, each one's verbs, the options of each
    /// command and verb ("report", "batches approve"), and the global options.
    struct Declarations {
        var commands: [String] = []
        var verbs: [String: [String]] = [:]
        var options: [String: Set<String>] = [:]
        var globals: Set<String> = []
        var globalsWithValue: Set<String> = []

        var allOptions: Set<String> { options.values.reduce(globals) { $0.union($1) } }
    }

    /// Options the docs mention that belong to other programs.
    static let foreignOptions: [String: String] = [
        "--now": "systemctl enable --now", "--csv": "sqlite3's .import --csv",
        "--invalid": "dashboard-datagen", "--delta-from": "dashboard-datagen",
        "--states": "oulad_to_dashboard.py --states", "--roster": "oulad_to_dashboard.py --roster",
        "--bin": "Fuzz/cli_fuzz.py --bin", "--runs": "Fuzz/cli_fuzz.py --runs", "--seed": "Fuzz/cli_fuzz.py --seed",
        "--build-tests": "swift build --build-tests", "--scratch-path": "swift build --scratch-path",
        "--system": "useradd --system", "--user-group": "useradd --user-group",
        "--file": "pg_dump --file", "--include": "grep --include",
        "--schema-only": "pg_dump --schema-only", "--dbname": "pg_restore --dbname", "--roles-only": "pg_dumpall --roles-only",
        "--host": "pg_basebackup --host", "--username": "pg_basebackup --username", "--pgdata": "pg_basebackup --pgdata",
        "--format=custom": "pg_dump --format=custom", "--package-path": "swift test --package-path",
        "--no-parallel": "swift test --no-parallel",
        "--collector": "node_exporter --collector.textfile.directory",
    ]

    static func declarations(_ sandbox: Sandbox) throws -> Declarations {
        var declared = Declarations()
        let overview = try sandbox.run(["--help"]).stdout
        declared.commands = CLIBasicsTests.listedCommands(overview)
        for line in section(overview, "Global options") {
            guard let (name, takesValue) = option(line) else { continue }
            declared.globals.insert(name)
            if takesValue { declared.globalsWithValue.insert(name) }
        }
        for command in declared.commands {
            let help = try sandbox.run([command, "--help"]).stdout
            declared.options[command] = Set(section(help, "Options:").compactMap { option($0)?.name })
            let verbs = HelpScreenGoldenTests.listedVerbs(help)
            declared.verbs[command] = verbs
            for verb in verbs {
                let verbHelp = try sandbox.run([command, verb, "--help"]).stdout
                declared.options["\(command) \(verb)"] = Set(section(verbHelp, "Options:").compactMap { option($0)?.name })
            }
        }
        return declared
    }

    static func section(_ text: String, _ title: String) -> [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(title) }) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
    }

    /// `--name` and whether it takes a value, from a line of an option table.
    static func option(_ line: Substring) -> (name: String, takesValue: Bool)? {
        guard let match = line.firstMatch(of: /^  (--[a-z][a-z-]*)( [^ ]+)?/) else { return nil }
        return (String(match.1), match.2 != nil)
    }

    /// README.md and every docs/*.md, by name.
    static func documents() throws -> [(name: String, text: String)] {
        let root = DashboardBinary.packageRoot
        let docs = root.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        return try [("README.md", String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8))]
            + names.map { ("docs/\($0)", try String(contentsOf: docs.appendingPathComponent($0), encoding: .utf8)) }
    }

    @Test func readmeCommandTableListsExactlyTheDeclaredCommandsAndVerbs() throws {
        let declared = try Self.declarations(try Sandbox())
        let readme = try Self.documents()[0].text
        let lines = readme.split(separator: "\n").drop { $0 != "## Commands" }.dropFirst().prefix { !$0.hasPrefix("## ") }
        var rows: Set<String> = []
        for line in lines where line.hasPrefix("| `") {
            guard let cell = line.dropFirst(3).split(separator: "`").first else { continue }
            let words = cell.split(separator: " ").prefix { $0.wholeMatch(of: /[a-z][a-z-]*/) != nil }.map(String.init)
            guard let command = words.first else { continue }
            #expect(declared.commands.contains(command), "README lists `\(command)`, which is not a command")
            if words.count > 1 {
                #expect(declared.verbs[command]?.contains(words[1]) == true, "README lists `\(words.joined(separator: " "))`, not a verb")
                rows.insert(words.prefix(2).joined(separator: " "))
            } else {
                rows.insert(command)
            }
        }
        for command in declared.commands {
            let verbs = declared.verbs[command] ?? []
            if verbs.isEmpty {
                #expect(rows.contains(command), "README's command table lacks `\(command)`")
            }
            for verb in verbs { #expect(rows.contains("\(command) \(verb)"), "README's command table lacks `\(command) \(verb)`") }
        }
    }

    @Test func everyDocumentedOptionIsDeclaredAndEveryDeclaredOneDocumented() throws {
        let declared = try Self.declarations(try Sandbox())
        let documents = try Self.documents()
        var mentioned: Set<String> = []
        for (name, text) in documents {
            for match in text.matches(of: /(?:^|[^A-Za-z0-9_-])(--[a-z][a-z-]*)/) {
                let option = String(match.output.1)
                mentioned.insert(option)
                #expect(
                    declared.allOptions.contains(option) || Self.foreignOptions[option] != nil,
                    "\(name) mentions \(option), which no command declares")
            }
        }
        for option in declared.allOptions.sorted() {
            #expect(mentioned.contains(option), "\(option) is declared but README.md and docs/ never mention it")
        }
        for option in Self.foreignOptions.keys {
            #expect(!declared.allOptions.contains(option), "\(option) is declared now: take it off foreignOptions")
        }
    }

    /// Every `dashboard COMMAND [VERB] …` the docs show (in code) uses only options of that
    /// command or verb, or global ones.
    @Test func everyDocumentedCommandLineUsesOptionsItsCommandDeclares() throws {
        let declared = try Self.declarations(try Sandbox())
        var checked = 0
        for (name, text) in try Self.documents() {
            for line in Self.codeSegments(text) {
                for match in line.matches(of: /(?:^|[\s(])dashboard ([^|<>;&)#`]*)/) {
                    var tokens = match.output.1.split(separator: " ").map(String.init)[...]
                    var context: String?
                    var options: [String] = []
                    while let token = tokens.popFirst() {
                        if token.hasPrefix("--") {
                            let option = String(token.prefix { $0 != "=" })
                            if declared.globalsWithValue.contains(option), !token.contains("=") { _ = tokens.popFirst() }
                            options.append(option)
                        } else if context == nil {
                            guard declared.commands.contains(token) else { break }
                            context = token
                        } else if let command = context, !command.contains(" "), declared.verbs[command]?.contains(token) == true {
                            context = "\(command) \(token)"
                        }
                    }
                    guard let context else { continue }
                    checked += 1
                    let allowed = declared.globals.union(declared.options[context] ?? [])
                    for option in options where !allowed.contains(option) {
                        Issue.record("\(name): `dashboard \(match.output.1)` uses \(option), which `dashboard \(context)` does not declare")
                    }
                }
            }
        }
        #expect(checked >= 40, "only \(checked) command lines found in the docs")
    }

    /// The code of a Markdown text: the lines of fenced blocks and the `spans` of other lines.
    static func codeSegments(_ text: String) -> [String] {
        var segments: [String] = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                fenced.toggle()
                continue
            }
            if fenced {
                segments.append(String(line))
            } else {
                let parts = line.split(separator: "`", omittingEmptySubsequences: false)
                segments += stride(from: 1, to: parts.count, by: 2).map { String(parts[$0]) }
            }
        }
        return segments
    }
}
