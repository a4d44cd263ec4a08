import DashboardCore
import Foundation

/// `dashboard verify [--format text|json]`
enum VerifyCommand: Command {
    static let spec = CommandSpec(
        name: "verify",
        usage: "dashboard verify [--format text|json]",
        abstract: "Check the database: integrity, foreign keys, stored values, audit chains and kept counts.",
        discussion: """
            Runs SQLite's integrity check, checks every foreign key, every stored value the
            program reads back (priority, completed, due, bucket, time zone, override expiry,
            batch status and mode, counts), the audit chains (no entry reverted twice,
            override_before names an override entry) and the counts the grid reads
            (course_buckets: each course's live tasks per stored bucket, against the tasks), and
            prints one line per problem: table,
            key, column, the stored value as SQL writes it, and the rule it breaks. Opens the
            file read-only and never creates it. Exit 0 when all is well; 65 when anything is
            wrong (a damaged file included); 66 when there is no database; 74 when the file is
            not a dashboard database.
            """,
        examples: ["dashboard verify", "dashboard --db /var/lib/dashboard/school.sqlite verify --format json"],
        options: [.value("format", "text|json", "text (default) or json")])

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let format = format(invocation)
        _ = try positionals(invocation, count: 0, names: "")
        let path = invocation.global.databasePath
        let console = invocation.console
        // Opened before anything is printed: a missing or foreign file leaves stdout empty.
        var store: (any StoreVerifying)?
        var damagedAtOpen: StoreError?
        do {
            store = try StoreFactory.openForVerifying(path: path)
        } catch {
            guard case .damaged = error else { throw CommandError.store(error) }
            damagedAtOpen = error
        }
        var count = 0
        if format == "json" {
            console.out(
                "{\n  \"schema\": 1,\n  \"database\": \(JSONValue.string(invocation.global.databaseDisplay).rendered()),\n  \"problems\": ["
            )
        }
        let show: (VerificationProblem) -> Void = { problem in
            count += 1
            if format == "json" {
                console.out((count > 1 ? "," : "") + "\n    " + json(problem).rendered(indent: 0))
            } else {
                console.out(text(problem) + "\n")
            }
        }
        if let damagedAtOpen { show(damaged(damagedAtOpen)) }
        if let store {
            do {
                try store.verify(report: show)
            } catch let error as StoreError {
                // A page the store cannot read ends the checks: it is the problem to report.
                guard case .damaged = error else { throw error }
                show(damaged(error))
            }
        }
        if format == "json" {
            console.out((count > 0 ? "\n  " : "") + "],\n  \"count\": \(count)\n}\n")
        } else if count == 0 {
            console.out(
                "\(invocation.global.databaseDisplay): no problems found (integrity, foreign keys, stored values, audit chains, kept counts)\n"
            )
        }
        guard count == 0 else {
            console.error(
                "\(invocation.global.databaseDisplay): \(count) problem\(count == 1 ? "" : "s") found",
                hint: "restore the last backup, or correct the values listed above (see docs/operations.md)")
            return .dataError
        }
        return .success
    }

    static func damaged(_ error: StoreError) -> VerificationProblem {
        VerificationProblem(table: "", key: "", column: "", value: error.description, rule: "SQLite integrity check")
    }

    /// `tasks T1 priority 'urgent': must be low, normal or high`; a whole-file problem reads
    /// `integrity: <SQLite's message>`.
    static func text(_ p: VerificationProblem) -> String {
        let shown = Self.visible(p.value)
        guard !p.table.isEmpty else { return "integrity: \(shown)" }
        return "\(p.table) \(Self.visible(p.key)) \(p.column) \(shown): \(p.rule)"
    }

    static func json(_ p: VerificationProblem) -> JSONValue {
        .object([
            ("table", .string(p.table)), ("key", .string(p.key)), ("column", .string(p.column)), ("value", .string(p.value)),
            ("rule", .string(p.rule)),
        ])
    }

    /// Control characters of a stored value shown as `\u{1B}`, so a hand-edited value cannot
    /// drive the terminal.
    static func visible(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
                || (0x2066...0x2069).contains(scalar.value)
            {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
