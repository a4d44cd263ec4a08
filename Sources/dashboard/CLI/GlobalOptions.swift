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
    let asOf: Date
    let timeZone: TimeZone
    let quiet: Bool

    /// Resolves the global options against the environment.
    /// - Throws: `CommandError` (64) for an unknown time zone or an unreadable `--as-of`.
    init(_ parsed: ParsedArguments, environment: [String: String], clock: Clock = SystemClock()) throws {
        databasePath = parsed.value("db") ?? environment["DASHBOARD_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? "dashboard.sqlite"
        let zoneName = parsed.value("timezone") ?? environment["DASHBOARD_TZ"].flatMap { $0.isEmpty ? nil : $0 } ?? "UTC"
        guard let canonical = TimeZoneCatalog.canonicalName(zoneName), let zone = TimeZone(identifier: canonical) else {
            throw CommandError(.usage, "unknown time zone \"\(zoneName)\"", hint: "use an IANA name such as Europe/Berlin")
        }
        timeZone = zone
        if let text = parsed.value("as-of") ?? environment["DASHBOARD_AS_OF"].flatMap({ $0.isEmpty ? nil : $0 }) {
            guard let instant = Timestamp.parse(text, timeZone: zone) else {
                throw CommandError(
                    .usage, "cannot read the as-of time \"\(text)\"",
                    hint: "use 2026-11-29, 2026-11-29T08:00 (in --timezone) or 2026-11-29T08:00:00Z")
            }
            asOf = instant
        } else {
            asOf = clock.now()
        }
        quiet = parsed.has("quiet")
    }

    /// Who is running the command: `--actor`, else `$USER`, else "unknown".
    static func actor(_ parsed: ParsedArguments, environment: [String: String]) -> String {
        parsed.value("actor") ?? environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "unknown"
    }
}
