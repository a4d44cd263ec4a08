import Foundation
import Testing

@testable import DashboardCore

/// A sync skips the rows whose print a live task keeps (issue 26, `UnchangedRows`): what it
/// skips, what it never skips, and what sends it back to the full comparison. Every twin test
/// (`TwinStores`) also compares the skipping database with one that compares every row; these
/// tests look at the cases one by one, on both stores (PostgreSQL keeps prints from its
/// schema 9 on, and reads them into memory at the start of a run: `LivePrints`).
@Suite struct UnchangedRowsTests {
    /// `T1…Tn` in C1 with every column a row can have, some values in the forms the normalizer
    /// rewrites (spaces around a title, `yes`, a local date-time).
    static func tasks(_ ids: [Int], title: (Int) -> String = { "Task \($0)" }) -> String {
        "task_id,course_id,title,student_id,due,priority,completed\n"
            + ids.map {
                "T\($0),C1,\(title($0)),S\($0 % 7),2026-12-0\($0 % 9 + 1)T09:30,\($0 % 2 == 0 ? "high" : "low"),\($0 % 3 == 0 ? "yes" : "no")"
            }
            .joined(separator: "\n") + "\n"
    }

    static func sync(maxDelete: DeleteLimit = .percent(10)) -> ImportOptions {
        ImporterFixture.options(.sync, maxDelete: maxDelete)
    }

    /// Syncs `files` into `f` (which skips what it finds unchanged) and into `twin` (which
    /// compares every row): the two results.
    static func syncBoth(_ files: [(String, String)], _ f: ImporterFixture, _ twin: ImporterFixture) throws -> (ImportResult, ImportResult)
    {
        var every = sync()
        every.compareEveryRow = true
        return (try f.run(files, sync()), try twin.run(files, every))
    }

    /// A fixture with C1, C2 and `T1…T40` imported.
    static func imported(_ ids: [Int] = Array(1...40), sqlite: Bool = false) throws -> ImporterFixture {
        let f = try ImporterFixture(sqlite: sqlite)
        try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", tasks(ids))])
        return f
    }

    /// Changes a task's title on the fixture's own connection with triggers off, as only the
    /// importer writes: its print stays. A sync that still finds the row unchanged by its print
    /// shows that it skipped the row (a sync that compares it puts the title back).
    static func tamper(_ f: ImporterFixture, task: String) throws {
        f.store.database.setTriggersEnabled(false)
        defer { f.store.database.setTriggersEnabled(true) }
        try f.store.database.run("UPDATE tasks SET title = 'tampered' WHERE task_id = ?", [task])
    }

    static func title(_ f: ImporterFixture, _ task: String) throws -> String? {
        try f.store.database.scalar("SELECT title FROM tasks WHERE task_id = ?", [task])?.text
    }

    @Test("every task the first import writes keeps a print and a slot of its own")
    func firstImportWritesPrints() throws {
        let f = try Self.imported()
        #expect(try f.store.database.int("SELECT count(*) FROM tasks WHERE print IS NOT NULL AND length(print) = 16") == 40)
        #expect(try f.store.database.int("SELECT count(DISTINCT slot) FROM tasks") == 40)
    }

