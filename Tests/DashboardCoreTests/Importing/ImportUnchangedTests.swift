import Foundation
import Testing

@testable import DashboardCore

/// The identical re-import (SPEC §5, `Importer+Unchanged.swift`): files with the same bytes,
/// paths and order as the last committed import, with the same plan options, skip reading and
/// comparing their rows only when no writer has changed any task or course data since (the
/// data mark, moved by triggers: a hand edit too) and the schema is the same. The fast path
/// gives the tables, result and problems the full comparison gives.
@Suite("Identical re-imports: the comparison is skipped only with a proof, and gives what comparing gives")
struct ImportUnchangedTests {
    static let courses = """
        course_id,code,title,timezone
        C1,MATH,Algebra,America/New_York
        C2,BIO,Biology,Europe/Berlin
        """

    /// Tasks with a rejected row (bad date), a warning (an exact repeat) and dues around the as-of.
    static let tasks = """
        task_id,course_id,title,due,completed
        T1,C1,Essay,2026-11-28,no
        T2,C1,Quiz,2026-11-29T18:00,no
        T3,C2,Lab,2026-12-01,no
        T4,C2,Poster,,no
        T5,C1,Broken,2026-02-30,no
        T1,C1,Essay,2026-11-28,no
        T6,C2,Done,2026-11-20,yes
        """

    /// A fixture with the two files written on disk (the shortcut needs regular files), or
    /// a second store reading the files of another (the problems name the same paths).
    struct OnDisk {
        let fixture: ImporterFixture
        let files: [InputFile]

        init(courses: String = ImportUnchangedTests.courses, tasks: String = ImportUnchangedTests.tasks) throws {
            fixture = try ImporterFixture()
            let folder = fixture.directory + "/drop"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try courses.write(toFile: folder + "/courses.csv", atomically: true, encoding: .utf8)
            try tasks.write(toFile: folder + "/tasks.csv", atomically: true, encoding: .utf8)
            files = [InputFile.onDisk(folder + "/courses.csv"), InputFile.onDisk(folder + "/tasks.csv")]
        }

        init(readingFilesOf other: OnDisk) throws {
            fixture = try ImporterFixture()
            files = other.files
        }

        @discardableResult
        func run(skipping: Bool = true, asOf: Date = ImporterFixture.asOf, mode: ImportMode = .merge) throws -> ImportResult {
            var options = ImporterFixture.options(mode)
            options.asOf = asOf
            options.skipProvenUnchanged = skipping
            return try fixture.importer.run(files: files, options: options)
        }

        /// Every table a re-import writes, times and batch ids aside where they must differ.
        func state() throws -> [String] {
            let queries = [
                "SELECT * FROM courses ORDER BY course_id", "SELECT \(TestStore.taskDataColumns) FROM tasks ORDER BY task_id",
                "SELECT entry_id, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor, reason, batch_id FROM audit ORDER BY entry_id",
                "SELECT * FROM task_history ORDER BY batch_id, task_id", "SELECT * FROM batch_counts ORDER BY batch_id, kind",
                "SELECT batch_id, seq, severity, code, file, line, row, column_name, value, message, hint FROM batch_problems ORDER BY 1, 2",
                "SELECT batch_id, position, path, kind, size, sha256, rows FROM batch_files ORDER BY 1, 2",
                "SELECT batch_id, command, as_of, mode, status, reason, data_mark, plan_options FROM batches ORDER BY batch_id",
                "SELECT * FROM batch_births ORDER BY 1, 2", "SELECT * FROM data_marks",
            ]
            return try queries.flatMap { sql in
                try fixture.store.database.rows(sql).map { row in row.map { $0.text ?? "NULL" }.joined(separator: "|") }
            }
        }
    }

    /// Drops the trigger that moves the data mark on an UPDATE of a task's data: SQLite's
    /// `tasks_data_updated` (`DataMarks`), PostgreSQL's `tasks_updated` (`PGSchema`).
    static let dropDataTrigger = TestStore.isPostgres ? "DROP TRIGGER tasks_updated ON tasks" : "DROP TRIGGER tasks_data_updated"

    static func summary(_ result: ImportResult) -> String {
        let counts = FileKind.allCases.compactMap { kind in result.counts[kind].map { "\(kind.rawValue) \($0)" } }
        return "\(result.status) \(counts) \(result.problems.map(\.formatted)) \(String(describing: result.categorized))"
    }

    @Test("an identical re-import skips the comparison and gives the tables, result and problems the comparison gives")
    func sameAsComparing() throws {
        let fast = try OnDisk()
        let slow = try OnDisk(readingFilesOf: fast)
        for disk in [fast, slow] { try disk.run() }
        // A day later: the time pass moves buckets either way.
        let later = ImporterFixture.asOf.addingTimeInterval(86_400)
        let skipped = try fast.run(asOf: later)
        let compared = try slow.run(skipping: false, asOf: later)
        #expect(skipped.unchangedSince == 1)
        #expect(compared.unchangedSince == nil)
        #expect(Self.summary(skipped) == Self.summary(compared))
        #expect(skipped.categorized?.entries ?? 0 > 0, "the time pass ran: \(String(describing: skipped.categorized))")
        #expect(try fast.state() == (try slow.state()))
        // And again: the shortcut relies on the newest import, itself a shortcut.
        #expect(try fast.run(asOf: later).unchangedSince == 2)
        #expect(try slow.run(skipping: false, asOf: later).unchangedSince == nil)
        #expect(try fast.state() == (try slow.state()))
    }

