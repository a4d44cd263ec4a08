import Foundation

/// The owner of `tasks.print` and `tasks.slot` (schema 9, issue 26): what lets a sync skip the
/// rows that did not change before it normalizes them.
///
/// - `print` is the `RowPrint` of the row the importer last wrote the task from, NULL when it
///   has none (a row the reader could not print, a task written by another writer, a database
///   migrated from schema 8). Triggers clear it whenever anyone but the importer (whose
///   connection runs without triggers) changes the task's data: a print is never older than
///   its row's values, so a print that matches proves the row normalizes to them.
/// - `slot` is a small number unique among the tasks, given once: the importer marks the tasks
///   it found unchanged in a bitmap by slot (one bit a task) instead of a table of ids.
///
/// Both stores keep them from schema 9 on (PostgreSQL: `PGSchema.rowPrints`, the same rules
/// in PL/pgSQL); a PostgreSQL database a writer could not upgrade keeps neither and compares
/// every row.
enum RowPrints {
    static let columns = [
        Schema.ColumnAddition(table: "tasks", column: "print", definition: "BLOB"),
        Schema.ColumnAddition(table: "tasks", column: "slot", definition: "INTEGER"),
    ]

    /// The triggers that clear a print another writer made stale (`DataMarks`' list of data
    /// columns: an UPDATE that leaves them alone, a bucket's or the print's own, keeps it), and
    /// the one that makes any write of a print or slot by another writer (a hand edit: the
    /// importer's connection fires no trigger) move `writes`, so that the next import finds the
    /// data no longer clean and compares every row (`DataMarks`).
    static let schemaSQL = """
        \(staleTrigger(version: 9))
        CREATE TRIGGER IF NOT EXISTS tasks_print_inserted AFTER INSERT ON tasks WHEN NEW.print IS NOT NULL
        BEGIN UPDATE tasks SET print = NULL WHERE task_id = NEW.task_id; END;
        CREATE TRIGGER IF NOT EXISTS tasks_print_written AFTER UPDATE OF print, slot ON tasks
        BEGIN UPDATE data_marks SET writes = writes + 1 WHERE id = 1; END;

        """

    /// The trigger that clears a task's print when another writer changes its data, over the
    /// data columns `version` has (9: the columns of then; 13 adds `status` and `submitted_at`,
    /// and migration 13 replaces the trigger of 9). Part of shipped migrations: never edit the
    /// text a version already has.
    static func staleTrigger(version: Int) -> String {
        let columns =
            "task_id, course_id, title, student_id, due, priority,\n    completed, assignment_id, "
            + (version >= 13 ? "status, submitted_at, " : "") + "deleted_batch"
        return """
            CREATE TRIGGER IF NOT EXISTS tasks_print_stale AFTER UPDATE OF \(columns) ON tasks WHEN OLD.print IS NOT NULL OR NEW.print IS NOT NULL
            BEGIN UPDATE tasks SET print = NULL WHERE task_id = NEW.task_id; END;
            """
    }

    /// The triggers the skip relies on (`UnchangedRows.usable` checks they are all there).
    static let triggers = ["tasks_print_stale", "tasks_print_inserted", "tasks_print_written"]

    /// True when the database keeps prints (schema 9 or later).
    static func kept(_ database: Database) throws -> Bool { try database.sql.keepsRowPrints(database) }

    /// True when every trigger of `triggers` is there (on PostgreSQL: and enabled; a trigger
    /// can be disabled there without being dropped).
    static func triggersPresent(_ database: Database) throws -> Bool {
        try database.sql.tasksTriggersPresent(database, names: triggers) == triggers.count
    }

    /// The largest slot given so far (0 when none).
    static func largestSlot(_ database: Database) throws -> Int {
        try database.int("SELECT coalesce(max(slot), 0) FROM tasks")
    }

