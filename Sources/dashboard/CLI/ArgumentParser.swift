import DashboardCore

/// The parsed arguments of one invocation.
struct ParsedArguments {
    var values: [String: [String]] = [:]
    /// The checked value of every option whose kind is not free text.
    var typed: [String: OptionValue] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    /// The declared default of every option that has a fixed one.
    var defaults: [String: String] = [:]

    func value(_ name: String) -> String? { values[name]?.last }

    /// The value given for `name`, else its declared default.
    func valueOrDefault(_ name: String) -> String? { value(name) ?? defaults[name] }

    /// The whole number given for `name` (declared `.integer`), checked against its range.
    func integer(_ name: String) -> Int? {
        if case .integer(let value) = typed[name] { return value }
        return nil
    }

    /// The seconds given for `name` (declared `.seconds`), checked against their range.
    func seconds(_ name: String) -> Double? {
        if case .seconds(let value) = typed[name] { return value }
        return nil
    }

    /// The delete limit given for `name` (declared `.deleteLimit`), checked against its ranges.
    func deleteLimit(_ name: String) -> DeleteLimit? {
        if case .deleteLimit(let value) = typed[name] { return value }
        return nil
    }

    /// The values given for `name` (declared `.choice`), as `T`: the parser has checked each
    /// one, so none is dropped (a choice that ignores case is read lowercased).
    func choices<T: RawRepresentable>(_ name: String, as type: T.Type) -> [T] where T.RawValue == String {
        all(name).compactMap { T(rawValue: $0) ?? T(rawValue: $0.lowercased()) }
    }

    /// The last value given for `name` (declared `.choice`), as `T`.
    func choice<T: RawRepresentable>(_ name: String, as type: T.Type) -> T? where T.RawValue == String {
        choices(name, as: type).last
    }

    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ name: String) -> Bool { flags.contains(name) }
}

/// Parses `argv` against the global options and one command's options.
enum ArgumentParser {
    /// Splits off the command name: the first argument that is not a global option or its value.
    static func commandName(_ args: [String]) -> (name: String?, rest: [String]) {
        var index = 0
        while index < args.count {
            let arg = args[index]
            if arg == "--" { break }
            if arg.hasPrefix("-") {
                let name = String(arg.drop(while: { $0 == "-" }).prefix(while: { $0 != "=" }))
                if let spec = GlobalOptions.specs.first(where: { $0.name == name }), spec.value != nil, !arg.contains("=") {
                    index += 2
                } else {
                    index += 1
                }
                continue
            }
            var rest = args
            rest.remove(at: index)
            return (arg, rest)
        }
        return (nil, args)
    }

    /// The first positional argument of a command's arguments: its verb. Options are skipped
    /// with their values (`batches --format json list` names `list`).
    static func verbWord(_ args: [String], options: [OptionSpec]) -> String? {
        let specs = GlobalOptions.specs + options
        var index = 0
        while index < args.count {
            let arg = args[index]
            index += 1
            if arg == "--" { return index < args.count ? args[index] : nil }
            if arg == "-" || !arg.hasPrefix("-") || isNegativeNumber(arg) { return arg }
            let name = String(arg.drop(while: { $0 == "-" }).prefix(while: { $0 != "=" }))
            if !arg.contains("="), specs.first(where: { $0.name == name })?.value != nil { index += 1 }
        }
        return nil
    }

    /// True for `-5`, `-0`, `-1.5`: a dash then a digit.
    static func isNegativeNumber(_ arg: String) -> Bool {
        arg.hasPrefix("-") && arg.utf8.dropFirst().first.map { $0 >= 0x30 && $0 <= 0x39 } == true
    }

    /// - Throws: `CommandError` (exit 64) naming the problem.
    /// - Parameter verb: the verb whose options these are (`batches approve`); an option of
    ///   the command that this verb does not take (`siblings`) is refused naming both.
    static func parse(
        _ args: [String], options: [OptionSpec], command: String?, verb: String? = nil, siblings: [OptionSpec] = []
    ) throws -> ParsedArguments {
        let specs = GlobalOptions.specs + options
        var parsed = ParsedArguments()
        for spec in specs { parsed.defaults[spec.name] = spec.defaultValue }
        var index = 0
        var onlyPositionals = false
        while index < args.count {
            let arg = args[index]
            index += 1
            // `-5` is a (negative) number, not an option: no option is a dash and a digit,
            // so `revert -5` is told that ENTRY must be positive rather than "unknown option".
            if onlyPositionals || arg == "-" || !arg.hasPrefix("-") || isNegativeNumber(arg) {
                parsed.positionals.append(arg)
                continue
            }
            if arg == "--" {
                onlyPositionals = true
                continue
            }
            if arg == "-h" {
                parsed.flags.insert("help")
                continue
            }
            guard arg.hasPrefix("--") else {
                throw CommandError.usage("unknown option \(arg)", command: command)
            }
            var name = String(arg.dropFirst(2))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if let verb, !specs.contains(where: { $0.name == name }), siblings.contains(where: { $0.name == name }) {
                throw CommandError.usage("--\(name) is not an option of `dashboard \(verb)`", command: verb)
            }
            guard let spec = specs.first(where: { $0.name == name }) else {
                let suggestion = specs.map(\.name).first { $0.hasPrefix(name) || name.hasPrefix($0) }
                var message = "unknown option --\(name)"
                if let command { message += " for `dashboard \(command)`" }
                if let suggestion { message += " (did you mean --\(suggestion)?)" }
                throw CommandError.usage(message, command: command)
            }
            if spec.value == nil {
                if inlineValue != nil { throw CommandError.usage("--\(name) takes no value", command: command) }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < args.count else {
                    throw CommandError.usage("--\(name) needs a value (\(spec.value ?? "VALUE"))", command: command)
                }
                value = args[index]
                index += 1
            }
            if !spec.repeatable, parsed.values[name] != nil, parsed.values[name] != [value] {
                throw CommandError.usage("--\(name) is given twice with different values", command: command)
            }
            if spec.kind != .text {
                parsed.typed[name] = try spec.kind.parse(value, label: "--\(name)", command: command)
            }
            parsed.values[name, default: []].append(value)
        }
        return parsed
    }
}
