import DashboardCore
import Foundation

/// `dashboard settings show | timezone NAME`
enum SettingsCommand: Command {
    static let spec = CommandSpec(
        name: "settings",
        usage: "dashboard settings show | timezone NAME",
        abstract: "Show the database's own settings; change its default time zone.",
        discussion: """
            The default time zone is the zone of every course without one. It belongs to the
            database, so every reader gets the same buckets: the first import records its
            --timezone (else UTC), and only `settings timezone NAME` changes it. A reader's
            --timezone only changes how times are shown. A change is logged (`settings show`
            lists every change) and the buckets are recomputed at once, as `categorize` does.
            """,
        examples: [
            "dashboard settings show",
            "dashboard settings timezone Europe/Berlin --actor alice",
        ],
        verbs: [
            .init(name: "show", arguments: nil, abstract: "Every setting, and every change of one (when, who, from, to).", options: []),
            .init(
                name: "timezone", arguments: "NAME",
                abstract: "Set the default time zone (an IANA name) and recompute the buckets.",
                options: [
                    .value("actor", "NAME", "who changes it, for the log (default: $USER, else the name of the user running it)"),
                    .value("wait", "SECONDS", "wait this long for a running import (default 0: exit 75)", kind: .waitSeconds),
                ]),
        ])

    static func run(_ invocation: Invocation) throws -> ExitCode {
        switch invocation.arguments.positionals.first {
        case "show":
            _ = try positionals(invocation, count: 1, names: "")
            return try show(invocation)
        case "timezone":
            let given = try positionals(invocation, count: 2, names: "time zone NAME")
            return try setTimeZone(given[1], invocation)
        case nil:
            throw CommandError.usage("missing action: show or timezone NAME", command: spec.name)
        case let other?:
            throw CommandError.usage("unknown action \"\(other)\": use show or timezone NAME", command: spec.name)
        }
    }

    private static func show(_ invocation: Invocation) throws -> ExitCode {
        guard let store = try openExistingStore(invocation) else {
            throw CommandError.store(.missing(path: invocation.global.databaseDisplay))
        }
        let name: String?
        let changes: [SettingChange]
        do {
            (name, changes) = try store.read { (try store.defaultTimeZoneName(), try store.settingChanges()) }
        } catch {
            throw CommandError.store(store.storeError(for: error))
        }
        var out = "default time zone: \(name ?? "not set yet (the first import sets it; until then, --timezone, else UTC)")\n"
        if !changes.isEmpty {
            out += "\nchanges:\n"
            var rows = [["ID", "RECORDED AT", "SETTING", "FROM", "TO", "BY"]]
            for change in changes {
                let by = change.batchID.map { "import batch \($0)" } ?? change.actor
                rows.append([String(change.id), change.recordedAt, change.key, change.oldValue ?? "(none)", change.newValue, by])
            }
            out += TextTable.render(rows, rightAligned: [0])
        }
        invocation.console.out(out)
        return .success
    }

    private static func setTimeZone(_ given: String, _ invocation: Invocation) throws -> ExitCode {
        guard let name = TimeZoneCatalog.canonicalName(given.trimmingUnicodeWhitespace()), TimeZone(identifier: name) != nil else {
            throw CommandError(
                .usage, "\"\(VisibleText.of(given))\" is not an IANA time zone name",
                hint: "use a name such as Europe/Berlin or America/New_York (not an abbreviation like PST)")
        }
        let store = try openExistingStoreForWriting(invocation, wait: waitSeconds(invocation))
        let actor = try GlobalOptions.actor(invocation.arguments, environment: invocation.environment)
        let old: String?
        do {
            old = try store.setDefaultTimeZone(name, actor: actor, at: Date())
        } catch {
            throw CommandError.store(store.storeError(for: error))
        }
        guard old != name else {
            invocation.console.note("the default time zone is already \(name); nothing changed")
            return .success
        }
        // The buckets of courses without a zone follow at once (cause `time`, as categorize).
        let result: CategorizeResult
        do {
            result = try Categorizer(store: store).categorize(
                asOf: invocation.global.asOf, defaultTimeZone: TimeZone(identifier: name) ?? .current, actor: actor)
        } catch {
            throw CommandError.store(error)
        }
        invocation.console.note(
            "default time zone: \(old ?? "not set") → \(name); \(result.entries) bucket change\(result.entries == 1 ? "" : "s") logged")
        return .success
    }
}
