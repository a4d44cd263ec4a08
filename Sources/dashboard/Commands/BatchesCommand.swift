import DashboardCore
import Foundation

/// `dashboard batches list|show ID|approve ID|discard ID`
enum BatchesCommand: Command {
    static let spec = CommandSpec(
        name: "batches",
        usage: "dashboard batches list | show ID | approve ID | discard ID",
        abstract: "List import batches; show, approve or discard a held one.",
        discussion: """
            A sync that would delete more than --max-delete allows is held: nothing is written
            until it is approved or discarded. `show` of a held batch also says what approving it
            would change now, course by course and task by task (changed fields old → new, paged with
            --limit); `approve` plans it again against the database as it is now and applies exactly that.
            Counts of a batch that changed nothing (dry_run, held, failed, discarded, approved) read
            "would insert / would update / would delete".
            ID is a whole number from \(OptionValueKind.identifier.rangeText ?? "1").
            """,
        examples: [
            "dashboard batches list",
            "dashboard batches show 7",
            "dashboard batches show 7 --limit 0 --format json",
            "dashboard batches approve 7 --actor alice",
            "dashboard batches discard 7",
        ],
        verbs: [
            .init(
                name: "list", arguments: nil, abstract: "Every batch, newest first: id, status, mode, as-of, counts.",
                options: [format, limit]),
            .init(
                name: "show", arguments: "ID",
                abstract:
                    "One batch: files (size, SHA-256), counts, every reject and warning; for a held one, what approving it would change.",
                options: [format, changeLimit]),
            .init(
                name: "approve", arguments: "ID", abstract: "Apply a held batch (planned again against the database as it is now).",
                options: [format, wait, actor, force, reports, keep]),
            .init(
                name: "discard", arguments: "ID", abstract: "Drop a held batch's rows; the batch stays recorded as discarded.",
                options: [format, wait, actor, reports, keep]),
        ])

