import DashboardCore
import Foundation

/// `dashboard reclassify TASK --to BUCKET --reason TEXT [--until DATE]`
enum ReclassifyCommand: Command {
    static let spec = CommandSpec(
        name: "reclassify",
        usage: "dashboard reclassify TASK --to BUCKET --reason TEXT [--until DATE] [--actor NAME]",
        abstract: "Pin a task to a bucket by hand (a manual override), optionally until a date.",
        discussion: """
            BUCKET is overdue, today, upcoming, undated or completed. The override survives later
            imports (an import that changes the task records a conflict and keeps it, unless run
            with --override-manual) and `categorize`, until --until passes: a date means the end
            of that day in the course's time zone. `dashboard revert ENTRY` undoes it.
            """,
        examples: [
            "dashboard reclassify T1042 --to upcoming --reason \"extension granted by Ms Adams\" --until 2026-12-06",
            "dashboard reclassify T7 --to completed --reason \"handed in on paper\" --actor adams",
        ],
        options: [
            .value(
                "to", "BUCKET", "the bucket to pin: overdue, today, upcoming, undated or completed",
                kind: .choice(Bucket.allCases.map(\.rawValue))),
            .value("reason", "TEXT", "why (required; kept in the audit log)", kind: .reason),
            .value("until", "DATE", "when the override expires: a date (end of that day), a local time or an instant"),
            .value("actor", "NAME", "who decides (default: $USER)"),
            .value("format", "text|json", "text (default) or json: the new audit entry on stdout"),
            .value("wait", "SECONDS", "wait this long for a running import (default 0: exit 75)", kind: .waitSeconds),
        ])

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let format = format(invocation)
        let task = try positionals(invocation, count: 1, names: "TASK (a task_id)")[0]
        guard let bucket = invocation.arguments.choice("to", as: Bucket.self) else {
            throw CommandError.usage("missing --to BUCKET", command: spec.name)
        }
        guard let reason = invocation.arguments.value("reason") else {
            throw CommandError.usage("missing --reason TEXT: say why the task is reclassified", command: spec.name)
        }
        let store = try openExistingStoreForWriting(invocation, wait: waitSeconds(invocation))
        let zone = try defaultZone(store, invocation)
        let entry: AuditEntry
        do {
            entry = try ManualOverride(store: store).reclassify(
                taskID: task, to: bucket, reason: reason, until: invocation.arguments.value("until"),
                actor: GlobalOptions.actor(invocation.arguments, environment: invocation.environment), asOf: invocation.global.asOf,
                defaultTimeZone: zone)
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
}
