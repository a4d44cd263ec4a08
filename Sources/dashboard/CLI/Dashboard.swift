import DashboardCore
import Foundation

/// Top level: finds the command, parses its options, runs it and maps every error to an exit
/// code and a message.
enum Dashboard {
    /// Every command, in the order `--help` lists them.
    static let commands: [CommandEntry] = [
        CommandEntry(ImportCommand.self), CommandEntry(CheckCommand.self), CommandEntry(CategorizeCommand.self),
        CommandEntry(ReclassifyCommand.self), CommandEntry(RevertCommand.self), CommandEntry(AuditCommand.self),
        CommandEntry(ReportCommand.self), CommandEntry(StatusCommand.self), CommandEntry(BatchesCommand.self),
        CommandEntry(NightlyCommand.self), CommandEntry(VerifyCommand.self), CommandEntry(SettingsCommand.self),
        CommandEntry(CopyCommand.self), CommandEntry(AccessCommand.self),
        CommandEntry(SchemaCommand.self),
        CommandEntry(HelpCommand.self),
        CommandEntry(CompletionsCommand.self),
    ]

    /// The width of the command names' column in the overview.
    static let nameWidth = max(12, (commands.map(\.spec.name.count).max() ?? 0) + 2)

    static let overview = """
        dashboard: imports course and task CSV exports into SQLite and reports on them.

        Usage: dashboard [global options] COMMAND [options]

        Commands:
        \(commands.map { "  " + $0.spec.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + $0.spec.abstract }.joined(separator: "\n"))

        Global options (before or after the command):
        \(OptionSpec.table(GlobalOptions.specs).split(separator: "\n").joined(separator: "\n"))

        Exit codes: 0 success, 64 usage, 65 data errors, 66 input missing, 70 internal error,
        74 I/O error, 75 locked/busy.

        Run `dashboard help COMMAND` (or `dashboard COMMAND --help`) for a command's options
        and examples; `dashboard help COMMAND VERB` for a verb's.

        """

    static func main(_ args: [String], console: Console, environment: [String: String], fileModes: FileModes) -> ExitCode {
        let (name, rest) = ArgumentParser.commandName(args)
        guard let name else {
            if args.contains("--version") {
                console.out("dashboard \(dashboardVersion)\n")
                return .success
            }
            if args.contains("--help") || args.contains("-h") {
                console.out(overview)
                return .success
            }
            // Name an unknown or incomplete global option rather than a missing command.
            do {
                _ = try ArgumentParser.parse(args, options: [], command: nil)
            } catch let error as CommandError {
                console.error(error.message, hint: error.hint)
                return error.code
            } catch {}
            console.error("no command given", hint: "run `dashboard --help` for the list of commands")
            return .usage
        }
        guard let command = commands.first(where: { $0.spec.name == name }) else {
            console.error("unknown command \"\(name)\"", hint: "commands: \(commands.map(\.spec.name).joined(separator: ", "))")
            return .usage
        }
        var global: GlobalOptions?
        var arguments: ParsedArguments?
        /// Prints the error; a message about the database names `DASHBOARD_DB` when that gave its path.
        func fail(_ error: CommandError) -> ExitCode {
            var error = error
            if let (refusal, database) = error.refusal {
                error = RefusalWords.error(refusal, database: database, command: name, arguments: arguments)
            }
            var message = error.message
            if error.aboutDatabase, let global { message += global.databaseOriginNote }
            console.error(message, hint: error.hint)
            return error.code
        }
        do {
            // A verb owns its options: `batches approve` takes --force, not --limit.
            let spec = ArgumentParser.verbWord(rest, options: command.spec.options).flatMap(command.spec.verb) ?? command.spec
            let parsed = try ArgumentParser.parse(
                rest, options: spec.options, command: name, verb: spec.verbs.isEmpty && spec.path != name ? spec.path : nil,
                siblings: command.spec.options)
            arguments = parsed
            if parsed.has("help") {
                console.out(spec.help())
                return .success
            }
            if parsed.has("version") {
                console.out("dashboard \(dashboardVersion)\n")
                return .success
            }
            console.quiet = parsed.has("quiet")
            if parsed.has("no-color") { console.colorAllowed = false }
            // help and completions read no setting: a broken DASHBOARD_TZ must not break a shell's start.
            if let info = command.info { return try info(parsed, console) }
            let options = try GlobalOptions(parsed, environment: environment)
            global = options
            return try command.run(
                Invocation(arguments: parsed, global: options, console: console, environment: environment, fileModes: fileModes))
        } catch let error as CommandError {
            return fail(error)
        } catch let error as StoreError {
            return fail(CommandError.store(error))
        } catch {
            // A failure of a query after the store opened: a damaged page, a full disk, a lock.
            if let global, let failure = StoreFactory.storeFailure(error, path: global.databasePath) {
                return fail(CommandError.store(failure))
            }
            console.error("internal error: \(error)", hint: "this is a bug; please report it with the command you ran")
            return .internalError
        }
    }
}

/// A command in the table: its declaration and its `run`.
struct CommandEntry: Sendable {
    let spec: CommandSpec
    let run: @Sendable (Invocation) throws -> ExitCode
    /// The work of a command that needs no database and no global setting (help, completions).
    let info: (@Sendable (ParsedArguments, Console) throws -> ExitCode)?

    init<C: Command>(_ type: C.Type) {
        spec = C.spec
        run = { try C.run($0) }
        info = nil
    }

    init<C: InfoCommand>(_ type: C.Type) {
        spec = C.spec
        run = { _ in .success }
        info = { try C.run($0, console: $1) }
    }
}

/// A command that prints what the declarations say (help, completions): no database, no
/// global setting is read.
protocol InfoCommand: SendableMetatype {
    static var spec: CommandSpec { get }
    static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode
}
