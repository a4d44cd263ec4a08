/// The functions and triggers of the PostgreSQL schema (`PGSchema`): the append-only audit log,
/// the references of `tasks`, the kept marks and counts, the import's fingerprints, and what
/// `verify` and the proof of an identical re-import read of them.
extension PGSchema {
    /// The audit log is append-only for every role but the owner: no role is ever granted
    /// UPDATE, DELETE or TRUNCATE on it, and this trigger refuses them to any role that is not
    /// the table's owner even if someone grants them by hand.
    static let appendOnlyAudit = """
        CREATE FUNCTION dashboard_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF NOT pg_has_role(current_user, (SELECT tableowner FROM pg_tables WHERE schemaname = TG_TABLE_SCHEMA AND tablename = TG_TABLE_NAME), 'USAGE') THEN
                RAISE EXCEPTION 'the audit log is append-only: % is refused to role %', TG_OP, current_user USING ERRCODE = '42501';
            END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER audit_append_only BEFORE UPDATE OR DELETE ON audit
            FOR EACH STATEMENT EXECUTE FUNCTION dashboard_audit_append_only();
        CREATE TRIGGER audit_no_truncate BEFORE TRUNCATE ON audit
            FOR EACH STATEMENT EXECUTE FUNCTION dashboard_audit_append_only();
        """

    /// The references of `tasks` (to its course, and to the batches that deleted, changed and
    /// created it): SQLite's foreign keys, checked once per statement over all its rows.
    ///
    /// Why not PostgreSQL's own foreign keys: they check (and lock) the referenced row once per
    /// row written. Four references made a million-task import spend 10 s in the checks alone
    /// (a COPY of the same rows took 7.7 s without them); one statement-level check over the
    /// statement's rows (its transition table) is a hash join of a fraction of a second. They
    /// refuse what a foreign key refuses, with its SQLSTATE (23503): a task whose course or
    /// batch does not exist, a course or batch deleted (or renumbered) while tasks refer to it.
    /// They run whatever the session's `dashboard.triggers` (they are constraints, not kept
    /// counts), as the tables' owner (a role may not see every row under row-level security).
    static let taskReferences = """
        CREATE FUNCTION dashboard_tasks_refer() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
        DECLARE missing text;
        BEGIN
            SELECT 'course ' || n.course_id INTO missing FROM new_rows n
            WHERE NOT EXISTS (SELECT 1 FROM courses c WHERE c.course_id = n.course_id) LIMIT 1;
            IF missing IS NULL THEN
                SELECT 'batch ' || b.id INTO missing
                FROM (SELECT deleted_batch AS id FROM new_rows UNION SELECT changed_batch FROM new_rows UNION SELECT created_batch FROM new_rows) b
                WHERE b.id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM batches x WHERE x.batch_id = b.id) LIMIT 1;
            END IF;
            IF missing IS NOT NULL THEN
                RAISE EXCEPTION 'insert or update on table "tasks" violates its references: % does not exist', missing USING ERRCODE = '23503';
            END IF;
            RETURN NULL;
        END $$;
        CREATE FUNCTION dashboard_courses_referred() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM old_rows o JOIN tasks t ON t.course_id = o.course_id
                       WHERE NOT EXISTS (SELECT 1 FROM courses c WHERE c.course_id = o.course_id)) THEN
                RAISE EXCEPTION 'update or delete on table "courses" violates the references of "tasks"' USING ERRCODE = '23503';
            END IF;
            RETURN NULL;
        END $$;
        CREATE FUNCTION dashboard_batches_referred() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM old_rows o
                       WHERE NOT EXISTS (SELECT 1 FROM batches b WHERE b.batch_id = o.batch_id)
                         AND EXISTS (SELECT 1 FROM tasks t
                                     WHERE t.deleted_batch = o.batch_id OR t.changed_batch = o.batch_id OR t.created_batch = o.batch_id)) THEN
                RAISE EXCEPTION 'update or delete on table "batches" violates the references of "tasks"' USING ERRCODE = '23503';
            END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER tasks_refer_inserted AFTER INSERT ON tasks REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION dashboard_tasks_refer();
        CREATE TRIGGER tasks_refer_updated AFTER UPDATE ON tasks REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION dashboard_tasks_refer();
        CREATE TRIGGER courses_referred_deleted AFTER DELETE ON courses REFERENCING OLD TABLE AS old_rows
            FOR EACH STATEMENT EXECUTE FUNCTION dashboard_courses_referred();
        CREATE TRIGGER courses_referred_updated AFTER UPDATE ON courses REFERENCING OLD TABLE AS old_rows
            FOR EACH STATEMENT EXECUTE FUNCTION dashboard_courses_referred();
        CREATE TRIGGER batches_referred_deleted AFTER DELETE ON batches REFERENCING OLD TABLE AS old_rows
            FOR EACH STATEMENT EXECUTE FUNCTION dashboard_batches_referred();
        CREATE TRIGGER batches_referred_updated AFTER UPDATE ON batches REFERENCING OLD TABLE AS old_rows
            FOR EACH STATEMENT EXECUTE FUNCTION dashboard_batches_referred();
        """

