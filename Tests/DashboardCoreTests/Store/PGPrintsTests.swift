import Foundation
import PostgresTestSupport
import Testing

@testable import DashboardCore

/// The import's fingerprints of tasks on PostgreSQL (schema 9, `PGSchema.rowPrints`,
/// `LivePrints`): the triggers that keep them honest against another connection as psql is one,
/// the upgrade of a version 8 database, and what the in-memory lookup must read exactly.
@Suite("PostgreSQL: the fingerprints a sync skips unchanged rows by", .postgresPass)
struct PGPrintsTests {
    static let export = UnchangedRowsTests.tasks(Array(1...40))

    @Test("a hand UPDATE of a title through another connection clears its print: the next sync stages that row again")
    func handUpdateThroughPsql() throws {
        let f = try UnchangedRowsTests.imported()
        let psql = try TestStore.shell(f.store)
        try psql.run("UPDATE tasks SET title = 'edited in psql' WHERE task_id = 'T7'")
        #expect(try f.store.database.scalar("SELECT print FROM tasks WHERE task_id = 'T7'") == .null)
        #expect(try f.store.database.int("SELECT count(*) FROM tasks WHERE print IS NOT NULL") == 39)
        // The marks would send the next import to the full comparison anyway; moved back as if
        // the edit had been the dashboard's, the cleared print alone must make T7 compared.
        f.store.database.setTriggersEnabled(false)
        try f.store.database.run("UPDATE data_marks SET trusted = writes, clean = 1 WHERE id = 1")
        f.store.database.setTriggersEnabled(true)
        // T9 tampered as only the importer writes (its print stays): skipped, its title kept.
        try UnchangedRowsTests.tamper(f, task: "T9")
        let result = try f.run([("tasks.csv", Self.export)], UnchangedRowsTests.sync())
        #expect(result.counts[.tasks] == ImportCounts(read: 40, updated: 1, unchanged: 39))
        #expect(try UnchangedRowsTests.title(f, "T7") == "Task 7")
        #expect(try UnchangedRowsTests.title(f, "T9") == "tampered")
        #expect(try f.store.database.int("SELECT length(print) FROM tasks WHERE task_id = 'T7'") == 16)
    }

    @Test("a psql INSERT with a print loses it, and a disabled trigger turns the skip off")
    func insertAndDisabledTrigger() throws {
        let f = try UnchangedRowsTests.imported()
        let psql = try TestStore.shell(f.store)
        try psql.run(
            """
            INSERT INTO tasks (task_id, course_id, title, print, slot)
            SELECT 'T99', 'C1', 'By hand', print, 99 FROM tasks WHERE task_id = 'T1'
            """)
        #expect(try f.store.database.scalar("SELECT print FROM tasks WHERE task_id = 'T99'") == .null)
        // A disabled trigger: nothing may be skipped, even with the marks moved back.
        try psql.run("ALTER TABLE tasks DISABLE TRIGGER tasks_print_stale")
        f.store.database.setTriggersEnabled(false)
        try f.store.database.run("UPDATE data_marks SET trusted = writes, clean = 1 WHERE id = 1")
        f.store.database.setTriggersEnabled(true)
        try UnchangedRowsTests.tamper(f, task: "T9")
        let result = try f.run([("tasks.csv", Self.export)], UnchangedRowsTests.sync(maxDelete: .percent(100)))
        #expect(result.counts[.tasks] == ImportCounts(read: 40, updated: 1, unchanged: 39, deleted: 1))
        #expect(try UnchangedRowsTests.title(f, "T9") == "Task 9")
    }

