import Testing

@testable import DashboardCore

/// Issue 32: each engine defines the store's temporary tables itself (`StoreSQL`), so the two
/// definitions must agree: every table with the same columns in the same order, each of the
/// same type (SQLite's INTEGER is `bigint`, TEXT `text`, BLOB `bytea`), NOT NULL and key alike;
/// PostgreSQL's text compares in byte order (`COLLATE "C"`, as SQLite's BINARY). Read from the
/// live tables each engine made (SQLite's `pragma_table_info`, PostgreSQL's catalogue), on the
/// store of the pass (SQLite's pass compares SQLite with itself; the PostgreSQL pass, the two).
@Suite("Both engines' temporary tables agree column by column")
struct StoreSQLTemporaryTablesTests {
    /// One column as both engines can describe it.
    struct Column: Equatable, CustomStringConvertible {
        var name: String
        var type: String
        /// NOT NULL, or part of the primary key (SQLite's INTEGER PRIMARY KEY is not declared so).
        var required: Bool
        var key: Bool
        var description: String { "\(name) \(type)\(required ? " NOT NULL" : "")\(key ? " KEY" : "")" }
    }

    static let tables = [
        "stage_courses", "stage_files", "stage_tasks", "rejected_ids", "plan_courses", "plan_tasks", "stage_buckets",
        "bucket_changes", "unseen_tasks",
    ]

    /// SQLite's type names as PostgreSQL spells them.
    static let types = ["INTEGER": "bigint", "TEXT": "text", "BLOB": "bytea"]

    /// Creates every temporary table `sql` defines on `database`.
    static func create(_ sql: any StoreSQL, on database: Database) throws {
        for ddl in [sql.stagingTables, sql.stagedBucketsTable, sql.bucketChangesTable, sql.unseenTasksTable] {
            try database.execute(ddl)
        }
    }

    static func sqliteColumns(_ database: Database, _ table: String) throws -> [Column] {
        try database.rows("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)", [table]).map { row in
            let type = row[1].text ?? ""
            return Column(
                name: row[0].text ?? "", type: types[type] ?? type, required: row[2].integer == 1 || row[3].integer != 0,
                key: row[3].integer != 0)
        }
    }

    /// The columns and, for each text column, its collation ("C" expected).
    static func postgresColumns(_ database: Database, _ table: String) throws -> (columns: [Column], collations: [String: String]) {
        let rows = try database.rows(
            """
            SELECT a.attname::text, format_type(a.atttypid, a.atttypmod), CASE WHEN a.attnotnull THEN 1 ELSE 0 END,
                   coalesce(co.collname::text, ''),
                   CASE WHEN EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary
                                     AND a.attnum = ANY (i.indkey)) THEN 1 ELSE 0 END
            FROM pg_attribute a LEFT JOIN pg_collation co ON co.oid = a.attcollation
            WHERE a.attrelid = to_regclass('pg_temp.' || CAST(? AS text)) AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY a.attnum
            """, [table])
        var collations: [String: String] = [:]
        let columns = rows.map { row -> Column in
            let name = row[0].text ?? ""
            if row[1].text == "text" { collations[name] = row[3].text ?? "" }
            return Column(
                name: name, type: row[1].text ?? "", required: row[2].integer == 1 || row[4].integer == 1, key: row[4].integer == 1)
        }
        return (columns, collations)
    }

    @Test("every temporary table has the same columns, types, NOT NULL and key on the store's engine as SQLite's")
    func temporaryTablesAgree() throws {
        let reference = try Database(path: "")
        try Self.create(SQLiteStoreSQL(), on: reference)
        let store = try TestStore.make(TestFolders.path("temporary-tables") + ".sqlite")
        try Self.create(store.database.sql, on: store.database)
        var compared = 0
        for table in Self.tables {
            let expected = try Self.sqliteColumns(reference, table)
            #expect(expected.count >= 1, "\(table): SQLite made it")
            let found: [Column]
            if TestStore.isPostgres {
                let (columns, collations) = try Self.postgresColumns(store.database, table)
                found = columns
                for (column, collation) in collations.sorted(by: { $0.key < $1.key }) {
                    #expect(collation == "C", "\(table).\(column) compares by \(collation), not in byte order")
                }
            } else {
                found = try Self.sqliteColumns(store.database, table)
            }
            #expect(found == expected, "\(table): \(found) against SQLite's \(expected)")
            compared += expected.count
        }
        #expect(compared >= 40, "\(compared) columns compared (46 on 2026-12-06)")
    }

    @Test("PostgreSQL's COPY lands in a table of stage_tasks' columns, in its order and types", .postgresPass)
    func incomingRowsMatchTheStagedOnes() throws {
        let store = try TestStore.make(TestFolders.path("incoming") + ".sqlite")
        try Self.create(store.database.sql, on: store.database)
        let staged = try Self.postgresColumns(store.database, "stage_tasks").columns.map { [$0.name, $0.type] }
        let incoming = try Self.postgresColumns(store.database, "stage_tasks_incoming").columns.map { [$0.name, $0.type] }
        #expect(staged.count == 15)
        #expect(incoming == staged)
    }
}
