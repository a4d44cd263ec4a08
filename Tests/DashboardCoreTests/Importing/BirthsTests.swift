import Foundation
import Testing

@testable import DashboardCore

/// The audit log records moves, not births (SPEC §6, schema 7): a task a batch inserts gets no
/// entry and no history row; it records its creating batch (`tasks.created_batch`) and the batch
/// its births per bucket (`batch_births`). `revert --batch` writes a batch's births as its
/// history rows and tombstones them; `audit --task` derives a birth line (`AuditBirth`). Files
/// from before keep their `import` entries.
@Suite("Births: counted once per batch, not logged per task")
struct BirthsTests {
    // MARK: - Helpers

    /// `id task from→to cause batch` of the entries `AuditBirth.forEachEntry` lists for `tasks`
    /// (what `audit --task` shows), a derived line's id written `-`.
    static func auditLines(_ log: any AuditReading, tasks: [String]) throws -> [String] {
        var filter = AuditFilter()
        filter.taskIDs = tasks
        var lines: [String] = []
        try AuditBirth.forEachEntry(log, filter) { entry in
            lines.append(
                "\(entry.derived ? "-" : String(entry.id)) \(entry.taskID) \(entry.fromBucket)→\(entry.toBucket) "
                    + "\(entry.cause.rawValue) \(entry.batchID.map(String.init) ?? "-")")
        }
        return lines
    }

    /// `batch task change existed` of every history row, in key order.
    static func history(_ f: AuditFixture) throws -> [String] {
        try f.store.database.rows("SELECT batch_id, task_id, change, existed FROM task_history ORDER BY 1, 2").map { row in
            row.map { $0.text ?? "NULL" }.joined(separator: " ")
        }
    }

    /// The births of `batch` as the tasks it created are stored now (`bucket tasks`).
    static func storedBuckets(_ f: AuditFixture, createdBy batch: Int) throws -> [String] {
        try f.store.database.rows(
            "SELECT bucket, count(*) FROM tasks WHERE created_batch = ? GROUP BY bucket ORDER BY bucket", [batch]
        ).map { "\($0[0].text ?? "NULL") \($0[1].text ?? "NULL")" }
    }

    /// Every row of every table, whole, each table's rows in the order of all its columns.
    static func tables(_ database: Database) throws -> [String: [[SQLValue]]] {
        var result: [String: [[SQLValue]]] = [:]
        for name in try TestStore.tables(database) {
            // Less the columns `TestStore.dataColumns` leaves out (prints, slots, title folds).
            let skipped = try (RowPrints.kept(database) ? 2 : 0) + (TitleFolds.kept(database) ? 1 : 0)
            let count = try TestStore.columns(database, name).count - (name == "tasks" ? skipped : 0)
            result[name] = try database.rows(
                "SELECT \(TestStore.dataColumns(name)) FROM \"\(name)\" ORDER BY " + (1...count).map(String.init).joined(separator: ", "))
        }
        return result
    }

    /// An import of the fixture's courses and `tasks` with the fixture's options.
    @discardableResult
    static func importTasks(
        _ f: AuditFixture, _ tasks: String, mode: ImportMode = .merge, maxDelete: DeleteLimit = .percent(100),
        forceStaging: Bool = false
    ) throws -> ImportResult {
        var options = ImporterFixture.options(mode, maxDelete: maxDelete)
        options.forceStaging = forceStaging
        return try f.base.importer.run(
            files: [.inMemory("courses.csv", ImporterFixture.courses), .inMemory("tasks.csv", tasks)], options: options)
    }

    // MARK: - (1) Imports record births, not entries

