import Foundation

/// A recorded import batch, as `dashboard batches` shows it.
package struct BatchRecord: Sendable, Equatable {
    package var id: Int
    package var command: String
    package var startedAt: String
    package var finishedAt: String
    package var asOf: String
    package var mode: ImportMode
    package var status: BatchStatus
    package var reason: String
    package var maxDelete: String
    package var actor: String
    package var counts: [FileKind: ImportCounts]
    package var files: [ImportedFile]
    /// The run's reading options (`batches.options`); nil when the stored text is neither of
    /// the forms `BatchOptions` reads.
    package var options: BatchOptions? = BatchOptions()

    package var total: ImportCounts { counts.values.reduce(ImportCounts(), +) }

    /// Why the delete guard held the batch: its stored reason without what follows the guard's
    /// (`ImportMessages.held`), whichever shell worded that.
    package var heldBecause: String { ImportMessages.heldBecause(reason) }
}

/// Reads and writes the `batches` tables.
enum BatchLog {
    static func begin(
        _ database: Database, command: String, startedAt: Date, options: ImportOptions, status: BatchStatus = .running
    ) throws -> Int {
        try database.int(
            """
            INSERT INTO batches (command, started_at, as_of, mode, status, max_delete, options, actor)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING batch_id
            """,
            [
                command, Timestamp.text(startedAt), Timestamp.text(options.asOf), options.mode.rawValue, status.rawValue,
                options.maxDelete.description, BatchOptions(options).storedText, options.actor,
            ])
    }

    static func finish(_ database: Database, batchID: Int, status: BatchStatus, reason: String, finishedAt: Date) throws {
        try database.run(
            "UPDATE batches SET status = ?, reason = ?, finished_at = ? WHERE batch_id = ?",
            [status.rawValue, reason, Timestamp.text(finishedAt), batchID])
    }

    static func record(
        _ database: Database, batchID: Int, counts: [FileKind: ImportCounts], files: [ImportedFile], problems: [ImportProblem]
    ) throws {
        try record(database, batchID: batchID, counts: counts, files: files, problems: ProblemSpool(problems))
    }

    /// Records the tasks batch `batchID` created, per bucket (SPEC §6: births are counted per
    /// batch, not written per task).
    static func recordBirths(_ database: Database, batchID: Int, births: [String: Int]) throws {
        for (bucket, tasks) in births.sorted(by: { $0.key < $1.key }) where tasks > 0 {
            // Once per batch: a second call is a bug, refused by the primary key.
            try database.run("INSERT INTO batch_births (batch_id, bucket, tasks) VALUES (?1, ?2, ?3)", [batchID, bucket, tasks])
        }
    }

    /// The births of batch `batchID` per bucket (empty for a batch that created no task, or one
    /// from before births were counted: its `import` entries say it).
    static func births(_ database: Database, batchID: Int) throws -> [String: Int] {
        var births: [String: Int] = [:]
        let statement = try database.cached("SELECT bucket, tasks FROM batch_births WHERE batch_id = ? ORDER BY bucket")
        let (bucket, tasks) = (try statement.columnPositions.position("bucket"), try statement.columnPositions.position("tasks"))
        try statement.forEachRow([batchID]) { row in births[row.string(bucket) ?? ""] = row.int(tasks) }
        return births
    }

