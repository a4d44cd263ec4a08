import Foundation
import Testing

@testable import DashboardCore

/// Two fresh databases fed the same runs: `plain` with the options as given, `staged` with
/// `forceStaging`, comparing every row and normalizing every row with `RowNormalizer` (for
/// `ImportPathEquivalenceTests`). After every run both outcomes and every
/// table of both databases must be equal.
final class TwinStores {
    let plain: AuditFixture
    let staged: AuditFixture

    init() throws {
        plain = try AuditFixture()
        staged = try AuditFixture()
    }

    /// What one import did on the default path.
    struct Run {
        /// The result, also for a `--strict` failure; nil for other failures.
        var result: ImportResult?
        var failure: String?
        /// How far the run moved the default database's schema cookie (`TestStore.schemaCookie`).
        var schemaChanges: Int
        /// Whether the default database's run wrote its tasks through the direct writer: only
        /// `DirectTaskWriter.finish` reports the phase `tasks_by_course` (`Tracer`).
        var wroteDirectly: Bool
    }

    /// Imports `files` into both databases and expects the same outcome and the same rows.
    @discardableResult
    func importBoth(_ files: [(String, String)], _ options: ImportOptions, sourceLocation: SourceLocation = #_sourceLocation) throws -> Run
    {
        var forced = options
        forced.forceStaging = true
        // … and compares every row: the default database skips the rows it finds unchanged by
        // their print (`UnchangedRows`), so every twin test also checks the skip against the
        // full comparison it stands for.
        forced.compareEveryRow = true
        // … and reads every row through `RowNormalizer` alone, the oracle of the byte path
        // (`ByteRowNormalizer`) the default database takes for most rows.
        forced.readsBytes = false
        let cookies = (try schemaVersion(plain), try schemaVersion(staged))
        let (plainPhases, stagedPhases) = (TracerTests.Recorder(), TracerTests.Recorder())
        let a = Tracing.$current.withValue(plainPhases) { outcome { () throws(ImportFailure) in try plain.base.run(files, options) } }
        let b = Tracing.$current.withValue(stagedPhases) { outcome { () throws(ImportFailure) in try staged.base.run(files, forced) } }
        #expect(!stagedPhases.names.contains(Self.directPhase), "a forced staging never writes directly", sourceLocation: sourceLocation)
        #expect(a.failure == b.failure, "failure", sourceLocation: sourceLocation)
        switch (a.result, b.result) {
        case (let x?, let y?): expectSameResult(x, y, sourceLocation: sourceLocation)
        case (nil, nil): break
        default: Issue.record("only one path has a result: default \(a), staged \(b)", sourceLocation: sourceLocation)
        }
        #expect(try schemaVersion(staged) == cookies.1, "a staged run never changes the schema", sourceLocation: sourceLocation)
        try expectSameDatabases(sourceLocation: sourceLocation)
        return Run(
            result: a.result, failure: a.failure, schemaChanges: try schemaVersion(plain) - cookies.0,
            wroteDirectly: plainPhases.names.contains(Self.directPhase))
    }

    /// The phase only the direct writer reports, at its end (`DirectTaskWriter.finish`).
    static let directPhase = "tasks_by_course"

    /// Reverts one batch in both databases (`revert --batch`) and expects the same outcome.
    func revertBoth(batch: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        func revert(_ f: AuditFixture) -> (batchID: Int?, counts: [FileKind: ImportCounts], entries: [AuditEntry], error: String?) {
            do {
                let r = try f.revert(batch: batch)
                return (r.batchID, r.counts, r.entries, nil)
            } catch {
                return (nil, [:], [], "\(error)")
            }
        }
        let a = revert(plain)
        let b = revert(staged)
        #expect(a.error == nil, "revert of batch \(batch)", sourceLocation: sourceLocation)
        #expect(a.error == b.error, sourceLocation: sourceLocation)
        #expect(a.batchID == b.batchID, sourceLocation: sourceLocation)
        #expect(a.counts == b.counts, sourceLocation: sourceLocation)
        expectSameSequence(a.entries, b.entries, "revert entries", sourceLocation: sourceLocation)
        try expectSameDatabases(sourceLocation: sourceLocation)
    }

    /// Approves a held batch in both databases and expects the same outcome.
    func approveBoth(batch: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let asOf = ImporterFixture.asOf.addingTimeInterval(3600)
        let a = outcome { () throws(ImportFailure) in try plain.base.importer.approve(batchID: batch, asOf: asOf, actor: "alice") }
        let b = outcome { () throws(ImportFailure) in try staged.base.importer.approve(batchID: batch, asOf: asOf, actor: "alice") }
        #expect(a.failure == nil, sourceLocation: sourceLocation)
        #expect(a.failure == b.failure, sourceLocation: sourceLocation)
        if let x = a.result, let y = b.result { expectSameResult(x, y, sourceLocation: sourceLocation) }
        try expectSameDatabases(sourceLocation: sourceLocation)
    }

    /// Pins a task in both databases.
    func reclassifyBoth(_ task: String, to bucket: Bucket, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try plain.reclassify(task, to: bucket) == staged.reclassify(task, to: bucket), sourceLocation: sourceLocation)
        try expectSameDatabases(sourceLocation: sourceLocation)
    }

