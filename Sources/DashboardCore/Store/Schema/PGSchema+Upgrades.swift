/// The in-place upgrades of an older PostgreSQL database (`PGSchema`), one version after the
/// other, each in one transaction with the version (`PGStore`).
extension PGSchema {
    /// Version 8 to 9, in one transaction with the version (`PGStore`): the columns (no default:
    /// PostgreSQL adds them without writing a row) and the triggers. Every task starts without
    /// a print: the next import compares every row once and gives them theirs.
    static let upgradeFrom8 = """
        ALTER TABLE tasks ADD COLUMN print bytea, ADD COLUMN slot bigint;
        \(rowPrints(version: 9));
        UPDATE dashboard_schema SET version = 9 WHERE id = 1;
        """

    /// Version 9 to 10, in one transaction with the version (`PGStore`): the teacher's address
    /// of a course, its history and held rows ('' for every course until an import writes one),
    /// and the trigger function that moves the data mark when a course changes, compared on
    /// the new column too.
    static let upgradeFrom9 = """
        ALTER TABLE courses ADD COLUMN teacher_email text COLLATE "C" NOT NULL DEFAULT '';
        ALTER TABLE course_history ADD COLUMN teacher_email text COLLATE "C";
        ALTER TABLE held_courses ADD COLUMN teacher_email text COLLATE "C" NOT NULL DEFAULT '';
        \(coursesUpdated(version: 10).replacingOccurrences(of: "CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION"));
        UPDATE dashboard_schema SET version = 10 WHERE id = 1;
        """

    /// Version 10 to 11, in one transaction with the version (`PGStore`): the language of a
    /// course's reports, in its history and held rows ('' for every course until an import
    /// writes one: the database's default language), and the trigger function that moves the
    /// data mark when a course changes, compared on the new column too.
    static let upgradeFrom10 = """
        ALTER TABLE courses ADD COLUMN language text COLLATE "C" NOT NULL DEFAULT '';
        ALTER TABLE course_history ADD COLUMN language text COLLATE "C";
        ALTER TABLE held_courses ADD COLUMN language text COLLATE "C" NOT NULL DEFAULT '';
        \(coursesUpdated(version: 11).replacingOccurrences(of: "CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION"));
        UPDATE dashboard_schema SET version = 11 WHERE id = 1;
        """

    /// Version 11 to 12 (issue 31, SPEC §11), in one transaction with the version (`PGStore`):
    /// a task's submission state and hand-in time, in its history and held rows; every row's
    /// state is the one its `completed` meant; the trigger function that moves the data mark
    /// and the trigger that clears a print compare the new columns too (the new function moves
    /// the schema mark: no identical re-import is skipped across the upgrade), and every print
    /// is cleared (a row printed before had its `status` column ignored: the next import
    /// compares every row once). The rows are rewritten with the triggers off: the state each
    /// gains is the fact its `completed` said, no one's write, and a trigger that fires for a
    /// statement (`tasks_print_written`, even on no row) would leave the data not clean.
    static let upgradeFrom11 = """
        ALTER TABLE tasks ADD COLUMN status text COLLATE "C" NOT NULL DEFAULT 'open'
            CHECK (status IN ('open', 'submitted', 'completed', 'excused'));
        ALTER TABLE tasks ADD COLUMN submitted_at text COLLATE "C" NOT NULL DEFAULT '';
        ALTER TABLE task_history ADD COLUMN status text COLLATE "C";
        ALTER TABLE task_history ADD COLUMN submitted_at text COLLATE "C";
        ALTER TABLE held_tasks ADD COLUMN status text COLLATE "C" NOT NULL DEFAULT 'open';
        ALTER TABLE held_tasks ADD COLUMN submitted_at text COLLATE "C" NOT NULL DEFAULT '';
        SELECT set_config('dashboard.triggers', 'off', true);
        UPDATE tasks SET status = 'completed' WHERE completed = 1;
        UPDATE task_history SET status = CASE completed WHEN 1 THEN 'completed' WHEN 0 THEN 'open' END, submitted_at = ''
            WHERE existed = 1 OR completed IS NOT NULL;
        UPDATE held_tasks SET status = 'completed' WHERE completed = 1;
        \(tasksUpdated(version: 12).replacingOccurrences(of: "CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION"));
        DROP TRIGGER tasks_print_stale ON tasks;
        \(printStaleTrigger(version: 12));
        UPDATE tasks SET print = NULL WHERE print IS NOT NULL;
        SELECT set_config('dashboard.triggers', 'on', true);
        UPDATE dashboard_schema SET version = 12 WHERE id = 1;
        """

    /// Version 12 to 13 (issue 31, SPEC §11): a teacher may excuse a task by hand (`reclassify
    /// --to excused`), so an override may name `excused`; the constraint keeps the name
    /// PostgreSQL gave it, and every stored override already meets the wider rule.
    static let upgradeFrom12 = """
        ALTER TABLE overrides DROP CONSTRAINT overrides_bucket_check;
        ALTER TABLE overrides ADD CONSTRAINT overrides_bucket_check
            CHECK (bucket IN ('overdue', 'today', 'upcoming', 'undated', 'completed', 'excused'));
        UPDATE dashboard_schema SET version = 13 WHERE id = 1;
        """
}