    /// After the staged rows were applied: each staged live task keeps the print of the row it
    /// was staged from, and a task without a slot gets one (after `after`, in staging order).
    /// A task the plan changed takes the staged print even when it is NULL (the stored one is
    /// stale); an unchanged one keeps its own when the staged row has none (a held batch's rows
    /// carry none, and the stored one still describes its values). New slots are numbered in
    /// staging order (a held batch's rows, staged again, all have `seq` 0: then by id). The
    /// `IN` makes SQLite walk the staged rows and look each task up (without it, it scans every
    /// task: 7 s a million).
    static func refresh(_ plan: ImportPlan, slotsAfter after: Int? = nil, merging: Bool = false, in database: Database) throws {
        guard try kept(database) else { return }
        if database.sql.readsLivePrintsAtOnce { return try refreshJoining(plan, slotsAfter: after, in: database) }
        // The staged rows whose print is not their live task's: looked up one by one when few
        // were staged, else one merge of both tables in id order (a million lookups cost 1 s
        // more than the merge, whose every row is then already known). The lookups are written
        // as EXISTS so that the staged rows are the outer loop: as a join, SQLite (no statistics
        // on temporary tables) scanned all of `tasks` for 15,000 staged rows (0.47 s vs 0.04 s).
        let differing =
            merging
            ? """
            SELECT task_id, print FROM (
                SELECT task_id, print FROM \(plan.stagedTasks)
                EXCEPT SELECT task_id, print FROM tasks WHERE deleted_batch IS NULL
                ORDER BY 1, 2 LIMIT -1) merged
            """
            : """
            SELECT s.task_id, s.print FROM \(plan.stagedTasks) s
            WHERE EXISTS (SELECT 1 FROM tasks t WHERE t.task_id = s.task_id AND t.deleted_batch IS NULL AND t.print IS NOT s.print)
            """
        try database.run(
            """
            WITH differing AS MATERIALIZED (\(differing))
            UPDATE tasks SET print = d.print FROM differing d
            WHERE tasks.task_id IN (SELECT task_id FROM differing) AND d.task_id = tasks.task_id AND tasks.deleted_batch IS NULL
              AND (d.print IS NOT NULL OR EXISTS (SELECT 1 FROM \(plan.taskChanges) p WHERE p.task_id = d.task_id))
            """)
        // Only the tasks without a slot are numbered (slots grow by the new tasks alone), in
        // staging order.
        let needing =
            merging
            ? """
            SELECT task_id FROM (
                SELECT task_id FROM tasks WHERE slot IS NULL AND deleted_batch IS NULL
                INTERSECT SELECT task_id FROM \(plan.stagedTasks) ORDER BY 1 LIMIT -1) merged
            """
            : """
            SELECT s.task_id FROM \(plan.stagedTasks) s
            WHERE EXISTS (SELECT 1 FROM tasks t WHERE t.task_id = s.task_id AND t.slot IS NULL AND t.deleted_batch IS NULL)
            """
        let base = try after ?? largestSlot(database)
        try database.run(
            """
            WITH needing AS MATERIALIZED (\(needing)),
            numbered AS MATERIALIZED (
                SELECT s.task_id, row_number() OVER (ORDER BY s.seq, s.task_id) AS number
                FROM needing n JOIN \(plan.stagedTasks) s ON s.task_id = n.task_id)
            UPDATE tasks SET slot = ?1 + n.number FROM numbered n
            WHERE tasks.task_id IN (SELECT task_id FROM numbered) AND n.task_id = tasks.task_id
            """, [base])
    }
}

extension RowPrints {
    /// `refresh` on PostgreSQL: two joins of the staged rows with `tasks`, which the server
    /// plans by the sizes it sees (a hash join over a million rows after a full comparison, a
    /// lookup per row after a few were staged). SQLite's statements, whose `IN` and ordered
    /// `EXCEPT` choose SQLite's plans, made the server scan `tasks` once per staged row.
    static func refreshJoining(_ plan: ImportPlan, slotsAfter after: Int?, in database: Database) throws {
        try database.execute(
            """
            UPDATE tasks SET print = s.print FROM \(plan.stagedTasks) s
            WHERE s.task_id = tasks.task_id AND tasks.deleted_batch IS NULL AND tasks.print IS DISTINCT FROM s.print
              AND (s.print IS NOT NULL OR EXISTS (SELECT 1 FROM \(plan.taskChanges) p WHERE p.task_id = s.task_id))
            """)
        let base = try after ?? largestSlot(database)
        try database.run(
            """
            UPDATE tasks SET slot = ?1 + n.number
            FROM (SELECT s.task_id, row_number() OVER (ORDER BY s.seq, s.task_id) AS number
                  FROM \(plan.stagedTasks) s JOIN tasks t ON t.task_id = s.task_id
                  WHERE t.slot IS NULL AND t.deleted_batch IS NULL) n
            WHERE n.task_id = tasks.task_id
            """, [base])
    }
}

