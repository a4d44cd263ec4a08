/// The ordered, append-only list of schema migrations. Migration N brings `user_version` from
/// N-1 to N, committed together with it; never edit a migration that has shipped.
enum Schema {
    static let migrations: [Migration] = [
        // 1: courses, tasks, import batches and everything needed to revert them.
        .sql(
            """
            CREATE TABLE batches (
                batch_id     INTEGER PRIMARY KEY,
                command      TEXT NOT NULL,
                started_at   TEXT NOT NULL,
                finished_at  TEXT,
                as_of        TEXT NOT NULL,
                mode         TEXT NOT NULL CHECK (mode IN ('merge', 'sync')),
                status       TEXT NOT NULL CHECK (status IN ('running', 'committed', 'failed', 'dry_run', 'held', 'approved', 'discarded', 'reverted')),
                reason       TEXT NOT NULL DEFAULT '',
                max_delete   TEXT NOT NULL DEFAULT '10%',
                options      TEXT NOT NULL DEFAULT '',
                actor        TEXT NOT NULL DEFAULT '',
                approved_from INTEGER REFERENCES batches(batch_id)
            );
            CREATE TABLE batch_counts (
                batch_id  INTEGER NOT NULL REFERENCES batches(batch_id),
                kind      TEXT NOT NULL CHECK (kind IN ('courses', 'tasks')),
                read      INTEGER NOT NULL DEFAULT 0,
                inserted  INTEGER NOT NULL DEFAULT 0,
                updated   INTEGER NOT NULL DEFAULT 0,
                unchanged INTEGER NOT NULL DEFAULT 0,
                deleted   INTEGER NOT NULL DEFAULT 0,
                rejected  INTEGER NOT NULL DEFAULT 0,
                warnings  INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (batch_id, kind)
            ) WITHOUT ROWID;
            CREATE TABLE batch_files (
                batch_id INTEGER NOT NULL REFERENCES batches(batch_id),
                position INTEGER NOT NULL,
                path     TEXT NOT NULL,
                kind     TEXT,
                size     INTEGER NOT NULL,
                sha256   TEXT NOT NULL,
                rows     INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (batch_id, position)
            ) WITHOUT ROWID;
            CREATE TABLE batch_problems (
                batch_id    INTEGER NOT NULL REFERENCES batches(batch_id),
                seq         INTEGER NOT NULL,
                severity    TEXT NOT NULL CHECK (severity IN ('error', 'warning')),
                code        TEXT NOT NULL,
                frictionless_type TEXT NOT NULL,
                file        TEXT NOT NULL,
                line        INTEGER NOT NULL,
                row         INTEGER NOT NULL,
                column_name TEXT NOT NULL,
                value       TEXT NOT NULL,
                message     TEXT NOT NULL,
                hint        TEXT NOT NULL,
                PRIMARY KEY (batch_id, seq)
            ) WITHOUT ROWID;
            CREATE TABLE courses (
                course_id     TEXT NOT NULL PRIMARY KEY,
                code          TEXT NOT NULL,
                title         TEXT NOT NULL,
                term          TEXT NOT NULL DEFAULT '',
                teacher       TEXT NOT NULL DEFAULT '',
                timezone      TEXT NOT NULL DEFAULT '',
                deleted_batch INTEGER REFERENCES batches(batch_id),
                changed_batch INTEGER REFERENCES batches(batch_id)
            ) WITHOUT ROWID;
            CREATE TABLE tasks (
                task_id       TEXT NOT NULL PRIMARY KEY,
                course_id     TEXT NOT NULL REFERENCES courses(course_id),
                title         TEXT NOT NULL,
                student_id    TEXT NOT NULL DEFAULT '',
                due           TEXT NOT NULL DEFAULT '',
                priority      TEXT NOT NULL DEFAULT 'normal' CHECK (priority IN ('low', 'normal', 'high')),
                completed     INTEGER NOT NULL DEFAULT 0 CHECK (completed IN (0, 1)),
                deleted_batch INTEGER REFERENCES batches(batch_id),
                changed_batch INTEGER REFERENCES batches(batch_id)
            ) WITHOUT ROWID;
            CREATE INDEX tasks_by_course ON tasks(course_id);
            CREATE TABLE course_history (
                batch_id  INTEGER NOT NULL REFERENCES batches(batch_id),
                course_id TEXT NOT NULL,
                change    TEXT NOT NULL CHECK (change IN ('insert', 'update', 'delete', 'restore')),
                existed   INTEGER NOT NULL,
                code TEXT, title TEXT, term TEXT, teacher TEXT, timezone TEXT,
                deleted_batch INTEGER, changed_batch INTEGER,
                PRIMARY KEY (batch_id, course_id)
            ) WITHOUT ROWID;
            CREATE TABLE task_history (
                batch_id  INTEGER NOT NULL REFERENCES batches(batch_id),
                task_id   TEXT NOT NULL,
                change    TEXT NOT NULL CHECK (change IN ('insert', 'update', 'delete', 'restore')),
                existed   INTEGER NOT NULL,
                course_id TEXT, title TEXT, student_id TEXT, due TEXT, priority TEXT, completed INTEGER,
                deleted_batch INTEGER, changed_batch INTEGER,
                PRIMARY KEY (batch_id, task_id)
            ) WITHOUT ROWID;
            CREATE TABLE held_courses (
                batch_id  INTEGER NOT NULL REFERENCES batches(batch_id),
                course_id TEXT NOT NULL,
                code TEXT NOT NULL, title TEXT NOT NULL, term TEXT NOT NULL, teacher TEXT NOT NULL, timezone TEXT NOT NULL,
                file TEXT NOT NULL, line INTEGER NOT NULL,
                PRIMARY KEY (batch_id, course_id)
            ) WITHOUT ROWID;
            CREATE TABLE held_rejected (
                batch_id INTEGER NOT NULL REFERENCES batches(batch_id),
                kind     TEXT NOT NULL CHECK (kind IN ('courses', 'tasks')),
                id       TEXT NOT NULL,
                PRIMARY KEY (batch_id, kind, id)
            ) WITHOUT ROWID;
            CREATE TABLE held_tasks (
                batch_id  INTEGER NOT NULL REFERENCES batches(batch_id),
                task_id   TEXT NOT NULL,
                course_id TEXT NOT NULL, title TEXT NOT NULL, student_id TEXT NOT NULL, due TEXT NOT NULL,
                priority TEXT NOT NULL, completed INTEGER NOT NULL,
                file TEXT NOT NULL, line INTEGER NOT NULL,
                PRIMARY KEY (batch_id, task_id)
            ) WITHOUT ROWID;
            """),
        // 2: buckets, manual overrides and the append-only audit log.
        .sql(
            """
            ALTER TABLE tasks ADD COLUMN bucket TEXT NOT NULL DEFAULT '';
            ALTER TABLE batches ADD COLUMN reverts_batch INTEGER REFERENCES batches(batch_id);
            CREATE TABLE audit (
                entry_id        INTEGER PRIMARY KEY AUTOINCREMENT,
                recorded_at     TEXT NOT NULL,
                as_of           TEXT NOT NULL,
                task_id         TEXT NOT NULL,
                course_id       TEXT NOT NULL,
                from_bucket     TEXT NOT NULL,
                to_bucket       TEXT NOT NULL,
                cause           TEXT NOT NULL CHECK (cause IN ('time', 'import', 'override', 'delete', 'restore', 'revert')),
                actor           TEXT NOT NULL,
                reason          TEXT NOT NULL DEFAULT '',
                batch_id        INTEGER REFERENCES batches(batch_id),
                reverts_entry   INTEGER REFERENCES audit(entry_id),
                conflict        INTEGER NOT NULL DEFAULT 0 CHECK (conflict IN (0, 1)),
                override_until  TEXT NOT NULL DEFAULT '',
                override_before INTEGER REFERENCES audit(entry_id)
            );
            CREATE INDEX audit_by_task ON audit(task_id, entry_id);
            CREATE INDEX audit_by_batch ON audit(batch_id) WHERE batch_id IS NOT NULL;
            CREATE INDEX audit_by_reverted ON audit(reverts_entry) WHERE reverts_entry IS NOT NULL;
            CREATE TRIGGER audit_is_append_only_update BEFORE UPDATE ON audit
            BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
            CREATE TRIGGER audit_is_append_only_delete BEFORE DELETE ON audit
            BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
            CREATE TABLE overrides (
                task_id  TEXT NOT NULL PRIMARY KEY REFERENCES tasks(task_id),
                entry_id INTEGER NOT NULL REFERENCES audit(entry_id),
                bucket   TEXT NOT NULL CHECK (bucket IN ('overdue', 'today', 'upcoming', 'undated', 'completed')),
                until    TEXT NOT NULL DEFAULT '',
                reason   TEXT NOT NULL,
                actor    TEXT NOT NULL
            ) WITHOUT ROWID;
            """),
        // 3: the CHECK constraints with three values or more, respelled as OR chains. SQLite
        // (3.40, Debian 12) evaluates `x IN ('a', 'b', 'c')` inside a CHECK by building a
        // temporary index for every row written: about 1 µs a row, half the cost of writing an
        // audit entry. The rules are the same, so only the stored schema text changes.
        .respellChecks(respelledChecks),
        // 4: the dashboard's mark (see `StoreIdentity`), for files written before it existed;
        // a new file already has it from migration 1's transaction.
        .sql("PRAGMA application_id = \(StoreIdentity.applicationID)"),
        // 5: the database's own settings (the default time zone of courses without one) and
        // the log of their changes (`Settings`).
        .sql(
            """
            CREATE TABLE IF NOT EXISTS settings (
                key   TEXT NOT NULL PRIMARY KEY,
                value TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS settings_log (
                entry_id    INTEGER PRIMARY KEY,
                recorded_at TEXT NOT NULL,
                key         TEXT NOT NULL,
                old_value   TEXT,
                new_value   TEXT NOT NULL,
                actor       TEXT NOT NULL DEFAULT '',
                batch_id    INTEGER REFERENCES batches(batch_id)
            );
            """),
        // 6: what a teacher acts on (issue 14): a task's optional assignment (the tasks file's
        // `assignment_id` column; '' when absent), kept in the history and held rows like every
        // other field, and the group a bulk `reclassify --yes` records its entries under
        // (`revert --group G`; NULL for every other entry).
        .addColumns(
            [
                ColumnAddition(table: "tasks", column: "assignment_id", definition: "TEXT NOT NULL DEFAULT ''"),
                ColumnAddition(table: "task_history", column: "assignment_id", definition: "TEXT"),
                ColumnAddition(table: "held_tasks", column: "assignment_id", definition: "TEXT NOT NULL DEFAULT ''"),
                ColumnAddition(table: "audit", column: "group_id", definition: "INTEGER"),
            ],
            then: "CREATE INDEX IF NOT EXISTS audit_by_group ON audit(group_id) WHERE group_id IS NOT NULL;"),
        // 7: the audit log records moves, not births (issue 15, SPEC §6): a task a batch inserts
        // keeps the batch that created it (NULL for tasks created before, whose `import` entries
        // and history rows stay), and the batch its number of inserted tasks per bucket; no
        // per-task entry or history row is written for a birth (`audit --task` derives it).
        .addColumns(
            [ColumnAddition(table: "tasks", column: "created_batch", definition: "INTEGER REFERENCES batches(batch_id)")],
            then: """
                CREATE TABLE IF NOT EXISTS batch_births (
                    batch_id INTEGER NOT NULL REFERENCES batches(batch_id),
                    bucket   TEXT NOT NULL,
                    tasks    INTEGER NOT NULL,
                    PRIMARY KEY (batch_id, bucket)
                ) WITHOUT ROWID;
                """),
        // 8: the proof an identical re-import may skip its comparison by (issue 15, SPEC §5):
        // a mark every write of task or course data moves, by triggers (so a hand edit in the
        // sqlite3 shell moves it too), and the mark, schema version and options each committed
        // import recorded (`DataMarks`). The importer's own writes fire no trigger (it turns
        // them off on its connection: a trigger per row would cost it 0.8 s a million rows) and
        // move the mark once. And the live tasks per course and stored bucket, kept at write time
        // by triggers and by the importer (`CourseBuckets`), which a grid reads instead of every
        // task.
        .addColumns(
            [
                ColumnAddition(table: "batches", column: "data_mark", definition: "INTEGER"),
                ColumnAddition(table: "batches", column: "schema_mark", definition: "INTEGER"),
                ColumnAddition(table: "batches", column: "plan_options", definition: "TEXT"),
            ],
            then: DataMarks.schemaSQL + CourseBuckets.schemaSQL),
        // 9: what lets a sync skip its unchanged rows before normalizing them (issue 26): each
        // task's fingerprint of the row it was imported from and a slot number (`RowPrints`,
        // `UnchangedRows`); NULL for every task until an import writes it, and cleared by
        // triggers when any other writer changes the task's data.
        .addColumns(RowPrints.columns, then: RowPrints.schemaSQL),
        // 10: what lets SQL decide a search on a title (issue 26): each task's title as the
        // search folds it, where SQL's `LIKE` on the title cannot decide (`TitleFolds`), computed
        // for every task here, and set to NULL (unknown: folded in Swift) by triggers when any
        // other writer changes a title.
        .addColumns(TitleFolds.columns, then: TitleFolds.schemaSQL),
        // 11: the address a course's teacher gets the morning digest at (issue 28: the courses
        // file's optional `teacher_email`; '' when absent), kept in the history and held rows
        // like every other field; a write of it by any other writer moves the data mark, as a
        // write of the other course columns does (`DataMarks`).
        .addColumns(
            [
                ColumnAddition(table: "courses", column: "teacher_email", definition: "TEXT NOT NULL DEFAULT ''"),
                ColumnAddition(table: "course_history", column: "teacher_email", definition: "TEXT"),
                ColumnAddition(table: "held_courses", column: "teacher_email", definition: "TEXT NOT NULL DEFAULT ''"),
            ],
            then: """
                CREATE TRIGGER IF NOT EXISTS courses_email_written AFTER UPDATE OF teacher_email ON courses
                BEGIN UPDATE data_marks SET data = data + 1, writes = writes + 1 WHERE id = 1; END;
                """),
        // 12: the language a course's reports are written in (issue 29: the courses file's
        // optional `language`, a canonical BCP 47 tag; '' when absent: the database's default),
        // kept in the history and held rows like every other field; a write of it by any other
        // writer moves the data mark, as a write of the other course columns does (`DataMarks`).
        .addColumns(
            [
                ColumnAddition(table: "courses", column: "language", definition: "TEXT NOT NULL DEFAULT ''"),
                ColumnAddition(table: "course_history", column: "language", definition: "TEXT"),
                ColumnAddition(table: "held_courses", column: "language", definition: "TEXT NOT NULL DEFAULT ''"),
            ],
            then: """
                CREATE TRIGGER IF NOT EXISTS courses_language_written AFTER UPDATE OF language ON courses
                BEGIN UPDATE data_marks SET data = data + 1, writes = writes + 1 WHERE id = 1; END;
                """),
        // 13 (issue 31, SPEC §11): a task's submission state and hand-in time, kept in the
        // history and held rows; the state of every row already there is the one its
        // `completed` meant (true: completed, else open). A write of them by any other writer
        // moves the data mark and clears the task's print (`RowPrints`); every print is
        // cleared here, since a row printed before this version had its `status` column
        // ignored: the next import compares every row once. The derived states are valid by
        // construction: the data marks stay as they were (the trigger comes after the UPDATEs,
        // also in a file whose version was set back by hand).
        .addColumns(
            [
                ColumnAddition(
                    table: "tasks", column: "status",
                    definition:
                        "TEXT NOT NULL DEFAULT 'open' CHECK (status = 'open' OR status = 'submitted' OR status = 'completed' OR status = 'excused')"
                ),
                ColumnAddition(table: "tasks", column: "submitted_at", definition: "TEXT NOT NULL DEFAULT ''"),
                ColumnAddition(table: "task_history", column: "status", definition: "TEXT"),
                ColumnAddition(table: "task_history", column: "submitted_at", definition: "TEXT"),
                ColumnAddition(table: "held_tasks", column: "status", definition: "TEXT NOT NULL DEFAULT 'open'"),
                ColumnAddition(table: "held_tasks", column: "submitted_at", definition: "TEXT NOT NULL DEFAULT ''"),
            ],
            then: """
                DROP TRIGGER IF EXISTS tasks_status_written;
                UPDATE tasks SET status = 'completed' WHERE completed = 1;
                UPDATE task_history SET status = CASE completed WHEN 1 THEN 'completed' WHEN 0 THEN 'open' END, submitted_at = ''
                    WHERE existed = 1 OR completed IS NOT NULL;
                UPDATE held_tasks SET status = 'completed' WHERE completed = 1;
                CREATE TRIGGER IF NOT EXISTS tasks_status_written AFTER UPDATE OF status, submitted_at ON tasks
                BEGIN UPDATE data_marks SET data = data + 1, writes = writes + 1 WHERE id = 1; END;
                DROP TRIGGER IF EXISTS tasks_print_stale;
                \(RowPrints.staleTrigger(version: 13))
                UPDATE tasks SET print = NULL WHERE print IS NOT NULL;
                """),
        // 14 (issue 31, SPEC §11): a teacher may excuse a task by hand (`reclassify --to
        // excused`): an override may name `excused`. The other places of a state (`to_grade`)
        // come from the task's own state, never from a pin.
        .rewriteChecks([
            CheckRewrite(
                table: "overrides",
                old: ValueListCheck(table: "overrides", column: "bucket", values: ["overdue", "today", "upcoming", "undated", "completed"])
                    .orChain,
                new: ValueListCheck(
                    table: "overrides", column: "bucket", values: ["overdue", "today", "upcoming", "undated", "completed", "excused"]
                ).orChain)
        ]),
    ]
}
