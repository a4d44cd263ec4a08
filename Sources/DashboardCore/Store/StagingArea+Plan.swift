/// Planning: what applying the staged rows would do (`temp.plan_courses`, `temp.plan_tasks`).
extension StagingArea {
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
        for sql in [live, "SELECT course_id, timezone FROM stage_courses"] {
            let statement = try database.cached(sql)
            let c = try statement.columnPositions
            let (course, timezone) = (try c.position("course_id"), try c.position("timezone"))
            try statement.forEachRow { row in zones[row.string(course) ?? ""] = row.string(timezone) ?? "" }
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
                   OR c.teacher <> s.teacher OR c.timezone <> s.timezone OR c.teacher_email <> s.teacher_email
                   OR c.language <> s.language;
                """)
        }
        // Tasks written directly were not staged: there is no task to plan (and the comparison
        // would still read every task the run just wrote: 0.36 s a million on PostgreSQL).
        if !coursesApplied {
            if skippedUnchanged != nil {
                try database.execute(Self.stagedTaskChangesSQL)
            } else {
                try database.execute(Self.taskChangesSQL)
                try database.execute(Self.assignmentChangesSQL)
                try database.execute(Self.submissionChangesSQL)
            }
        }
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
            try database.execute(skippedUnchanged != nil ? Self.unseenAbsentTasksSQL : Self.absentTasksSQL)
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
    ///
    /// `assignment_id` has a merge of its own (`assignmentChangesSQL`): SQLite 3.40 sorts
    /// instead of merging an EXCEPT of eight columns (it merges seven), and comparing
    /// `completed` and `assignment_id` as one computed text cost 1.9 s more over a million rows
    /// (2.3 s against 0.39 s) than two merges (0.39 + 0.25 s).
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

    /// The staged rows whose only difference from the live row is the assignment id (a row
    /// new or otherwise changed is planned already: `ON CONFLICT DO NOTHING`).
    static let assignmentChangesSQL = """
        INSERT INTO plan_tasks (task_id, change)
        SELECT d.task_id, 'update'
        FROM (SELECT task_id, assignment_id FROM stage_tasks
              EXCEPT
              SELECT task_id, assignment_id FROM tasks WHERE deleted_batch IS NULL
              ORDER BY 1, 2 LIMIT -1) d
        WHERE true
        ON CONFLICT DO NOTHING;
        """

    /// The staged rows whose only difference from the live row is the submission state or
    /// hand-in time (SPEC §11): a merge of its own, as `assignmentChangesSQL`.
    static let submissionChangesSQL = """
        INSERT INTO plan_tasks (task_id, change)
        SELECT d.task_id, 'update'
        FROM (SELECT task_id, status, submitted_at FROM stage_tasks
              EXCEPT
              SELECT task_id, status, submitted_at FROM tasks WHERE deleted_batch IS NULL
              ORDER BY 1, 2, 3 LIMIT -1) d
        WHERE true
        ON CONFLICT DO NOTHING;
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

    /// The staged rows that are not a live row as it is, when a few rows were staged among
    /// many unchanged ones (`skippedUnchanged`): each staged row looked up by its id, instead of
    /// the merge of every live task (0.9 s a million). The same rows as `taskChangesSQL` and
    /// `assignmentChangesSQL` together (every compared column is NOT NULL, compared as stored;
    /// `IS DISTINCT FROM` is SQLite's `IS NOT`, in words both engines read).
    static let stagedTaskChangesSQL = """
        INSERT INTO plan_tasks (task_id, change)
        SELECT s.task_id,
               CASE WHEN t.task_id IS NULL THEN 'insert' WHEN t.deleted_batch IS NOT NULL THEN 'restore' ELSE 'update' END
        FROM stage_tasks s LEFT JOIN tasks t ON t.task_id = s.task_id
        WHERE t.task_id IS NULL OR t.deleted_batch IS NOT NULL
           OR t.course_id IS DISTINCT FROM s.course_id OR t.title IS DISTINCT FROM s.title
           OR t.student_id IS DISTINCT FROM s.student_id OR t.due IS DISTINCT FROM s.due
           OR t.priority IS DISTINCT FROM s.priority OR t.completed IS DISTINCT FROM s.completed
           OR t.assignment_id IS DISTINCT FROM s.assignment_id OR t.status IS DISTINCT FROM s.status
           OR t.submitted_at IS DISTINCT FROM s.submitted_at;
        """

    /// Live tasks neither staged nor rejected, when the run skipped its unchanged rows: among
    /// the live tasks it did not find unchanged (`UnchangedRows.markUnseen`).
    static let unseenAbsentTasksSQL = """
        INSERT INTO plan_tasks (task_id, change)
        SELECT u.task_id, 'delete' FROM unseen_tasks u
        WHERE NOT EXISTS (SELECT 1 FROM stage_tasks s WHERE s.task_id = u.task_id)
          AND NOT EXISTS (SELECT 1 FROM rejected_ids r WHERE r.kind = 'tasks' AND r.id = u.task_id)
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
            c.unchanged = planned.staged - planned.inserted - planned.updated + (kind == .tasks ? skippedUnchanged ?? 0 : 0)
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
}

/// The changes of one batch, as the categorizer and the history read them: names of the
/// relations the staging area holds them in. Only `StagingArea` makes one (and owns the
/// temporary tables it names: creates, fills, clears them); the importer, the approval of a
/// held batch and the reverter pass it to `Categorizer` and `ChangeHistory`, which read it
/// and write nothing to it.
struct ImportPlan {
    /// A relation of `(task_id, change)`: every task the batch inserts, restores, updates or
    /// deletes, one row each.
    let taskChanges: String
    /// A relation of the staged rows, `(task_id, course_id, bucket)` among others: the buckets
    /// computed while staging (empty after a revert).
    let stagedTasks: String
    /// A relation of `(course_id, change)`, like `taskChanges`.
    let courseChanges: String
    /// A relation of the staged courses, like `stagedTasks`.
    let stagedCourses: String
}

extension StagingArea {
    /// The plan this staging area holds (empty until `plan` or `planTaskChanges`).
    var importPlan: ImportPlan {
        ImportPlan(
            taskChanges: "plan_tasks", stagedTasks: "stage_tasks", courseChanges: "plan_courses",
            stagedCourses: "stage_courses")
    }

    /// Replaces the task plan by the rows of `source`, a query of `(task_id, change)` (a revert
    /// plans what its batch's history holds), with `values` bound to its parameters.
    func planTaskChanges(from source: String, _ values: [SQLBindable]) throws {
        try clear()
        try database.run("INSERT INTO plan_tasks (task_id, change) " + source, values)
    }

    /// Drops the staged tasks whose course is not in `validCourses` (a held batch approved after
    /// its course was deleted) and marks them rejected.
    /// - Returns: each dropped task's id, course id, file and line, by file and line.
    func dropTasks(outside validCourses: Set<String>) throws -> [(taskID: String, courseID: String, file: String, line: Int)] {
        var orphans: [(taskID: String, courseID: String, file: String, line: Int)] = []
        let statement = try database.cached(
            """
            SELECT s.task_id, s.course_id, f.path, s.line FROM stage_tasks s JOIN stage_files f ON f.file_no = s.file_no
            ORDER BY f.path, s.line
            """)
        let c = try statement.columnPositions
        let (task, courseColumn, path, line) = (
            try c.position("task_id"), try c.position("course_id"), try c.position("path"), try c.position("line")
        )
        try statement.forEachRow { row in
            let course = row.string(courseColumn) ?? ""
            if !validCourses.contains(course) {
                orphans.append((row.string(task) ?? "", course, row.string(path) ?? "", row.int(line)))
            }
        }
        for orphan in orphans {
            try database.run("DELETE FROM stage_tasks WHERE task_id = ?", [orphan.taskID])
            try markRejected(.tasks, id: orphan.taskID)
        }
        return orphans
    }
}
