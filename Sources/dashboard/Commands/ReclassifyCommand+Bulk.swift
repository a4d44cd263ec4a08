import DashboardCore
import Foundation

/// Bulk `dashboard reclassify`: the report's selection options instead of a TASK.
///
/// Policy (docs/categorization.md, "Bulk reclassify (a snow day)"): without `--yes` a preview on a read-only store
/// (nothing written, not even a migration); with `--yes` the store selects again under the
/// write lock and pins exactly that selection, or, with `--confirm TOKEN`, refuses (65) when
/// it is no longer the previewed one. An empty selection is not an error (exit 0): a script
/// that runs the same change every morning gets 0 when there is nothing to do.
extension ReclassifyCommand {
    static func runBulk(_ invocation: Invocation) throws -> ExitCode {
        let args = invocation.arguments
        guard let bucket = args.choice("to", as: Bucket.self) else {
            throw CommandError.usage("missing --to BUCKET", command: spec.name)
        }
        guard let reason = args.value("reason") else {
            throw CommandError.usage("missing --reason TEXT: say why the tasks are reclassified", command: spec.name)
        }
        let confirm = args.value("confirm")
        if confirm != nil, !args.has("yes") {
            throw CommandError.usage("--confirm TOKEN goes with --yes (without --yes nothing is written anyway)", command: spec.name)
        }
        var query = try ReportCommand.selection(args)
        query.displayTimeZone = invocation.global.timeZone
        let asOf = invocation.global.asOf
        let console = invocation.console
        let json = format(invocation) == "json"
        let until = args.value("until")

        guard args.has("yes") else {
            guard let store = try openExistingStore(invocation) else {
                throw CommandError.store(.missing(path: invocation.global.databaseDisplay))
            }
            let selection = BulkSelection(
                query: query, bucket: bucket, until: until, asOf: asOf, defaultTimeZone: try defaultZone(store, invocation))
            let plan: BulkPlan
            do {
                plan = try ManualOverride.preview(store, selection: selection, reason: reason)
            } catch let error as AuditError {
                throw auditFailure(error)
            }
            console.out(render(plan, reason: reason, applied: false, json: json))
            console.note(previewSummary(plan, query: query))
            // A teacher's role that may only read is not sent to a --yes the server would refuse.
            if !plan.pinned.isEmpty, let role = try store.restrictedRole(), !role.mayReclassify {
                let name = VisibleText.of(role.name)
                console.warning(
                    "role \(name) may only read: its grant lets it read its courses, not pin their tasks, so --yes would be refused; the administrator can give it that right: `dashboard access grant-teacher \(name) --teacher NAME --reclassify`"
                )
            }
            return .success
        }

        let store = try openExistingStoreForWriting(invocation, wait: waitSeconds(invocation))
        let selection = BulkSelection(
            query: query, bucket: bucket, until: until, asOf: asOf, defaultTimeZone: try defaultZone(store, invocation))
        let actor = try Self.actor(invocation, store: store)
        let plan: BulkPlan
        do {
            plan = try ManualOverride(store: store).reclassify(selection: selection, reason: reason, actor: actor, confirm: confirm)
        } catch .selectionChanged(let given, let now, let changed) {
            // The selection as it is now, so the user sees what they would apply.
            console.out(render(now, reason: reason, applied: false, json: json))
            throw CommandError(
                .dataError,
                "the selection changed since the preview (--confirm \(given), now \(now.token))\(changedWords(changed, now)); nothing was written",
                hint:
                    "review the \(taskCount(now.tasks.count)) listed above; to pin \(now.pinned.count == 1 ? "it" : "them"), run again with --yes --confirm \(now.token)"
            )
        } catch {
            throw auditFailure(error)
        }
        console.out(render(plan, reason: reason, applied: true, json: json))
        console.note(appliedSummary(plan, query: query))
        return .success
    }

    // MARK: - Words

    /// The tasks changed since the preview that are selected now (at most 10 named), and how
    /// many other changed tasks are not; or what else moves a selection.
    static func changedWords(_ changed: [String]?, _ now: BulkPlan) -> String {
        guard let changed else { return "" }
        let selected = Dictionary(now.tasks.map { ($0.taskID, $0) }, uniquingKeysWith: { first, _ in first })
        let named = changed.compactMap { id in selected[id].map { "\(id) (\($0.from.rawValue) now)" } }
        let others = changed.count - named.count
        var words: [String] = []
        if !named.isEmpty {
            words.append(
                "changed since: " + named.prefix(10).joined(separator: ", ") + (named.count > 10 ? " and \(named.count - 10) more" : ""))
        }
        if others > 0 { words.append("\(taskCount(others)) not selected now changed too") }
        if changed.isEmpty { words.append("no task changed since: the clock or a course moved the selection") }
        return "; " + words.joined(separator: "; ")
    }

