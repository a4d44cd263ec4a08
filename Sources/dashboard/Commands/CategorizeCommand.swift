import DashboardCore
import Foundation

/// `dashboard categorize`
enum CategorizeCommand: Command {
    static let spec = CommandSpec(
        name: "categorize",
        usage: "dashboard categorize [--actor NAME] [--format text|json]",
        abstract: "Recompute every open task's bucket as of now (or --as-of) and log each change.",
        discussion: """
            Sorts every live task into overdue, today, upcoming or undated (completed tasks are
            completed) in its course's time zone, keeps manual overrides until they expire, and
            records each change in the audit log with cause `time`. Running it twice with the
            same as-of records nothing. An import does the same at its end.
            """,
        examples: [
            "dashboard categorize",
            "dashboard --as-of 2026-11-30T06:00:00Z categorize --format json",
            "DASHBOARD_TZ=Europe/Berlin dashboard categorize",
        ],
        options: [
            .value("actor", "NAME", "who runs it, for the log (default: $USER, else the name of the user running it)"),
            .value("format", "text|json", "text (default): a summary on stderr; json: the counts on stdout"),
            .value("wait", "SECONDS", "wait this long for a running import (default 0: exit 75)", kind: .waitSeconds),
        ])

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let format = format(invocation)
        _ = try positionals(invocation, count: 0, names: "")
        let store = try openExistingStoreForWriting(invocation, wait: waitSeconds(invocation))
        let zone = try defaultZone(store, invocation)
        let actor = try GlobalOptions.actor(invocation.arguments, environment: invocation.environment)
        let result: CategorizeResult
        do {
            result = try Categorizer(store: store).categorize(
                asOf: invocation.global.asOf, defaultTimeZone: zone, actor: actor)
        } catch {
            throw CommandError.store(error)
        }
        if format == "json" {
            var pairs: [(String, JSONValue)] = [("schema", .int(1)), ("as_of", .string(Timestamp.text(invocation.global.asOf)))]
            if case .object(let rest) = result.json { pairs += rest }
            invocation.console.out(JSONValue.object(pairs).rendered() + "\n")
        }
        let causes = result.byCause.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) \($0.key.rawValue)" }
        let detail = causes.isEmpty ? "" : " (\(causes.joined(separator: ", ")))"
        invocation.console.note(
            "categorize as of \(Timestamp.text(invocation.global.asOf)): \(Format.number(result.tasks)) live tasks, \(result.entries) bucket change\(result.entries == 1 ? "" : "s") recorded\(detail), \(result.expiredOverrides) overrides expired"
        )
        return .success
    }
}

extension Command {
    /// `--wait SECONDS` (checked against `OptionValueKind.waitSeconds` while parsing), 0 when absent.
    static func waitSeconds(_ invocation: Invocation) -> Double {
        invocation.arguments.seconds("wait") ?? 0
    }

    /// A positional id (batch ID, audit ENTRY), checked like an option of kind `.identifier`.
    /// - Throws: `CommandError` (64) naming the range and the value.
    static func identifier(_ text: String, label: String) throws -> Int {
        guard case .integer(let id) = try OptionValueKind.identifier.parse(text, label: label, command: spec.name) else {
            throw CommandError.usage("\(label) must be a whole number", command: spec.name)
        }
        return id
    }

    /// Maps a refused reclassification or revert to exit 65 (or the store's code).
    static func auditFailure(_ error: AuditError) -> CommandError {
        switch error {
        case .store(let storeError): return CommandError.store(storeError)
        case .unknownTask, .unknownEntry, .unknownBatch:
            return CommandError(.dataError, error.message, hint: "`dashboard audit` and `dashboard batches list` show what exists")
        case .unknownGroup:
            return CommandError(.dataError, error.message, hint: "`dashboard audit --cause override` shows the groups (column GROUP)")
        case .bulkTooLarge:
            return CommandError(.dataError, error.message, hint: "narrow the selection (--course, --bucket, ...) and run it in parts")
        case .blockedEntry, .blockedBatch, .blockedGroup:
            return CommandError(.dataError, error.message, hint: "--force reverts anyway and records which changes it went past")
        case .timeEntry:
            return CommandError(.dataError, error.message, hint: "to move the task by hand, pin it with `dashboard reclassify`")
        case .emptyReason, .reasonTooLong, .invalidExpiry, .expiryPassed, .notPinnable:
            return CommandError(.usage, error.message, hint: "see `dashboard reclassify --help`")
        default:
            return CommandError(.dataError, error.message)
        }
    }
}
