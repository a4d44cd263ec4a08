import Foundation
import Testing

@testable import DashboardCore

/// Issue 31, item 1: the tasks file's optional `status` and `submitted_at` columns (SPEC §11) on
/// either store: read under their aliases, refused row by row with the code, line, column and
/// value, stored with the state `completed` agrees with, planned and applied field by field,
/// kept in the history, reverted, and skipped unchanged by a sync only while they are.
@Suite struct SubmissionImportTests {
    static let tasks = """
        task_id,course_id,title,due,completed,Workflow_State,Turned In At
        T1,C1,Essay,2026-11-20,,submitted,2026-11-19T22:10
        T2,C1,Essay,2026-11-20,true,graded,2026-11-21
        T3,C1,Essay,2026-11-20,,EXCUSED,
        T4,C1,Essay,2026-11-20,no,,
        T5,C1,Essay,2026-11-20,yes,,2026-11-18T09:00:00Z
        T6,C1,Essay,2026-11-20,,Reclaimed-by-student,
        """

    static func states(_ f: ImporterFixture) throws -> [String] {
        try f.store.database.rows("SELECT task_id, completed, status, submitted_at FROM tasks ORDER BY task_id").map { row in
            row.map { $0.text ?? "NULL" }.joined(separator: "|")
        }
    }

    @Test(arguments: [
        ("status", Column.status), ("STATE", .status), ("workflow_state", .status), ("Submission Status", .status),
        ("submission-state", .status), ("grading status", .status), ("submitted_at", .submittedAt),
        ("Submitted On", .submittedAt), ("date_submitted", .submittedAt), ("turned_in_at", .submittedAt),
        ("Handed-In-At", .submittedAt), ("submission date", .submittedAt), ("\u{FEFF}Submission Time", .submittedAt),
    ])
    func everyAliasNamesTheColumn(header: String, column: Column) {
        #expect(Column.named(header) == column)
    }

    @Test("a bare \"submitted\" or \"turned in\" header names no column: exports use them for yes/no")
    func yesNoHeadersAreNotHandInTimes() {
        #expect(Column.named("submitted") == nil)
        #expect(Column.named("Turned In") == nil)
    }

    @Test("states are stored with completed agreeing, hand-in times as canonical due texts")
    func statesAreStored() throws {
        let f = try ImporterFixture()
        let result = try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", Self.tasks)])
        #expect(result.counts[.tasks] == ImportCounts(read: 6, inserted: 6))
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(
            try Self.states(f) == [
                "T1|0|submitted|2026-11-19T22:10:00", "T2|1|completed|2026-11-21", "T3|0|excused|", "T4|0|open|",
                "T5|1|completed|2026-11-18T09:00:00Z", "T6|0|open|",
            ])
        #expect(try f.store.tasks().map(\.state) == [.submitted, .completed, .excused, .open, .completed, .open])
        #expect(try f.store.tasks().map(\.submittedAt) == ["2026-11-19T22:10:00", "2026-11-21", "", "", "2026-11-18T09:00:00Z", ""])
        var problems: [VerificationProblem] = []
        try f.store.verify { problems.append($0) }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("a file without the columns stores the state completed means, as before §11")
    func withoutTheColumns() throws {
        let f = try ImporterFixture()
        try f.run([
            ("courses.csv", ImporterFixture.courses),
            ("tasks.csv", "task_id,course_id,title,completed\nT1,C1,A,true\nT2,C1,B,false\nT3,C1,C,\n"),
        ])
        #expect(try Self.states(f) == ["T1|1|completed|", "T2|0|open|", "T3|0|open|"])
    }

    @Test("an unknown word and a contradiction are row problems with their line, column, value and hint; the other rows import")
    func refusedRows() throws {
        let f = try ImporterFixture()
        let tasks = """
            task_id,course_id,title,completed,status,submitted_at
            T1,C1,Essay,,submited,
            T2,C1,Essay,true,turned in,
            T3,C1,Essay,false,graded,
            T4,C1,Essay,true,excused,2026-11-19
            T5,C1,Essay,,done,2026-02-30
            T6,C1,Essay,,open,
            """
        let result = try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", tasks)])
        #expect(result.counts[.tasks] == ImportCounts(read: 6, inserted: 2, rejected: 4))
        #expect(
            result.problems.map { "\($0.line) \($0.column) \($0.code.rawValue) \($0.value) \($0.message)" } == [
                "2 status invalid_status submited \"submited\" is not a submission state",
                "3 status conflicting_status turned in \"turned in\" (submitted) contradicts completed \"true\"",
                "4 status conflicting_status graded \"graded\" (completed) contradicts completed \"false\"",
                "6 submitted_at invalid_date 2026-02-30 \"2026-02-30\" is not a date: month 2 of 2026 has 28 days",
            ])
        #expect(result.problems.first?.hint == SubmissionStateParser.hint)
        #expect(result.problems.first?.hint.hasPrefix("use one of: open (open, assigned,") == true)
        #expect(ProblemCode.invalidStatus.frictionlessType == "type-error")
        #expect(ProblemCode.conflictingStatus.frictionlessType == "row-constraint")
        // Nothing of a refused row is stored; the accepted ones are whole.
        #expect(try Self.states(f) == ["T4|0|excused|2026-11-19", "T6|0|open|"])
    }