    /// The kept marks and counts (`DataMarks`, `CourseBuckets`), by triggers as in SQLite: every
    /// statement that writes task or course data moves `data` and `writes`, every write of a
    /// stored bucket or an override moves `writes`, and every write of tasks keeps the live
    /// tasks per course and stored bucket. The triggers run once per statement over its
    /// transition tables (a million-row write is a few set-based statements, not a million
    /// calls), as the tables' owner (a teacher's role that may pin a bucket moves the marks
    /// it may not write itself), and do nothing while the session's `dashboard.triggers` is
    /// `off`: the importer's own writes, which keep the counts and move the marks themselves,
    /// as SQLite's importer does with its connection's triggers off. A hand edit in psql fires
    /// them.
    static let keptMarksAndCounts = """
        CREATE FUNCTION dashboard_triggers_on() RETURNS boolean LANGUAGE sql STABLE AS $$
            SELECT coalesce(current_setting('dashboard.triggers', true), '') <> 'off'
        $$;
        CREATE FUNCTION dashboard_data_written() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
        BEGIN
            IF dashboard_triggers_on() THEN UPDATE data_marks SET data = data + 1, writes = writes + 1 WHERE id = 1; END IF;
            RETURN NULL;
        END $$;
        CREATE FUNCTION dashboard_bucket_written() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
        BEGIN
            IF dashboard_triggers_on() THEN UPDATE data_marks SET writes = writes + 1 WHERE id = 1; END IF;
            RETURN NULL;
        END $$;
        \(tasksUpdated())
        CREATE FUNCTION dashboard_tasks_inserted() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
        BEGIN
            IF NOT dashboard_triggers_on() THEN RETURN NULL; END IF;
            UPDATE data_marks SET data = data + 1, writes = writes + 1 WHERE id = 1;
            INSERT INTO course_buckets (course_id, bucket, tasks)
            SELECT course_id, bucket, count(*) FROM new_rows WHERE deleted_batch IS NULL GROUP BY course_id, bucket
            ON CONFLICT (course_id, bucket) DO UPDATE SET tasks = course_buckets.tasks + excluded.tasks;
            RETURN NULL;
        END $$;
        CREATE FUNCTION dashboard_tasks_deleted() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
        BEGIN
            IF NOT dashboard_triggers_on() THEN RETURN NULL; END IF;
            UPDATE data_marks SET data = data + 1, writes = writes + 1 WHERE id = 1;
            UPDATE course_buckets c SET tasks = c.tasks - d.n
            FROM (SELECT course_id, bucket, count(*) AS n FROM old_rows WHERE deleted_batch IS NULL GROUP BY course_id, bucket) d
            WHERE c.course_id = d.course_id AND c.bucket = d.bucket;
            RETURN NULL;
        END $$;
        \(coursesUpdated())
        CREATE TRIGGER tasks_inserted AFTER INSERT ON tasks REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION dashboard_tasks_inserted();
        CREATE TRIGGER tasks_updated AFTER UPDATE ON tasks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION dashboard_tasks_updated();
        CREATE TRIGGER tasks_deleted AFTER DELETE ON tasks REFERENCING OLD TABLE AS old_rows
            FOR EACH STATEMENT EXECUTE FUNCTION dashboard_tasks_deleted();
        CREATE TRIGGER courses_inserted AFTER INSERT ON courses FOR EACH ROW EXECUTE FUNCTION dashboard_data_written();
        CREATE TRIGGER courses_deleted AFTER DELETE ON courses FOR EACH ROW EXECUTE FUNCTION dashboard_data_written();
        CREATE TRIGGER courses_updated AFTER UPDATE ON courses REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION dashboard_courses_updated();
        CREATE TRIGGER overrides_written AFTER INSERT OR UPDATE OR DELETE ON overrides
            FOR EACH ROW EXECUTE FUNCTION dashboard_bucket_written();
        INSERT INTO data_marks (id, data, writes, trusted, clean) VALUES (1, 0, 0, 0, 1);
        """

