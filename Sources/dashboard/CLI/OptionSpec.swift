import DashboardCore

/// One option: the single declaration that drives parsing, validation, `--help`, the man page
/// and the shell completions.
///
/// Policy: an option is declared once, with its name, its value's placeholder (nil for a
/// flag), its help text and what its value must be (`kind`); everything the user sees about it
/// is generated from here. A placeholder that lists choices (`text|json`) makes the value a
/// choice among them unless `kind` says otherwise.
struct OptionSpec: Sendable, Equatable {
    let name: String
    /// The value's placeholder (`PATH`, `N`); nil for a flag.
    let value: String?
    let help: String
    var repeatable = false
    /// What the value must be; the parser checks it and `--help` shows its range.
    var kind = OptionValueKind.text
    /// Words a shell offers for the value beyond those of a choice (`--encoding`'s names).
    var suggestions: [String] = []
    /// The value used when the option is not given, when it is a fixed one (`--imports`'s
    /// `imports`); help shows it. Defaults that depend on something (the terminal, the
    /// environment) are said in the help text instead.
    var defaultValue: String?

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: nil, help: help)
    }

    static func value(
        _ name: String, _ placeholder: String, _ help: String, repeatable: Bool = false, kind: OptionValueKind = .text,
        suggestions: [String] = [], default defaultValue: String? = nil
    ) -> OptionSpec {
        var kind = kind
        if kind == .text, placeholder.contains("|") {
            kind = .choice(placeholder.split(separator: "|").map(String.init))
        }
        return OptionSpec(
            name: name, value: placeholder, help: help, repeatable: repeatable, kind: kind, suggestions: suggestions,
            defaultValue: defaultValue)
    }

    /// The same option with another help text: a verb's view of a shared option.
    func helped(_ text: String) -> OptionSpec {
        OptionSpec(
            name: name, value: value, help: text, repeatable: repeatable, kind: kind, suggestions: suggestions, defaultValue: defaultValue)
    }

    /// The help text with the default and the value's range, as `--help` shows it.
    var helpWithRange: String {
        let text = defaultValue.map { "\(help) (default: \($0))" } ?? help
        return kind.rangeText.map { "\(text) [\($0)]" } ?? text
    }

    var synopsis: String { value.map { "--\(name) \($0)" } ?? "--\(name)" }

    /// What a shell completes after the option.
    var completion: ValueCompletion {
        guard let value else { return .none }
        if case .choice(let choices, _, _) = kind { return .words(choices) }
        if !suggestions.isEmpty { return .words(suggestions) }
        switch value {
        case "PATH", "FILE": return .files
        case "DIR": return .directories
        default: return .none
        }
    }

    /// The options as `--help` lists them: synopsis, then the help aligned in a column.
    static func table(_ specs: [OptionSpec]) -> String {
        let width = min(28, (specs.map { $0.synopsis.count }.max() ?? 0) + 2)
        return specs.map { spec in
            let left = "  " + spec.synopsis
            let pad =
                left.count < width + 2
                ? String(repeating: " ", count: width + 2 - left.count) : "\n" + String(repeating: " ", count: width + 2)
            return left + pad + spec.helpWithRange + "\n"
        }.joined()
    }
}

/// What a shell may complete for an option's value or a command's arguments.
enum ValueCompletion: Sendable, Equatable {
    case none
    case files
    case directories
    case words([String])
    /// The command names (`dashboard help COMMAND`).
    case commands
}