    /// Records a batch's counts, files and problems; the problems are copied from the spool
    /// one at a time (a batch of 1,000,000 rejected rows never sits in memory).
    static func record(
        _ database: Database, batchID: Int, counts: [FileKind: ImportCounts], files: [ImportedFile], problems: ProblemSpool
    ) throws {
        try database.run("DELETE FROM batch_counts WHERE batch_id = ?", [batchID])
        for (kind, c) in counts.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try database.run(
                "INSERT INTO batch_counts (batch_id, kind, read, inserted, updated, unchanged, deleted, rejected, warnings) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [batchID, kind.rawValue, c.read, c.inserted, c.updated, c.unchanged, c.deleted, c.rejected, c.warnings])
        }
        try database.run("DELETE FROM batch_files WHERE batch_id = ?", [batchID])
        for (position, file) in files.enumerated() {
            try database.run(
                "INSERT INTO batch_files (batch_id, position, path, kind, size, sha256, rows) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [batchID, position + 1, file.path, file.kind?.rawValue, file.size, file.sha256, file.rows])
        }
        try database.run("DELETE FROM batch_problems WHERE batch_id = ?", [batchID])
        let insert = try database.cached(
            """
            INSERT INTO batch_problems (batch_id, seq, severity, code, frictionless_type, file, line, row, column_name, value, message, hint)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        var seq = 0
        try problems.forEachProblem { p in
            seq += 1
            try insert.run([
                batchID, seq, p.severity.rawValue, p.code.rawValue, p.frictionlessType, p.file, p.line, p.row,
                p.column, p.value, p.message, p.hint,
            ])
        }
    }

    // MARK: - Reading

    static func batch(_ database: Database, id: Int) throws -> BatchRecord? {
        try batches(database, where: "batch_id = ?", [id], limit: 1).first
    }

    static func batches(_ database: Database, where condition: String = "true", _ values: [SQLBindable] = [], limit: Int = -1) throws
        -> [BatchRecord]
    {
        var result: [BatchRecord] = []
        try forEachBatch(database, where: condition, values, limit: limit) { result.append($0) }
        return result
    }

    /// Calls `body` with each batch matching `condition`, newest first, one at a time (with
    /// its counts and files).
    static func forEachBatch(
        _ database: Database, where condition: String = "true", _ values: [SQLBindable] = [], limit: Int = -1,
        _ body: (BatchRecord) throws -> Void
    ) throws {
        let statement = try database.prepare(
            """
            SELECT batch_id, command, started_at, coalesce(finished_at, '') AS finished_at, as_of, mode, status, reason,
                   max_delete, options, actor
            FROM batches WHERE \(condition) ORDER BY batch_id DESC LIMIT \(limit)
            """)
        let c = try statement.columnPositions
        let (id, command, started, finished, asOf) = (
            try c.position("batch_id"), try c.position("command"), try c.position("started_at"), try c.position("finished_at"),
            try c.position("as_of")
        )
        let (mode, status, reason, maxDelete, actor) = (
            try c.position("mode"), try c.position("status"), try c.position("reason"), try c.position("max_delete"),
            try c.position("actor")
        )
        let options = try c.position("options")
        try statement.forEachRow(values) { row in
            var record = BatchRecord(
                id: row.int(id), command: row.string(command) ?? "", startedAt: row.string(started) ?? "",
                finishedAt: row.string(finished) ?? "", asOf: row.string(asOf) ?? "",
                mode: ImportMode(rawValue: row.string(mode) ?? "") ?? .merge,
                status: BatchStatus(rawValue: row.string(status) ?? "") ?? .failed, reason: row.string(reason) ?? "",
                maxDelete: row.string(maxDelete) ?? "", actor: row.string(actor) ?? "", counts: [:], files: [],
                options: BatchOptions(storedText: row.string(options) ?? ""))
            record.counts = try counts(database, batchID: record.id)
            record.files = try files(database, batchID: record.id)
            try body(record)
        }
    }

    static func counts(_ database: Database, batchID: Int) throws -> [FileKind: ImportCounts] {
        var counts: [FileKind: ImportCounts] = [:]
        let statement = try database.cached(
            "SELECT kind, read, inserted, updated, unchanged, deleted, rejected, warnings FROM batch_counts WHERE batch_id = ?")
        let c = try statement.columnPositions
        let (kindColumn, read, inserted, updated) = (
            try c.position("kind"), try c.position("read"), try c.position("inserted"), try c.position("updated")
        )
        let (unchanged, deleted, rejected, warnings) = (
            try c.position("unchanged"), try c.position("deleted"), try c.position("rejected"), try c.position("warnings")
        )
        try statement.forEachRow([batchID]) { row in
            guard let kind = FileKind(rawValue: row.string(kindColumn) ?? "") else { return }
            counts[kind] = ImportCounts(
                read: row.int(read), inserted: row.int(inserted), updated: row.int(updated), unchanged: row.int(unchanged),
                deleted: row.int(deleted), rejected: row.int(rejected), warnings: row.int(warnings))
        }
        return counts
    }

    static func files(_ database: Database, batchID: Int) throws -> [ImportedFile] {
        var files: [ImportedFile] = []
        let statement = try database.cached(
            "SELECT path, kind, size, sha256, rows FROM batch_files WHERE batch_id = ? ORDER BY position")
        let c = try statement.columnPositions
        let (path, kind, size, sha256, rows) = (
            try c.position("path"), try c.position("kind"), try c.position("size"), try c.position("sha256"), try c.position("rows")
        )
        try statement.forEachRow([batchID]) { row in
            files.append(
                ImportedFile(
                    path: row.string(path) ?? "", kind: row.string(kind).flatMap(FileKind.init(rawValue:)), size: row.int(size),
                    sha256: row.string(sha256) ?? "", rows: row.int(rows)))
        }
        return files
    }

    static func problems(_ database: Database, batchID: Int) throws -> [ImportProblem] {
        var problems: [ImportProblem] = []
        try forEachProblem(database, batchID: batchID) { problems.append($0) }
        return problems
    }

    /// Calls `body` with each problem of a batch (of `severity`, when given), in file order,
    /// one row at a time.
    static func forEachProblem(
        _ database: Database, batchID: Int, severity: ProblemSeverity? = nil, _ body: (ImportProblem) throws -> Void
    ) throws {
        let statement = try database.cached(
            """
            SELECT code, frictionless_type, file, line, row, column_name, value, message, hint
            FROM batch_problems WHERE batch_id = ? AND (CAST(? AS TEXT) IS NULL OR severity = ?) ORDER BY seq
            """)
        let decoder = try ProblemRowDecoder(try statement.columnPositions)
        try statement.forEachRow([batchID, severity?.rawValue, severity?.rawValue]) { row in
            if let problem = decoder.problem(row) { try body(problem) }
        }
    }
}
