import DashboardCore

/// What the completion scripts know, read from the declarations: the commands, each
/// command's (and verb's) options, and what each option's value and each argument completes to.
struct CompletionModel {
    /// One place on the command line: `report`, `report grid`, `batches approve`.
    struct Context {
        let words: String
        let options: [OptionSpec]
        let arguments: ValueCompletion
    }

    let commands: [CommandSpec]
    let globals = GlobalOptions.specs
    /// Every command, then each of its verbs.
    let contexts: [Context]

    init(commands: [CommandSpec]) {
        self.commands = commands
        var contexts: [Context] = []
        for command in commands {
            let arguments = command.verbs.isEmpty ? command.arguments : .words(command.verbs.map(\.name))
            contexts.append(Context(words: command.name, options: command.options, arguments: arguments))
            for verb in command.verbs {
                contexts.append(Context(words: verb.path, options: verb.options, arguments: .none))
            }
        }
        self.contexts = contexts
    }

    var commandNames: [String] { commands.map(\.name) }

    /// Every option name that takes a value somewhere (skipped with its value when the script
    /// looks for the command and the verb).
    var valueOptions: [String] {
        var names: [String] = []
        for option in globals + contexts.flatMap(\.options) where option.value != nil && !names.contains(option.name) {
            names.append(option.name)
        }
        return names
    }

    /// The commands that have verbs, with them.
    var verbs: [(command: String, verbs: [String])] {
        commands.filter { !$0.verbs.isEmpty }.map { ($0.name, $0.verbs.map(\.name)) }
    }

    /// The words of a completion (`.commands` resolved).
    func words(_ completion: ValueCompletion) -> [String]? {
        switch completion {
        case .words(let words): return words
        case .commands: return commandNames
        default: return nil
        }
    }

    /// The help text as one line of a shell's description, with no quote of the shell's.
    static func summary(_ text: String) -> String {
        text.replacingOccurrences(of: "'", with: "").replacingOccurrences(of: "\"", with: "")
            .replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "$", with: "")
            .replacingOccurrences(of: "\\", with: "")
    }
}
