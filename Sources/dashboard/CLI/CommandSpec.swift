import DashboardCore

/// A command's (or a verb's) declaration: its words, its options and its verbs. Parsing, the
/// help screens, the man page and the shell completions are generated from it.
///
/// Policy: a command with verbs (`batches list`, `report grid`) lets each verb own its
/// options; the command's own option list is then the union of its verbs', each option's
/// help saying which verbs take it when not all do (`approve/discard: …`). An option of a
/// sibling verb is refused (64) by name.
struct CommandSpec: Sendable {
    let name: String
    let usage: String
    let abstract: String
    let discussion: String
    let examples: [String]
    let options: [OptionSpec]
    /// The verbs, in the order help lists them; empty for a command without verbs.
    let verbs: [CommandSpec]
    /// What a shell completes for the arguments (files for `import`, nothing for `status`).
    let arguments: ValueCompletion
    /// The full name, `batches approve` for a verb.
    let path: String

    init(
        name: String, usage: String, abstract: String, discussion: String, examples: [String], options: [OptionSpec],
        arguments: ValueCompletion = .none
    ) {
        self.name = name
        self.usage = usage
        self.abstract = abstract
        self.discussion = discussion
        self.examples = examples
        self.options = options
        self.verbs = []
        self.arguments = arguments
        self.path = name
    }

    /// A command made of verbs: its options are the union of theirs; each verb's examples are
    /// the command's that start with it.
    init(name: String, usage: String, abstract: String, discussion: String, examples: [String], verbs: [Verb]) {
        self.name = name
        self.usage = usage
        self.abstract = abstract
        self.discussion = discussion
        self.examples = examples
        self.arguments = .none
        self.path = name
        self.verbs = verbs.map { verb in
            let prefix = "dashboard \(name) \(verb.name)"
            return CommandSpec(
                verb: verb, path: "\(name) \(verb.name)", usage: "\(prefix)\(verb.arguments.map { " " + $0 } ?? "") [options]",
                examples: examples.filter { $0 == prefix || $0.hasPrefix(prefix + " ") })
        }
        var union: [OptionSpec] = []
        for verb in verbs {
            for option in verb.options where !union.contains(where: { $0.name == option.name }) {
                let takers = verbs.filter { $0.options.contains { $0.name == option.name } }
                let specs = takers.compactMap { taker in taker.options.first { $0.name == option.name } }
                if specs.contains(where: { $0 != option }) {
                    // Verbs that give the option different meanings (`list --limit`, `show
                    // --limit`): each verb's help and range, in turn.
                    let help = zip(takers, specs).map { "\($0.name): \($1.helpWithRange)" }.joined(separator: "; ")
                    union.append(option.value.map { OptionSpec.value(option.name, $0, help) } ?? OptionSpec.flag(option.name, help))
                    continue
                }
                let names = takers.map(\.name)
                union.append(names.count == verbs.count ? option : option.helped("\(names.joined(separator: "/")): \(option.help)"))
            }
        }
        self.options = union
    }

    private init(verb: Verb, path: String, usage: String, examples: [String]) {
        self.name = verb.name
        self.usage = usage
        self.abstract = verb.abstract
        self.discussion = ""
        self.examples = examples
        self.options = verb.options
        self.verbs = []
        self.arguments = .none
        self.path = path
    }

    /// A verb of a command: `approve ID` and its options.
    struct Verb: Sendable {
        let name: String
        /// The placeholder of its argument (`ID`); nil when it takes none.
        let arguments: String?
        let abstract: String
        let options: [OptionSpec]
    }

    /// The verb named `word`, if this command has it.
    func verb(_ word: String) -> CommandSpec? { verbs.first { $0.name == word } }

    /// The `--help` text, generated from the same declarations that drive parsing.
    func help() -> String {
        var text = "\(abstract)\n\nUsage: \(usage)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        if !verbs.isEmpty {
            let width = (verbs.map(\.name.count).max() ?? 0) + 4
            text += "\nVerbs (`dashboard help \(name) VERB` for each one's options):\n"
            text += verbs.map { "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.abstract + "\n" }.joined()
        }
        if !options.isEmpty {
            text += "\nOptions:\n" + OptionSpec.table(options)
        }
        text += "\nGlobal options (before or after the command):\n" + OptionSpec.table(GlobalOptions.specs)
        if !examples.isEmpty {
            text += "\nExamples:\n" + examples.map { "  \($0)\n" }.joined()
        }
        return text
    }
}