    @Test(
        "a first import, direct or staged, records its births per bucket, sets created_batch, and writes no entry or history row",
        arguments: [false, true])
    func firstImportRecordsBirths(forceStaging: Bool) throws {
        let f = try AuditFixture()
        let cookie = try TestStore.schemaCookie(f.store.database)
        let phases = TracerTests.Recorder()
        let result = try Tracing.$current.withValue(phases) { try Self.importTasks(f, AuditFixture.tasks, forceStaging: forceStaging) }
        // The direct writer ran (only it reports tasks_by_course) and, on SQLite, dropped and
        // built that index again; staging leaves the schema alone.
        #expect(phases.names.contains("tasks_by_course") == !forceStaging)
        #expect(
            try TestStore.schemaCookie(f.store.database) - cookie
                == (forceStaging ? 0 : TestStore.directWriteSchemaChanges(f.store.database)))
        #expect(result.counts[.tasks] == ImportCounts(read: 5, inserted: 5))
        #expect(result.categorized == CategorizeResult(tasks: 5))
        #expect(try f.log() == [])
        #expect(try Self.history(f) == [])
        #expect(try f.createdBatches() == ["T1 1", "T2 1", "T3 1", "T4 1", "T5 1"])
        #expect(
            try f.store.database.rows("SELECT * FROM batch_births ORDER BY 1, 2") == [
                [.integer(1), .text("completed"), .integer(1)], [.integer(1), .text("overdue"), .integer(1)],
                [.integer(1), .text("today"), .integer(1)], [.integer(1), .text("undated"), .integer(1)],
                [.integer(1), .text("upcoming"), .integer(1)],
            ])
        #expect(try Self.storedBuckets(f, createdBy: 1) == (try f.births(batch: 1)))
    }

    @Test("a later staged import records the tasks it inserts as births of its batch; updates and restores keep their entries")
    func laterImportRecordsBirthsAndMoves() throws {
        let f = try AuditFixture()
        try f.importFiles()
        // Batch 2 deletes T4; batch 3 re-dates T1, brings T4 back and creates T6, T7 and T8.
        try f.importFiles(AuditFixture.tasks.replacingOccurrences(of: "T4,C2,Four,,no\n", with: ""), mode: .sync)
        let third =
            AuditFixture.tasks.replacingOccurrences(of: "T1,C1,One,2026-11-28,no", with: "T1,C1,One,2026-12-10,no")
            + "\nT6,C1,Six,2026-11-20,no\nT7,C2,Seven,,no\nT8,C2,Eight,2026-11-02,yes\n"
        let result = try f.importFiles(third)
        #expect(result.counts[.tasks]?.read == 8)
        #expect(result.categorized?.byCause == [.import: 1, .restore: 1])
        #expect(result.categorized?.entries == 2)
        #expect(
            try f.log() == ["1 T4 undated→deleted delete", "2 T1 overdue→upcoming import", "3 T4 deleted→undated restore"])
        #expect(try Self.history(f) == ["2 T4 delete 1", "3 T1 update 1", "3 T4 restore 1"])
        // A restored task keeps the batch that created it; the new ones record batch 3.
        #expect(try f.createdBatches() == ["T1 1", "T2 1", "T3 1", "T4 1", "T5 1", "T6 3", "T7 3", "T8 3"])
        #expect(try f.births(batch: 2) == [])
        #expect(try f.births(batch: 3) == ["completed 1", "overdue 1", "undated 1"])
        #expect(try Self.storedBuckets(f, createdBy: 3) == (try f.births(batch: 3)))
        // What `audit --task` lists: the derived births, then the stored entries.
        #expect(
            try Self.auditLines(f.store, tasks: ["T6", "T4"]) == [
                "- T6 →overdue import 3", "- T4 →undated import 1", "1 T4 undated→deleted delete 2", "3 T4 deleted→undated restore 3",
            ])
    }

    @Test("an approved held batch records the tasks it inserts as births per bucket, with no entry")
    func approvedHeldBatchRecordsBirths() throws {
        let f = try AuditFixture()
        try f.importFiles()
        // A sync that deletes four of five tasks is held; it also creates T6 (overdue) and T7 (undated).
        let held = try Self.importTasks(
            f, "task_id,course_id,title,due,completed\nT1,C1,One,2026-11-28,no\nT6,C1,Six,2026-11-20,no\nT7,C2,Seven,,no\n",
            mode: .sync, maxDelete: .percent(10))
        #expect(held.status == .held)
        let approved = try f.base.importer.approve(batchID: 2, asOf: f.asOf, actor: "alice")
        #expect(approved.batchID == 3)
        #expect(approved.counts[.tasks]?.inserted == 2)
        #expect(try f.createdBatches() == ["T1 1", "T2 1", "T3 1", "T4 1", "T5 1", "T6 3", "T7 3"])
        #expect(try f.births(batch: 3) == ["overdue 1", "undated 1"])
        #expect(try Self.storedBuckets(f, createdBy: 3) == (try f.births(batch: 3)))
        // The deletes are moves; the births are none.
        #expect(
            try f.log() == [
                "1 T2 today→deleted delete", "2 T3 upcoming→deleted delete", "3 T4 undated→deleted delete",
                "4 T5 completed→deleted delete",
            ])
        #expect(approved.categorized?.byCause == [.delete: 4])
    }

    @Test("a dry run and a --strict failure of a first import record no births")
    func failedOrDryRunsRecordNoBirths() throws {
        let f = try AuditFixture()
        var dry = ImporterFixture.options(dryRun: true)
        dry.asOf = f.asOf
        let result = try f.base.importer.run(
            files: [.inMemory("courses.csv", ImporterFixture.courses), .inMemory("tasks.csv", AuditFixture.tasks)], options: dry)
        #expect(result.status == .dryRun)
        var strict = ImporterFixture.options(strict: true)
        strict.asOf = f.asOf
        #expect(throws: ImportFailure.self) {
            try f.base.importer.run(
                files: [
                    .inMemory("courses.csv", ImporterFixture.courses),
                    .inMemory("tasks.csv", AuditFixture.tasks + "\nT9,C1,Bad,2026-02-30,no\n"),
                ], options: strict)
        }
        #expect(try f.store.database.int("SELECT count(*) FROM tasks") == 0)
        #expect(try f.store.database.int("SELECT count(*) FROM batch_births") == 0)
        #expect(try f.log() == [])
    }

    // MARK: - (2) revert --batch of a first import

    @Test("revert --batch of a first import tombstones every task it created, and reverting that revert puts every row back")
    func revertOfAFirstImportAndBack() throws {
        let f = try AuditFixture()
        try f.importFiles()
        let before = try Self.tables(f.store.database)
        let batchOne = "SELECT batch_id, command, started_at, finished_at, as_of, mode, actor FROM batches WHERE batch_id = 1"
        let batchOneBefore = try f.store.database.rows(batchOne)

        let revert = try f.revert(batch: 1)
        #expect(revert.batchID == 2)
        #expect(revert.counts == [.courses: ImportCounts(deleted: 2), .tasks: ImportCounts(deleted: 5)])
        #expect(
            revert.entries.map { "\($0.id) \($0.taskID) \($0.fromBucket)→\($0.toBucket) \($0.cause.rawValue) \($0.batchID ?? 0)" } == [
                "1 T1 overdue→deleted revert 2", "2 T2 today→deleted revert 2", "3 T3 upcoming→deleted revert 2",
                "4 T4 undated→deleted revert 2", "5 T5 completed→deleted revert 2",
            ])
        #expect(revert.entries.map(\.reason) == Array(repeating: "revert of batch 1", count: 5))
        #expect(try f.store.tasks() == [])
        #expect(
            try f.store.database.rows("SELECT task_id, deleted_batch, changed_batch, created_batch FROM tasks ORDER BY 1").map {
                $0.map { $0.text ?? "NULL" }.joined(separator: " ")
            } == ["T1 2 2 1", "T2 2 2 1", "T3 2 2 1", "T4 2 2 1", "T5 2 2 1"])
        // The births of batch 1 became its history rows, in the revert's transaction.
        #expect(
            try Self.history(f) == [
                "1 T1 insert 0", "1 T2 insert 0", "1 T3 insert 0", "1 T4 insert 0", "1 T5 insert 0", "2 T1 delete 1", "2 T2 delete 1",
                "2 T3 delete 1", "2 T4 delete 1", "2 T5 delete 1",
            ])
        #expect(try f.births(batch: 1) == ["completed 1", "overdue 1", "today 1", "undated 1", "upcoming 1"])
        #expect(try f.births(batch: 2) == [])
        #expect(try f.store.batch(id: 1)?.status == .reverted)
        // The birth is still derived from batch 1, the tombstone is the next line.
        #expect(try Self.auditLines(f.store, tasks: ["T3"]) == ["- T3 →upcoming import 1", "3 T3 upcoming→deleted revert 2"])

        let again = try f.revert(batch: 2)
        #expect(again.batchID == 3)
        #expect(
            again.entries.map { "\($0.id) \($0.taskID) \($0.fromBucket)→\($0.toBucket)" } == [
                "6 T1 deleted→overdue", "7 T2 deleted→today", "8 T3 deleted→upcoming", "9 T4 deleted→undated",
                "10 T5 deleted→completed",
            ])
        let after = try Self.tables(f.store.database)
        // The data is as before, row by row; the logs only grew; batch 1 is in force again.
        let same = [
            "batch_births", "course_buckets", "courses", "held_courses", "held_rejected", "held_tasks", "overrides", "settings", "tasks",
        ]
        let grown = ["audit", "batch_counts", "batch_files", "batch_problems", "course_history", "settings_log", "task_history"]
        // The marks move with every write (`DataMarks`).
        #expect(Set(after.keys) == Set(same + grown + ["batches", "data_marks"] + TestStore.bookkeepingTables(f.store.database)))
        for table in same { #expect(after[table] == before[table], "\(table)") }
        for table in grown {
            let rows = after[table] ?? []
            #expect((before[table] ?? []).allSatisfy { rows.contains($0) }, "\(table): a row of before changed or went")
        }
        #expect(after["audit"]?.count == 10)
        #expect(try f.store.database.rows(batchOne) == batchOneBefore)
        #expect(
            try f.store.database.rows("SELECT batch_id, status, reason FROM batches ORDER BY 1").map {
                $0.map { $0.text ?? "NULL" }.joined(separator: "|")
            } == ["1|committed|re-applied by batch 3", "2|reverted|reverted by batch 3", "3|committed|revert of batch 2"])
    }

    @Test("revert --batch of a first import is refused while a later batch changed one of its tasks, and then writes no history row")
    func refusedRevertOfAFirstImportWritesNothing() throws {
        let f = try AuditFixture()
        try f.importFiles()
        try f.importFiles(AuditFixture.tasks.replacingOccurrences(of: "T2,C1,Two,", with: "T2,C1,Two v2,"))
        let before = try Self.tables(f.store.database)
        #expect(throws: AuditError.blockedBatch(batch: 1, blocking: [2])) { try f.revert(batch: 1) }
        #expect(try Self.tables(f.store.database) == before)
        #expect(try Self.history(f) == ["2 T2 update 1"])
        let forced = try f.revert(batch: 1, force: true)
        #expect(forced.counts[.tasks] == ImportCounts(deleted: 5))
        #expect(try f.store.tasks() == [])
    }

    // MARK: - (4) Files from before schema 7

    /// A file exactly as the schema 6 dashboard left it: migrations 1–6 of this build's list,
    /// applied as `Store` applies them, then one import as that version wrote it (an `import`
    /// entry and an `insert` history row per task, no births).
    static func versionSixDatabase() throws -> String {
        let directory = TestFolders.path("dashboard-births")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/v6.sqlite"
        let db = try Database(path: path)
        try db.execute("PRAGMA journal_mode = WAL")
        for (version, migration) in Schema.migrations.prefix(6).enumerated() {
            try db.inTransaction(.immediate) {
                switch migration {
                case .sql(let statements):
                    try db.execute(statements)
                case .respellChecks(let checks):
                    let cookie = try db.int("PRAGMA schema_version")
                    try db.execute("PRAGMA writable_schema = ON")
                    for check in checks {
                        try db.run(
                            "UPDATE sqlite_schema SET sql = replace(sql, ?1, ?2) WHERE type = 'table' AND name = ?3",
                            [check.inList, check.orChain, check.table])
                    }
                    try db.execute("PRAGMA schema_version = \(cookie + 1); PRAGMA writable_schema = RESET")
                case .addColumns(let columns, let statements):
                    for column in columns { try db.execute(column.statement) }
                    try db.execute(statements)
                case .rewriteChecks:
                    Issue.record("no migration before version 6 rewrites a constraint")
                }
                if version == 0 { try db.execute("PRAGMA application_id = \(StoreIdentity.applicationID)") }
                try db.execute("PRAGMA user_version = \(version + 1)")
                return .commit
            }
        }
        try db.execute(
            """
            INSERT INTO batches (batch_id, command, started_at, finished_at, as_of, mode, status, actor)
                VALUES (1, 'import', '2026-11-29T08:00:00Z', '2026-11-29T08:00:01Z', '2026-11-29T08:00:00Z', 'merge', 'committed', 'old');
            INSERT INTO batch_counts (batch_id, kind, read, inserted) VALUES (1, 'courses', 1, 1), (1, 'tasks', 2, 2);
            INSERT INTO courses (course_id, code, title, timezone, changed_batch) VALUES ('C1', 'MATH', 'Algebra', 'America/New_York', 1);
            INSERT INTO tasks (task_id, course_id, title, due, changed_batch, bucket)
                VALUES ('T1', 'C1', 'One', '2026-12-05', 1, 'upcoming'), ('T2', 'C1', 'Two', '', 1, 'undated');
            INSERT INTO course_history (batch_id, course_id, change, existed) VALUES (1, 'C1', 'insert', 0);
            INSERT INTO task_history (batch_id, task_id, change, existed) VALUES (1, 'T1', 'insert', 0), (1, 'T2', 'insert', 0);
            INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor, batch_id)
                VALUES ('2026-11-29T08:00:01Z', '2026-11-29T08:00:00Z', 'T1', 'C1', '', 'upcoming', 'import', 'old', 1),
                       ('2026-11-29T08:00:01Z', '2026-11-29T08:00:00Z', 'T2', 'C1', '', 'undated', 'import', 'old', 1);
            INSERT INTO settings (key, value) VALUES ('default_timezone', 'UTC');
            """)
        return path
    }

    @Test("a schema 6 file keeps its import entries through migration 7, and audit --task shows no derived line for its tasks")
    func versionSixFileKeepsItsEntries() throws {
        let path = try Self.versionSixDatabase()
        let entries = "SELECT * FROM audit ORDER BY entry_id"
        // The history's columns of schema 6 (later migrations add columns, never change these).
        let history = """
            SELECT batch_id, task_id, change, existed, course_id, title, student_id, due, priority, completed, assignment_id,
                   deleted_batch, changed_batch
            FROM task_history ORDER BY batch_id, task_id
            """
        let (oldEntries, oldHistory) = try {
            let db = try Database(path: path, mode: .readOnly)
            return (try db.rows(entries), try db.rows(history))
        }()
        #expect(oldEntries.count == 2)

        // Read as it is (no writer migrated it yet): no created_batch, no derived line.
        do {
            let reader = try Store(readOnlyPath: path)
            #expect(reader.schemaVersion == 6)
            #expect(try reader.births(of: ["T1", "T2"]) == [])
            #expect(try Self.auditLines(reader, tasks: ["T1"]) == ["1 T1 →upcoming import 1"])
        }

        let store = try Store(path: path)
        #expect(store.schemaVersion == Schema.currentVersion)
        // Its values were written before any mark: not known clean (no grid from stored buckets).
        #expect(try store.database.rows("SELECT clean FROM data_marks") == [[.integer(0)]])
        #expect(try !store.storedBucketsHold())
        #expect(try store.database.rows(entries) == oldEntries)
        #expect(try store.database.rows(history) == oldHistory)
        #expect(
            try store.database.rows("SELECT task_id, created_batch FROM tasks ORDER BY 1") == [
                [.text("T1"), .null], [.text("T2"), .null],
            ])
        #expect(try store.database.int("SELECT count(*) FROM batch_births") == 0)
        #expect(try store.births(of: ["T1", "T2"]) == [])
        #expect(try Self.auditLines(store, tasks: ["T1", "T2"]) == ["1 T1 →upcoming import 1", "2 T2 →undated import 1"])

        // A new import on top: its new task is a birth, the old ones keep their stored entries.
        let importer = Importer(store: store, clock: FixedClock(ImporterFixture.asOf))
        var options = ImporterFixture.options()
        options.asOf = ImporterFixture.asOf
        let result = try importer.run(
            files: [.inMemory("tasks.csv", "task_id,course_id,title,due\nT1,C1,One,2026-12-05\nT2,C1,Two,\nT3,C1,Three,2026-11-20\n")],
            options: options)
        #expect(result.batchID == 2)
        #expect(result.counts[.tasks] == ImportCounts(read: 3, inserted: 1, unchanged: 2))
        #expect(try store.database.rows("SELECT * FROM batch_births") == [[.integer(2), .text("overdue"), .integer(1)]])
        #expect(try store.database.rows(entries) == oldEntries)
        #expect(try Self.auditLines(store, tasks: ["T3", "T1"]) == ["- T3 →overdue import 2", "1 T1 →upcoming import 1"])

        // revert --batch of the old batch tombstones its tasks through its stored history rows.
        let reverted = try Reverter(store: store, clock: FixedClock(ImporterFixture.asOf)).revert(
            batchID: 1, force: false, actor: "adams", asOf: ImporterFixture.asOf, defaultTimeZone: TimeZone(identifier: "UTC") ?? .current)
        #expect(reverted.counts[.tasks] == ImportCounts(deleted: 2))
        #expect(try store.tasks().map(\.taskID) == ["T3"])
        #expect(
            try store.database.int("SELECT count(*) FROM task_history WHERE batch_id = 1") == 2, "no birth was written for the old batch")
    }

    // MARK: - The schema's own bookkeeping

    @Test("the tables schema 7 holds include batch_births, and a file that lost it is refused as damaged")
    func batchBirthsIsATableOfTheSchema() throws {
        #expect(Schema.tables(through: 7) == Schema.tables(through: 6).union(["batch_births"]))
        let f = try AuditFixture()
        try f.importFiles()
        try f.store.database.execute("DROP TABLE batch_births")
        guard f.store.database.dialect == .sqlite else {
            // PostgreSQL: opening finds the table missing too; the connection open before the
            // drop, `verify`'s, names it.
            #expect(throws: StoreError.damaged(path: f.store.path, detail: "missing table batch_births")) {
                _ = try TestStore.reopen(f.store)
            }
            var problems: [VerificationProblem] = []
            try Verifier.verify(f.store.database) { problems.append($0) }
            #expect(problems.map(\.value) == ["missing table batch_births"])
            return
        }
        #expect(throws: StoreError.damaged(path: f.base.path, detail: "missing table batch_births")) {
            _ = try Store(path: f.base.path)
        }
    }
}