    @Test("another connection that holds tasks for writing turns the skip off after 3 s: that run compares every row")
    func writerHoldingTasks() throws {
        let f = try UnchangedRowsTests.imported()
        try UnchangedRowsTests.tamper(f, task: "T9")
        let psql = try TestStore.shell(f.store)
        try psql.execute("BEGIN; LOCK TABLE tasks IN ROW EXCLUSIVE MODE")
        defer { try? psql.execute("ROLLBACK") }
        let started = Date()
        let result = try f.run([("tasks.csv", Self.export)], UnchangedRowsTests.sync())
        #expect(Date().timeIntervalSince(started) >= 2.9)
        // Compared, not skipped: the tampered title is put back.
        #expect(result.counts[.tasks] == ImportCounts(read: 40, updated: 1, unchanged: 39))
        #expect(try UnchangedRowsTests.title(f, "T9") == "Task 9")
    }

    @Test("ids that COPY escapes, and non-ASCII ones, are found in memory by their exact bytes")
    func escapedIDs() throws {
        let f = try ImporterFixture()
        let ids = ["A\\1", "Ä-2", "B\\\\3", "C 4"]
        let body =
            "task_id,course_id,title\n" + ids.enumerated().map { "\"\($0.element)\",C1,Task \($0.offset)" }.joined(separator: "\n") + "\n"
        try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", body)])
        #expect(try f.store.database.int("SELECT count(*) FROM tasks WHERE print IS NOT NULL") == 4)
        for id in ids {
            f.store.database.setTriggersEnabled(false)
            try f.store.database.run("UPDATE tasks SET title = 'tampered' WHERE task_id = ?", [id])
            f.store.database.setTriggersEnabled(true)
        }
        let result = try f.run([("tasks.csv", body)], UnchangedRowsTests.sync())
        #expect(result.counts[.tasks] == ImportCounts(read: 4, unchanged: 4))
        // Each row was skipped by its print, found under its own id: the titles stay.
        #expect(try f.store.database.int("SELECT count(*) FROM tasks WHERE title = 'tampered'") == 4)
    }

    @Test("a version 8 database: a reader leaves it, a writer upgrades it in place keeping every row; verify finds nothing")
    func upgradeFromVersionEight() throws {
        let f = try UnchangedRowsTests.imported()
        let server = try PostgresTestServer.shared()
        let name = try #require(f.store.path.split(separator: "/").last.map { String($0.split(separator: "?")[0]) })
        // The data before: read now, the columns as they will be after the upgrade (a read after
        // the downgrade would have one column less, and the fixture's cached statements a plan
        // of another shape).
        let before = try f.dumpData()
        // The database as version 8 left it: no print, no slot, no triggers of theirs, and none
        // of version 10's addresses or 11's languages.
        let downgrade = try server.psql(
            name,
            """
            \(PGPrintsTests.toVersion9)
            DROP TRIGGER tasks_print_stale ON tasks; DROP TRIGGER tasks_print_inserted ON tasks; DROP TRIGGER tasks_print_written ON tasks;
            DROP FUNCTION dashboard_tasks_print_stale(); DROP FUNCTION dashboard_tasks_print_inserted();
            ALTER TABLE tasks DROP COLUMN print, DROP COLUMN slot;
            UPDATE dashboard_schema SET version = 8;
            """)
        #expect(downgrade.status == 0, "\(downgrade.stderr)")
        let reader = try Store(postgres: f.store.path, create: false)
        #expect(reader.schemaVersion == 8)
        #expect(try !RowPrints.kept(reader.database))
        var problems: [VerificationProblem] = []
        try reader.verify { problems.append($0) }
        #expect(problems.isEmpty, "\(problems)")

        let writer = try Store(postgres: f.store.path, create: true)
        #expect(writer.schemaVersion == PGSchema.currentVersion)
        #expect(try RowPrints.kept(writer.database))
        #expect(try RowPrints.triggersPresent(writer.database))
        #expect(try writer.database.int("SELECT count(*) FROM tasks WHERE print IS NULL AND slot IS NULL") == 40)
        #expect(try f.dumpData() == before)
        try writer.verify { problems.append($0) }
        #expect(problems.isEmpty, "\(problems)")

        // Its first sync compares every row and writes the prints; the next one skips.
        let importer = Importer(store: writer, clock: FixedClock(ImporterFixture.asOf))
        let files = [InputFile.inMemory("tasks.csv", Self.export)]
        #expect(try importer.run(files: files, options: UnchangedRowsTests.sync()).counts[.tasks] == ImportCounts(read: 40, unchanged: 40))
        #expect(try writer.database.int("SELECT count(DISTINCT print) + count(DISTINCT slot) FROM tasks") == 80)
        writer.database.setTriggersEnabled(false)
        try writer.database.run("UPDATE tasks SET title = 'tampered' WHERE task_id = 'T9'")
        writer.database.setTriggersEnabled(true)
        #expect(try importer.run(files: files, options: UnchangedRowsTests.sync()).counts[.tasks] == ImportCounts(read: 40, unchanged: 40))
        #expect(try writer.database.scalar("SELECT title FROM tasks WHERE task_id = 'T9'")?.text == "tampered")
        try writer.verify { problems.append($0) }
        #expect(problems.isEmpty, "\(problems)")
    }