    @Test("a hand edit in another connection between two identical imports is undone by the second")
    func handEditIsUndone() throws {
        let disk = try OnDisk()
        try disk.run()
        let before = try disk.fixture.dumpData()
        // Another connection, as the sqlite3 shell or psql would be: its writes fire the data triggers.
        do {
            let shell = try TestStore.shell(disk.fixture.store)
            try shell.execute("UPDATE tasks SET title = 'Hand edit' WHERE task_id = 'T1'")
        }
        let result = try disk.run()
        #expect(result.unchangedSince == nil)
        #expect(result.counts[.tasks]?.updated == 1)
        #expect(try disk.fixture.store.database.rows("SELECT title FROM tasks WHERE task_id = 'T1'").first?.first?.text == "Essay")
        #expect(try disk.fixture.dumpData().first == before.first)
    }

    @Test(
        "any write of data, any other file, other options or another schema makes the run compare",
        arguments: [
            "UPDATE tasks SET due = '2026-12-24' WHERE task_id = 'T3'",
            "UPDATE tasks SET deleted_batch = 1 WHERE task_id = 'T4'",
            "DELETE FROM tasks WHERE task_id = 'T4'",
            "INSERT INTO tasks (task_id, course_id, title) VALUES ('T99', 'C1', 'Smuggled')",
            "UPDATE courses SET title = 'Geometry' WHERE course_id = 'C1'",
            "UPDATE tasks SET assignment_id = 'A1' WHERE task_id = 'T1'",
            // Dropping a trigger changes the schema version: no proof without it.
            dropDataTrigger + "; UPDATE tasks SET title = 'Quietly' WHERE task_id = 'T2'",
            // The mark itself, set back by hand: the schema is the same, but the mark moved
            // when the row was edited (the edit's own trigger).
            "UPDATE tasks SET title = 'x' WHERE task_id = 'T2'; UPDATE data_marks SET data = data - 1",
        ])
    func everyWriterBlocksTheShortcut(_ edit: String) throws {
        let disk = try OnDisk()
        try disk.run()
        do {
            let shell = try TestStore.shell(disk.fixture.store)
            try shell.execute(edit)
        }
        let result = try disk.run()
        if edit.hasPrefix("INSERT") {
            // A merge keeps a row the files do not have: compared, nothing to change.
            #expect(result.unchangedSince == nil)
        } else if edit.hasSuffix("data - 1") {
            // The mark equals the recorded one again: the only edit a proof cannot see is one
            // that forges the mark itself (documented in docs/operations.md).
            #expect(result.unchangedSince == 1)
        } else {
            #expect(result.unchangedSince == nil, "\(edit)")
            #expect(result.total.updated + result.total.inserted + result.total.deleted > 0, "\(edit): \(Self.summary(result))")
        }
    }

    @Test("a categorization, an override and the clock change no data: the next identical import still skips")
    func bucketsAndOverridesAreNotData() throws {
        let disk = try OnDisk()
        try disk.run()
        let store = disk.fixture.store
        let utc = TimeZone(identifier: "UTC") ?? .current
        let moved = try Categorizer(store: store, clock: FixedClock(ImporterFixture.asOf)).categorize(
            asOf: ImporterFixture.asOf.addingTimeInterval(3 * 86_400), defaultTimeZone: utc, actor: "tester")
        #expect(moved.entries > 0)
        _ = try ManualOverride(store: store, clock: FixedClock(ImporterFixture.asOf)).reclassify(
            taskID: "T3", to: .today, reason: "extension", until: nil, actor: "tester", asOf: ImporterFixture.asOf, defaultTimeZone: utc)
        #expect(try disk.run().unchangedSince == 1)
    }

    @Test("another file, a changed byte, other plan options or a reverted batch make the run compare")
    func otherInputsCompare() throws {
        let disk = try OnDisk()
        try disk.run()
        // Plan options: a sync is another plan.
        #expect(try disk.run(mode: .sync).unchangedSince == nil)
        // Same size, one byte changed.
        let path = disk.files[1].path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "Poster", with: "Paster").write(toFile: path, atomically: true, encoding: .utf8)
        let changed = try disk.run(mode: .sync)
        #expect(changed.unchangedSince == nil)
        #expect(changed.counts[.tasks]?.updated == 1)
        // The batch it would rely on reverted: the data changed.
        _ = try Reverter(store: disk.fixture.store, clock: FixedClock(ImporterFixture.asOf)).revert(
            batchID: changed.batchID ?? 0, force: false, actor: "tester", asOf: ImporterFixture.asOf,
            defaultTimeZone: TimeZone(identifier: "UTC") ?? .current)
        let again = try disk.run(mode: .sync)
        #expect(again.unchangedSince == nil)
        #expect(again.counts[.tasks]?.updated == 1)
    }

    @Test("files in memory or a dry run never take the shortcut")
    func onlyRecordedRunsOfRegularFiles() throws {
        let disk = try OnDisk()
        try disk.run()
        var options = ImporterFixture.options()
        options.dryRun = true
        #expect(try disk.fixture.importer.run(files: disk.files, options: options).unchangedSince == nil)
        let memory = try disk.fixture.run([("courses.csv", Self.courses + "\n"), ("tasks.csv", Self.tasks + "\n")])
        #expect(memory.unchangedSince == nil)
    }
}
