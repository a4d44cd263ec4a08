/// The owner of `task_history` and `course_history`: the previous values of every row a batch
/// changed, which `revert --batch` writes back. The only code that writes them.
///
/// A history row holds the row as it was before the batch (`existed` 0: the batch inserted
/// it), and the batch's kind of change (`insert`, `update`, `delete`, `restore`).
enum ChangeHistory {
    static let taskColumns = """
        batch_id, task_id, change, existed, course_id, title, student_id, due, priority, completed, assignment_id, status,
        submitted_at, deleted_batch, changed_batch
        """
    static let courseColumns = """
        batch_id, course_id, change, existed, code, title, term, teacher, timezone, teacher_email, language, deleted_batch, changed_batch
        """

    // MARK: - An import's batch

    /// Saves the current values of every course `plan` changes, before the plan is applied.
    static func saveCourses(of plan: ImportPlan, batchID: Int, in database: Database) throws {
        try database.run(
            """
            INSERT INTO course_history (\(courseColumns))
            SELECT ?, p.course_id, p.change, CASE WHEN c.course_id IS NULL THEN 0 ELSE 1 END, c.code, c.title, c.term, c.teacher, c.timezone, c.teacher_email, c.language, c.deleted_batch, c.changed_batch
            FROM \(plan.courseChanges) p LEFT JOIN courses c ON c.course_id = p.course_id
            """, [batchID])
    }

    /// Saves the current values of every task `plan` changes, before the plan is applied. A
    /// task the plan inserts has no previous values and gets no row: it records the batch that
    /// created it (`tasks.created_batch`), which `materializeBirths` turns into rows when the
    /// batch is reverted.
    static func saveTasks(of plan: ImportPlan, batchID: Int, in database: Database) throws {
        try database.run(
            """
            INSERT INTO task_history (\(taskColumns))
            SELECT ?, p.task_id, p.change, CASE WHEN t.task_id IS NULL THEN 0 ELSE 1 END, t.course_id, t.title, t.student_id, t.due, t.priority, t.completed, t.assignment_id, t.status, t.submitted_at, t.deleted_batch, t.changed_batch
            FROM \(plan.taskChanges) p LEFT JOIN tasks t ON t.task_id = p.task_id
            WHERE p.change <> 'insert'
            """, [batchID])
    }

    /// The `insert` rows of the tasks batch `batchID` created (`created_batch`), written when
    /// the batch is about to be reverted: the revert then tombstones them exactly as it
    /// tombstones the inserts of a batch from before births were counted (history rows with
    /// `existed` 0). Inside the revert's transaction: a refused revert writes none.
    static func materializeBirths(of batchID: Int, in database: Database) throws {
        try database.run(
            """
            INSERT INTO task_history (batch_id, task_id, change, existed)
            SELECT ?1, task_id, 'insert', 0 FROM tasks WHERE created_batch = ?1
            ON CONFLICT (batch_id, task_id) DO NOTHING
            """, [batchID])
    }

    // MARK: - A revert's batch

    /// What a revert does to a row its batch changed, from the history row `h` and the row as
    /// it is now (`c` or `t`): tombstone what the batch inserted, restore what it deleted.
    private static func revertChange(_ row: String) -> String {
        """
        CASE WHEN h.existed = 0 THEN 'delete'
             WHEN \(row).deleted_batch IS NOT NULL AND h.deleted_batch IS NULL THEN 'restore'
             WHEN \(row).deleted_batch IS NULL AND h.deleted_batch IS NOT NULL THEN 'delete'
             ELSE 'update' END
        """
    }

    private static let saveTasksForRevertSQL = """
        INSERT INTO task_history (\(taskColumns))
        SELECT ?1, t.task_id, \(revertChange("t")),
               1, t.course_id, t.title, t.student_id, t.due, t.priority, t.completed, t.assignment_id, t.status, t.submitted_at,
               t.deleted_batch, t.changed_batch
        FROM task_history h JOIN tasks t ON t.task_id = h.task_id WHERE h.batch_id = ?2
        """

