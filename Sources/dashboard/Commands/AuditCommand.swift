import DashboardCore
import Foundation

/// `dashboard audit [--task ID] [--course ID] [--cause C] [--since T] [--conflicts] [--batch ID] [--group G]`
enum AuditCommand: Command {
    static let spec = CommandSpec(
        name: "audit",
        usage:
            "dashboard audit [--task ID] [--course ID] [--cause CAUSE] [--since TIME] [--conflicts] [--batch ID] [--group G] [--format text|json|csv]",
        abstract: "List audit log entries: every bucket change, override, delete, restore and revert.",
        discussion: """
            Entries are listed oldest first, with their id (for `dashboard revert ID`), when they
            were recorded and as of when, the task (its id and title) and course, the bucket before
            and after, the cause (time, import, override, delete, restore, revert), who and why,
            the batch, the group of a bulk reclassify (for `dashboard revert --group G`), and which
            entry each reverts or is reverted by. Filters combine with AND; --task, --course and
            --cause may repeat. The log is append-only; the title is the task's as it is now.
            """,
        examples: [
            "dashboard audit --task T1042",
            "dashboard audit --cause override --since 2026-11-01",
            "dashboard audit --conflicts --format json",
            "dashboard audit --group 3",
            "dashboard audit --course MATH101 --format csv > audit.csv",
        ],
        options: [
            .value("task", "ID", "only this task (repeatable)", repeatable: true),
            .value("course", "ID", "only tasks of this course (repeatable)", repeatable: true),
            .value(
                "cause", "CAUSE", "only this cause: time, import, override, delete, restore, revert (repeatable)", repeatable: true,
                kind: .choice(AuditCause.allCases.map(\.rawValue))),
            .value("since", "TIME", "only entries recorded at or after TIME (a date is its start, in --timezone)"),
            .flag("conflicts", "only imports that changed a task an override pins"),
            .value("batch", "ID", "only entries of this batch", kind: .identifier),
            .value("group", "G", "only entries of this bulk reclassify group", kind: .identifier),
            .value("format", "text|json|csv", "text (default), json or csv"),
        ])

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let format = format(invocation)
        _ = try positionals(invocation, count: 0, names: "")
        let args = invocation.arguments
        var filter = AuditFilter()
        filter.taskIDs = args.all("task")
        filter.courseIDs = args.all("course")
        filter.causes = args.choices("cause", as: AuditCause.self)
        if let since = args.value("since") {
            guard let instant = Timestamp.parse(since, timeZone: invocation.global.timeZone) else {
                throw CommandError.usage("--since \"\(since)\" \(Timestamp.whyUnreadable(since))", command: spec.name)
            }
            filter.since = instant
        }
        filter.batchID = args.integer("batch")
        filter.groupID = args.integer("group")
        filter.conflictsOnly = args.has("conflicts")
        guard let opened = try openExistingStore(invocation) else {
            throw CommandError.store(.missing(path: invocation.global.databaseDisplay))
        }
        let log: any AuditReading = opened
        // Every format streams the log one entry at a time (docs/reliability.md).
        let console = invocation.console
        switch format {
        case "json":
            let writer = JSONStreamWriter { console.out($0) }
            try writer.pair("schema", .int(1))
            try writer.array("entries") { element in try AuditBirth.forEachEntry(log, filter) { try element($0.worded(.commandLine).json) }
            }
            try writer.end()
        case "csv":
            var out = CSVWriter.line(AuditEntry.csvHeader)
            try AuditBirth.forEachEntry(log, filter) { entry in
                out += CSVWriter.line(entry.worded(.commandLine).csvRow)
                if out.utf8.count >= JSONStreamWriter.flushThreshold {
                    console.out(out)
                    out = ""
                }
            }
            console.out(out)
        default:
            // Two passes over the log: the column widths, then the lines.
            let header = ["ID", "RECORDED", "TASK", "TITLE", "COURSE", "FROM", "TO", "CAUSE", "ACTOR", "BATCH", "GROUP", "NOTE"]
            var widths = header.map(\.count)
            // One `read` (one snapshot): both passes see the same entries.
            var any = false
            try log.read {
                try AuditBirth.forEachEntry(log, filter) { entry in
                    any = true
                    for (i, cell) in textRow(entry).enumerated() { widths[i] = max(widths[i], TextTable.width(cell)) }
                }
                guard any else { return }
                var out = TextTable.line(header, widths: widths, rightAligned: [0]) + "\n"
                try AuditBirth.forEachEntry(log, filter) { entry in
                    out += TextTable.line(textRow(entry), widths: widths, rightAligned: [0]) + "\n"
                    if out.utf8.count >= JSONStreamWriter.flushThreshold {
                        console.out(out)
                        out = ""
                    }
                }
                console.out(out)
            }
            if !any { console.out("No audit entries match.\n") }
        }
        return .success
    }

    /// One line of the text table.
    private static func textRow(_ e: AuditEntry) -> [String] {
        var note = e.derived ? e.derivedNote : e.worded(.commandLine).reason
        if let reverts = e.revertsEntry { note = "reverts \(reverts)" + (note.isEmpty ? "" : "; " + note) }
        if !e.revertedBy.isEmpty {
            note += (note.isEmpty ? "" : "; ") + "reverted by \(e.revertedBy.map(String.init).joined(separator: ", "))"
        }
        if e.conflict { note = "CONFLICT: " + note }
        if !e.overrideUntil.isEmpty { note += (note.isEmpty ? "" : "; ") + "until \(e.overrideUntil)" }
        return [
            e.derived ? "-" : String(e.id), e.recordedAt, e.taskID, e.taskTitle.isEmpty ? "-" : e.taskTitle, e.courseID,
            e.fromBucket.isEmpty ? "-" : e.fromBucket, e.toBucket, e.cause.rawValue, e.actor, e.batchID.map(String.init) ?? "-",
            e.groupID.map(String.init) ?? "-", note,
        ]
    }
}