    static let format = OptionSpec.value("format", "text|json", "text (default) or json")
    static let limit = OptionSpec.value("limit", "N", "show the N newest batches", kind: .integer(1...1_000_000))
    static let changeLimit = OptionSpec.value(
        "limit", "N", "list at most N courses or tasks of each kind and change of a held batch (default 50; 0: all)",
        kind: .integer(0...1_000_000))
    static let wait = OptionSpec.value("wait", "SECONDS", "wait this long for another writer", kind: .waitSeconds)
    static let actor = OptionSpec.value("actor", "NAME", "who decides (default: $USER, else the name of the user running it)")
    static let force = OptionSpec.flag("force", "even when other batches committed after the held one")
    static let reports = OptionSpec.value(
        "reports", "DIR", "then write the night's reports again into DIR/<as-of date>/, as `nightly --reports DIR` does")
    static let keep = OptionSpec.value(
        "keep", "DAYS", "with --reports: keep the dated folders of the last DAYS days (default 30)",
        kind: .integer(ReportRetention.keepRange))

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let format = format(invocation)
        let args = invocation.arguments.positionals
        guard let action = args.first else {
            throw CommandError.usage("missing action: list, show ID, approve ID or discard ID", command: spec.name)
        }
        switch action {
        case "list":
            _ = try positionals(invocation, count: 1, names: "")
            return try list(invocation, format: format)
        case "show", "approve", "discard":
            let given = try positionals(invocation, count: 2, names: "batch ID")
            let id = try identifier(given[1], label: "batch ID")
            if action == "show" { return try show(id, invocation, format: format) }
            return try decide(action, id, invocation, format: format)
        default:
            throw CommandError.usage("unknown action \"\(action)\": use list, show ID, approve ID or discard ID", command: spec.name)
        }
    }

    private static func list(_ invocation: Invocation, format: String) throws -> ExitCode {
        let limit = invocation.arguments.integer("limit") ?? -1
        guard let opened = try openExistingStore(invocation) else {
            throw CommandError.store(.missing(path: invocation.global.databaseDisplay))
        }
        let log: any BatchReading = opened
        // Streamed one batch at a time, in every format (docs/reliability.md).
        let console = invocation.console
        if format == "json" {
            let writer = JSONStreamWriter { console.out($0) }
            try writer.pair("schema", .int(1))
            try writer.array("batches") { element in try log.forEachBatch(limit: limit) { try element($0.json) } }
            try writer.end()
            return .success
        }
        // Two passes: the column widths, then the lines.
        let header = ["ID", "COMMAND", "STATUS", "MODE", "AS OF", "READ", "INS", "UPD", "DEL", "REJ", "WARN"]
        let rightAligned = Set(5...10).union([0])
        var widths = header.map(\.count)
        // One `read` (one snapshot): both passes see the same batches.
        var any = false
        var anyUnhappened = false
        try log.read {
            try log.forEachBatch(limit: limit) { batch in
                any = true
                if !BatchCountWords.happened(batch.status) { anyUnhappened = true }
                for (i, cell) in listRow(batch).enumerated() { widths[i] = max(widths[i], TextTable.width(cell)) }
            }
            guard any else { return }
            var out = TextTable.line(header, widths: widths, rightAligned: rightAligned) + "\n"
            try log.forEachBatch(limit: limit) { batch in
                out += TextTable.line(listRow(batch), widths: widths, rightAligned: rightAligned) + "\n"
                if out.utf8.count >= JSONStreamWriter.flushThreshold {
                    console.out(out)
                    out = ""
                }
            }
            if anyUnhappened { out += BatchCountWords.listFootnote }
            console.out(out)
        }
        if !any { console.out("No batches yet. Next step: dashboard import imports/\n") }
        return .success
    }

    /// One row of the list; the INS/UPD/DEL of a batch that changed nothing in parentheses.
    private static func listRow(_ b: BatchRecord) -> [String] {
        let t = b.total
        let happened = BatchCountWords.happened(b.status)
        return [
            String(b.id), b.command, b.status.rawValue, b.command == "revert" ? "-" : b.mode.rawValue, b.asOf, String(t.read),
            BatchCountWords.listCell(t.inserted, happened: happened), BatchCountWords.listCell(t.updated, happened: happened),
            BatchCountWords.listCell(t.deleted, happened: happened), String(t.rejected), String(t.warnings),
        ]
    }

    private static func decide(_ action: String, _ id: Int, _ invocation: Invocation, format: String) throws -> ExitCode {
        let reportsDir = invocation.arguments.value("reports")
        if reportsDir == nil, invocation.arguments.value("keep") != nil {
            throw CommandError.usage("--keep goes with --reports DIR", command: spec.name)
        }
        // Checked before the decision, so that nothing is decided for reports that could not be written.
        let outputs = try reportsDir.map { try NightlyCommand.checkReportFolders(invocation, imports: nil, reports: $0) }
        let store = try openExistingStoreForWriting(invocation, wait: waitSeconds(invocation))
        let actor = try GlobalOptions.actor(invocation.arguments, environment: invocation.environment)
        do {
            if action == "approve" {
                let result = try store.approveHeld(
                    batchID: id, asOf: invocation.global.asOf, actor: actor, timeZone: try defaultZone(store, invocation),
                    force: invocation.arguments.has("force"), clock: SystemClock())
                try ImportInputs.report(result, invocation: invocation, format: format, verb: "approve:")
            } else {
                let record = try store.discardHeld(batchID: id, actor: actor, clock: SystemClock())
                if format == "json" {
                    invocation.console.out(record.json.rendered() + "\n")
                }
                invocation.console.note("batch \(id) discarded; nothing was changed")
            }
        } catch let failure as ImportFailure {
            throw try ImportInputs.failure(failure, invocation: invocation, format: "text")
        }
        if let reportsDir, let outputs {
            try rewriteReports(store, into: reportsDir, outputs: outputs, invocation)
        }
        return .success
    }

    /// `approve|discard --reports DIR`: the night's reports written again, now without the
    /// held batch's banner (and with its changes, when approved).
    private static func rewriteReports(_ store: any NightlyStore, into root: String, outputs: OutputPathGuard, _ invocation: Invocation)
        throws
    {
        let global = invocation.global
        let reports = NightlyJob.Reports(
            root: root, keepDays: invocation.arguments.integer("keep") ?? ReportRetention.defaultKeep,
            fileSystem: LocalReportFileSystem(protecting: outputs.protectedFiles, modes: invocation.fileModes), wording: .commandLine,
            displayTimeZone: global.timeZone, modes: invocation.fileModes)
        do {
            let written = try NightlyJob.writeReports(
                store, reports: reports, asOf: global.asOf, timeZone: try defaultZone(store, invocation), noExport: false,
                clock: SystemClock())
            var note = "reports: \(written.count) files in \(VisibleText.of(written.folder))"
            if written.unassignedCourses > 0 {
                note += "; " + NightlyCommand.unassignedWords(written.unassignedCourses, in: TeacherIndex.folder)
            }
            invocation.console.note(note)
        } catch let error as ReportWriteError {
            throw CommandError(
                .ioError, "the batch was decided, but the reports could not be written: \(error)",
                hint: "check that \(root) can be written, then run `dashboard nightly` or this command's --reports again")
        } catch {
            throw CommandError.store(store.storeError(for: error))
        }
    }
}

/// Left/right-aligned plain text columns. Cells hold values of the data (ids, actors,
/// reasons, times read back from the database): each is shown visible (`VisibleText`), so a
/// cell never moves the cursor, breaks its row or reorders the columns.
enum TextTable {
    static func render(_ rows: [[String]], rightAligned: Set<Int> = []) -> String {
        let rows = rows.map { $0.map(VisibleText.of) }
        guard let first = rows.first else { return "" }
        var widths = [Int](repeating: 0, count: first.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        return rows.map { line($0, widths: widths, rightAligned: rightAligned) }.joined(separator: "\n") + "\n"
    }

    /// One line of a table whose column widths are known (a table streamed in two passes:
    /// widths first, then lines), without its line break.
    /// Cells are shown visible here too (`VisibleText.of` is idempotent), so a streamed table
    /// is as safe as a rendered one.
    static func line(_ row: [String], widths: [Int], rightAligned: Set<Int> = []) -> String {
        row.map(VisibleText.of).enumerated().map { i, cell in
            let pad = String(repeating: " ", count: max(0, (i < widths.count ? widths[i] : 0) - cell.count))
            return rightAligned.contains(i) ? pad + cell : (i == row.count - 1 ? cell : cell + pad)
        }.joined(separator: "  ").trailingSpacesRemoved
    }

    /// The width a cell takes in `line`: that of its visible form.
    static func width(_ cell: String) -> Int { VisibleText.of(cell).count }
}

extension String {
    /// The line without the spaces an empty last cell leaves at its end.
    fileprivate var trailingSpacesRemoved: String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