    /// `dashboard categorize` in both databases.
    func categorizeBoth(at instant: Date, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let a = try plain.categorize(at: instant)
        #expect(a.entries > 0, "the pass should move some task", sourceLocation: sourceLocation)
        #expect(a == (try staged.categorize(at: instant)), sourceLocation: sourceLocation)
        try expectSameDatabases(sourceLocation: sourceLocation)
    }

    // MARK: Which path ran

    /// The run wrote its tasks directly: the direct writer ran; on SQLite the index was
    /// rebuilt (PostgreSQL keeps it: `TestStore.directWriteSchemaChanges`), and it is there.
    func expectDirect(_ run: Run, inserted: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(run.failure == nil, sourceLocation: sourceLocation)
        #expect(run.result?.status == .committed, sourceLocation: sourceLocation)
        #expect(run.wroteDirectly, "the direct writer ran", sourceLocation: sourceLocation)
        #expect(
            run.schemaChanges == TestStore.directWriteSchemaChanges(plain.store.database), "tasks_by_course dropped and built again",
            sourceLocation: sourceLocation)
        #expect(try TestStore.hasIndex(plain.store.database, "tasks_by_course"), sourceLocation: sourceLocation)
        #expect(run.result?.counts[.tasks]?.inserted == inserted, sourceLocation: sourceLocation)
        // Births are not moves: no entry at all, only the tasks looked at.
        #expect(run.result?.categorized == CategorizeResult(tasks: inserted), sourceLocation: sourceLocation)
        try expectBirths(run, count: inserted, sourceLocation: sourceLocation)
    }

    /// The run went through the staging tables on the default path too.
    func expectStaged(_ run: Run, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!run.wroteDirectly, "no direct writer ran", sourceLocation: sourceLocation)
        #expect(run.schemaChanges == 0, "no index was dropped", sourceLocation: sourceLocation)
    }

    /// The batch's births: the `count` tasks it inserted record it as their creating batch and
    /// have no entry and no history row of that batch; the batch counts them per bucket,
    /// exactly as their stored buckets are.
    func expectBirths(_ run: Run, count: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let batchID = try #require(run.result?.batchID, sourceLocation: sourceLocation)
        let database = plain.store.database
        #expect(try database.int("SELECT count(*) FROM tasks WHERE created_batch = ?", [batchID]) == count, sourceLocation: sourceLocation)
        #expect(
            try database.int(
                "SELECT count(*) FROM audit a JOIN tasks t ON t.task_id = a.task_id AND t.created_batch = a.batch_id WHERE a.batch_id = ?",
                [batchID]) == 0, "no entry for a birth", sourceLocation: sourceLocation)
        #expect(
            try database.int(
                """
                SELECT count(*) FROM task_history h JOIN tasks t ON t.task_id = h.task_id AND t.created_batch = h.batch_id
                WHERE h.batch_id = ?
                """, [batchID]) == 0, "no history row for a birth", sourceLocation: sourceLocation)
        let births = try database.rows("SELECT bucket, tasks FROM batch_births WHERE batch_id = ? ORDER BY bucket", [batchID])
        #expect(
            births
                == (try database.rows(
                    "SELECT bucket, count(*) FROM tasks WHERE created_batch = ? GROUP BY bucket ORDER BY bucket", [batchID])),
            sourceLocation: sourceLocation)
        #expect(births.reduce(0) { $0 + Int($1[1].integer ?? 0) } == count, sourceLocation: sourceLocation)
    }

    // MARK: Comparing

    private func schemaVersion(_ f: AuditFixture) throws -> Int {
        try TestStore.schemaCookie(f.store.database)
    }

    private struct Outcome: CustomStringConvertible {
        var result: ImportResult?
        var failure: String?
        var description: String { failure ?? "\(result?.status.rawValue ?? "no result")" }
    }

    private func outcome(_ body: () throws(ImportFailure) -> ImportResult) -> Outcome {
        do {
            return Outcome(result: try body(), failure: nil)
        } catch {
            if case .strictRejected(let result) = error { return Outcome(result: result, failure: error.description) }
            return Outcome(result: nil, failure: error.description)
        }
    }

    private func expectSameResult(_ a: ImportResult, _ b: ImportResult, sourceLocation: SourceLocation) {
        #expect(a.batchID == b.batchID, "batchID", sourceLocation: sourceLocation)
        #expect(a.status == b.status, "status", sourceLocation: sourceLocation)
        #expect(a.mode == b.mode, "mode", sourceLocation: sourceLocation)
        #expect(a.asOf == b.asOf, "asOf", sourceLocation: sourceLocation)
        #expect(a.counts == b.counts, "counts", sourceLocation: sourceLocation)
        #expect(a.files == b.files, "files", sourceLocation: sourceLocation)
        expectSameSequence(a.problems, b.problems, "problems", sourceLocation: sourceLocation)
        #expect(a.reason == b.reason, "reason", sourceLocation: sourceLocation)
        #expect(a.categorized == b.categorized, "categorized", sourceLocation: sourceLocation)
    }

    /// Every table of the main schema (sqlite_sequence or dashboard_schema included), whole
    /// rows, and the schema itself (`TestStore.schema`: on SQLite without root pages, which
    /// depend on the order of writes).
    private func expectSameDatabases(sourceLocation: SourceLocation) throws {
        let a = plain.store.database
        let b = staged.store.database
        expectSameSequence(try TestStore.schema(a), try TestStore.schema(b), "schema", sourceLocation: sourceLocation)
        for db in [a, b] {
            #expect(try TestStore.consistencyProblems(db) == [], sourceLocation: sourceLocation)
            // The counts the grid reads are those of the tasks, whichever writer kept them.
            #expect(
                try db.rows("SELECT course_id, bucket, tasks FROM course_buckets WHERE tasks <> 0 ORDER BY 1, 2")
                    == db.rows(
                        "SELECT course_id, bucket, count(*) FROM tasks WHERE deleted_batch IS NULL GROUP BY 1, 2 ORDER BY 1, 2"),
                "course_buckets", sourceLocation: sourceLocation)
        }
        for table in try TestStore.tables(a) {
            let columns = try TestStore.columns(a, table)
            // A batch's schema mark is the file's schema cookie, which the direct path moves by
            // two (`Run.schemaChanges`): the one column that may differ.
            // A task's slot is a number each path gives in its own order: only whether it has one.
            let selected = columns.map {
                table == "batches" && $0 == "schema_mark" ? "NULL" : table == "tasks" && $0 == "slot" ? "slot IS NOT NULL" : "\"\($0)\""
            }
            // A course's count may be left at zero by one path and absent from the other.
            let sql =
                "SELECT \(selected.joined(separator: ", ")) FROM \"\(table)\"" + (table == "course_buckets" ? " WHERE tasks <> 0" : "")
                + " ORDER BY " + columns.indices.map { String($0 + 1) }.joined(separator: ", ")
            let rowsA = try a.rows(sql)
            let rowsB = try b.rows(sql)
            guard rowsA != rowsB else { continue }
            let index = Self.firstDifference(rowsA, rowsB)
            var detail = "table \(table): \(rowsA.count) rows by default, \(rowsB.count) staged; first difference at row \(index + 1)"
            if index < rowsA.count, index < rowsB.count {
                let differing = columns.indices.filter { rowsA[index][$0] != rowsB[index][$0] }.map {
                    "\(columns[$0]): default \(Self.text(rowsA[index][$0])) vs staged \(Self.text(rowsB[index][$0]))"
                }
                detail += " (\(Self.text(rowsA[index]))): " + differing.joined(separator: "; ")
            } else {
                let extra = index < rowsA.count ? rowsA[index] : rowsB[index]
                detail += ", only in \(index < rowsA.count ? "default" : "staged"): \(Self.text(extra))"
            }
            Issue.record(Comment(rawValue: detail), sourceLocation: sourceLocation)
        }
    }

    private func expectSameSequence<T: Equatable>(_ a: [T], _ b: [T], _ what: String, sourceLocation: SourceLocation) {
        guard a != b else { return }
        let index = Self.firstDifference(a, b)
        let first = index < a.count ? "\(a[index])" : "nothing"
        let second = index < b.count ? "\(b[index])" : "nothing"
        Issue.record(
            "\(what): \(a.count) by default, \(b.count) staged; #\(index + 1) differs: default \(first) vs staged \(second)",
            sourceLocation: sourceLocation)
    }

    /// The index of the first element that differs, or the length of the shorter sequence.
    private static func firstDifference<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
        let common = min(a.count, b.count)
        return (0..<common).first { a[$0] != b[$0] } ?? common
    }

    private static func text(_ value: SQLValue) -> String {
        switch value {
        case .null: return "NULL"
        case .text(let s): return "'\(s)'"
        default: return value.text ?? "NULL"
        }
    }

    private static func text(_ row: [SQLValue]) -> String { row.map { text($0) }.joined(separator: "|") }
}
