import DashboardCore
import Foundation

/// `dashboard import PATH...`
enum ImportCommand: Command {
    static let spec = CommandSpec(
        name: "import",
        usage: "dashboard import [options] PATH...",
        abstract: "Import courses and tasks from CSV files or folders, all or nothing.",
        discussion: """
            PATH is a CSV file, a folder (every *.csv in it) or - for standard input. Files are
            told apart by their header; courses are applied before tasks. Every change of one run
            commits in one transaction, or none does. Rejected rows are reported with file, line,
            column and a hint, and the valid rows are still imported (unless --strict); the exit
            code is then 65. A sync that would delete more than --max-delete is held, not applied:
            see `dashboard batches`. A tasks file may say where each task stands and when it was
            handed in (status, submitted_at and their aliases such as workflow_state, turned_in_at:
            submitted work waits to be graded, excused work is never overdue; docs/formats.md).

            Standard input (-) and a FIFO named as PATH are streams: read once, checked as they
            arrive (a NUL byte or invalid UTF-8 stops them at once), at most \(InputPaths.size(StreamSpool.defaultLimit)) (exit 65
            beyond, nothing imported), spooled to a file in TMPDIR that never has a name. An
            entry of a folder that is not a regular file (a FIFO, a socket, a link to nothing)
            fails the run as unreadable_file.
            """,
        examples: [
            "dashboard import imports/",
            "dashboard import --mode sync --max-delete 5% courses.csv tasks.csv",
            "dashboard import --dry-run --format json tasks.csv | jq .inserted",
            "dashboard import --encoding windows-1252 --delimiter ';' --date-order dmy export.csv",
        ],
        options: ImportInputs.readingOptions + [
            .value(
                "max-delete", "LIMIT", "most a sync may delete per kind: a percentage (10%, the default) or a count (500)", kind: .maxDelete
            ),
            .flag("strict", "fail the whole run if any row is rejected"),
            .flag("override-manual", "let the import win over manual overrides of the tasks it changes (each cleared override is logged)"),
            .flag("dry-run", "validate and count, write no data (recorded as a dry_run batch)"),
            .value("wait", "SECONDS", "wait this long for another import to finish (default 0: exit 75 at once)", kind: .waitSeconds),
            .value("actor", "NAME", "who runs the import, for the record (default: $USER, else the name of the user running it)"),
        ],
        arguments: .files)

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let format = format(invocation)
        var options = try ImportInputs.options(invocation, command: spec.name)
        let wait = waitSeconds(invocation)
        try ImportInputs.prepareRejectsFile(invocation)
        let files = try InputPaths.files(
            invocation.arguments.positionals, command: spec.name, options: options, environment: invocation.environment)
        let store = try ImportInputs.reportingOpenFailure(invocation, format: format, command: spec.name) {
            let store = try openStore(invocation, wait: wait)
            // Courses without a zone use the database's; the first import records its --timezone.
            options.timeZone = try defaultZone(store, invocation)
            return store
        }
        let console = invocation.console
        let bar = console.stderrIsTerminal && !console.quiet ? ProgressBar(console: console) : nil
        let progress: ((ImportProgress) -> Void)? = bar.map { bar in
            { bar.update(bytes: $0.bytesRead, total: $0.bytesTotal, rows: $0.rows, writing: $0.phase == .writing) }
        }
        let result: ImportResult
        do {
            result = try store.importFiles(files, options: options, record: true, clock: SystemClock(), progress: progress)
        } catch {
            bar?.clear()
            throw try ImportInputs.failure(error, invocation: invocation, format: format, inputs: files.map(\.path), command: spec.name)
        }
        bar?.clear()
        try ImportInputs.report(result, invocation: invocation, format: format, verb: "import")
        // A dry run exits as the real import would: 65 when a sync would be held.
        if result.status == .held || result.total.rejected > 0 || (result.status == .dryRun && !result.reason.isEmpty) {
            return .dataError
        }
        return .success
    }
}
