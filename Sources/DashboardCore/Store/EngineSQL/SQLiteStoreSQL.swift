import CSQLite
import Foundation

/// SQLite's side of `StoreSQL`: temporary tables `WITHOUT ROWID` where a key orders them,
/// INSERT statements of many rows, `tasks_by_course` dropped during a bulk load and built again
/// with a smaller cache, the planner kept off that index with `+course_id`, and the schema's
/// own catalogue (`sqlite_schema`, `pragma_…`).
struct SQLiteStoreSQL: StoreSQL {
    // MARK: Temporary tables

    var stagingTables: String {
        """
        CREATE TEMP TABLE IF NOT EXISTS stage_courses (
            course_id TEXT NOT NULL PRIMARY KEY, code TEXT NOT NULL, title TEXT NOT NULL,
            term TEXT NOT NULL, teacher TEXT NOT NULL, timezone TEXT NOT NULL, teacher_email TEXT NOT NULL DEFAULT '',
            language TEXT NOT NULL DEFAULT '',
            file TEXT NOT NULL, line INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TEMP TABLE IF NOT EXISTS stage_files (
            file_no INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE);
        CREATE TEMP TABLE IF NOT EXISTS stage_tasks (
            task_id TEXT NOT NULL PRIMARY KEY, course_id TEXT NOT NULL, title TEXT NOT NULL,
            student_id TEXT NOT NULL, due TEXT NOT NULL, priority TEXT NOT NULL, completed INTEGER NOT NULL,
            assignment_id TEXT NOT NULL DEFAULT '', status TEXT NOT NULL DEFAULT 'open', submitted_at TEXT NOT NULL DEFAULT '',
            file_no INTEGER NOT NULL, line INTEGER NOT NULL, bucket TEXT NOT NULL DEFAULT '',
            seq INTEGER NOT NULL DEFAULT 0, print BLOB) WITHOUT ROWID;
        CREATE TEMP TABLE IF NOT EXISTS rejected_ids (
            kind TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (kind, id)) WITHOUT ROWID;
        CREATE TEMP TABLE IF NOT EXISTS plan_courses (
            course_id TEXT NOT NULL PRIMARY KEY, change TEXT NOT NULL) WITHOUT ROWID;
        CREATE TEMP TABLE IF NOT EXISTS plan_tasks (
            task_id TEXT NOT NULL PRIMARY KEY, change TEXT NOT NULL) WITHOUT ROWID;
        DELETE FROM stage_courses; DELETE FROM stage_tasks; DELETE FROM plan_courses; DELETE FROM plan_tasks;
        DELETE FROM rejected_ids;
        """
    }

    var stagedBucketsTable: String {
        "CREATE TEMP TABLE IF NOT EXISTS stage_buckets (task_id TEXT NOT NULL PRIMARY KEY, bucket TEXT NOT NULL) WITHOUT ROWID"
    }

    var bucketChangesTable: String {
        """
        CREATE TEMP TABLE IF NOT EXISTS bucket_changes (
            task_id TEXT NOT NULL PRIMARY KEY, course_id TEXT NOT NULL, from_bucket TEXT NOT NULL, to_bucket TEXT NOT NULL,
            cause TEXT NOT NULL, reason TEXT NOT NULL, conflict INTEGER NOT NULL, override_before INTEGER,
            clear_override INTEGER NOT NULL, with_batch INTEGER NOT NULL) WITHOUT ROWID;
        DELETE FROM bucket_changes;
        """
    }

    var unseenTasksTable: String {
        """
        CREATE TEMP TABLE IF NOT EXISTS unseen_tasks (task_id TEXT NOT NULL PRIMARY KEY) WITHOUT ROWID;
        DELETE FROM unseen_tasks;
        """
    }

    /// A page of a report's keys (`SQLitePageKeys`; on PostgreSQL in a scratch SQLite file).
    static let reportPageTable = "CREATE TEMP TABLE report_page (k BLOB NOT NULL, task_id TEXT NOT NULL)"

    /// A report's course results, `columns` after the sort key (`SQLiteCourseResults`).
    static func reportCoursesTable(_ table: String, columns: [String]) -> String {
        "CREATE TEMP TABLE \(table) (k BLOB NOT NULL, \(columns.joined(separator: ", ")))"
    }

    // MARK: Writing many tasks

    /// Rows per INSERT statement (one statement per row costs more than the row itself).
    var taskRowsPerFlush: Int { 128 }
    var copiesTasks: Bool { false }

    /// Not on PostgreSQL (`PostgreSQLStoreSQL`): there dropping an index locks out readers.
    func dropCourseIndexBeforeLoad(_ database: Database) throws {
        try database.execute("DROP INDEX IF EXISTS main.tasks_by_course")
    }

