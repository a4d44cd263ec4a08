/// What the two engines say differently, one value per engine (`SQLiteStoreSQL`,
/// `PostgreSQLStoreSQL`): the temporary tables' definitions, the statements that differ, and
/// the few ways of working that differ (a COPY instead of INSERT statements, an index kept or
/// dropped during a bulk load). Everything else the store writes once, in the SQL both engines
/// read alike, which the PostgreSQL connection rewrites only mechanically (`PGDialect`: `?NNN`
/// parameters, `LIMIT -1`).
///
/// The store asks `database.sql` and never which engine it is: the one place that maps an
/// engine to its value is `Database.sql`, in this folder, so that `grep` finds no engine branch
/// in the store outside it (docs/architecture.md).
protocol StoreSQL: Sendable {
    // MARK: Temporary tables (each created if missing and emptied)

    /// The staging tables of an import run: `stage_courses`, `stage_files`, `stage_tasks`,
    /// `rejected_ids`, `plan_courses`, `plan_tasks` (and on PostgreSQL `stage_tasks_incoming`,
    /// where its COPY lands before rows are staged).
    var stagingTables: String { get }
    /// `stage_buckets`: the buckets computed for staged tasks.
    var stagedBucketsTable: String { get }
    /// `bucket_changes`: the reclassifications of one pass before they are written.
    var bucketChangesTable: String { get }
    /// `unseen_tasks`: the live tasks an import did not find unchanged.
    var unseenTasksTable: String { get }

    // MARK: Writing many tasks

    /// Rows written at once: an INSERT statement's on SQLite, a COPY's on PostgreSQL.
    var taskRowsPerFlush: Int { get }
    /// True when tasks are written by COPY (PostgreSQL), false by INSERT statements of many rows.
    var copiesTasks: Bool { get }
    /// Before a bulk insert into `tasks`: drops `tasks_by_course` where a build afterwards costs
    /// less than scattered index inserts (SQLite).
    func dropCourseIndexBeforeLoad(_ database: Database) throws
    /// Builds `tasks_by_course` when it is missing.
    func buildCourseIndex(_ database: Database) throws
    /// True when the first import's writer builds the course index after its rows whichever path
    /// wrote them (PostgreSQL creates its database without it).
    var buildsCourseIndexAfterFirstImport: Bool { get }
    /// Suspends the user triggers of `tasks` for the run's COPY, when this engine and role can;
    /// true when it did (`LiveRows.resumeTaskTriggers` ends it).
    func suspendTaskTriggers(_ database: Database) throws -> Bool
    /// Gathers the planner's statistics after a first import, where the engine needs them.
    func analyzeFirstImport(_ database: Database) throws
    /// True when an import that skips unchanged rows reads every live print at once
    /// (`LivePrints`) instead of looking each row up by its id.
    var readsLivePrintsAtOnce: Bool { get }
    /// True when an import that skips unchanged rows must lock `tasks` against other writers
    /// first (PostgreSQL; SQLite's writer already holds the only write lock).
    var locksTasksForSkip: Bool { get }

    // MARK: Reading

    /// `column` (a `course_id` of `tasks`) in a grouping or order that the planner must not walk
    /// through `tasks_by_course` (SQLite's `+course_id`).
    func unindexed(_ column: String) -> String
    /// Each audit entry's reverting entries, as a comma-separated list (`a` the entry).
    var revertedByList: String { get }
    /// The test that a task's course (`t.course_id`) is in a JSON array bound as parameter `n`.
    func courseInJSONArray(parameter n: Int) -> String
    /// A search word's test of a task's title `t.title` (its `LIKE` pattern bound as parameter
    /// `like`): true when the title holds the word, or when only Swift can tell (a title that is
    /// not ASCII, a fold not stored yet); with `folds` (`keepsTitleFolds`) by the stored fold,
    /// whose bytes it appends to `values`.
    func titleTest(like: Int, word: String, folds: Bool, values: inout [SQLBindable]) -> String
    /// A number that moves when the schema does (`DataMarks.schemaMark`).
    var schemaMarkSQL: String { get }
    /// The page cache to restore after a large sort, after lowering it for the sort (SQLite);
    /// nil when the engine has none to lower.
    func lowerCacheForSort(_ database: Database) throws -> Int?
    /// True when the report's temporary keys live on the connection itself (SQLite); false when
    /// they go to a scratch SQLite file (PostgreSQL).
    var keepsReportKeysInItself: Bool { get }
    /// The role when the connection reads under row-level security (a teacher's role on
    /// PostgreSQL), else nil.
    func restrictedRole(_ database: Database) throws -> String?
    /// The bytes the database takes on its disk, or nil when it has no file.
    func databaseBytes(_ database: Database) throws -> Int?

    // MARK: What the schema keeps

    /// True when the database keeps title folds (`TitleFolds`: SQLite at schema 10 or later).
    func keepsTitleFolds(_ database: Database) throws -> Bool
    /// True when the database keeps row prints and slots (`RowPrints`: schema 9 or later).
    func keepsRowPrints(_ database: Database) throws -> Bool
    /// The number of triggers of `names` on `tasks` that are there (and enabled).
    func tasksTriggersPresent(_ database: Database, names: [String]) throws -> Int
    /// A new audit group id (`AuditLog.nextGroupID`).
    func nextGroupID(_ database: Database) throws -> Int

    // MARK: Verifying

    /// The whole-file check before the rules: SQLite's integrity check; PostgreSQL's schema,
    /// whole. False when the rules cannot run (a table is missing).
    func checkStructure(_ database: Database, _ found: (VerificationProblem) throws -> Void) throws -> Bool
    /// The tables whose references are checked, by name.
    var tableNamesSQL: String { get }
    /// The references of `table`: (parent table, column, parent column).
    func references(_ database: Database, _ table: String) throws -> [(parent: String, column: String, target: String)]
    /// The primary key's columns of the table bound as the one parameter, in key order.
    var primaryKeyColumnsSQL: String { get }
    /// A row's identity when its table has no primary key.
    var rowIdentity: String { get }
    /// The SQL of a value as SQLite's `quote` shows it: text quoted, a number as it is, NULL.
    func shown(_ column: String) -> String
    /// A condition true when `column` holds a value of another type than `type` (SQLite stores
    /// any type in any column; PostgreSQL's typed columns hold only theirs).
    func typeIsNot(_ type: String, _ column: String) -> String
    /// An expression true when `column` holds text.
    func isText(_ column: String) -> String
}

extension Database {
    /// This connection's engine's SQL: the one place an engine is mapped to its value.
    var sql: any StoreSQL {
        switch dialect {
        case .sqlite: return SQLiteStoreSQL()
        case .postgres: return PostgreSQLStoreSQL()
        }
    }
}