    @Test("a sync skips the unchanged rows, and plans the changed, new and absent ones as a full comparison does")
    func syncSkipsUnchangedRows() throws {
        let f = try Self.imported()
        let twin = try Self.imported()
        var ids = Array(1...40).filter { $0 != 10 }
        ids.append(41)
        let export = Self.tasks(ids) { $0 == 3 ? "Task 3 revised" : "Task \($0)" }
        try Self.tamper(f, task: "T5")
        try Self.tamper(twin, task: "T5")
        let (skipped, compared) = try Self.syncBoth([("tasks.csv", export)], f, twin)
        #expect(skipped.counts[.tasks] == ImportCounts(read: 40, inserted: 1, updated: 1, unchanged: 38, deleted: 1))
        #expect(compared.counts[.tasks] == ImportCounts(read: 40, inserted: 1, updated: 2, unchanged: 37, deleted: 1))
        // T5's row was skipped by its print: the tampered title stays (a hand edit through the
        // sqlite3 shell fires the trigger that clears the print; see below).
        #expect(try Self.title(f, "T5") == "tampered")
        #expect(try Self.title(twin, "T5") == "Task 5")
        #expect(try Self.title(f, "T3") == "Task 3 revised")
        #expect(try f.store.database.int("SELECT count(*) FROM tasks WHERE task_id = 'T10' AND deleted_batch IS NOT NULL") == 1)
        // The new row and the changed one got prints; slots stay unique.
        #expect(try f.store.database.int("SELECT count(*) FROM tasks WHERE deleted_batch IS NULL AND print IS NULL") == 0)
        #expect(try f.store.database.int("SELECT count(*) - count(DISTINCT slot) FROM tasks") == 0)
        // The history keeps the changed row's previous values, as the full comparison does.
        #expect(
            try f.store.database.rows("SELECT task_id, change, title FROM task_history WHERE batch_id = 2 ORDER BY task_id")
                == [[.text("T10"), .text("delete"), .text("Task 10")], [.text("T3"), .text("update"), .text("Task 3")]])
    }

    @Test("a write by anyone but the importer clears the task's print, and the next sync compares that row")
    func otherWritersClearThePrint() throws {
        let f = try Self.imported()
        // As the sqlite3 shell would: triggers on.
        try f.store.database.run("UPDATE tasks SET title = 'edited by hand' WHERE task_id = 'T7'")
        try f.store.database.run("UPDATE tasks SET bucket = 'overdue' WHERE task_id = 'T8'")
        #expect(try f.store.database.scalar("SELECT print FROM tasks WHERE task_id = 'T7'") == .null)
        // A bucket is not what the print stands for: kept.
        #expect(try f.store.database.scalar("SELECT length(print) FROM tasks WHERE task_id = 'T8'") == .integer(16))
        let result = try f.run([("tasks.csv", Self.tasks(Array(1...40)))], Self.sync())
        #expect(result.counts[.tasks]?.updated == 1)
        #expect(try Self.title(f, "T7") == "Task 7")
        #expect(try f.store.database.scalar("SELECT length(print) FROM tasks WHERE task_id = 'T7'") == .integer(16))
    }

    @Test("a revert clears the prints of the rows it writes back")
    func revertClearsPrints() throws {
        let f = try Self.imported()
        try f.run([("tasks.csv", Self.tasks(Array(1...40)) { $0 <= 2 ? "Changed \($0)" : "Task \($0)" })], Self.sync())
        _ = try Reverter(store: f.store, clock: FixedClock(ImporterFixture.asOf)).revert(
            batchID: 2, force: false, actor: "adams", asOf: ImporterFixture.asOf, defaultTimeZone: TimeZone(identifier: "UTC") ?? .current)
        #expect(try f.store.database.int("SELECT count(*) FROM tasks WHERE print IS NULL") == 2)
        // The next sync of the reverted values compares those two and finds them unchanged.
        let again = try f.run([("tasks.csv", Self.tasks(Array(1...40)))], Self.sync())
        #expect(again.counts[.tasks] == ImportCounts(read: 40, unchanged: 40))
        #expect(try f.store.database.int("SELECT count(*) FROM tasks WHERE print IS NULL") == 0)
    }

    @Test(
        "an id repeated where one of its rows would be skipped reads the file again, every row staged: the same problems, lines and counts",
        arguments: [
            ("exact repeat of an unchanged row", "T4,C1,Task 4,S4,2026-12-05T09:30,high,no"),
            ("conflicting repeat of an unchanged row", "T4,C1,Another title,S4,2026-12-05T09:30,high,no"),
            ("changed row before its unchanged twin", "FIRST:T6,C1,Changed 6,S6,2026-12-07T09:30,high,yes"),
        ])
    func repeatedIDs(name: String, row: String) throws {
        var body = Self.tasks(Array(1...40))
        if row.hasPrefix("FIRST:") {
            let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
            body = ([lines[0], Substring(row.dropFirst(6))] + lines.dropFirst()).joined(separator: "\n")
        } else {
            body += row + "\n"
        }
        let f = try Self.imported()
        let twin = try Self.imported()
        let (a, b) = try Self.syncBoth([("tasks.csv", body)], f, twin)
        #expect(a.counts == b.counts, "\(name)")
        let problems = { (r: ImportResult) in r.problems.map { "\($0.code.rawValue) \($0.line) \($0.message)" } }
        #expect(problems(a) == problems(b), "\(name)")
        #expect(!problems(a).isEmpty, "\(name)")
        #expect(try f.dumpData() == twin.dumpData(), "\(name)")
    }

    @Test(
        "a repeat of a skipped row stages that row after all, at its line: the full comparison's problems, without reading every row staged",
        arguments: [
            ("exact repeat", ["T4,C1,Task 4,S4,2026-12-05T09:30,high,no"]),
            ("conflicting repeat", ["T4,C1,Another title,S4,2026-12-05T09:30,high,no"]),
            ("same values in other bytes", ["T4,C1,  Task 4 ,S4,2026-12-05T09:30,HIGH,No"]),
            ("three times", ["T4,C1,Task 4,S4,2026-12-05T09:30,high,no", "T4,C1,Task four,S4,2026-12-05T09:30,high,no"]),
            ("two ids", ["T7,C1,Task 7,S0,2026-12-08T09:30,low,no", "T4,C1,Task 4,S4,2026-12-05T09:30,high,no"]),
        ])
    func repeatsOfSkippedRows(name: String, rows: [String]) throws {
        let body = Self.tasks(Array(1...40)) + rows.map { $0 + "\n" }.joined()
        let f = try Self.imported()
        let twin = try Self.imported()
        // T10's tampered title stays only if T10's row was skipped, i.e. the run did not fall
        // back to staging every row.
        try Self.tamper(f, task: "T10")
        try Self.tamper(twin, task: "T10")
        let (a, b) = try Self.syncBoth([("tasks.csv", body)], f, twin)
        #expect(try Self.title(f, "T10") == "tampered", "\(name)")
        #expect(try Self.title(twin, "T10") == "Task 10", "\(name)")
        var counts = b.counts
        counts[.tasks]?.updated -= 1
        counts[.tasks]?.unchanged += 1
        #expect(a.counts == counts, "\(name)")
        let problems = { (r: ImportResult) in r.problems.map { "\($0.code.rawValue) \($0.line) \($0.row) \($0.message)" } }
        #expect(problems(a) == problems(b), "\(name)")
        #expect(!problems(a).isEmpty, "\(name)")
        #expect(try f.store.database.int("SELECT count(*) - count(DISTINCT slot) FROM tasks") == 0)
    }

    @Test("an exact repeat in a later file of a row skipped in an earlier one reads the files again, every row staged")
    func repeatAcrossFiles() throws {
        let f = try Self.imported()
        let twin = try Self.imported()
        let second = "task_id,course_id,title,student_id,due,priority,completed\nT4,C1,Task 4,S4,2026-12-05T09:30,high,no\n"
        let files = [("tasks.csv", Self.tasks(Array(1...40))), ("more-tasks.csv", second)]
        let (a, b) = try Self.syncBoth(files, f, twin)
        #expect(a.counts == b.counts)
        #expect(a.problems.map { "\($0.file) \($0.line) \($0.message)" } == b.problems.map { "\($0.file) \($0.line) \($0.message)" })
        #expect(a.problems.first?.message.contains("tasks.csv") == true)
        #expect(try f.dumpData() == twin.dumpData())
    }

    @Test("a sync the delete guard holds keeps every row of its file staged, so that its approval deletes only the absent tasks")
    func heldSyncKeepsEveryRow() throws {
        let f = try Self.imported()
        let result = try f.run([("tasks.csv", Self.tasks(Array(1...34)))], Self.sync())
        #expect(result.status == .held)
        #expect(try f.store.database.int("SELECT count(*) FROM held_tasks WHERE batch_id = 2") == 34)
        let approved = try f.importer.approve(batchID: 2, asOf: ImporterFixture.asOf, actor: "alice")
        #expect(approved.counts[.tasks]?.deleted == 6)
        #expect(approved.counts[.tasks]?.unchanged == 34)
        #expect(try f.store.database.int("SELECT count(*) FROM tasks WHERE deleted_batch IS NULL") == 34)
    }

    @Test("a dry run skips too, and says what the guard would do, writing nothing")
    func dryRunSkips() throws {
        let f = try Self.imported()
        let before = try f.dumpData()
        var options = Self.sync()
        options.dryRun = true
        let result = try f.run([("tasks.csv", Self.tasks(Array(1...34)))], options)
        #expect(result.counts[.tasks] == ImportCounts(read: 34, unchanged: 34, deleted: 6))
        #expect(result.reason.contains("6"))
        #expect(try f.dumpData() == before)
    }

    @Test("a sync that deletes a course compares every row: a skipped row's course must still be valid")
    func deletedCourseTurnsSkippingOff() throws {
        let f = try ImporterFixture()
        let tasks = "task_id,course_id,title\nT1,C1,One\nT2,C2,Two\n"
        try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", tasks)])
        let coursesWithoutC2 = "course_id,code,title,timezone\nC1,MATH,Algebra,America/New_York\n"
        let result = try f.run([("courses.csv", coursesWithoutC2), ("tasks.csv", tasks)], Self.sync(maxDelete: .percent(100)))
        #expect(result.counts[.tasks]?.rejected == 1)
        #expect(result.problems.map(\.code) == [.unknownCourse])
        #expect(result.problems.first?.line == 3)
    }

    @Test("tasks left live under a course a revert deleted are rejected as unknown_course, as the full comparison does")
    func courseDeletedByARevert() throws {
        func run(compareEveryRow: Bool) throws -> (ImportResult, ImporterFixture) {
            let f = try ImporterFixture()
            try f.run([("courses.csv", ImporterFixture.courses)])
            try f.run([("tasks.csv", Self.tasks(Array(1...5)))])
            _ = try Reverter(store: f.store, clock: FixedClock(ImporterFixture.asOf)).revert(
                batchID: 1, force: false, actor: "adams", asOf: ImporterFixture.asOf,
                defaultTimeZone: TimeZone(identifier: "UTC") ?? .current)
            var options = ImporterFixture.options()
            options.compareEveryRow = compareEveryRow
            return (try f.run([("tasks.csv", Self.tasks(Array(1...5)))], options), f)
        }
        let (skipped, a) = try run(compareEveryRow: false)
        let (compared, b) = try run(compareEveryRow: true)
        #expect(skipped.counts[.tasks] == ImportCounts(read: 5, rejected: 5))
        #expect(skipped.counts == compared.counts)
        #expect(skipped.problems.map { "\($0.code.rawValue) \($0.line)" } == compared.problems.map { "\($0.code.rawValue) \($0.line)" })
        #expect(skipped.problems.first?.code == .unknownCourse)
        #expect(try a.dumpData() == b.dumpData())
    }

    @Test(
        "a hand edit of a print or a slot makes the data not clean: the next sync compares every row (and a slot out of range is never trusted)"
    )
    func handEditOfSlot() throws {
        let f = try Self.imported()
        try f.store.database.run("UPDATE tasks SET slot = -5 WHERE task_id = 'T2'")
        try f.store.database.run("UPDATE tasks SET slot = 1099511627776 WHERE task_id = 'T3'")
        try Self.tamper(f, task: "T4")
        let result = try f.run([("tasks.csv", Self.tasks(Array(1...40)))], Self.sync())
        // Compared, not skipped: nothing deleted, and the tampered title is put back.
        #expect(result.counts[.tasks] == ImportCounts(read: 40, updated: 1, unchanged: 39))
        #expect(try Self.title(f, "T4") == "Task 4")
        // The same edit with the marks moved back by hand (as a writer with triggers off
        // would): the slots out of range are never trusted, and nothing is deleted.
        try f.store.database.run("UPDATE tasks SET slot = -5 WHERE task_id = 'T2'")
        f.store.database.setTriggersEnabled(false)
        try f.store.database.run("UPDATE data_marks SET trusted = writes, clean = 1")
        f.store.database.setTriggersEnabled(true)
        try f.store.database.execute("UPDATE data_marks SET trusted = writes")
        let again = try f.run([("tasks.csv", Self.tasks(Array(1...40)))], Self.sync())
        #expect(again.counts[.tasks] == ImportCounts(read: 40, unchanged: 40))
    }

    @Test("slots grow by the new tasks alone, whatever path a run takes")
    func slotsGrowByNewTasks() throws {
        let f = try Self.imported()
        // A repeated row sends the run back to the full path: every row staged.
        let body = Self.tasks(Array(1...41)) + "T5,C1,Task 5,S5,2026-12-06T09:30,low,no\n"
        let result = try f.run([("tasks.csv", body)], Self.sync())
        #expect(result.counts[.tasks]?.inserted == 1)
        #expect(try f.store.database.int("SELECT max(slot) FROM tasks") == 41)
        try f.run([("tasks.csv", Self.tasks(Array(1...42)))], Self.sync())
        #expect(try f.store.database.int("SELECT max(slot) FROM tasks") == 42)
        #expect(try f.store.database.int("SELECT count(DISTINCT slot) FROM tasks") == 42)
    }

    @Test("a database from schema 8 gets the columns empty: its first sync compares every row and writes the prints, the next one skips")
    func upgradeFromSchemaEight() throws {
        // SQLite's migration (PostgreSQL's upgrade: `PGPrintsTests`).
        let f = try Self.imported(sqlite: true)
        let path = f.path
        // The file as schema 8 left it: no print, no slot, no triggers of theirs.
        try f.store.database.execute(
            """
            DROP TRIGGER tasks_print_stale; DROP TRIGGER tasks_print_inserted; DROP TRIGGER tasks_print_written;
            ALTER TABLE tasks DROP COLUMN print; ALTER TABLE tasks DROP COLUMN slot;
            PRAGMA user_version = 8;
            """)
        let reopened = try Store(path: path)
        // Migrations 9 and 10 (the title folds) both ran.
        #expect(reopened.schemaVersion == Schema.currentVersion)
        #expect(try reopened.database.int("SELECT count(*) FROM tasks WHERE print IS NULL AND slot IS NULL") == 40)
        let importer = Importer(store: reopened, clock: FixedClock(ImporterFixture.asOf))
        let export = [InputFile.inMemory("tasks.csv", Self.tasks(Array(1...40)))]
        let first = try importer.run(files: export, options: Self.sync())
        #expect(first.counts[.tasks] == ImportCounts(read: 40, unchanged: 40))
        #expect(try reopened.database.int("SELECT count(DISTINCT print) FROM tasks") == 40)
        reopened.database.setTriggersEnabled(false)
        try reopened.database.run("UPDATE tasks SET title = 'tampered' WHERE task_id = 'T9'")
        reopened.database.setTriggersEnabled(true)
        let second = try importer.run(files: export, options: Self.sync())
        #expect(second.counts[.tasks] == ImportCounts(read: 40, unchanged: 40))
        #expect(try reopened.database.scalar("SELECT title FROM tasks WHERE task_id = 'T9'")?.text == "tampered")
    }

    @Test("a row the reader cannot print (it reads as a header, or has too many fields) is compared, never skipped")
    func unprintableRows() throws {
        let layout = try HeaderLayout(header: ["task_id", "course_id", "title"], file: "t.csv")
        let printer = try #require(RowPrinter(layout: layout, dateOrder: nil))
        #expect(printer.print(CSVRecord(fields: ["T1", "C1", "One"], line: 2)) != nil)
        #expect(printer.print(CSVRecord(fields: ["task_id", "course_id", "title"], line: 3)) == nil)
        #expect(printer.print(CSVRecord(fields: ["T1", "C1", "One", "x"], line: 4)) == nil)
        var cut = CSVRecord(fields: ["T1", "C1", "One"], line: 5)
        cut.droppedFields = 2
        #expect(printer.print(cut) == nil)
    }

    @Test("the print covers every stored column's bytes, their boundaries, the file's columns and the date order")
    func printsTellRowsApart() throws {
        let layout = try HeaderLayout(header: ["task_id", "course_id", "title", "due"], file: "t.csv")
        let other = try HeaderLayout(header: ["task_id", "course_id", "title", "priority"], file: "t.csv")
        let printer = try #require(RowPrinter(layout: layout, dateOrder: nil))
        let dmy = try #require(RowPrinter(layout: layout, dateOrder: .dmy))
        let otherColumns = try #require(RowPrinter(layout: other, dateOrder: nil))
        func p(_ printer: RowPrinter, _ fields: [String]) -> RowPrint? { printer.print(CSVRecord(fields: fields, line: 2)) }
        let base = p(printer, ["T1", "C1", "ab", "01/02/2026"])
        #expect(base != nil)
        #expect(base == p(printer, ["T1", "C1", "ab", "01/02/2026"]))
        #expect(base != p(printer, ["T1", "C1", "ab ", "01/02/2026"]))
        #expect(p(printer, ["T1", "C1a", "b", "x"]) != p(printer, ["T1", "C1", "ab", "x"]))
        #expect(base != p(dmy, ["T1", "C1", "ab", "01/02/2026"]))
        #expect(base != p(otherColumns, ["T1", "C1", "ab", "01/02/2026"]))
        let bytes = try #require(base).bytes
        #expect(bytes.count == 16)
        #expect(bytes.withUnsafeBytes { RowPrint(bytes: $0) } == base)
    }
}
