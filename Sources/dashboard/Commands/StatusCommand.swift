import DashboardCore
import Foundation

/// `dashboard status`
enum StatusCommand: Command {
    static let spec = CommandSpec(
        name: "status",
        usage: "dashboard status [--format text|json|prometheus]",
        abstract: "Show what the database holds and how the last import went.",
        discussion: """
            Prints the live and deleted course and task counts, the last batch, the last batch
            that committed data, and any batch held for approval. Never creates or changes the
            database. --format prometheus prints the same as metrics in the Prometheus text
            format: the last batch stands for the last run, and the ages are measured at now
            (or --as-of); docs/operations.md, "Monitoring". Exit 0; 66 when there is no
            database yet (then prometheus prints nothing).
            """,
        examples: [
            "dashboard status", "dashboard --db /var/lib/dashboard/school.sqlite status --format json",
            "dashboard status --format prometheus",
        ],
        options: [.value("format", "text|json|prometheus", "text (default), json, or prometheus (metrics)")])

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let format = format(invocation)
        _ = try positionals(invocation, count: 0, names: "")
        guard let store = try openExistingStore(invocation) else {
            // An empty file is a new database that holds nothing yet, not a missing one.
            let path = invocation.global.databaseDisplay
            let what =
                invocation.global.databaseIsServer || FileManager.default.fileExists(atPath: path)
                ? "holds no data yet (an empty database)" : "does not exist"
            if format == "prometheus" {
                // Standard output stays a valid exposition (an empty one); the words go to stderr.
                invocation.console.error(
                    "no data imported yet: \(path) \(what)\(invocation.global.databaseOriginNote)", hint: "dashboard import imports/")
            } else if format == "json" {
                invocation.console.out(
                    JSONValue.object([
                        ("schema", .int(1)), ("database", .string(invocation.global.databaseDisplay)), ("exists", .bool(false)),
                    ]).rendered() + "\n")
            } else {
                invocation.console.out(
                    "No data imported yet: \(VisibleText.of(path)) \(what)\(invocation.global.databaseOriginNote).\nNext step: dashboard import imports/\n"
                )
            }
            return .noInput
        }
        let batches: any BatchReading = store
        let status = try batches.status()
        if format == "prometheus" {
            let run = MonitoringMetrics.lastBatch(status)
            invocation.console.out(
                PrometheusText.render(
                    MonitoringMetrics.families(
                        run: run, database: status, asOf: invocation.global.asOf, wording: .commandLine)))
        } else if format == "json" {
            invocation.console.out(json(status).rendered() + "\n")
        } else {
            invocation.console.out(text(status))
        }
        if let role = try store.restrictedRole(), role.liveCourses == 0 { ReportCommand.warnNoCourses(role.name, invocation) }
        return .success
    }

    static func json(_ status: StoreStatus) -> JSONValue {
        .object([
            ("schema", .int(1)), ("database", .string(status.path)), ("exists", .bool(true)),
            ("schema_version", .int(status.schemaVersion)),
            ("courses", .int(status.liveCourses)), ("tasks", .int(status.liveTasks)),
            ("deleted_courses", .int(status.deletedCourses)), ("deleted_tasks", .int(status.deletedTasks)),
            ("last_batch", status.lastBatch?.json ?? .null),
            ("last_committed", status.lastCommitted?.json ?? .null),
            ("held", .array(status.held.map(\.json))),
            ("last_import", status.lastImport?.json ?? .null),
            ("database_bytes", status.databaseBytes.map { .int($0) } ?? .null),
            ("courses_without_teacher", .int(status.coursesWithoutTeacher)),
        ])
    }

    /// The status in words. Values read from the database (times, reasons that name files) and
    /// the database path are shown visible (`VisibleText`).
    static func text(_ status: StoreStatus) -> String {
        let v = VisibleText.of
        var lines = ["Database: \(v(status.path)) (schema \(status.schemaVersion))"]
        lines.append(
            "Courses:  \(Format.number(status.liveCourses)) live, \(Format.number(status.deletedCourses)) deleted")
        lines.append("Tasks:    \(Format.number(status.liveTasks)) live, \(Format.number(status.deletedTasks)) deleted")
        if let last = status.lastCommitted {
            lines.append("Data as of: \(v(last.asOf)) (batch \(last.id), \(last.status.rawValue) \(v(last.finishedAt)))")
        } else {
            lines.append("Data as of: no data imported yet (next step: dashboard import imports/)")
        }
        if let last = status.lastBatch {
            var line =
                "Last import: batch \(last.id) \(last.status.rawValue) at \(v(last.finishedAt.isEmpty ? last.startedAt : last.finishedAt))"
            line += ": " + BatchCountWords.short(last.total, happened: BatchCountWords.happened(last.status))
            lines.append(line)
            if last.status == .failed { lines.append("  Failed because: \(v(last.reason))") }
        }
        for held in status.held {
            lines.append(
                "Held: batch \(held.id) waits for approval: \(v(held.heldBecause))"
            )
            lines.append("  Next step: dashboard batches show \(held.id), then approve \(held.id) or discard \(held.id)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