    /// "1 task", "3 tasks".
    static func taskCount(_ count: Int) -> String { "\(count) task\(count == 1 ? "" : "s")" }

    /// "upcoming until 2026-12-06", or the bucket alone.
    static func target(_ plan: BulkPlan) -> String { plan.bucket.rawValue + (plan.until.isEmpty ? "" : " until \(plan.until)") }

    /// ", 2 already pinned so (skipped)", or nothing.
    static func skippedWords(_ plan: BulkPlan) -> String {
        plan.skippedCount == 0 ? "" : "; \(plan.skippedCount) already pinned so, skipped"
    }

    /// The preview's line on stderr: what `--yes` would do and the token to apply exactly it.
    static func previewSummary(_ plan: BulkPlan, query: ReportQuery) -> String {
        if plan.tasks.isEmpty {
            return
                "nothing to reclassify: no task matches \(query.describedNarrowing) (`dashboard report list` with the same options lists the same tasks)"
        }
        if plan.pinned.isEmpty {
            return
                "nothing to reclassify: the \(taskCount(plan.tasks.count)) selected \(plan.tasks.count == 1 ? "is" : "are") already pinned to \(target(plan))"
        }
        return
            "would pin \(taskCount(plan.pinned.count)) to \(target(plan))\(skippedWords(plan)); nothing was written: run again with --yes --confirm \(plan.token) to pin exactly these"
    }

    /// The line on stderr after `--yes`: the group and how to undo it.
    static func appliedSummary(_ plan: BulkPlan, query: ReportQuery) -> String {
        guard let group = plan.groupID else { return previewSummary(plan, query: query) }
        let entries = plan.pinned.compactMap(\.entryID)
        let range = entries.count == 1 ? "entry \(entries[0])" : "entries \(entries.min() ?? 0)–\(entries.max() ?? 0)"
        return
            "group \(group): pinned \(taskCount(entries.count)) to \(target(plan)) (\(range))\(skippedWords(plan)); undo with `dashboard revert --group \(group)`"
    }

    // MARK: - Output

    /// The selected tasks: a table in text (TASK, COURSE, TITLE, FROM, TO), or one JSON object
    /// (docs/json.md, "Bulk reclassify").
    static func render(_ plan: BulkPlan, reason: String, applied: Bool, json: Bool) -> String {
        if json { return self.json(plan, reason: reason, applied: applied).rendered() + "\n" }
        guard !plan.tasks.isEmpty else { return "No task matches the selection.\n" }
        let rows = plan.tasks.map { task in
            [
                task.taskID, task.courseCode, task.title, task.from.rawValue,
                task.skipped ? "skipped (already pinned)" : plan.bucket.rawValue,
            ]
        }
        return TextTable.render([["TASK", "COURSE", "TITLE", "FROM", "TO"]] + rows)
    }

    static func json(_ plan: BulkPlan, reason: String, applied: Bool) -> JSONValue {
        .object([
            ("schema", .int(1)), ("applied", .bool(applied && plan.groupID != nil)), ("group", plan.groupID.map { .int($0) } ?? .null),
            ("to", .string(plan.bucket.rawValue)), ("until", plan.until.isEmpty ? .null : .string(plan.until)),
            ("reason", .string(reason.trimmingUnicodeWhitespace())), ("confirm", .string(plan.token)),
            ("selected", .int(plan.tasks.count)), ("to_pin", .int(plan.pinned.count)), ("skipped", .int(plan.skippedCount)),
            (
                "tasks",
                .array(
                    plan.tasks.map { task in
                        .object([
                            ("task_id", .string(task.taskID)), ("course_id", .string(task.courseID)),
                            ("course_code", .string(task.courseCode)), ("title", .string(task.title)),
                            ("from", .string(task.from.rawValue)), ("to", .string(plan.bucket.rawValue)), ("skipped", .bool(task.skipped)),
                            ("entry_id", task.entryID.map { .int($0) } ?? .null),
                        ])
                    })
            ),
        ])
    }
}
