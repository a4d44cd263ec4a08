import DashboardCore
import Foundation

/// The options every command accepts, before or after its name.
struct GlobalOptions {
    static let specs: [OptionSpec] = [
        .value("db", "PATH", "database file (default: $DASHBOARD_DB, else ./dashboard.sqlite)"),
        .value(
            "as-of", "TIME",
            "the instant to work as of: 2026-11-29T08:00:00Z, a local time, or a date (default: $DASHBOARD_AS_OF, else now)"),
        .value("timezone", "NAME", "IANA time zone for courses without one and for local --as-of (default: $DASHBOARD_TZ, else UTC)"),
        .flag("quiet", "print nothing on success"),
        .flag("no-color", "never colour the output (also: NO_COLOR)"),
        .flag("help", "show help for the command"),
        .flag("version", "print the version"),
    ]

    let databasePath: String
    /// Where the database path came from: `--db`, `DASHBOARD_DB` or the default; messages
    /// about the database name the environment variable when it gave the path.
    let databaseOrigin: Origin
    let asOf: Date
    let timeZone: TimeZone
    let quiet: Bool

    /// Where a global setting came from.
    enum Origin: Equatable {
        case option(String)
        case environment(String)
        case fallback
    }

    /// Resolves the global options against the environment.
    ///
    /// Policy: an option wins over its environment variable; an environment variable set to
    /// the empty string counts as unset (`DASHBOARD_DB= dashboard …` uses the default), but
    /// an empty option value (`--db ""`) is a usage error. A bad value names where it came
    /// from: `--timezone` or `DASHBOARD_TZ`, `--as-of` or `DASHBOARD_AS_OF`.
    /// - Throws: `CommandError` (64) for an empty `--db`, an unknown time zone or an
    ///   unreadable as-of time.
    init(_ parsed: ParsedArguments, environment: [String: String], clock: Clock = SystemClock()) throws {
        let db = Self.setting(parsed, option: "db", variable: "DASHBOARD_DB", environment: environment)
        if db?.text.isEmpty == true {
            throw CommandError(.usage, "--db needs a database file path, not an empty string", hint: "see `dashboard --help`")
        }
        databasePath = db?.text ?? "dashboard.sqlite"
        databaseOrigin = db?.origin ?? .fallback
        let zoneSetting = Self.setting(parsed, option: "timezone", variable: "DASHBOARD_TZ", environment: environment)
        let zoneName = zoneSetting?.text ?? "UTC"
        guard let canonical = TimeZoneCatalog.canonicalName(zoneName), let zone = TimeZone(identifier: canonical) else {
            let what = zoneSetting?.origin == .environment("DASHBOARD_TZ") ? "DASHBOARD_TZ=" : "--timezone "
            throw CommandError(
                .usage, "\(what)\(OptionValueKind.quoted(zoneName)) is not a known time zone",
                hint: "use an IANA name such as Europe/Berlin")
        }
        timeZone = zone
        if let asOfSetting = Self.setting(parsed, option: "as-of", variable: "DASHBOARD_AS_OF", environment: environment) {
            guard let instant = Timestamp.parse(asOfSetting.text, timeZone: zone) else {
                let what = asOfSetting.origin == .environment("DASHBOARD_AS_OF") ? "DASHBOARD_AS_OF=" : "--as-of "
                throw CommandError(
                    .usage, "\(what)\(OptionValueKind.quoted(asOfSetting.text)) \(Timestamp.whyUnreadable(asOfSetting.text))",
                    hint: "use 2026-11-29, 2026-11-29T08:00 (in --timezone) or 2026-11-29T08:00:00Z")
            }
            asOf = instant
        } else {
            asOf = clock.now()
        }
        quiet = parsed.has("quiet")
    }

    /// Appended to a message about the database file: says the path came from `DASHBOARD_DB`
    /// when it did (a user who never typed the path would not recognise it), else nothing.
    /// The database as messages and outputs name it: a PostgreSQL URI without its password.
    var databaseDisplay: String { DatabaseLocation(databasePath).display }

    /// True when the database is a PostgreSQL server's, not a file.
    var databaseIsServer: Bool {
        if case .postgres = DatabaseLocation(databasePath) { return true }
        return false
    }

    var databaseOriginNote: String {
        databaseOrigin == .environment("DASHBOARD_DB") ? " (the path comes from DASHBOARD_DB)" : ""
    }

    /// The option's value, else the environment variable's unless it is empty, with its origin.
    private static func setting(
        _ parsed: ParsedArguments, option: String, variable: String, environment: [String: String]
    ) -> (text: String, origin: Origin)? {
        if let value = parsed.value(option) { return (value, .option("--" + option)) }
        if let value = environment[variable], !value.isEmpty { return (value, .environment(variable)) }
        return nil
    }

    /// Who is running the command, for the audit log, the batch records and the settings log.
    ///
    /// Policy: `--actor`, else `$USER` when it is set and not empty, else the name of the
    /// process's effective user (`getpwuid(geteuid())`: cron, systemd units and some tmux
    /// sessions leave `$USER` unset), else `uid N` (a user the system has no name for). On
    /// PostgreSQL a teacher's role (`role`: one that row-level security restricts) records what
    /// it does under its own name, which the server checks (docs/postgresql.md, "Who did it"):
    /// the actor is the role, and an `--actor` naming anyone else is refused (64).
    static func actor(
        _ parsed: ParsedArguments, environment: [String: String], role: RestrictedRole? = nil, user: ProcessUser = .effective
    ) throws -> String {
        let given = parsed.value("actor")
        if let role {
            if let given, given != role.name {
                throw CommandError(
                    .usage,
                    "--actor \(OptionValueKind.quoted(given)): a teacher's role records what it does under its own name (\(VisibleText.of(role.name)))",
                    hint: "leave --actor out: the audit log names the role \(VisibleText.of(role.name)), as the server requires")
            }
            return role.name
        }
        if let given { return given }
        if let name = environment["USER"], !name.isEmpty { return name }
        return user.name ?? "uid \(user.uid)"
    }
}

/// The user the process runs as (its effective uid), and the system's name for it.
struct ProcessUser {
    var uid: UInt32
    /// The name the system's user database gives the uid (`getpwuid_r`), nil when it has none.
    var name: String?

    static var effective: ProcessUser {
        let uid = geteuid()
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let status = getpwuid_r(uid, &entry, &buffer, buffer.count, &found)
        guard status == 0, found != nil, let name = entry.pw_name.map({ String(cString: $0) }), !name.isEmpty else {
            return ProcessUser(uid: uid, name: nil)
        }
        return ProcessUser(uid: uid, name: name)
    }
}