/// The live tasks one import found unchanged by their print, and the ids it must still plan.
///
/// The writing thread asks `match` for each candidate row (`ReadRow.candidate`): the live task
/// of the row's id, looked up by its primary key, is unchanged when its print is the row's.
/// Such a row is counted and marked in `seen` (by slot), never staged. At the end `markUnseen`
/// reads every task once and lists the live ones neither seen nor staged in `unseen_tasks`:
/// a sync deletes those of them that no row named (`StagingArea.plan`).
///
/// An id met again after one of its rows was skipped: the repeat waits until the end of its
/// file, the file is read again for the skipped row's line, and that row is staged after all
/// (with the stored values it was found to hold), before the repeat: the staging tables then
/// report the repeat as the full path does. What it cannot decide goes back to the full path
/// (every row staged, the run read again): a skipped row in an earlier file than its repeat,
/// two live tasks with one slot.
final class UnchangedRows {
    let database: Database
    /// SQLite: the live task of an id, looked up by its primary key for each row.
    private let lookup: Statement?
    private let slotLookup: Statement?
    /// PostgreSQL: every live task's print and slot, read at the start (a lookup per row over
    /// the wire would cost more than comparing every row: `LivePrints`).
    let live: LivePrints?
    /// Slots of the tasks found unchanged.
    var seen = SlotBitmap()
    /// Slots of the live tasks a staged row names.
    var staged = SlotBitmap()
    /// Rows skipped as unchanged.
    var skipped = 0
    /// The largest slot of any task (known after `markUnseen`).
    var largestSlot = 0
    /// PostgreSQL's steps and their durations, for the trace (`Importer.RunState.steps`).
    var steps: [(name: String, nanoseconds: UInt64)] = []

    /// What `match` found.
    enum Match {
        /// The live task's print is the row's: nothing to do.
        case unchanged
        /// Normalize and stage the row (also a row whose id was met before: `noteStaged` and
        /// the staging tables say what it repeats).
        case differs
    }

    /// True when this run may skip rows: a store that keeps prints, data that no other writer
    /// touched since the dashboard's last write (`DataMarks`: clean), the triggers that clear
    /// stale prints all there, and every course of a live task still valid for the run (a
    /// matched row's course is the stored one: it must not be one the run deletes or rejects).
    /// On PostgreSQL also `tasks` kept from other writers until the run ends (`lockTasks`).
    static func usable(_ database: Database, validCourses: [String: String]) throws -> Bool {
        guard try RowPrints.kept(database), try DataMarks.isClean(database), try RowPrints.triggersPresent(database) else {
            return false
        }
        // Every course row, live or not: a task may be live under a course deleted since (a
        // revert of the batch that made the course leaves its tasks).
        var invalid: [String] = []
        try database.cached("SELECT course_id FROM courses").forEachRow { row in
            let id = row.string(0) ?? ""
            if validCourses[id] == nil { invalid.append(id) }
        }
        for id in invalid {
            let used = try database.int("SELECT EXISTS (SELECT 1 FROM tasks WHERE course_id = ? AND deleted_batch IS NULL)", [id])
            if used == 1 { return false }
        }
        return database.sql.locksTasksForSkip ? try lockTasks(database) : true
    }

    init(database: Database) throws {
        self.database = database
        if database.sql.readsLivePrintsAtOnce {
            (lookup, slotLookup) = (nil, nil)
            let start = DispatchTime.now().uptimeNanoseconds
            live = try LivePrints.load(database)
            steps.append(("live prints read", DispatchTime.now().uptimeNanoseconds - start))
        } else {
            lookup = try database.prepare("SELECT print, slot FROM tasks WHERE task_id = ?1 AND deleted_batch IS NULL")
            slotLookup = try database.prepare("SELECT slot FROM tasks WHERE task_id = ?1 AND deleted_batch IS NULL")
            live = nil
        }
        try database.execute(database.sql.unseenTasksTable)
    }

    /// Whether the live task `taskID` (the row's raw id) is the row whose print is `print`.
    func match(taskID: String, print: RowPrint) throws -> Match {
        guard let lookup else { return matchLive(taskID: taskID, print: print) }
        var found: (print: RowPrint?, slot: Int)?
        lookup.reset()
        try lookup.set(taskID, at: 1)
        if let row = try lookup.nextRow() {
            if !row.isNull(1) { found = (row.withBlob(0) { RowPrint(bytes: $0) }, row.int(1)) }
            lookup.reset()
        }
        // A slot out of range (a hand edit no trigger saw) only costs the skip of this row.
        guard let found, let stored = found.print, stored == print, SlotBitmap.range.contains(found.slot) else { return .differs }
        if seen.contains(found.slot) || staged.contains(found.slot) { return .differs }
        seen.insert(found.slot)
        skipped += 1
        return .unchanged
    }

