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
        CommandEntry(NightlyCommand.self), CommandEntry(VerifyCommand.self),
    ]

    static let overview = """
        dashboard: imports course and task CSV exports into SQLite and reports on them.

        Usage: dashboard [global options] COMMAND [options]

        Commands:
        \(commands.map { "  " + $0.spec.name.padding(toLength: 12, withPad: " ", startingAt: 0) + $0.spec.abstract }.joined(separator: "\n"))

        Global options (before or after the command):
        \(OptionSpec.table(GlobalOptions.specs).split(separator: "\n").joined(separator: "\n"))

        Exit codes: 0 success, 64 usage, 65 data errors, 66 input missing, 70 internal error,
        74 I/O error, 75 locked/busy.

        Run `dashboard COMMAND --help` for a command's options and examples.

        """

    static func main(_ args: [String], console: Console, environment: [String: String]) -> ExitCode {
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
        if name == "help" {
            if let topic = rest.first, let command = commands.first(where: { $0.spec.name == topic }) {
                console.out(command.spec.help())
            } else {
                console.out(overview)
            }
            return .success
        }
        guard let command = commands.first(where: { $0.spec.name == name }) else {
            console.error("unknown command \"\(name)\"", hint: "commands: \(commands.map(\.spec.name).joined(separator: ", "))")
            return .usage
        }
        var global: GlobalOptions?
        /// Prints the error; a message about the database names `DASHBOARD_DB` when that gave its path.
        func fail(_ error: CommandError) -> ExitCode {
            var message = error.message
            if error.aboutDatabase, let global { message += global.databaseOriginNote }
            console.error(message, hint: error.hint)
            return error.code
        }
        do {
            let parsed = try ArgumentParser.parse(rest, options: command.spec.options, command: name)
            if parsed.has("help") {
                console.out(command.spec.help())
                return .success
            }
            if parsed.has("version") {
                console.out("dashboard \(dashboardVersion)\n")
                return .success
            }
            console.quiet = parsed.has("quiet")
            if parsed.has("no-color") { console.colorAllowed = false }
            let options = try GlobalOptions(parsed, environment: environment)
            global = options
            return try command.run(Invocation(arguments: parsed, global: options, console: console, environment: environment))
        } catch let error as CommandError {
            return fail(error)
        } catch let error as StoreError {
            return fail(CommandError.store(error))
        } catch let error as SQLiteError where global != nil {
            // A failure of a query after the store opened: a damaged page, a full disk, a lock.
            return fail(CommandError.store(Store.classify(error, path: global?.databasePath ?? "")))
        } catch {
            console.error("internal error: \(error)", hint: "this is a bug; please report it with the command you ran")
            return .internalError
        }
    }
}

/// A command in the table: its declaration and its `run`.
struct CommandEntry: Sendable {
    let spec: CommandSpec
    let run: @Sendable (Invocation) throws -> ExitCode

    init<C: Command>(_ type: C.Type) {
        spec = C.spec
        run = { try C.run($0) }
    }
}
