import Foundation
import PostgresTestSupport
import Testing

@testable import DashboardCore

/// Which store the store suites run against: SQLite files (the default), or PostgreSQL
/// databases on this test process's throwaway server (`DASHBOARD_TEST_STORE=postgresql`: the
/// PostgreSQL pass of `make test`, docs/postgresql.md). A suite that opens its store through
/// `make` runs on both; one about SQLite files themselves opens `Store(path:)`; one about SQLite
/// itself runs in the SQLite pass only (`.sqliteOnly(_:)`).
///
/// The helpers below read or write what a test needs in each engine's own words, so that a
/// test checks the same thing on both stores: SQLite's PRAGMAs and `sqlite_master` on a file,
/// PostgreSQL's catalogs and the schema's triggers (`PGSchema`) on a database.
enum TestStore {
    static let isPostgres = ProcessInfo.processInfo.environment["DASHBOARD_TEST_STORE"] == "postgresql"

    /// The columns of `table` a comparison of data reads: all of them but the fingerprint and
    /// slot an import keeps with each task (`RowPrints`: derived from the rows it read, cleared
    /// by any other writer, given again by the next import) and its title's fold (`TitleFolds`:
    /// derived from the title, kept by SQLite only; `TitleFoldTests` checks it).
    static func dataColumns(_ table: String) -> String {
        table == "tasks" ? taskDataColumns : "*"
    }
    static let taskDataColumns =
        "task_id, course_id, title, student_id, due, priority, completed, deleted_batch, changed_batch, bucket, assignment_id, created_batch, status, submitted_at"

    /// A new store: the SQLite file at `path`, or a new PostgreSQL database.
    static func make(_ path: String) throws -> Store {
        StorePass.opened("a store of TestStore.make")
        guard isPostgres else { return try Store(path: path) }
        let server = try PostgresTestServer.shared()
        let name = try server.database()
        guard case .postgres(let uri) = DatabaseLocation(server.url(name)) else { return try Store(path: path) }
        return try Store(postgres: uri, create: true)
    }

    // MARK: - Other connections

    /// The store as another process reads it, as `dashboard report` opens it: the SQLite file
    /// read-only, or a connection of its own to the PostgreSQL database (the test server's
    /// URI holds no password, so `store.path` names it whole).
    static func reader(_ store: Store) throws -> Store {
        guard store.postgres != nil else { return try Store(readOnlyPath: store.path) }
        return try Store(postgres: store.path, create: false)
    }

    /// The store opened again for writing, as a second dashboard process opens it.
    static func reopen(_ store: Store, busyTimeout: Double = 0) throws -> Store {
        guard store.postgres != nil else { return try Store(path: store.path, busyTimeout: busyTimeout) }
        return try Store(postgres: store.path, busyTimeout: busyTimeout, create: false)
    }

    /// Another connection to the store's database, as the sqlite3 shell or psql would be: its
    /// writes fire the triggers, and it is not the dashboard.
    static func shell(_ store: Store) throws -> Database {
        guard store.postgres != nil else { return try Database(path: store.path, mode: .readWrite) }
        return try Store(postgres: store.path, create: false).database
    }

    /// Another connection that holds the writers' lock until it runs `ROLLBACK`: SQLite's
    /// `BEGIN IMMEDIATE` on the file; on PostgreSQL the writers' advisory lock taken in an open
    /// transaction (`PGSession.writerLock`), as a dashboard writer holds it.
    static func holdWriterLock(_ store: Store) throws -> Database {
        let holder = try shell(store)
        switch holder.dialect {
        case .sqlite: try holder.execute("BEGIN IMMEDIATE")
        case .postgres: try holder.execute("BEGIN; SELECT pg_advisory_xact_lock(\(PGSession.writerLock))")
        }
        return holder
    }

    // MARK: - Writes the dashboard would refuse