    /// Notes a row about to be staged, by its normalized id.
    /// - Returns: false when a row of that id was skipped: its repeat can be staged only after
    ///   the skipped row (`restage`), whose line the importer finds again.
    func noteStaged(taskID: String) throws -> Bool {
        guard let slotLookup else { return noteStagedLive(taskID: taskID) }
        var slot: Int?
        slotLookup.reset()
        try slotLookup.set(taskID, at: 1)
        if let row = try slotLookup.nextRow() {
            slot = row.isNull(0) ? nil : row.int(0)
            slotLookup.reset()
        }
        guard let slot, SlotBitmap.range.contains(slot) else { return true }
        // A skipped row staged after all (`restaged`) is in the staging tables like any other.
        if staged.contains(slot) { return true }
        if seen.contains(slot) { return false }
        staged.insert(slot)
        return true
    }

    /// The live task `taskID` as stored, with its print, when a row of it was skipped: what the
    /// skipped row normalized to, to be staged after all (`restage`).
    func skippedTask(_ taskID: String) throws -> (task: TaskRecord, print: RowPrint, slot: Int)? {
        let statement = try database.cached(
            """
            SELECT task_id, course_id, title, student_id, due, priority, completed, assignment_id, status, submitted_at, print, slot
            FROM tasks
            WHERE task_id = ?1 AND deleted_batch IS NULL
            """)
        let c = try statement.columnPositions
        let decoder = try TaskRowDecoder(c)
        let (printColumn, slotColumn) = (try c.position("print"), try c.position("slot"))
        var found: (task: TaskRecord, print: RowPrint, slot: Int)?
        try statement.forEachRow([taskID]) { row in
            guard !row.isNull(slotColumn), let print = row.withBlob(printColumn, { RowPrint(bytes: $0) }) else { return }
            found = (decoder.task(row), print, row.int(slotColumn))
        }
        guard let found, seen.contains(found.slot), !staged.contains(found.slot) else { return nil }
        return found
    }

    /// The skipped row of slot `slot` is staged after all (its id repeats): no longer skipped.
    func restaged(slot: Int) {
        skipped -= 1
        staged.insert(slot)
    }

    /// Lists in `temp.unseen_tasks` every live task not found unchanged, and learns the
    /// largest slot; one pass over `tasks`.
    /// - Returns: false when two live tasks share a slot that was seen (the run needs the full
    ///   path: which of them the row was cannot be told by slot).
    func markUnseen() throws -> Bool {
        if live != nil { return try markUnseenLive() }
        var claimed = SlotBitmap()
        var shared = false
        var largest = 0
        let insert = try database.prepare("INSERT INTO unseen_tasks (task_id) VALUES (?1) ON CONFLICT DO NOTHING")
        let scan = try database.prepare("SELECT task_id, slot, deleted_batch IS NULL FROM tasks")
        try scan.forEachRow { row in
            let slot = row.isNull(1) ? nil : row.int(1)
            if let slot, slot > largest { largest = slot }
            guard row.int(2) == 1 else { return }
            if let slot, seen.contains(slot) {
                if claimed.contains(slot) { shared = true }
                claimed.insert(slot)
                return
            }
            insert.reset()
            try insert.set(row.string(0) ?? "", at: 1)
            try insert.step()
        }
        largestSlot = largest
        return !shared
    }
}

/// A set of small non-negative integers, one bit each.
struct SlotBitmap {
    /// The slots a bitmap takes (32 MiB at most): slots are given one per task ever imported.
    static let range = 1...(1 << 28)
    private var words: [UInt64] = []

    func contains(_ slot: Int) -> Bool {
        guard slot >= 0, slot >> 6 < words.count else { return false }
        return words[slot >> 6] & (1 << UInt64(slot & 63)) != 0
    }

    mutating func insert(_ slot: Int) {
        guard Self.range.contains(slot) else { return }
        let word = slot >> 6
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: max(word + 1 - words.count, words.count))) }
        words[word] |= 1 << UInt64(slot & 63)
    }
}
