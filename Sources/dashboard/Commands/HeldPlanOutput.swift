import DashboardCore

/// The part of `dashboard batches show ID` that lists what approving a held batch would do:
/// the counts, then per kind and action (insert, restore, update, delete) the first `limit`
/// rows (0: all) with their changed fields, old → new. docs/imports.md ("Approve with eyes
/// open") documents both forms.
enum HeldPlanOutput {
    /// The sections in the order they are listed.
    static let sections: [(FileKind, PlannedChange.Action)] = FileKind.allCases.flatMap { kind in
        PlannedChange.Action.allCases.map { (kind, $0) }
    }

    // MARK: - Text

    /// Writes the text form to `out`, a section at a time (each row as it is read).
    static func writeText(_ plan: any HeldPlanReading, batchID: Int, limit: Int, to out: (String) -> Void) throws {
        let summary = plan.summary
        var text = "Approving it now would:\n"
        for kind in FileKind.allCases {
            guard let c = summary.counts[kind] else { continue }
            text +=
                "  \(kind.rawValue): insert \(c.inserted), update \(c.updated), leave \(c.unchanged) unchanged, delete \(c.deleted)"
            if kind == .tasks, summary.droppedTasks > 0 {
                text += ", reject \(summary.droppedTasks) more (their course was deleted after the batch was held)"
            }
            text += "\n"
        }
        if !summary.newerBatches.isEmpty {
            let ids = summary.newerBatches.map(String.init).joined(separator: ", ")
            text +=
                "  Batch\(summary.newerBatches.count == 1 ? "" : "es") \(ids) committed after this one: approving it needs --force.\n"
        }
        out(text)
        for (kind, action) in sections {
            let total = summary.total(kind, action)
            guard total > 0 else { continue }
            out("\(heading(kind, action, total: total)):\n")
            var shown = 0
            try plan.forEachChange(kind, action, limit: limit) { change in
                shown += 1
                out("  " + line(change) + "\n")
            }
            if shown < total { out("  … and \(Format.number(total - shown)) more (--limit 0 shows all)\n") }
        }
        let force = summary.newerBatches.isEmpty ? "" : " --force"
        out("Next step: dashboard batches approve \(batchID)\(force)   or   dashboard batches discard \(batchID)\n")
    }

    /// `Tasks it would update (3)`, `Courses it would restore (1, deleted before; counted as inserts)`.
    static func heading(_ kind: FileKind, _ action: PlannedChange.Action, total: Int) -> String {
        let noun = kind == .courses ? "Courses" : "Tasks"
        let count = Format.number(total)
        switch action {
        case .insert: return "\(noun) it would insert (\(count))"
        case .restore: return "\(noun) it would restore (\(count), deleted before; counted as inserts)"
        case .update: return "\(noun) it would update (\(count))"
        case .delete: return "\(noun) it would delete (\(count))"
        }
    }

    /// `t1  "Essay 1" (course bio): due "2026-12-01" → "2026-12-08"`. An insert or a delete
    /// lists the row's other non-empty values; a restore or an update the fields it changes.
    /// Values from the files and the database are shown visible (`VisibleText`).
    static func line(_ change: PlannedChange) -> String {
        let v = VisibleText.of
        var text = "\(v(change.id))  \"\(v(change.title))\""
        if change.kind == .tasks { text += " (course \(v(change.courseID)))" }
        let parts: [String]
        switch change.action {
        case .insert, .delete:
            parts = change.fields.compactMap { field in
                guard field.name != "title", field.name != "course_id", let value = field.new ?? field.old, !value.isEmpty else {
                    return nil
                }
                return "\(field.name) \(shown(field.name, value))"
            }
        case .restore, .update:
            parts = change.fields.map { "\($0.name) \(shown($0.name, $0.old ?? "")) → \(shown($0.name, $0.new ?? ""))" }
        }
        return parts.isEmpty ? text : text + ": " + parts.joined(separator: ", ")
    }

    /// A value as the text shows it: quoted and visible; `completed` bare (`true`, `false`).
    private static func shown(_ name: String, _ value: String) -> String {
        name == "completed" && (value == "true" || value == "false") ? value : "\"\(VisibleText.of(value))\""
    }

    // MARK: - JSON

    /// The held batch's `approve_*` keys (docs/json.md), the changes streamed one at a time.
    static func writeJSON(_ plan: any HeldPlanReading, limit: Int, to writer: JSONStreamWriter) throws {
        let summary = plan.summary
        try writer.pair("approve_would", ImportResultJSON.counts(summary.counts))
        try writer.pair("approve_dropped_tasks", .int(summary.droppedTasks))
        try writer.pair("approve_newer_batches", .array(summary.newerBatches.map { .int($0) }))
        try writer.pair(
            "approve_totals",
            .object(
                FileKind.allCases.map { kind in
                    (kind.rawValue, .object(PlannedChange.Action.allCases.map { ($0.rawValue, .int(summary.total(kind, $0))) }))
                }))
        try writer.pair("approve_limit", limit > 0 ? .int(limit) : .null)
        try writer.array("approve_changes") { element in
            for (kind, action) in sections where summary.total(kind, action) > 0 {
                try plan.forEachChange(kind, action, limit: limit) { try element($0.json) }
            }
        }
    }
}
