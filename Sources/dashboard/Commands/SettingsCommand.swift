import DashboardCore
import Foundation

/// `dashboard settings show | timezone NAME | base-url URL | mail-from ADDRESS | language TAG`
enum SettingsCommand: Command {
    static let spec = CommandSpec(
        name: "settings",
        usage: "dashboard settings show | timezone NAME | base-url URL | mail-from ADDRESS | language TAG",
        abstract:
            "Show the database's own settings; change its default time zone, its reports' address, its digests' sender, "
            + "its reports' language.",
        discussion: """
            The default time zone is the zone of every course without one. It belongs to the
            database, so every reader gets the same buckets: the first import records its
            --timezone (else UTC), and only `settings timezone NAME` changes it. A reader's
            --timezone only changes how times are shown. A change is logged (`settings show`
            lists every change) and the buckets are recomputed at once, as `categorize` does.
            base-url URL is the address the reports folder is served at (the folder `latest`
            points at, or an --out DIR): calendar events and the morning digests link the pages
            under it (http:// or https://, no query; --clear removes it). mail-from ADDRESS is
            the sender of the digests (`nightly --digest`). language TAG is the language of the
            reports of the courses whose courses file names none (a BCP 47 tag of en, de, fr, es
            or ja, such as de-AT; the courses file's `language` column wins, and without either
            the reports are in English). All three are logged like the time zone, and --clear
            removes any of them.
            """,
        examples: [
            "dashboard settings show",
            "dashboard settings timezone Europe/Berlin --actor alice",
            "dashboard settings base-url https://reports.school.example/",
            "dashboard settings mail-from dashboard@school.example",
            "dashboard settings language de-AT",
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
            .init(
                name: "base-url", arguments: "URL",
                abstract: "Set the address the reports are served at (calendar events and digests link under it).",
                options: textSettingOptions),
            .init(name: "mail-from", arguments: "ADDRESS", abstract: "Set the sender of the morning digests.", options: textSettingOptions),
            .init(
                name: "language", arguments: "TAG",
                abstract: "Set the language of the reports of courses that name none (a BCP 47 tag: en, de, fr, es, ja).",
                options: textSettingOptions),
        ])

    /// The options of the text settings: who, how long to wait, and `--clear`.
    static let textSettingOptions: [OptionSpec] = [
        .flag("clear", "remove the setting instead (give no value)"),
        .value("actor", "NAME", "who changes it, for the log (default: $USER, else the name of the user running it)"),
        .value("wait", "SECONDS", "wait this long for a running import (default 0: exit 75)", kind: .waitSeconds),
    ]

    static func run(_ invocation: Invocation) throws -> ExitCode {
        switch invocation.arguments.positionals.first {
        case "show":
            _ = try positionals(invocation, count: 1, names: "")
            return try show(invocation)
        case "timezone":
            let given = try positionals(invocation, count: 2, names: "time zone NAME")
            return try setTimeZone(given[1], invocation)
        case "base-url":
            return try setText(.baseURL, invocation)
        case "mail-from":
            return try setText(.mailFrom, invocation)
        case "language":
            return try setText(.language, invocation)
        case nil:
            throw CommandError.usage(
                "missing action: show, timezone NAME, base-url URL, mail-from ADDRESS or language TAG", command: spec.name)
        case let other?:
            throw CommandError.usage(
                "unknown action \"\(other)\": use show, timezone NAME, base-url URL, mail-from ADDRESS or language TAG",
                command: spec.name)
        }
    }

    private static func show(_ invocation: Invocation) throws -> ExitCode {
        guard let store = try openExistingStore(invocation) else {
            throw CommandError.store(.missing(path: invocation.global.databaseDisplay))
        }
        let name: String?
        let changes: [SettingChange]
        let texts: [DatabaseSetting: String]
        do {
            (name, changes, texts) = try store.read {
                var texts: [DatabaseSetting: String] = [:]
                for setting in DatabaseSetting.allCases { texts[setting] = try store.setting(setting) }
                return (try store.defaultTimeZoneName(), try store.settingChanges(), texts)
            }
        } catch {
            throw CommandError.store(store.storeError(for: error))
        }
        var out = "default time zone: \(name ?? "not set yet (the first import sets it; until then, --timezone, else UTC)")\n"
        out += "base url: \(texts[.baseURL].map(VisibleText.of) ?? "not set (calendar events and digests link no page)")\n"
        out += "mail from: \(texts[.mailFrom].map(VisibleText.of) ?? "not set (nightly --digest needs it)")\n"
        out += "language: \(texts[.language].map(VisibleText.of) ?? "not set (reports use English unless a course names its language)")\n"
        if !changes.isEmpty {
            out += "\nchanges:\n"
            var rows = [["ID", "RECORDED AT", "SETTING", "FROM", "TO", "BY"]]
            for change in changes {
                let by = change.batchID.map { "import batch \($0)" } ?? change.actor
                let shown = { (value: String?) in value.map { $0.isEmpty ? "(none)" : VisibleText.of($0) } ?? "(none)" }
                rows.append([String(change.id), change.recordedAt, change.key, shown(change.oldValue), shown(change.newValue), by])
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

    /// `settings base-url URL`, `settings mail-from ADDRESS` (or `--clear`): validated, logged.
    private static func setText(_ setting: DatabaseSetting, _ invocation: Invocation) throws -> ExitCode {
        let action = invocation.arguments.positionals.first ?? ""
        let clear = invocation.arguments.has("clear")
        let value: String?
        if clear {
            _ = try positionals(invocation, count: 1, names: "")
            value = nil
        } else {
            let given = try positionals(invocation, count: 2, names: argumentName(setting))[1]
            switch setting.validated(given) {
            case .success(let valid): value = valid
            case .failure(let refusal):
                throw CommandError(.usage, "\(action): \"\(VisibleText.of(given))\" \(refusal.reason)", hint: hint(setting))
            }
        }
        let store = try openExistingStoreForWriting(invocation, wait: waitSeconds(invocation))
        let actor = try GlobalOptions.actor(invocation.arguments, environment: invocation.environment)
        let old: String?
        do {
            old = try store.setSetting(setting, to: value, actor: actor, at: Date())
        } catch {
            throw CommandError.store(store.storeError(for: error))
        }
        let label = Self.label(setting)
        guard old != value else {
            invocation.console.note("the \(label) is already \(value.map(VisibleText.of) ?? "not set"); nothing changed")
            return .success
        }
        invocation.console.note(
            "\(label): \(old.map(VisibleText.of) ?? "not set") → \(value.map(VisibleText.of) ?? "not set")")
        return .success
    }

    // MARK: - The text settings' words

    /// What `settings show` and a change call the setting.
    private static func label(_ setting: DatabaseSetting) -> String {
        switch setting {
        case .baseURL: return "base url"
        case .mailFrom: return "mail from"
        case .language: return "language"
        }
    }

    /// The value's name in a usage error.
    private static func argumentName(_ setting: DatabaseSetting) -> String {
        switch setting {
        case .baseURL: return "URL"
        case .mailFrom: return "ADDRESS"
        case .language: return "TAG"
        }
    }

    /// The fix for a refused value.
    private static func hint(_ setting: DatabaseSetting) -> String {
        switch setting {
        case .baseURL: return "give the address the reports folder is served at, e.g. https://reports.school.example/"
        case .mailFrom: return "give the sender's address, e.g. dashboard@school.example"
        case .language: return LanguageRefusal.hint
        }
    }
}