    /// Lets `database`'s writes name rows that do not exist (a task whose course is missing, an
    /// override of an entry no one wrote): SQLite's `PRAGMA foreign_keys = OFF` on that
    /// connection; on PostgreSQL every check of a reference is disabled in the database: the
    /// triggers that check the references of `tasks` (`PGSchema.taskReferences`) and those of
    /// its declared foreign keys (the server's user is a superuser and owns the tables). The
    /// triggers that keep the marks and counts keep running, as SQLite's do.
    static func allowMissingReferences(_ database: Database) throws {
        guard database.dialect == .postgres else { return try database.execute("PRAGMA foreign_keys = OFF") }
        let checks = try database.rows(
            """
            SELECT c.relname, t.tgname FROM pg_trigger t
            JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_proc p ON p.oid = t.tgfoid
            WHERE n.nspname = current_schema()
              AND (t.tgconstraint IN (SELECT oid FROM pg_constraint WHERE contype = 'f')
                   OR p.proname IN ('dashboard_tasks_refer', 'dashboard_courses_referred', 'dashboard_batches_referred'))
            ORDER BY 1, 2
            """)
        for check in checks {
            try database.execute("ALTER TABLE \(quoted(check[0].text ?? "")) DISABLE TRIGGER \(quoted(check[1].text ?? ""))")
        }
    }

    /// Runs a hand edit that SQLite's CHECK constraints would refuse (a due that is no date, an
    /// override's end that is no date) with them off, as `PRAGMA ignore_check_constraints`
    /// lets the sqlite3 shell; PostgreSQL's columns check only what its schema checks, so there
    /// it runs as it is (a value its types or CHECKs refuse fails the test).
    static func executeUnchecked(_ database: Database, _ sql: String) throws {
        guard database.dialect == .sqlite else { return try database.execute(sql) }
        try database.execute("PRAGMA ignore_check_constraints = ON; \(sql); PRAGMA ignore_check_constraints = OFF;")
    }

    // MARK: - The schema

    /// The tables of the database, in byte order of their names: SQLite's `sqlite_master`
    /// (its own `sqlite_sequence` among them), PostgreSQL's `pg_tables` of the schema.
    static func tables(_ database: Database) throws -> [String] {
        let sql =
            database.dialect == .sqlite
            ? "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            : "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename COLLATE \"C\""
        return try database.rows(sql).compactMap { $0.first?.text }
    }

    /// The engine's own tables beside the dashboard's: SQLite's `sqlite_sequence`, PostgreSQL's
    /// `dashboard_schema` (the version and mark that SQLite keeps in its header).
    static func bookkeepingTables(_ database: Database) -> [String] {
        database.dialect == .sqlite ? ["sqlite_sequence"] : ["dashboard_schema"]
    }

    /// The columns of `table`, in their order.
    static func columns(_ database: Database, _ table: String) throws -> [String] {
        let sql =
            database.dialect == .sqlite
            ? "SELECT name FROM pragma_table_info(?) ORDER BY cid"
            : """
            SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?
            ORDER BY ordinal_position
            """
        return try database.rows(sql, [table]).compactMap { $0.first?.text }
    }