    /// What version 12 added, taken away: the tasks' submission states and hand-in times, and
    /// the function and trigger that compare them (as version 11 defined them).
    static let toVersion11 = """
        DROP TRIGGER tasks_print_stale ON tasks;
        ALTER TABLE tasks DROP COLUMN status, DROP COLUMN submitted_at;
        ALTER TABLE task_history DROP COLUMN status, DROP COLUMN submitted_at;
        ALTER TABLE held_tasks DROP COLUMN status, DROP COLUMN submitted_at;
        \(PGSchema.tasksUpdated(version: 11).replacingOccurrences(of: "CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION"));
        \(PGSchema.printStaleTrigger(version: 11))
        """

    /// What versions 11 and 12 added, taken away: the courses' languages and the function that
    /// compares them (as version 10 defined it), and `toVersion11`.
    static let toVersion10 = """
        \(toVersion11)
        ALTER TABLE courses DROP COLUMN language; ALTER TABLE course_history DROP COLUMN language;
        ALTER TABLE held_courses DROP COLUMN language;
        \(PGSchema.coursesUpdated(version: 10).replacingOccurrences(of: "CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION"));
        """

    /// What versions 10 to 12 added, taken away: the teachers' addresses, the courses'
    /// languages and the function that compares them (as version 9 defined it), and
    /// `toVersion11`.
    static let toVersion9 = """
        \(toVersion11)
        ALTER TABLE courses DROP COLUMN teacher_email, DROP COLUMN language;
        ALTER TABLE course_history DROP COLUMN teacher_email, DROP COLUMN language;
        ALTER TABLE held_courses DROP COLUMN teacher_email, DROP COLUMN language;
        \(PGSchema.coursesUpdated(version: 9).replacingOccurrences(of: "CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION"));
        """

    @Test("a version 9 database: reports read it as it is, a writer adds the teachers' addresses ('') keeping every row")
    func upgradeFromVersionNine() throws {
        let f = try UnchangedRowsTests.imported()
        let server = try PostgresTestServer.shared()
        let name = try #require(f.store.path.split(separator: "/").last.map { String($0.split(separator: "?")[0]) })
        let downgrade = try server.psql(name, Self.toVersion9 + "UPDATE dashboard_schema SET version = 9;")
        #expect(downgrade.status == 0, "\(downgrade.stderr)")
        let reader = try Store(postgres: f.store.path, create: false)
        #expect(reader.schemaVersion == 9)
        #expect(try reader.reportTeachers().count == (try f.store.reportTeachers().count))
        let writer = try Store(postgres: f.store.path, create: true)
        #expect(writer.schemaVersion == PGSchema.currentVersion)
        #expect(
            try writer.database.int("SELECT count(*) FROM courses WHERE teacher_email = '' AND language = ''")
                == (try writer.database.int("SELECT count(*) FROM courses")))
        var problems: [VerificationProblem] = []
        try writer.verify { problems.append($0) }
        #expect(problems.isEmpty, "\(problems)")
    }
}