    /// With a smaller page cache while it sorts: SQLite's sorter takes runs as large as the
    /// cache and, past 16 runs (about 7,000,000 tasks with the writer's 12 MiB), merges them in
    /// levels that each hold buffers of their own, on top of the cache. A 4 MiB cache keeps a
    /// 10,000,000-task import within the memory of a 1,000,000-task one (docs/performance.md).
    func buildCourseIndex(_ database: Database) throws {
        let cache = try database.int("PRAGMA main.cache_size")
        try database.execute("PRAGMA main.cache_size = -4096")
        defer { try? database.execute("PRAGMA main.cache_size = \(cache)") }
        try database.execute("CREATE INDEX IF NOT EXISTS main.tasks_by_course ON tasks(course_id)")
    }

    /// The writers that drop the index build it again themselves.
    var buildsCourseIndexAfterFirstImport: Bool { false }
    /// SQLite's writer turns its connection's triggers off instead (`Database.setTriggersEnabled`).
    func suspendTaskTriggers(_ database: Database) throws -> Bool { false }
    /// SQLite plans without statistics of its own here.
    func analyzeFirstImport(_ database: Database) throws {}
    /// A lookup by the primary key per row costs less than reading every print first.
    var readsLivePrintsAtOnce: Bool { false }
    var locksTasksForSkip: Bool { false }

    // MARK: Reading

    /// `+course_id` keeps the planner from walking `tasks_by_course` for a grouping or order (a
    /// row lookup per task in course order: 2.4 s a million tasks; docs/performance.md).
    func unindexed(_ column: String) -> String { "+" + column }

    var revertedByList: String { "(SELECT group_concat(r.entry_id) FROM audit r WHERE r.reverts_entry = a.entry_id)" }

    func courseInJSONArray(parameter n: Int) -> String { "t.course_id IN (SELECT value FROM json_each(?\(n)))" }

    /// An ASCII title by `LIKE` (SQLite compares ASCII letters in any case), another by `instr`
    /// in its stored fold.
    func titleTest(like: Int, word: String, folds: Bool, values: inout [SQLBindable]) -> String {
        guard folds else { return "t.title LIKE ?\(like) ESCAPE '\\' OR length(t.title) <> length(CAST(t.title AS BLOB))" }
        values.append(SQLValue.blob(Array(word.utf8)))
        return """
            CASE WHEN t.title_fold = X'' THEN t.title LIKE ?\(like) ESCAPE '\\' WHEN t.title_fold IS NULL THEN 1
                 ELSE instr(t.title_fold, ?\(values.count)) > 0 END
            """
    }

    var schemaMarkSQL: String { "PRAGMA schema_version" }

    /// SQLite's sorter keeps up to the connection's page cache in memory before it spills: 2 MiB
    /// for a sort whatever the connection's cache (the writer's is 12 MiB).
    func lowerCacheForSort(_ database: Database) throws -> Int? {
        let cache = try database.int("PRAGMA cache_size")
        guard cache > 2048 || cache < -2048 else { return nil }
        try database.execute("PRAGMA cache_size = -2048")
        return cache
    }

    var keepsReportKeysInItself: Bool { true }

    /// SQLite has no roles: whoever opens the file reads all of it.
    func restrictedRole(_ database: Database) throws -> String? { nil }

    /// The file plus its `-wal` (the pages committed since the last checkpoint; the `-shm` is an
    /// index of the `-wal`, a few pages, not counted), both found where SQLite itself opened them
    /// (a `--db` that is a symbolic link counts its target's files).
    func databaseBytes(_ database: Database) throws -> Int? {
        guard let handle = database.sqliteHandle, let name = sqlite3_db_filename(handle, "main") else { return nil }
        let path = String(cString: name)
        var info = stat()
        guard !path.isEmpty, stat(path, &info) == 0 else { return nil }
        var total = Int(info.st_size)
        if stat(path + "-wal", &info) == 0 { total += Int(info.st_size) }
        return total
    }

    // MARK: What the schema keeps

    func keepsTitleFolds(_ database: Database) throws -> Bool {
        try database.int("SELECT count(*) FROM pragma_table_info('tasks') WHERE name = 'title_fold'") == 1
    }

    func keepsRowPrints(_ database: Database) throws -> Bool {
        try database.int("SELECT count(*) FROM pragma_table_info('tasks') WHERE name IN ('print', 'slot')") == 2
    }

    func tasksTriggersPresent(_ database: Database, names: [String]) throws -> Int {
        let list = names.map { "'\($0)'" }.joined(separator: ", ")
        return try database.int("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name IN (\(list))")
    }

    func nextGroupID(_ database: Database) throws -> Int {
        try database.int("SELECT coalesce(max(group_id), 0) + 1 FROM audit WHERE group_id IS NOT NULL")
    }
}