    /// The schema itself, one row per object (`type, name, table, definition`) in order:
    /// SQLite's `sqlite_master` (without root pages, which depend on the order of writes); on
    /// PostgreSQL the tables, indexes and triggers (each trigger's definition and whether it
    /// is enabled) of the schema.
    static func schema(_ database: Database) throws -> [[SQLValue]] {
        guard database.dialect == .postgres else {
            return try database.rows("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
        }
        return try database.rows(
            """
            SELECT kind, name, tbl, definition FROM (
                SELECT 'table' AS kind, tablename::text AS name, tablename::text AS tbl, '' AS definition
                FROM pg_tables WHERE schemaname = current_schema()
                UNION ALL
                SELECT 'index', indexname::text, tablename::text, indexdef FROM pg_indexes WHERE schemaname = current_schema()
                UNION ALL
                SELECT 'trigger', t.tgname::text, c.relname::text, pg_get_triggerdef(t.oid) || ' ' || t.tgenabled::text
                FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = current_schema() AND NOT t.tgisinternal
            ) s ORDER BY kind COLLATE "C", name COLLATE "C"
            """)
    }

    /// Whether the database has the index `name`.
    static func hasIndex(_ database: Database, _ name: String) throws -> Bool {
        let sql =
            database.dialect == .sqlite
            ? "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?"
            : "SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ?"
        return try database.int(sql, [name]) == 1
    }

    /// The temporary tables, indexes and triggers this connection holds: SQLite's
    /// `temp.sqlite_master`; on PostgreSQL the relations of the session's own temporary schema
    /// (`pg_my_temp_schema()`: none before the session makes one).
    static func temporaryObjects(_ database: Database) throws -> Int {
        let sql =
            database.dialect == .sqlite
            ? "SELECT count(*) FROM temp.sqlite_master"
            : "SELECT count(*) FROM pg_class WHERE relnamespace = pg_my_temp_schema()"
        return try database.int(sql)
    }

    /// A number that moves when the schema changes: SQLite's `PRAGMA schema_version`; on
    /// PostgreSQL what the store records in its place (`DataMarks.schemaMark`: a hash of the
    /// triggers that keep the marks).
    static func schemaCookie(_ database: Database) throws -> Int {
        try DataMarks.schemaMark(database)
    }

    /// How far a direct first import moves `schemaCookie`: SQLite drops `tasks_by_course` and
    /// builds it again (two schema changes); PostgreSQL never drops it
    /// (`StoreSQL.dropCourseIndexBeforeLoad`: it would lock out readers) and changes no trigger.
    static func directWriteSchemaChanges(_ database: Database) -> Int {
        database.dialect == .sqlite ? 2 : 0
    }

    // MARK: - Consistency

    /// What is wrong with the database as a whole, in the engine's words (empty when nothing
    /// is): SQLite's `PRAGMA integrity_check` (any answer but the one row "ok") and `PRAGMA
    /// foreign_key_check`. PostgreSQL keeps its pages whole itself (no statement checks them),
    /// so there the schema is checked whole (every table and trigger present and enabled:
    /// `PostgreSQLStoreSQL.checkStructure`), and every reference, declared or checked by a trigger
    /// (`Verifier.foreignKeys`), as `dashboard verify` checks them.
    static func consistencyProblems(_ database: Database) throws -> [String] {
        guard database.dialect == .postgres else {
            let integrity = try database.rows("PRAGMA integrity_check")
            let damage = integrity == [[.text("ok")]] ? [] : integrity.map { row in row.map { $0.text ?? "NULL" }.joined(separator: "|") }
            let references = try database.rows("PRAGMA foreign_key_check").map { row in
                row.map { $0.text ?? "NULL" }.joined(separator: "|")
            }
            // Slots are unique among the tasks (`UnchangedRows` marks skipped rows by slot).
            let slots =
                try RowPrints.kept(database)
                ? try database.rows("SELECT slot FROM tasks WHERE slot IS NOT NULL GROUP BY slot HAVING count(*) > 1").map {
                    "tasks slot \($0.first?.text ?? "") is given twice"
                } : []
            return damage + references + slots
        }
        var problems: [String] = []
        let record: (VerificationProblem) -> Void = { problems.append("\($0.table) \($0.key) \($0.column) \($0.value): \($0.rule)") }
        guard try PostgreSQLStoreSQL().checkStructure(database, record) else { return problems }
        try Verifier.foreignKeys(database, record)
        return problems
    }

    // MARK: - SQL both engines read

    /// The SQL of SQLite's `typeof(column)` (`integer`, `text`, `null`, `real`, `blob`); on
    /// PostgreSQL the storage class SQLite would give the column's value: its columns hold one
    /// type each (`bigint` is an integer).
    static func typeOf(_ column: String, _ database: Database) -> String {
        guard database.dialect == .postgres else { return "typeof(\(column))" }
        return """
            CASE WHEN \(column) IS NULL THEN 'null' WHEN pg_typeof(\(column)) IN ('bigint'::regtype, 'integer'::regtype) THEN 'integer'
            WHEN pg_typeof(\(column)) = 'text'::regtype THEN 'text' ELSE CAST(pg_typeof(\(column)) AS text) END
            """
    }

    private static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}

extension Trait where Self == ConditionTrait {
    /// A test about SQLite itself (its query planner, values only its CHECK constraints turned
    /// off let a hand edit store), as the end-to-end suites' `.sqliteFiles`: it runs in the
    /// SQLite pass; `reason` says why, and what PostgreSQL has instead.
    static func sqliteOnly(_ reason: Comment) -> Self { .enabled(if: !TestStore.isPostgres, reason) }
}

extension Trait where Self == ConditionTrait {
    /// A test of what only the PostgreSQL store has, as the end-to-end suites' `.postgresPass`:
    /// it runs in the PostgreSQL pass.
    static var postgresPass: Self { .enabled(if: TestStore.isPostgres, "about the PostgreSQL store: runs in the PostgreSQL pass") }
}
