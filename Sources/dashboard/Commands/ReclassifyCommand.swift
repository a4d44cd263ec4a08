import DashboardCore
import Foundation

/// `dashboard reclassify TASK --to BUCKET --reason TEXT [--until DATE]`, or with the report's
/// selection options instead of TASK: a preview, then `--yes` (ReclassifyCommand+Bulk.swift).
enum ReclassifyCommand: Command {
    static let spec = CommandSpec(
        name: "reclassify",
        usage:
            "dashboard reclassify TASK|SELECTION --to BUCKET --reason TEXT [--until DATE] [--yes [--confirm TOKEN]] [--actor NAME]",
        abstract: "Pin a task (or every task a selection gives) to a bucket by hand, optionally until a date.",
        discussion: """
            BUCKET is overdue, today, upcoming, undated, completed or excused (excused: the
            student is excused from the task; it is never overdue and never counted as missing).
            The override survives later imports (an import that changes the task records a
            conflict and keeps it, unless run with --override-manual; an import that says the task
            is excused agrees with an excused pin: no conflict) and `categorize`, until --until
            passes: a date means the end of that day in the course's time zone.
            `dashboard revert ENTRY` undoes it.
            SELECTION: instead of TASK, the search and filters of `dashboard report list`
            (--search, --course, --teacher, --student, --bucket, --priority,
            --include-completed, ...) select exactly the tasks that report lists, as of --as-of.
            Without --yes nothing is written: the tasks are listed (id, course, title, from → to)
            with a confirmation token. --yes pins them in one transaction, one audit entry each,
            all in one group: `dashboard revert --group G` undoes it. With --confirm TOKEN (the
            preview's), a selection that changed since the preview is refused (65) and shown as
            it is now; nothing is written. A task already pinned to BUCKET with the same end is
            skipped. At most \(BulkReclassify.taskLimit) tasks at once.
            """,
        examples: [
            "dashboard reclassify T1042 --to upcoming --reason \"extension granted by Ms Adams\" --until 2026-12-06",
            "dashboard reclassify T7 --to completed --reason \"handed in on paper\" --actor adams",
            "dashboard reclassify T7 --to excused --reason \"medical note\" --until 2026-12-18",
            "dashboard reclassify --course MATH101 --bucket overdue --bucket today --to upcoming --reason \"snow day\" --until 2026-12-06",
            "dashboard reclassify --course MATH101 --bucket overdue --bucket today --to upcoming --reason \"snow day\" --until 2026-12-06 --yes --confirm c8d15562ea2b.7.1",
        ],
        options: [
            .value(
                "to", "BUCKET", "the bucket to pin: overdue, today, upcoming, undated, completed or excused",
                kind: .choice(Bucket.pinnable.map(\.rawValue))),
            .value("reason", "TEXT", "why (required; kept in the audit log)", kind: .reason),
            .value("until", "DATE", "when the override expires: a date (end of that day), a local time or an instant"),
            .value("actor", "NAME", "who decides (default: $USER, else the name of the user running it; a teacher's role: itself)"),
            .value("format", "text|json", "text (default) or json: the new audit entry, or the selected tasks, on stdout"),
            .value("wait", "SECONDS", "wait this long for a running import (default 0: exit 75)", kind: .waitSeconds),
        ] + ReportCommand.selectionOptions + [
            .flag("yes", "with a selection: pin the selected tasks (without it: only list them)"),
            .value("confirm", "TOKEN", "with --yes: apply only if the selection is still the preview's (its token)"),
        ])

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let format = format(invocation)
        let args = invocation.arguments
        if selects(args) {
            guard args.positionals.isEmpty else {
                throw CommandError.usage(
                    "give either a TASK or selection options (--course, --bucket, ...), not both", command: spec.name)
            }
            return try runBulk(invocation)
        }
        for name in ["yes", "confirm"] where args.values[name] != nil || args.has(name) {
            throw CommandError.usage(
                "--\(name) goes with selection options (--course, --bucket, ...), not with one TASK", command: spec.name)
        }
        let task = try positionals(invocation, count: 1, names: "TASK (a task_id) or selection options (--course, --bucket, ...)")[0]
        guard let bucket = invocation.arguments.choice("to", as: Bucket.self) else {
            throw CommandError.usage("missing --to BUCKET", command: spec.name)
        }
        guard let reason = invocation.arguments.value("reason") else {
            throw CommandError.usage("missing --reason TEXT: say why the task is reclassified", command: spec.name)
        }
        let store = try openExistingStoreForWriting(invocation, wait: waitSeconds(invocation))
        let zone = try defaultZone(store, invocation)
        let actor = try Self.actor(invocation, store: store)
        let entry: AuditEntry
        do {
            entry = try ManualOverride(store: store).reclassify(
                taskID: task, to: bucket, reason: reason, until: invocation.arguments.value("until"), actor: actor,
                asOf: invocation.global.asOf, defaultTimeZone: zone)
        } catch {
            throw auditFailure(error)
        }
        if format == "json" { invocation.console.out(entry.json.rendered() + "\n") }
        let until = entry.overrideUntil.isEmpty ? "" : " until \(entry.overrideUntil)"
        invocation.console.note(
            "entry \(entry.id): task \(task) pinned to \(entry.toBucket)\(until) (was \(entry.fromBucket.isEmpty ? "none" : entry.fromBucket)); undo with `dashboard revert \(entry.id)`"
        )
        return .success
    }

    /// True when the arguments select tasks by the report's options instead of naming a TASK.
    static func selects(_ args: ParsedArguments) -> Bool {
        ReportCommand.selectionOptions.contains { args.values[$0.name] != nil || args.has($0.name) }
    }
}
