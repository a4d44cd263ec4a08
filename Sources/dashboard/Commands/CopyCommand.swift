import DashboardCore
import Foundation

/// `dashboard copy --from SQLITE --to postgresql://…`
enum CopyCommand: Command {
    static let spec = CommandSpec(
        name: "copy",
        usage: "dashboard copy --from DATABASE --to postgresql://… | --from postgresql://… --to DATABASE",
        abstract: "Copy a whole database between SQLite and PostgreSQL, ids and history kept.",
        discussion: """
            Moves every batch, file record, count, problem, course, task, history row, held row,
            audit entry, override, setting and setting change from a SQLite database into an
            empty PostgreSQL database (its schema is created when it has none), or from a
            PostgreSQL database into a new SQLite file, ids kept, in one transaction; then reads
            every table back from both sides in key order and compares them row by row. A SQLite
            source is opened read-only and first checked with the rules of `dashboard verify`.
            Anything wrong rolls the copy back: the target is left as it was (a new SQLite file
            is removed). The password comes from libpq's usual places (~/.pgpass, PGPASSWORD, a
            service file) and is never printed. Prints each table and its rows on stdout. Exit
            0; 65 when the source breaks a rule of verify or the target already holds data; 66
            when the source does not exist or holds no dashboard schema; 74 when a side is not a
            dashboard database, the server cannot be reached, or the target holds another
            application's tables; 75 while another dashboard writes to the target.
            """,
        examples: [
            "dashboard copy --from /var/lib/dashboard/school.sqlite --to postgresql://dashboard@db.example.org/district",
            "PGPASSWORD=… dashboard copy --from postgres://admin@localhost/dashboard --to restored.sqlite",
        ],
        options: [
            .value("from", "SOURCE", "what to copy: a SQLite file (opened read-only) or a PostgreSQL URI"),
            .value("to", "TARGET", "where to: a PostgreSQL URI (postgresql://… or postgres://…) or a new SQLite file"),
        ])

    static func run(_ invocation: Invocation) throws -> ExitCode {
        _ = try positionals(invocation, count: 0, names: "")
        guard let from = invocation.arguments.value("from") else { throw CommandError.usage("missing --from SOURCE", command: spec.name) }
        guard let to = invocation.arguments.value("to") else { throw CommandError.usage("missing --to TARGET", command: spec.name) }
        // One side SQLite, the other PostgreSQL: the direction follows.
        let (path, uri, intoPostgres): (String, String, Bool)
        switch (DatabaseLocation(from), DatabaseLocation(to)) {
        case (.sqlite(let file), .postgres(let target)): (path, uri, intoPostgres) = (file, target, true)
        case (.postgres(let source), .sqlite(let file)): (path, uri, intoPostgres) = (file, source, false)
        default:
            throw CommandError.usage(
                "one of --from and --to must be a SQLite database file and the other a PostgreSQL URI (postgresql://… or postgres://…)",
                command: spec.name)
        }
        let display = DatabaseLocation(uri).display
        let summary: StoreCopy.Summary
        do {
            summary =
                intoPostgres
                ? try StoreFactory.copy(from: path, to: uri)
                : try StoreFactory.copy(fromPostgres: uri, to: path, modes: invocation.fileModes)
        } catch let failure as StoreFactory.CopyOpenFailure {
            switch failure {
            case .source(let error): throw intoPostgres ? CommandError.store(error) : postgresError(error)
            case .target(let error): throw intoPostgres ? postgresError(error) : CommandError.store(error)
            }
        } catch let failure as StoreCopy.Failure {
            switch failure {
            case .targetNotEmpty(let table, let rows):
                let holder = intoPostgres ? display : VisibleText.of(path)
                throw CommandError(
                    .dataError, "\(holder) already holds dashboard data (\(rows) rows in \(table)); nothing was copied",
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
            "copied \(intoPostgres ? VisibleText.of(path) : display) into \(intoPostgres ? display : VisibleText.of(path)): \(total) rows in \(summary.rows.count) tables, every table compared"
        )
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