    /// The triggers that keep the import's fingerprints of tasks honest (version 9, `RowPrints`),
    /// as SQLite's: any writer but the importer (whose session runs with `dashboard.triggers`
    /// off) that changes a task's data clears its print, before the row is written (one
    /// assignment, where an AFTER trigger would run an UPDATE per row: a revert of a million-task
    /// batch); a row inserted with a print by such a writer loses it (AFTER: a BEFORE INSERT
    /// trigger, even disabled, would make every COPY into `tasks` insert row by row); and any
    /// write of a print or slot by such a writer moves `writes`, so that the next import finds
    /// the data no longer clean and compares every row (`DataMarks`).
    static func rowPrints(version: Int = currentVersion) -> String {
        """
        CREATE FUNCTION dashboard_tasks_print_stale() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            NEW.print := NULL;
            RETURN NEW;
        END $$;
        CREATE FUNCTION dashboard_tasks_print_inserted() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
        BEGIN
            UPDATE tasks SET print = NULL WHERE task_id = NEW.task_id;
            RETURN NULL;
        END $$;
        \(printStaleTrigger(version: version))
        CREATE TRIGGER tasks_print_inserted AFTER INSERT ON tasks
            FOR EACH ROW WHEN (NEW.print IS NOT NULL AND dashboard_triggers_on()) EXECUTE FUNCTION dashboard_tasks_print_inserted();
        CREATE TRIGGER tasks_print_written AFTER UPDATE OF print, slot ON tasks
            FOR EACH STATEMENT EXECUTE FUNCTION dashboard_bucket_written();
        """
    }

    /// Moves the marks and keeps the counts when a statement updated tasks, as SQLite's
    /// `tasks_data_updated`, `tasks_status_written` and `tasks_bucket_written` do: the function
    /// as `version` defines it (12 compares the submission state and hand-in time too).
    static func tasksUpdated(version: Int = currentVersion) -> String {
        let columns =
            ["course_id", "title", "student_id", "due", "priority", "completed", "assignment_id"]
            + (version >= 12 ? ["status", "submitted_at"] : []) + ["deleted_batch", "created_batch"]
        let (old, new) = (columns.map { "o." + $0 }.joined(separator: ", "), columns.map { "n." + $0 }.joined(separator: ", "))
        return """
            CREATE FUNCTION dashboard_tasks_updated() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
            BEGIN
                IF NOT dashboard_triggers_on() THEN RETURN NULL; END IF;
                IF EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.task_id = o.task_id
                           WHERE (\(old))
                                 IS DISTINCT FROM (\(new)))
                   OR (SELECT count(*) FROM old_rows) <> (SELECT count(*) FROM new_rows) THEN
                    UPDATE data_marks SET data = data + 1, writes = writes + 1 WHERE id = 1;
                ELSIF EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.task_id = o.task_id WHERE o.bucket IS DISTINCT FROM n.bucket) THEN
                    UPDATE data_marks SET writes = writes + 1 WHERE id = 1;
                END IF;
                UPDATE course_buckets c SET tasks = c.tasks - d.n
                FROM (SELECT course_id, bucket, count(*) AS n FROM old_rows WHERE deleted_batch IS NULL GROUP BY course_id, bucket) d
                WHERE c.course_id = d.course_id AND c.bucket = d.bucket;
                INSERT INTO course_buckets (course_id, bucket, tasks)
                SELECT course_id, bucket, count(*) FROM new_rows WHERE deleted_batch IS NULL GROUP BY course_id, bucket
                ON CONFLICT (course_id, bucket) DO UPDATE SET tasks = course_buckets.tasks + excluded.tasks;
                RETURN NULL;
            END $$;
            """
    }