    /// Saves, as history of the revert batch `revertBatch`, the current values of every row
    /// batch `batchID`'s history names, with the change the revert makes to it.
    static func saveForRevert(of batchID: Int, revertBatch: Int, in database: Database) throws {
        try database.run(
            """
            INSERT INTO course_history (\(courseColumns))
            SELECT ?1, c.course_id, \(revertChange("c")),
                   1, c.code, c.title, c.term, c.teacher, c.timezone, c.teacher_email, c.language, c.deleted_batch, c.changed_batch
            FROM course_history h JOIN courses c ON c.course_id = h.course_id WHERE h.batch_id = ?2
            """, [revertBatch, batchID])
        try database.run(saveTasksForRevertSQL, [revertBatch, batchID])
    }

    /// `saveForRevert` for one task (the revert of one entry).
    static func saveForRevert(of batchID: Int, task taskID: String, revertBatch: Int, in database: Database) throws {
        try database.run(saveTasksForRevertSQL + " AND h.task_id = ?3", [revertBatch, batchID, taskID])
    }

    /// Whether batch `batchID` changed task `taskID`.
    static func changed(_ taskID: String, in batchID: Int, database: Database) throws -> Bool {
        try database.int("SELECT count(*) FROM task_history WHERE batch_id = ? AND task_id = ?", [batchID, taskID]) == 1
    }

    /// The change batch `batchID` made to task `taskID`, if any.
    static func change(of taskID: String, in batchID: Int, database: Database) throws -> String? {
        try database.scalar("SELECT change FROM task_history WHERE batch_id = ? AND task_id = ?", [batchID, taskID])?.text
    }

    /// The task changes of batch `batchID` as a plan source, `(task_id, change)` with `?` the
    /// batch: a revert categorizes what it changed (`StagingArea.planTaskChanges`).
    static let taskChangesSource = """
        SELECT task_id, CASE change WHEN 'delete' THEN 'delete' WHEN 'restore' THEN 'restore' ELSE 'update' END
        FROM task_history WHERE batch_id = ?
        """

    /// Counts of batch `batchID`'s history per kind: a `restore` counts as inserted.
    static func counts(of batchID: Int, in database: Database) throws -> [FileKind: ImportCounts] {
        var counts: [FileKind: ImportCounts] = [:]
        for (kind, table) in [(FileKind.courses, "course_history"), (.tasks, "task_history")] {
            var c = ImportCounts()
            let statement = try database.cached("SELECT change, count(*) AS n FROM \(table) WHERE batch_id = ? GROUP BY change")
            let positions = try statement.columnPositions
            let (change, n) = (try positions.position("change"), try positions.position("n"))
            try statement.forEachRow([batchID]) { row in
                switch row.string(change) {
                case "delete": c.deleted = row.int(n)
                case "restore": c.inserted = row.int(n)
                default: c.updated = row.int(n)
                }
            }
            if c != ImportCounts() { counts[kind] = c }
        }
        return counts
    }
}

extension ChangeHistory {
    /// The committed batches after `batchID` that changed a task or course it changed (a batch
    /// whose revert was itself reverted counts as not in effect), in order: what a revert of
    /// `batchID` would go past.
    static func laterBatches(than batchID: Int, in database: Database) throws -> [Int] {
        var blocking: [Int] = []
        try database.cached(
            """
            SELECT DISTINCT later.batch_id FROM (
                SELECT h2.batch_id FROM task_history h1 JOIN task_history h2 ON h2.task_id = h1.task_id AND h2.batch_id > h1.batch_id
                WHERE h1.batch_id = ?1
                UNION
                SELECT h2.batch_id FROM course_history h1 JOIN course_history h2 ON h2.course_id = h1.course_id AND h2.batch_id > h1.batch_id
                WHERE h1.batch_id = ?1
            ) later JOIN batches b ON b.batch_id = later.batch_id
            WHERE b.status = 'committed'
              AND NOT EXISTS (SELECT 1 FROM batches r WHERE r.batch_id = b.reverts_batch AND r.status = 'reverted')
            ORDER BY later.batch_id
            """
        ).forEachRow([batchID]) { blocking.append($0.int(0)) }
        return blocking
    }
}