    @Test(
        "a change of state is an update of the row: planned field by field, kept in the history, reverted; the same file again is unchanged"
    )
    func aChangeOfStateRoundTrips() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", Self.tasks)])
        // The same file twice: the second sync skips its rows by their prints, and finds them unchanged.
        for _ in 0..<2 {
            let same = try f.run([("tasks.csv", Self.tasks)], ImporterFixture.options(.sync))
            #expect(same.counts[.tasks] == ImportCounts(read: 6, unchanged: 6))
        }
        // T1 is graded, T3 no longer excused, T4 handed in (a state and a time where there were none).
        let next = Self.tasks.replacingOccurrences(of: "T1,C1,Essay,2026-11-20,,submitted,", with: "T1,C1,Essay,2026-11-20,,graded,")
            .replacingOccurrences(of: "T3,C1,Essay,2026-11-20,,EXCUSED,", with: "T3,C1,Essay,2026-11-20,,,")
            .replacingOccurrences(of: "T4,C1,Essay,2026-11-20,no,,", with: "T4,C1,Essay,2026-11-20,no,handed in,2026-11-22")
        let dry = try f.run([("tasks.csv", next)], ImporterFixture.options(.sync, dryRun: true))
        #expect(dry.counts[.tasks] == ImportCounts(read: 6, updated: 3, unchanged: 3))
        let update = try f.run([("tasks.csv", next)], ImporterFixture.options(.sync))
        #expect(update.counts[.tasks] == ImportCounts(read: 6, updated: 3, unchanged: 3))
        #expect(
            try Self.states(f) == [
                "T1|1|completed|2026-11-19T22:10:00", "T2|1|completed|2026-11-21", "T3|0|open|", "T4|0|submitted|2026-11-22",
                "T5|1|completed|2026-11-18T09:00:00Z", "T6|0|open|",
            ])
        let batch = try #require(update.batchID)
        #expect(
            try f.store.database.rows(
                "SELECT task_id, completed, status, submitted_at FROM task_history WHERE batch_id = ? ORDER BY task_id", [batch]
            ).map { $0.map { $0.text ?? "NULL" }.joined(separator: "|") } == [
                "T1|0|submitted|2026-11-19T22:10:00", "T3|0|excused|", "T4|0|open|",
            ])
        _ = try Reverter(store: f.store, clock: FixedClock(ImporterFixture.asOf)).revert(
            batchID: batch, force: false, actor: "tester", asOf: ImporterFixture.asOf,
            defaultTimeZone: TimeZone(identifier: "UTC") ?? .current)
        #expect(
            try Self.states(f) == [
                "T1|0|submitted|2026-11-19T22:10:00", "T2|1|completed|2026-11-21", "T3|0|excused|", "T4|0|open|",
                "T5|1|completed|2026-11-18T09:00:00Z", "T6|0|open|",
            ])
    }

    @Test("a held sync shows a change of state field by field; a completed-only change shows no status field")
    func aHeldSyncPlansTheState() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", Self.tasks)])
        // T6 gone (a delete over the limit: held); T1 graded; T4 completed by its completed cell alone.
        let next = Self.tasks.replacingOccurrences(of: "T1,C1,Essay,2026-11-20,,submitted,", with: "T1,C1,Essay,2026-11-20,,graded,")
            .replacingOccurrences(of: "T4,C1,Essay,2026-11-20,no,,", with: "T4,C1,Essay,2026-11-20,yes,,")
            .replacingOccurrences(of: "\nT6,C1,Essay,2026-11-20,,Reclaimed-by-student,", with: "")
        let held = try f.run([("tasks.csv", next)], ImporterFixture.options(.sync, maxDelete: .count(0)))
        try #require(held.status == .held)
        let heldID = try #require(held.batchID)
        var updates: [PlannedChange] = []
        var deletes: [PlannedChange] = []
        try f.store.readHeldPlan(batchID: heldID) { plan in
            try plan.forEachChange(.tasks, .update, limit: 0) { updates.append($0) }
            try plan.forEachChange(.tasks, .delete, limit: 0) { deletes.append($0) }
        }
        #expect(updates.map(\.id) == ["T1", "T4"])
        #expect(
            updates.first?.fields == [
                PlannedChange.Field(name: "completed", old: "false", new: "true"),
                PlannedChange.Field(name: "status", old: "submitted", new: "completed"),
            ])
        #expect(updates.last?.fields == [PlannedChange.Field(name: "completed", old: "false", new: "true")])
        // A delete lists the row's fields; an open task's status and an empty hand-in say nothing.
        #expect(deletes.first?.fields.map(\.name) == ["course_id", "title", "student_id", "due", "priority", "completed", "assignment_id"])
        let approved = try f.importer.approve(batchID: heldID, asOf: ImporterFixture.asOf, actor: "tester")
        #expect(approved.counts[.tasks]?.updated == 2)
        #expect(
            try Self.states(f).prefix(4) == [
                "T1|1|completed|2026-11-19T22:10:00", "T2|1|completed|2026-11-21", "T3|0|excused|", "T4|1|completed|",
            ])
    }

    @Test("verify names a stored state that is no state, one against completed, and a hand-in time that is no due text")
    func verifyNamesBadStates() throws {
        let f = try ImporterFixture(sqlite: true)
        try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", Self.tasks)])
        try f.store.database.execute(
            """
            PRAGMA ignore_check_constraints = ON;
            UPDATE tasks SET status = 'pending' WHERE task_id = 'T1';
            UPDATE tasks SET status = 'open' WHERE task_id = 'T2';
            UPDATE tasks SET status = 'completed' WHERE task_id = 'T4';
            UPDATE tasks SET submitted_at = 'yesterday' WHERE task_id = 'T5';
            """)
        var problems: [VerificationProblem] = []
        try f.store.verify { problems.append($0) }
        #expect(
            problems.map { "\($0.key) \($0.column) \($0.value): \($0.rule)" } == [
                "T1 status 'pending': must be open, submitted, completed or excused",
                "T2 status 'open': must be completed exactly when completed is 1 (SPEC §11: completed alone means completed or open)",
                "T4 status 'completed': must be completed exactly when completed is 1 (SPEC §11: completed alone means completed or open)",
                "T5 submitted_at 'yesterday': must be empty, YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS or YYYY-MM-DDTHH:MM:SSZ",
            ])
        // Readers decode them as the state completed means, and say which value was invalid.
        let tasks = try f.store.tasks()
        #expect(tasks.map(\.state) == [.open, .completed, .excused, .open, .completed, .open])
        #expect(tasks.map { $0.invalid.map(\.column) } == [["status"], ["status"], [], ["status"], ["submitted_at"], []])
    }
}