    /// The trigger that clears a task's print before another writer changes its data (part of
    /// `rowPrints`): over the data columns `version` has (12 adds the state and hand-in time).
    static func printStaleTrigger(version: Int = currentVersion) -> String {
        let columns =
            "task_id, course_id, title, student_id, due, priority, completed,\n    assignment_id, "
            + (version >= 12 ? "status, submitted_at, " : "") + "deleted_batch"
        return """
            CREATE TRIGGER tasks_print_stale BEFORE UPDATE OF \(columns) ON tasks
                FOR EACH ROW WHEN (NEW.print IS NOT NULL AND dashboard_triggers_on()) EXECUTE FUNCTION dashboard_tasks_print_stale();
            """
    }

    /// Moves the data mark when a statement changed a course's data (any column but
    /// `changed_batch`), as SQLite's `courses_data_updated`, `courses_email_written` and
    /// `courses_language_written` do: the function as `version` defines it (the columns it
    /// compares are those the version has; 9 and 8 compare the same).
    static func coursesUpdated(version: Int = currentVersion) -> String {
        let columns =
            ["code", "title", "term", "teacher", "timezone"] + (version >= 10 ? ["teacher_email"] : [])
            + (version >= 11 ? ["language"] : []) + ["deleted_batch"]
        let (old, new) = (columns.map { "o." + $0 }.joined(separator: ", "), columns.map { "n." + $0 }.joined(separator: ", "))
        return """
            CREATE FUNCTION dashboard_courses_updated() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
            BEGIN
                IF dashboard_triggers_on() AND (
                    EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.course_id = o.course_id
                            WHERE (\(old))
                                  IS DISTINCT FROM (\(new)))
                    OR (SELECT count(*) FROM old_rows) <> (SELECT count(*) FROM new_rows)) THEN
                    UPDATE data_marks SET data = data + 1, writes = writes + 1 WHERE id = 1;
                END IF;
                RETURN NULL;
            END $$;
            """
    }

    /// The triggers the schema holds (a dropped or disabled one is a problem `dashboard verify`
    /// reports), read from the statements that create them; those of `rowPrints` only from
    /// version 9 on (`withPrints`).
    static func triggerNames(withPrints: Bool = true) -> [String] {
        (appendOnlyAudit + taskReferences + keptMarksAndCounts + (withPrints ? rowPrints() : "")).components(separatedBy: "CREATE TRIGGER ")
            .dropFirst().compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// What stands for SQLite's `PRAGMA schema_version` in the proof of an identical re-import
    /// (`DataMarks.record`): a number that moves when a trigger that keeps the marks is
    /// dropped, disabled or redefined.
    static let schemaMark = """
        SELECT hashtext(coalesce(string_agg(t.tgname::text || ':' || t.tgenabled::text || ':' || md5(p.prosrc), ',' ORDER BY t.tgname), ''))
        FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE t.tgrelid IN ('tasks'::regclass, 'courses'::regclass, 'overrides'::regclass) AND NOT t.tgisinternal
        """

    /// Run by every writer once it holds the writers' lock (`SELECT dashboard_number_new_rows()`):
    /// each identity column's next value is its largest id plus one, as SQLite numbers a new row
    /// (a rolled-back batch leaves no gap: the next batch gets its number, on both stores). As
    /// the owner, so that a teacher's role that may reclassify needs no right on the sequences.
    static let numberNewRows = """
        CREATE FUNCTION dashboard_number_new_rows() RETURNS void LANGUAGE sql SECURITY DEFINER SET search_path FROM CURRENT AS $$
            SELECT setval(pg_get_serial_sequence('batches', 'batch_id'), coalesce((SELECT max(batch_id) FROM batches), 0) + 1, false);
            SELECT setval(pg_get_serial_sequence('audit', 'entry_id'), coalesce((SELECT max(entry_id) FROM audit), 0) + 1, false);
            SELECT setval(pg_get_serial_sequence('settings_log', 'entry_id'), coalesce((SELECT max(entry_id) FROM settings_log), 0) + 1, false);
        $$
        """
}
