import DashboardCore

/// `dashboard batches show ID`: one batch, and for a held one what approving it would do now,
/// row by row (`HeldBatchReading`).
extension BatchesCommand {
    /// Changes listed per kind and action when `--limit` is not given.
    static let defaultChangeLimit = 50

    static func show(_ id: Int, _ invocation: Invocation, format: String) throws -> ExitCode {
        let limit = invocation.arguments.integer("limit") ?? defaultChangeLimit
        guard let store = try openExistingStore(invocation) else {
            throw CommandError.store(.missing(path: invocation.global.databaseDisplay))
        }
        let log: any BatchReading = store
        guard let batch = try log.batch(id: id) else {
            throw CommandError(.dataError, "there is no batch \(id)", hint: "`dashboard batches list` shows the batches")
        }
        guard batch.status == .held else {
            try showRecord(batch, log, invocation, format: format, plan: nil)
            return .success
        }
        let held: any HeldBatchReading = store
        try held.readHeldPlan(batchID: id) { plan in
            try showRecord(batch, log, invocation, format: format, plan: (plan, limit))
        }
        return .success
    }

    /// The batch, its counts, (for a held batch) the plan, then its problems: streamed.
    private static func showRecord(
        _ batch: BatchRecord, _ log: any BatchReading, _ invocation: Invocation, format: String,
        plan: (reading: any HeldPlanReading, limit: Int)?
    ) throws {
        let id = batch.id
        if format == "json" {
            // Streamed from batch_problems one row at a time (docs/reliability.md).
            let writer = JSONStreamWriter { invocation.console.out($0) }
            try writer.pair("schema", .int(1))
            if case .object(let pairs) = batch.json {
                for (key, value) in pairs { try writer.pair(key, value) }
            }
            for severity in [ProblemSeverity.error, .warning] {
                try writer.array(severity == .error ? "rejects" : "warnings") { element in
                    try log.forEachProblem(batchID: id, severity: severity) { try element($0.json) }
                }
            }
            if let plan { try HeldPlanOutput.writeJSON(plan.reading, limit: plan.limit, to: writer) }
            try writer.end()
            return
        }
        // Everything read back from the database (the actor, the reason, file names) is shown
        // visible: it came from the command line and the files.
        let v = VisibleText.of
        var out =
            "Batch \(batch.id): \(batch.status.rawValue) (\(v(batch.command)), \(batch.mode.rawValue), max delete \(v(batch.maxDelete)))\n"
        out +=
            "Started \(v(batch.startedAt)), finished \(batch.finishedAt.isEmpty ? "-" : v(batch.finishedAt)), as of \(v(batch.asOf)), by \(batch.actor.isEmpty ? "unknown" : v(batch.actor))\n"
        if !batch.reason.isEmpty { out += "Reason: \(v(batch.reason))\n" }
        for file in batch.files {
            out +=
                "File: \(v(file.path)) (\(file.kind?.rawValue ?? "unknown kind"), \(file.size) bytes, \(file.rows) rows, sha256 \(v(file.sha256)))\n"
        }
        var rows = [BatchCountWords.tableHeader(happened: BatchCountWords.happened(batch.status))]
        for kind in FileKind.allCases {
            guard let c = batch.counts[kind] else { continue }
            rows.append([kind.rawValue] + [c.read, c.inserted, c.updated, c.unchanged, c.deleted, c.rejected, c.warnings].map(String.init))
        }
        out += TextTable.render(rows, rightAligned: Set(1...7))
        let flush = {
            if out.utf8.count >= JSONStreamWriter.flushThreshold {
                invocation.console.out(out)
                out = ""
            }
        }
        if let plan {
            try HeldPlanOutput.writeText(plan.reading, batchID: id, limit: plan.limit) { text in
                out += text
                flush()
            }
        }
        try log.forEachProblem(batchID: id, severity: nil) { problem in
            out += ImportInputs.styledProblem(problem, console: invocation.console) + "\n"
            flush()
        }
        invocation.console.out(out)
    }
}
