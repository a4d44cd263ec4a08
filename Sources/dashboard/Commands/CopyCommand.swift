import DashboardCore
import Foundation

/// `dashboard copy --from SQLITE --to postgresql://…`
enum CopyCommand: Command {
    static let spec = CommandSpec(
        name: "copy",
        usage: "dashboard copy --from DATABASE --to postgresql://…",
        abstract: "Copy a whole SQLite database into an empty PostgreSQL database, ids and history kept.",
        discussion: """
            Moves every batch, file record, count, problem, course, task, history row, held row,
            audit entry, override, setting and setting change into an empty PostgreSQL database
            (its schema is created when it has none), ids kept, in one transaction; then reads
            every table back from both sides in key order and compares them row by row. The
            source is opened read-only and first checked with the rules of `dashboard verify`.
            Anything wrong rolls the copy back: the target is left as it was. The password comes
            from libpq's usual places (~/.pgpass, PGPASSWORD, a service file) and is never
            printed. Prints each table and its rows on stdout. Exit 0; 65 when the source breaks
            a rule of verify or the target already holds data; 66 when the source does not
            exist; 74 when the source is not a dashboard database, the server cannot be reached,
            or the target holds another application's tables; 75 while another dashboard writes
            to the target.
            """,
        examples: [
            "dashboard copy --from /var/lib/dashboard/school.sqlite --to postgresql://dashboard@db.example.org/district",
            "PGPASSWORD=… dashboard copy --from dashboard.sqlite --to postgres://admin@localhost/dashboard",
        ],
        options: [
            .value("from", "DATABASE", "the SQLite database to copy (opened read-only)"),
            .value("to", "URI", "the PostgreSQL database to copy into (postgresql://… or postgres://…)"),
        ])

    static func run(_ invocation: Invocation) throws -> ExitCode {
        _ = try positionals(invocation, count: 0, names: "")
        guard let from = invocation.arguments.value("from") else { throw CommandError.usage("missing --from DATABASE", command: spec.name) }
        guard let to = invocation.arguments.value("to") else { throw CommandError.usage("missing --to URI", command: spec.name) }
        guard case .sqlite(let path) = DatabaseLocation(from) else {
            throw CommandError.usage("--from must be a SQLite database file; a copy goes from SQLite into PostgreSQL", command: spec.name)
        }
        guard case .postgres(let uri) = DatabaseLocation(to) else {
            throw CommandError.usage("--to must be a PostgreSQL URI (postgresql://… or postgres://…)", command: spec.name)
        }
        let display = DatabaseLocation(uri).display
        let summary: StoreCopy.Summary
        do {
            summary = try StoreFactory.copy(from: path, to: uri)
        } catch let failure as StoreFactory.CopyOpenFailure {
            switch failure {
            case .source(let error): throw CommandError.store(error)
            case .target(let error): throw postgresError(error)
            }
        } catch let failure as StoreCopy.Failure {
            switch failure {
            case .targetNotEmpty(let table, let rows):
                throw CommandError(
                    .dataError, "\(display) already holds dashboard data (\(rows) rows in \(table)); nothing was copied",
                    hint: "copy into a new, empty database")
            case .sourceHasProblems(let problems):
                let shown = problems.prefix(5).map { "\($0.table) \($0.key) \($0.column): \($0.rule)" }.joined(separator: "; ")
                throw CommandError(
                    .dataError,
                    "\(VisibleText.of(path)) breaks \(problems.count) rule\(problems.count == 1 ? "" : "s") of dashboard verify (\(VisibleText.of(shown))); nothing was copied",
                    hint: "run `dashboard --db \(path) verify` and correct what it lists")
            case .differs(let table, let sourceRow, let targetRow):
                throw CommandError(
                    .internalError,
                    "table \(table) reads back differently from \(display): \(VisibleText.of(sourceRow)) became \(VisibleText.of(targetRow)); the copy was rolled back",
                    hint: "please report this with the row above")
            }
        } catch let error as PGError {
            throw postgresError(PGStore.classify(error, display: display))
        } catch StoreError.busy {
            throw CommandError(.busy, "another dashboard process is writing to \(display); nothing was copied", hint: "try again later")
        } catch let error as StoreError {
            throw CommandError.store(error)
        }
        let width = max(5, summary.rows.map(\.table.count).max() ?? 0)
        var out = "TABLE".padding(toLength: width, withPad: " ", startingAt: 0) + "  ROWS\n"
        for (table, rows) in summary.rows { out += table.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(rows)\n" }
        invocation.console.out(out)
        let total = summary.rows.reduce(0) { $0 + $1.rows }
        invocation.console.note(
            "copied \(VisibleText.of(path)) into \(display): \(total) rows in \(summary.rows.count) tables, every table compared")
        return .success
    }

    /// A failure to reach or accept the target, with a hint about the server, not a file.
    static func postgresError(_ error: StoreError) -> CommandError {
        switch error {
        case .unreadable(let display, let reason):
            return CommandError(
                .ioError, "cannot use the PostgreSQL database \(display): \(reason)",
                hint: "check the URI, that the server runs, and the credentials (~/.pgpass, PGPASSWORD; docs/postgresql.md)")
        case .foreign(let display):
            return CommandError(
                .ioError, "\(display) holds tables of another application; nothing was copied", hint: "copy into a new, empty database")
        default:
            return CommandError.store(error)
        }
    }
}
