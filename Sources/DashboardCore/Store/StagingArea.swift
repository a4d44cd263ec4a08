/// The validated rows of one run, held in temporary tables of the importing connection until
/// the run decides to apply, hold or drop them.
///
/// Staging first lets every count (and the delete guard) be known before any data is
/// written, and turns the apply into a few set-based statements.
final class StagingArea {
    let database: Database

    init(database: Database) throws {
        self.database = database
        try database.execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS stage_courses (
                course_id TEXT NOT NULL PRIMARY KEY, code TEXT NOT NULL, title TEXT NOT NULL,
                term TEXT NOT NULL, teacher TEXT NOT NULL, timezone TEXT NOT NULL,
                file TEXT NOT NULL, line INTEGER NOT NULL) WITHOUT ROWID;
            CREATE TEMP TABLE IF NOT EXISTS stage_files (
                file_no INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE);
            CREATE TEMP TABLE IF NOT EXISTS stage_tasks (
                task_id TEXT NOT NULL PRIMARY KEY, course_id TEXT NOT NULL, title TEXT NOT NULL,
                student_id TEXT NOT NULL, due TEXT NOT NULL, priority TEXT NOT NULL, completed INTEGER NOT NULL,
                file_no INTEGER NOT NULL, line INTEGER NOT NULL, bucket TEXT NOT NULL DEFAULT '',
                seq INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
            CREATE TEMP TABLE IF NOT EXISTS rejected_ids (
                kind TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (kind, id)) WITHOUT ROWID;
            CREATE TEMP TABLE IF NOT EXISTS plan_courses (
                course_id TEXT NOT NULL PRIMARY KEY, change TEXT NOT NULL) WITHOUT ROWID;
            CREATE TEMP TABLE IF NOT EXISTS plan_tasks (
                task_id TEXT NOT NULL PRIMARY KEY, change TEXT NOT NULL) WITHOUT ROWID;
            DELETE FROM stage_courses; DELETE FROM stage_tasks; DELETE FROM plan_courses; DELETE FROM plan_tasks;
            DELETE FROM rejected_ids;
            """)
    }

    /// Removes everything staged (temporary tables live as long as the connection).
    func clear() throws {
        try database.execute(
            """
            DELETE FROM stage_courses; DELETE FROM stage_tasks; DELETE FROM plan_courses; DELETE FROM plan_tasks;
            DELETE FROM rejected_ids;
            """)
    }

    /// The last file given a number (rows come file by file).
    private var lastFile: (path: String, number: Int)?

    /// The number that stands for `path` in `stage_tasks.file_no`: a staged task carries a small
    /// integer instead of its file's path (often 50 bytes and more, 40 % of a staged row).
    /// Numbers are never cleared: a path keeps its number for the connection's life, so no
    /// staging area (there may be several on one connection) can hold a stale one.
    private func fileNumber(_ path: String) throws -> Int {
        if let lastFile, lastFile.path == path { return lastFile.number }
        try database.run("INSERT INTO stage_files (path) VALUES (?) ON CONFLICT DO NOTHING", [path])
        let number = try database.int("SELECT file_no FROM stage_files WHERE path = ?", [path])
        lastFile = (path, number)
        return number
    }

    /// Remembers the id of a rejected row: a sync must not delete the live row of that id
    /// (the row is in the file, only broken), and a rejected course keeps its tasks valid.
    func markRejected(_ kind: FileKind, id: String) throws {
        try database.run("INSERT INTO rejected_ids VALUES (?, ?) ON CONFLICT DO NOTHING", [kind.rawValue, id])
    }

    // MARK: - Staging rows

    /// The outcome of staging one row.
    enum StageOutcome: Equatable {
        case staged
        /// The same id was staged before with identical values, on `line` of `file`.
        case repeatOf(file: String, line: Int)
        /// The same id was staged before with different values, on `line` of `file`.
        case conflictsWith(file: String, line: Int)
    }

    func stage(_ course: CourseRecord, file: String, line: Int) throws -> StageOutcome {
        try database.run(
            "INSERT INTO stage_courses VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            [course.courseID, course.code, course.title, course.term, course.teacher, course.timezone, file, line])
        if database.changes == 1 { return .staged }
        let existing = try database.rows(
            "SELECT code, title, term, teacher, timezone, file, line FROM stage_courses WHERE course_id = ?", [course.courseID])
        guard let row = existing.first else { return .staged }
        let same =
            row[0].text == course.code && row[1].text == course.title && row[2].text == course.term
            && row[3].text == course.teacher && row[4].text == course.timezone
        let where_ = (file: row[5].text ?? "", line: Int(row[6].integer ?? 0))
        return same ? .repeatOf(file: where_.file, line: where_.line) : .conflictsWith(file: where_.file, line: where_.line)
    }

    /// A task row waiting to be staged, with where it came from.
    struct PendingTask {
        var task: TaskRecord
        var bucket: String
        var file: String
        var line: Int
        var row: Int
    }

    /// Rows per staging statement (one statement per row costs more than the row itself).
    static let rowsPerStatement = 128
    private var pendingTasks: [PendingTask] = []
    /// Numbers the rows staged in this run (a file given twice repeats its names and lines).
    private var stagedRows = 0

    private static func insertSQL(_ rows: Int) -> String {
        "INSERT INTO stage_tasks VALUES " + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
            + " ON CONFLICT DO NOTHING"
    }
    private static let fullInsertSQL = insertSQL(rowsPerStatement)

    /// Stages one task with its computed bucket (`""` when the caller leaves it to the
    /// categorization pass). Rows are written in statements of `rowsPerStatement`.
    /// - Returns: the rows of a statement just written that repeat an id staged before, each
    ///   with what it repeats (empty almost always).
    func stage(_ pending: PendingTask) throws -> [(PendingTask, StageOutcome)] {
        pendingTasks.append(pending)
        return pendingTasks.count >= Self.rowsPerStatement ? try flushTasks() : []
    }

    /// Writes the rows waiting; call at the end of each file.
    func flushTasks() throws -> [(PendingTask, StageOutcome)] {
        guard !pendingTasks.isEmpty else { return [] }
        let rows = pendingTasks
        pendingTasks.removeAll(keepingCapacity: true)
        let insert =
            rows.count == Self.rowsPerStatement ? try database.cached(Self.fullInsertSQL) : try database.prepare(Self.insertSQL(rows.count))
        insert.reset()
        let firstSeq = stagedRows + 1
        stagedRows += rows.count
        for (i, p) in rows.enumerated() {
            let base = Int32(i * 11)
            try insert.set(p.task, after: base)
            try insert.set(fileNumber(p.file), at: base + 8)
            try insert.set(p.line, at: base + 9)
            try insert.set(p.bucket, at: base + 10)
            try insert.set(firstSeq + i, at: base + 11)
        }
        if try insert.step() == rows.count { return [] }
        // Some ids were staged before (rows are inserted in order, so a repeat within the
        // statement finds the earlier row): each row's own number tells it apart.
        var repeats: [(PendingTask, StageOutcome)] = []
        let lookup = try database.cached(
            """
            SELECT s.course_id, s.title, s.student_id, s.due, s.priority, s.completed, f.path, s.line, s.seq
            FROM stage_tasks s JOIN stage_files f ON f.file_no = s.file_no WHERE s.task_id = ?
            """)
        for (i, p) in rows.enumerated() {
            var outcome = StageOutcome.staged
            try lookup.forEachRow([p.task.taskID]) { row in
                guard row.int(8) != firstSeq + i else { return }
                let file = row.string(6) ?? ""
                let line = row.int(7)
                let same =
                    row.string(0) == p.task.courseID && row.string(1) == p.task.title && row.string(2) == p.task.studentID
                    && row.string(3) == p.task.due && row.string(4) == p.task.priority.rawValue
                    && row.int(5) == (p.task.completed ? 1 : 0)
                outcome = same ? .repeatOf(file: file, line: line) : .conflictsWith(file: file, line: line)
            }
            if outcome != .staged { repeats.append((p, outcome)) }
        }
        return repeats
    }

    /// The courses a task may reference once this run is applied (see `validCourseIDs`),
    /// each with the time zone it will have (the staged row's, else the database's).
    func validCourses(syncingCourses: Bool) throws -> [String: String] {
        var zones: [String: String] = [:]
        let live =
            syncingCourses
            ? """
            SELECT c.course_id, c.timezone FROM courses c JOIN rejected_ids r ON r.kind = 'courses' AND r.id = c.course_id
            WHERE c.deleted_batch IS NULL
            """
            : "SELECT course_id, timezone FROM courses WHERE deleted_batch IS NULL"
        try database.cached(live).forEachRow { row in zones[row.string(0) ?? ""] = row.string(1) ?? "" }
        try database.cached("SELECT course_id, timezone FROM stage_courses").forEachRow { row in
            zones[row.string(0) ?? ""] = row.string(1) ?? ""
        }
        return zones
    }

    /// Course ids a task may reference once this run is applied: the staged courses, plus
    /// the live courses of the database unless a sync of courses is about to delete them.
    func validCourseIDs(syncingCourses: Bool) throws -> Set<String> {
        var ids = Set<String>()
        let sql =
            syncingCourses
            ? """
            SELECT course_id FROM stage_courses UNION
            SELECT c.course_id FROM courses c JOIN rejected_ids r ON r.kind = 'courses' AND r.id = c.course_id
            WHERE c.deleted_batch IS NULL
            """
            : "SELECT course_id FROM stage_courses UNION SELECT course_id FROM courses WHERE deleted_batch IS NULL"
        try database.cached(sql).forEachRow { row in ids.insert(row.string(0) ?? "") }
        return ids
    }

    // MARK: - Planning

    /// Computes what applying the staged rows would do, into `plan_courses` / `plan_tasks`.
    ///
    /// Policy: a staged row that is live and identical is unchanged (no write at all); a row
    /// absent from the database, or present only as a tombstone, is inserted (restored); a
    /// sync deletes the live rows of each imported kind that were not staged, and the live
    /// tasks of every course it deletes.
    /// - Parameter coursesApplied: the course plan was applied already (`applyCourses`):
    ///   keep it, plan only the tasks.
    func plan(syncCourses: Bool, syncTasks: Bool, coursesApplied: Bool = false) throws {
        try database.execute("DELETE FROM plan_tasks;")
        if !coursesApplied {
            try database.execute(
                """
                DELETE FROM plan_courses;
                INSERT INTO plan_courses (course_id, change)
                SELECT s.course_id,
                       CASE WHEN c.course_id IS NULL THEN 'insert' WHEN c.deleted_batch IS NOT NULL THEN 'restore' ELSE 'update' END
                FROM stage_courses s LEFT JOIN courses c ON c.course_id = s.course_id
                WHERE c.course_id IS NULL OR c.deleted_batch IS NOT NULL
                   OR c.code <> s.code OR c.title <> s.title OR c.term <> s.term
                   OR c.teacher <> s.teacher OR c.timezone <> s.timezone;
                """)
        }
        try database.execute(Self.taskChangesSQL)
        if syncCourses && !coursesApplied {
            try database.execute(
                """
                INSERT INTO plan_courses (course_id, change)
                SELECT c.course_id, 'delete' FROM courses c
                WHERE c.deleted_batch IS NULL
                  AND NOT EXISTS (SELECT 1 FROM stage_courses s WHERE s.course_id = c.course_id)
                  AND NOT EXISTS (SELECT 1 FROM rejected_ids r WHERE r.kind = 'courses' AND r.id = c.course_id);
                """)
        }
        if syncTasks {
            try database.execute(Self.absentTasksSQL)
        }
        if syncCourses {
            // The live tasks of every course the sync deletes (through `tasks_by_course`).
            try database.execute(
                """
                INSERT INTO plan_tasks (task_id, change)
                SELECT t.task_id, 'delete' FROM tasks t
                WHERE t.deleted_batch IS NULL AND t.course_id IN (SELECT course_id FROM plan_courses WHERE change = 'delete')
                ON CONFLICT DO NOTHING;
                """)
        }
    }

    /// The staged rows that are not a live row as it is: one merge of `stage_tasks` and
    /// `tasks`, both read in task_id order (EXPLAIN QUERY PLAN: MERGE (EXCEPT), no temporary
    /// B-tree), instead of a lookup into `tasks` for every staged row; only the rows that
    /// differ are then looked up, for their kind of change. The ORDER BY is what makes SQLite
    /// merge; `LIMIT -1` (no limit) keeps it from dropping an ORDER BY it deems useless in a
    /// subquery. `StagingPlanTests` checks the plan.
    static let taskChangesSQL = """
        INSERT INTO plan_tasks (task_id, change)
        SELECT d.task_id,
               CASE WHEN t.task_id IS NULL THEN 'insert' WHEN t.deleted_batch IS NOT NULL THEN 'restore' ELSE 'update' END
        FROM (SELECT task_id, course_id, title, student_id, due, priority, completed FROM stage_tasks
              EXCEPT
              SELECT task_id, course_id, title, student_id, due, priority, completed FROM tasks WHERE deleted_batch IS NULL
              ORDER BY 1, 2, 3, 4, 5, 6, 7 LIMIT -1) d
        LEFT JOIN tasks t ON t.task_id = d.task_id;
        """

    /// Live tasks neither staged nor rejected (a sync of tasks deletes them): the same kind of
    /// merge, over the ids.
    static let absentTasksSQL = """
        INSERT INTO plan_tasks (task_id, change)
        SELECT a.task_id, 'delete'
        FROM (SELECT task_id FROM tasks WHERE deleted_batch IS NULL
              EXCEPT SELECT task_id FROM stage_tasks
              EXCEPT SELECT id FROM rejected_ids WHERE kind = 'tasks'
              ORDER BY 1 LIMIT -1) a
        WHERE true
        ON CONFLICT DO NOTHING;
        """

    /// Counts of the current plan for one kind: inserted (incl. restored), updated, deleted.
    func plannedCounts(_ kind: FileKind) throws -> (inserted: Int, updated: Int, deleted: Int, staged: Int) {
        let table = kind == .courses ? "plan_courses" : "plan_tasks"
        let stage = kind == .courses ? "stage_courses" : "stage_tasks"
        let inserted = try database.int("SELECT count(*) FROM \(table) WHERE change IN ('insert', 'restore')")
        let updated = try database.int("SELECT count(*) FROM \(table) WHERE change = 'update'")
        let deleted = try database.int("SELECT count(*) FROM \(table) WHERE change = 'delete'")
        let staged = try database.int("SELECT count(*) FROM \(stage)")
        return (inserted, updated, deleted, staged)
    }

    /// Sets the inserted, updated, unchanged and deleted counts of `counts` from the current
    /// plan, for each kind imported (or deleted as a consequence, like a deleted course's tasks).
    func fillPlannedCounts(_ counts: inout [FileKind: ImportCounts], kinds: Set<FileKind>) throws {
        for kind in FileKind.allCases {
            let planned = try plannedCounts(kind)
            guard kinds.contains(kind) || planned.deleted > 0 else { continue }
            var c = counts[kind] ?? ImportCounts()
            c.inserted = planned.inserted
            c.updated = planned.updated
            c.unchanged = planned.staged - planned.inserted - planned.updated
            c.deleted = planned.deleted
            counts[kind] = c
        }
    }

    /// Live rows of one kind in the database now.
    func liveCount(_ kind: FileKind) throws -> Int {
        try database.int(
            kind == .courses
                ? "SELECT count(*) FROM courses WHERE deleted_batch IS NULL"
                : "SELECT count(*) FROM tasks WHERE deleted_batch IS NULL")
    }

    // MARK: - Applying

    /// Writes the plan as batch `batchID`: first the previous values of every row it touches,
    /// then the new values, then the tombstones.
    func apply(batchID: Int) throws {
        try applyCourses(batchID: batchID)
        try applyTasks(batchID: batchID)
    }

    /// The course part of `apply`.
    func applyCourses(batchID: Int) throws {
        try database.run(
            """
            INSERT INTO course_history (batch_id, course_id, change, existed, code, title, term, teacher, timezone, deleted_batch, changed_batch)
            SELECT ?, p.course_id, p.change, c.course_id IS NOT NULL, c.code, c.title, c.term, c.teacher, c.timezone, c.deleted_batch, c.changed_batch
            FROM plan_courses p LEFT JOIN courses c ON c.course_id = p.course_id
            """, [batchID])
        try database.run(
            """
            INSERT INTO courses (course_id, code, title, term, teacher, timezone, deleted_batch, changed_batch)
            SELECT s.course_id, s.code, s.title, s.term, s.teacher, s.timezone, NULL, ?1
            FROM plan_courses p JOIN stage_courses s ON s.course_id = p.course_id
            WHERE p.change <> 'delete'
            ON CONFLICT (course_id) DO UPDATE SET
                code = excluded.code, title = excluded.title, term = excluded.term, teacher = excluded.teacher,
                timezone = excluded.timezone, deleted_batch = NULL, changed_batch = ?1
            """, [batchID])
        try database.run(
            """
            UPDATE courses SET deleted_batch = ?1, changed_batch = ?1
            WHERE course_id IN (SELECT course_id FROM plan_courses WHERE change = 'delete')
            """, [batchID])
    }

    /// The task part of `apply`: the previous values of every task the plan touches, the
    /// new values, then the tombstones. A row's staged bucket is its computed one
    /// (`BucketPolicy.computed`); a task an override pins keeps its stored bucket here, and the
    /// categorizer's pass gives it its bucket by `BucketPolicy.effective`.
    func applyTasks(batchID: Int) throws {
        try database.run(
            """
            INSERT INTO task_history (batch_id, task_id, change, existed, course_id, title, student_id, due, priority, completed, deleted_batch, changed_batch)
            SELECT ?, p.task_id, p.change, t.task_id IS NOT NULL, t.course_id, t.title, t.student_id, t.due, t.priority, t.completed, t.deleted_batch, t.changed_batch
            FROM plan_tasks p LEFT JOIN tasks t ON t.task_id = p.task_id
            """, [batchID])
        try database.run(
            """
            INSERT INTO tasks (task_id, course_id, title, student_id, due, priority, completed, deleted_batch, changed_batch, bucket)
            SELECT s.task_id, s.course_id, s.title, s.student_id, s.due, s.priority, s.completed, NULL, ?1, s.bucket
            FROM plan_tasks p JOIN stage_tasks s ON s.task_id = p.task_id
            WHERE p.change <> 'delete'
            ON CONFLICT (task_id) DO UPDATE SET
                course_id = excluded.course_id, title = excluded.title, student_id = excluded.student_id,
                due = excluded.due, priority = excluded.priority, completed = excluded.completed,
                deleted_batch = NULL, changed_batch = ?1,
                bucket = CASE WHEN excluded.bucket = '' OR EXISTS (SELECT 1 FROM overrides o WHERE o.task_id = tasks.task_id)
                              THEN tasks.bucket ELSE excluded.bucket END
            """, [batchID])
        try database.run(
            """
            UPDATE tasks SET deleted_batch = ?1, changed_batch = ?1
            WHERE task_id IN (SELECT task_id FROM plan_tasks WHERE change = 'delete')
            """, [batchID])
    }

    // MARK: - Holding

    /// Keeps the staged rows of a held batch in the database, for `batches approve`.
    func hold(batchID: Int) throws {
        try database.run(
            "INSERT INTO held_courses SELECT ?, course_id, code, title, term, teacher, timezone, file, line FROM stage_courses",
            [batchID])
        try database.run(
            """
            INSERT INTO held_tasks
            SELECT ?, s.task_id, s.course_id, s.title, s.student_id, s.due, s.priority, s.completed, f.path, s.line
            FROM stage_tasks s JOIN stage_files f ON f.file_no = s.file_no
            """,
            [batchID])
        try database.run("INSERT INTO held_rejected SELECT ?, kind, id FROM rejected_ids", [batchID])
    }

    /// Stages the rows kept for a held batch again.
    func restage(heldBatchID batchID: Int) throws {
        try clear()
        try database.run(
            "INSERT INTO stage_courses SELECT course_id, code, title, term, teacher, timezone, file, line FROM held_courses WHERE batch_id = ?",
            [batchID])
        try database.run(
            "INSERT INTO stage_files (path) SELECT DISTINCT file FROM held_tasks WHERE batch_id = ? ORDER BY file ON CONFLICT DO NOTHING",
            [batchID])
        try database.run(
            """
            INSERT INTO stage_tasks (task_id, course_id, title, student_id, due, priority, completed, file_no, line)
            SELECT h.task_id, h.course_id, h.title, h.student_id, h.due, h.priority, h.completed, f.file_no, h.line
            FROM held_tasks h JOIN stage_files f ON f.path = h.file WHERE h.batch_id = ?
            """,
            [batchID])
        try database.run("INSERT INTO rejected_ids SELECT kind, id FROM held_rejected WHERE batch_id = ?", [batchID])
    }

    /// Drops the rows kept for a held batch.
    static func dropHeld(batchID: Int, in database: Database) throws {
        try database.run("DELETE FROM held_courses WHERE batch_id = ?", [batchID])
        try database.run("DELETE FROM held_tasks WHERE batch_id = ?", [batchID])
        try database.run("DELETE FROM held_rejected WHERE batch_id = ?", [batchID])
    }
}

extension Statement {
    /// Binds a task's seven stored columns (task_id, course_id, title, student_id, due,
    /// priority, completed) to the parameters after `base`, in that order.
    func set(_ task: TaskRecord, after base: Int32) throws {
        try set(task.taskID, at: base + 1)
        try set(task.courseID, at: base + 2)
        try set(task.title, at: base + 3)
        try set(task.studentID, at: base + 4)
        try set(task.due, at: base + 5)
        try set(task.priority.rawValue, at: base + 6)
        try set(task.completed ? 1 : 0, at: base + 7)
    }
}