/// SQLite's migration 13 of a file of schema 12 (PostgreSQL's upgrade from version 11 and the
/// release's own files: `ReleaseFixtureTests`).
@Suite(.storeIndependent) struct SubmissionMigrationTests {
    @Test(
        "a file of schema 12: a reader reads the state completed means; a writer adds the columns keeping every row and clearing every print"
    )
    func schemaTwelveFile() throws {
        let f = try UnchangedRowsTests.imported(sqlite: true)
        try f.run([("tasks.csv", "task_id,course_id,title,completed\nT1,C1,Task 1,true\n")])
        let columns = "task_id, course_id, title, student_id, due, priority, completed, deleted_batch, changed_batch, bucket, assignment_id"
        let before = try f.store.database.rows("SELECT \(columns) FROM tasks ORDER BY 1")
        try f.store.database.execute(
            """
            DROP TRIGGER tasks_status_written; DROP TRIGGER tasks_print_stale;
            ALTER TABLE tasks DROP COLUMN status; ALTER TABLE tasks DROP COLUMN submitted_at;
            ALTER TABLE task_history DROP COLUMN status; ALTER TABLE task_history DROP COLUMN submitted_at;
            ALTER TABLE held_tasks DROP COLUMN status; ALTER TABLE held_tasks DROP COLUMN submitted_at;
            \(RowPrints.staleTrigger(version: 9))
            PRAGMA user_version = 12;
            """)
        #expect(try f.store.database.int("SELECT count(*) FROM tasks WHERE print IS NOT NULL") > 0)
        let reader = try Store(readOnlyPath: f.path)
        #expect(reader.schemaVersion == 12)
        #expect(try reader.tasks().filter { $0.taskID == "T1" || $0.taskID == "T2" }.map(\.state) == [.completed, .open])
        var problems: [VerificationProblem] = []
        try reader.verify { problems.append($0) }
        #expect(problems.isEmpty, "\(problems)")

        let writer = try Store(path: f.path)
        #expect(writer.schemaVersion == Schema.currentVersion)
        #expect(try writer.database.rows("SELECT \(columns) FROM tasks ORDER BY 1") == before)
        // T1 and every third task are completed (`UnchangedRowsTests.tasks`): 14 of 40.
        #expect(try writer.database.int("SELECT count(*) FROM tasks WHERE status = 'completed'") == 14)
        #expect(try writer.database.int("SELECT count(*) FROM tasks WHERE (status = 'completed') <> (completed = 1)") == 0)
        #expect(try writer.database.int("SELECT count(*) FROM tasks WHERE status <> 'completed' AND status <> 'open'") == 0)
        #expect(try writer.database.int("SELECT count(*) FROM tasks WHERE print IS NOT NULL") == 0)
        #expect(try writer.database.int("SELECT count(*) FROM task_history WHERE status IS NULL AND existed = 1") == 0)
        // The new print trigger covers the state: a hand edit of one clears the print and moves the data mark.
        let importer = Importer(store: writer, clock: FixedClock(ImporterFixture.asOf))
        let synced = try importer.run(
            files: [InputFile.inMemory("tasks.csv", UnchangedRowsTests.tasks(Array(1...40)))], options: ImporterFixture.options(.sync))
        #expect(synced.counts[.tasks]?.unchanged == 39)
        #expect(try writer.database.int("SELECT count(*) FROM tasks WHERE print IS NOT NULL") == 40)
        let mark = try writer.database.int("SELECT data FROM data_marks")
        try writer.database.run("UPDATE tasks SET status = 'excused' WHERE task_id = 'T4'")
        #expect(try writer.database.int("SELECT data FROM data_marks") > mark)
        #expect(try writer.database.int("SELECT count(*) FROM tasks WHERE print IS NULL") == 1)
        try writer.verify { problems.append($0) }
        #expect(problems.isEmpty, "\(problems)")
    }
}
