import DashboardCore

/// `dashboard help [COMMAND [VERB]]` and `dashboard help --man`
enum HelpCommand: InfoCommand {
    static let spec = CommandSpec(
        name: "help",
        usage: "dashboard help [COMMAND [VERB]] | dashboard help --man",
        abstract: "Show a command's or a verb's help (as `COMMAND --help` does), or the man page.",
        discussion: """
            Without COMMAND: the list of commands and the global options. An unknown COMMAND
            shows that list too. --man prints the manual page as roff (what `make install`
            installs as dashboard.1; read it with `man -l dashboard.1`).
            """,
        examples: ["dashboard help report", "dashboard help batches approve", "dashboard help --man > dashboard.1"],
        options: [.flag("man", "print the manual page (roff) instead of help text")],
        arguments: .commands)

    static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
        if arguments.has("man") {
            console.out(ManPage.render())
            return .success
        }
        let words = arguments.positionals
        guard let topic = words.first, let command = Dashboard.commands.first(where: { $0.spec.name == topic }) else {
            console.out(Dashboard.overview)
            return .success
        }
        let verb = words.count > 1 ? command.spec.verb(words[1]) : nil
        console.out((verb ?? command.spec).help())
        return .success
    }
}

/// `dashboard completions bash|zsh|fish`
enum CompletionsCommand: InfoCommand {
    static let shells = ["bash", "zsh", "fish"]
    static let shellKind = OptionValueKind.choice(shells)

    static let spec = CommandSpec(
        name: "completions",
        usage: "dashboard completions bash|zsh|fish",
        abstract: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            The script completes commands, verbs, options and the values of options that have a
            fixed set (--format, --bucket, --mode, …). `make install` installs all three; to try
            one in the running shell: `source <(dashboard completions bash)`.
            """,
        examples: [
            "dashboard completions zsh > ~/.zfunc/_dashboard",
            "source <(dashboard completions bash)",
            "dashboard completions fish > ~/.config/fish/completions/dashboard.fish",
        ],
        options: [],
        arguments: .words(shells))

    static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
        let given = arguments.positionals
        guard let first = given.first else {
            throw CommandError.usage("missing SHELL: bash, zsh or fish", command: spec.name)
        }
        guard given.count == 1 else { throw CommandError.usage("unexpected argument \"\(given[1])\"", command: spec.name) }
        guard case .text(let shell) = try shellKind.parse(first, label: "SHELL", command: spec.name) else { return .usage }
        let model = CompletionModel(commands: Dashboard.commands.map(\.spec))
        switch shell {
        case "zsh": console.out(ZshCompletion.script(model))
        case "fish": console.out(FishCompletion.script(model))
        default: console.out(BashCompletion.script(model))
        }
        return .success
    }
}
