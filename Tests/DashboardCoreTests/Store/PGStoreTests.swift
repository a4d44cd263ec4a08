import Foundation
import PostgresTestSupport
import Testing

@testable import DashboardCore

/// The PostgreSQL store's schema, its checks at open, and `StoreCopy`, against a real server
/// (`PostgresTestServer`: a throwaway one, stopped when the tests end).
@Suite("PostgreSQL: schema, open and copy")
struct PGStoreTests {
    // MARK: - Without a server

    @Test("every copied table has SQLite's columns, in SQLite's order")
    func columnsMirrorSQLite() throws {
        let fixture = try ImporterFixture(sqlite: true)
        for table in PGSchema.tables {
            // Less what only SQLite keeps: the titles' folds (`TitleFolds`).
            let sqliteOnly = TitleFolds.columns.map(\.column)
            let sqlite = try fixture.store.database.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [table.name])
                .compactMap { $0.first?.text }.filter { table.name != "tasks" || !sqliteOnly.contains($0) }
            #expect(table.columns == sqlite, "\(table.name)")
            // A copy between the stores moves all but the import's fingerprints of tasks (`RowPrints`).
            let copied = sqlite.filter { table.name != "tasks" || !["print", "slot"].contains($0) }
            #expect(table.copiedColumns.map(\.name) == copied, "\(table.name)")
        }
        // Every SQLite table is in the PostgreSQL schema (SQLite's own sqlite_sequence aside).
        let names = try fixture.store.database.rows(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        ).compactMap { $0.first?.text }
        #expect(Set(PGSchema.tables.map(\.name)) == Set(names))
    }

    @Test(
        "a URI is named without its password",
        arguments: [
            ("postgresql://ann:s3cret@db.example.org:5433/district", "postgresql://ann@db.example.org:5433/district"),
            ("postgres://ann@db/x?password=s3cret&sslmode=require", "postgres://ann@db/x?sslmode=require"),
            ("postgresql://ann:p%40ss@db/x?PASSWORD=y", "postgresql://ann@db/x"),
            ("postgresql:///x?host=/tmp/sock&port=5432", "postgresql:///x?host=/tmp/sock&port=5432"),
            ("postgresql://a:b@c@host/x", "postgresql://a@host/x"),
        ])
    func redacted(uri: String, shown: String) {
        #expect(DatabaseLocation(uri).display == shown)
        #expect(DatabaseLocation(uri) == .postgres(uri: uri))
    }

    @Test("only postgresql:// and postgres:// select PostgreSQL; anything else is a SQLite path")
    func locations() {
        #expect(DatabaseLocation("POSTGRESQL://x/y") == .postgres(uri: "POSTGRESQL://x/y"))
        #expect(DatabaseLocation("dashboard.sqlite") == .sqlite(path: "dashboard.sqlite"))
        #expect(DatabaseLocation("postgresql:x") == .sqlite(path: "postgresql:x"))
        #expect(DatabaseLocation("./postgres://x") == .sqlite(path: "./postgres://x"))
    }

    // MARK: - Open

    /// Issue 32: the PostgreSQL pass of `make test` runs where districts' servers run, on a
    /// collation that is not byte order (`DASHBOARD_TEST_PG_LOCALE`, en_US.UTF-8 from the Makefile).
    @Test(
        "the test server's databases collate by the locale the pass asked for",
        .enabled(if: !(ProcessInfo.processInfo.environment["DASHBOARD_TEST_PG_LOCALE"] ?? "").isEmpty))
    func serverCollation() throws {
        let server = try PostgresTestServer.shared()
        let name = try server.database()
        let collation = try server.psql(name, "SELECT datcollate FROM pg_database WHERE datname = current_database()").stdout
        #expect(collation == PostgresTestServer.locale + "\n")
        // And it is not byte order: 'a' sorts before 'B' there ('B' < 'a' in C).
        #expect(try server.psql(name, "SELECT 'a' < 'B'").stdout == "t\n")
    }

    @Test("an empty database gets the schema once; a reopen changes nothing")
    func creation() throws {
        let server = try PostgresTestServer.shared()
        let name = try server.database()
        let store = try PGStore(uri: server.url(name), create: true)
        #expect(store.schemaVersion == PGSchema.currentVersion)
        let tables = try server.psql(name, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename").stdout
        #expect(tables.split(separator: "\n").map(String.init) == (PGSchema.tables.map(\.name) + ["dashboard_schema"]).sorted())
        _ = try PGStore(uri: server.url(name), create: true)
        #expect(try server.psql(name, "SELECT version, application FROM dashboard_schema").stdout == "13|dashboard\n")
    }

    @Test("a newer version, another application's tables and another mark are refused untouched")
    func refusals() throws {
        let server = try PostgresTestServer.shared()
        let newer = try server.database()
        _ = try PGStore(uri: server.url(newer), create: true)
        _ = try server.psql(newer, "UPDATE dashboard_schema SET version = 99")
        #expect(throws: StoreError.newerSchema(path: DatabaseLocation.redacted(server.url(newer)), found: 99, supported: 13)) {
            _ = try PGStore(uri: server.url(newer), create: true)
        }
        #expect(try server.psql(newer, "SELECT version FROM dashboard_schema").stdout == "99\n")

        let foreign = try server.database()
        _ = try server.psql(foreign, "CREATE TABLE invoices (id int); INSERT INTO invoices VALUES (1)")
        #expect(throws: StoreError.foreign(path: DatabaseLocation.redacted(server.url(foreign)))) {
            _ = try PGStore(uri: server.url(foreign), create: true)
        }
        #expect(
            try server.psql(foreign, "SELECT string_agg(tablename, ',') FROM pg_tables WHERE schemaname = 'public'").stdout
                == "invoices\n")

        let marked = try server.database()
        _ = try PGStore(uri: server.url(marked), create: true)
        _ = try server.psql(marked, "UPDATE dashboard_schema SET application = 'other'")
        #expect(throws: StoreError.foreign(path: DatabaseLocation.redacted(server.url(marked)))) {
            _ = try PGStore(uri: server.url(marked), create: true)
        }

        let empty = try server.database()
        #expect(throws: StoreError.empty(path: DatabaseLocation.redacted(server.url(empty)))) {
            _ = try PGStore(uri: server.url(empty), create: false)
        }
        #expect(try server.psql(empty, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").stdout == "0\n")
    }

    @Test("a server that does not answer is unreadable, named without the password")
    func unreachable() throws {
        let uri = "postgresql://ann:s3cret@127.0.0.1:1/x?connect_timeout=2"
        do {
            _ = try PGStore(uri: uri, create: true)
            Issue.record("connected to nothing")
        } catch {
            guard case .unreadable(let path, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(path == "postgresql://ann@127.0.0.1:1/x?connect_timeout=2")
            #expect(!reason.contains("s3cret") && reason.contains("127.0.0.1"), "\(reason)")
        }
    }

    @Test("the audit log refuses UPDATE, DELETE and TRUNCATE to any role but its owner, even when granted")
    func appendOnlyAudit() throws {
        let server = try PostgresTestServer.shared()
        let name = try server.database()
        _ = try PGStore(uri: server.url(name), create: true)
        let role = "clerk_" + name.suffix(8)
        _ = try server.psql(
            name,
            """
            CREATE ROLE \(role) LOGIN; GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON audit, overrides TO \(role);
            INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor)
            VALUES ('2026-11-29T08:00:00Z', '2026-11-29T08:00:00Z', 'T1', 'C1', 'upcoming', 'today', 'time', 'x')
            """)
        for statement in ["UPDATE audit SET actor = 'y'", "DELETE FROM audit", "TRUNCATE audit CASCADE"] {
            let result = try server.psql(name, statement, user: role)
            #expect(result.status != 0 && result.stderr.contains("the audit log is append-only"), "\(statement): \(result)")
        }
        #expect(try server.psql(name, "SELECT actor FROM audit").stdout == "x\n")
        // The owner (the role that made the schema) may: a migration or a restore needs it.
        #expect(try server.psql(name, "UPDATE audit SET actor = 'z'").status == 0)
    }

    // MARK: - Copy

    /// A SQLite database with every kind of row: two imports (inserts, an update, a delete, a
    /// rejected row), a time move, an override, a setting. An SQLite file in both passes: the
    /// source the copies move into PostgreSQL.
    static func populated() throws -> ImporterFixture {
        let fixture = try ImporterFixture(sqlite: true)
        let tasks1 = """
            task_id,course_id,title,due,completed
            T1,C1,"Essay, part ""1""\tand a tab",2026-11-20,no
            T2,C1,Lab \\ report,2026-11-29,no
            T3,C2,Ünïcödé 日本語,2026-12-05,yes
            T4,C2,Line
            break,,no
            T5,C9,No course,2026-12-01,no
            """
        _ = try? fixture.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", tasks1)])
        let tasks2 = """
            task_id,course_id,title,due,completed
            T1,C1,"Essay, part ""1""\tand a tab",2026-11-20,no
            T2,C1,Lab \\ report (again),2026-11-30,no
            T3,C2,Ünïcödé 日本語,2026-12-05,yes
            """
        var options = ImporterFixture.options(.sync, maxDelete: .percent(100))
        options.asOf = ImporterFixture.asOf.addingTimeInterval(86_400)
        _ = try? fixture.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", tasks2)], options)
        _ = try fixture.store.pinOverride(
            OverrideRequest(
                taskID: "T1", bucket: .upcoming, reason: "extension\nuntil Friday", until: nil, actor: "ann",
                asOf: ImporterFixture.asOf, defaultTimeZone: TimeZone(identifier: "UTC")!, clock: FixedClock(ImporterFixture.asOf)))
        return fixture
    }

    @Test("a copy moves every table, ids kept, and compares each; a second copy into it is refused")
    func copy() throws {
        let server = try PostgresTestServer.shared()
        let fixture = try Self.populated()
        let name = try server.database()
        let source = try Store(readOnlyPath: fixture.path)
        let summary = try StoreCopy.copy(from: source, to: PGStore(uri: server.url(name), create: true))
        #expect(summary.rows.map(\.table) == StoreCopy.tables.map(\.name))
        for (table, rows) in summary.rows {
            let counted = try fixture.store.database.int("SELECT count(*) FROM \(table)")
            #expect(rows == counted, "\(table)")
            #expect(try server.psql(name, "SELECT count(*) FROM \(table)").stdout == "\(counted)\n", "\(table)")
        }
        #expect(summary.rows.first { $0.table == "audit" }!.rows > 0 && summary.rows.first { $0.table == "overrides" }!.rows == 1)
        #expect(summary.rows.first { $0.table == "batch_problems" }!.rows > 0)
        // Text with tabs, quotes, backslashes, line breaks and non-ASCII reads back as it was.
        for id in ["T1", "T2", "T3"] {
            let stored = try fixture.store.database.scalar("SELECT title FROM tasks WHERE task_id = ?", [id])?.text ?? ""
            #expect(try server.psql(name, "SELECT title FROM tasks WHERE task_id = '\(id)'").stdout == stored + "\n")
        }
        #expect(try fixture.store.database.scalar("SELECT title FROM tasks WHERE task_id = 'T2'")?.text?.contains("\\") == true)
        #expect(try server.psql(name, "SELECT reason FROM overrides").stdout == "extension\nuntil Friday\n")
        // New ids continue after the copied ones.
        let maxEntry = try fixture.store.database.int("SELECT max(entry_id) FROM audit")
        #expect(
            try server.psql(
                name,
                """
                INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor)
                VALUES ('x', 'x', 'T9', 'C1', 'today', 'today', 'time', 'x') RETURNING entry_id
                """
            ).stdout == "\(maxEntry + 1)\n")
        _ = try server.psql(name, "DELETE FROM audit WHERE task_id = 'T9'")
        // A second copy into the same database: refused, nothing changed.
        #expect(throws: StoreCopy.Failure.targetNotEmpty(table: "batches", rows: 2)) {
            _ = try StoreCopy.copy(from: source, to: PGStore(uri: server.url(name), create: true))
        }
        #expect(
            try server.psql(name, "SELECT count(*) FROM tasks").stdout
                == "\(try fixture.store.database.int("SELECT count(*) FROM tasks"))\n")
    }

    @Test("a source that breaks a rule of verify is refused before anything is written")
    func sourceWithProblems() throws {
        let server = try PostgresTestServer.shared()
        let fixture = try Self.populated()
        try fixture.store.database.execute("PRAGMA ignore_check_constraints = ON; UPDATE tasks SET due = 'soon' WHERE task_id = 'T1'")
        let name = try server.database()
        do {
            _ = try StoreCopy.copy(from: Store(readOnlyPath: fixture.path), to: PGStore(uri: server.url(name), create: true))
            Issue.record("copied a source with problems")
        } catch let StoreCopy.Failure.sourceHasProblems(problems) {
            #expect(problems.map { "\($0.table) \($0.key) \($0.column)" } == ["tasks T1 due"])
        }
        #expect(try server.psql(name, "SELECT count(*) FROM batches").stdout == "0\n")
    }

    @Test("a copy back into a new SQLite file gives every table again, the kept counts counted afresh, the data unproven")
    func roundTrip() throws {
        let server = try PostgresTestServer.shared()
        let fixture = try Self.populated()
        // A value with every control character COPY escapes, by hand (verify allows it in a reason).
        try fixture.store.database.run("UPDATE overrides SET reason = ?", ["a\u{8}b\tc\nd\u{B}e\u{C}f\rg\\h"])
        let name = try server.database()
        _ = try StoreCopy.copy(from: Store(readOnlyPath: fixture.path), to: PGStore(uri: server.url(name), create: true))
        let back = fixture.directory + "/back.sqlite"
        let summary = try StoreCopy.copy(from: PGStore(uri: server.url(name), create: false), to: Store(path: back))
        #expect(summary.rows.map(\.table) == StoreCopy.tables.map(\.name))
        let copy = try Store(path: back)
        for table in StoreCopy.tables {
            let order = table.key.joined(separator: ", ")
            #expect(
                try copy.database.rows("SELECT \(TestStore.dataColumns(table.name)) FROM \(table.name) ORDER BY \(order)")
                    == fixture.store.database.rows("SELECT \(TestStore.dataColumns(table.name)) FROM \(table.name) ORDER BY \(order)"),
                "\(table.name)")
        }
        // The same counts (the source keeps a zero where a course's last task in a bucket left it).
        #expect(
            try copy.database.rows("SELECT * FROM course_buckets ORDER BY 1, 2")
                == fixture.store.database.rows("SELECT * FROM course_buckets WHERE tasks > 0 ORDER BY 1, 2"))
        #expect(try copy.database.int("SELECT clean FROM data_marks") == 0)
        #expect(try !copy.storedBucketsHold())
        var problems: [VerificationProblem] = []
        try copy.verify { problems.append($0) }
        #expect(problems.isEmpty, "\(problems)")
        // Into a SQLite file with data: refused, the file unchanged.
        #expect(throws: StoreCopy.Failure.targetNotEmpty(table: "batches", rows: 2)) {
            _ = try StoreCopy.copy(from: PGStore(uri: server.url(name), create: false), to: Store(path: fixture.path))
        }
    }

    @Test("COPY's text escapes read back as written, NULL apart from the text \\N")
    func copyText() {
        let values: [String?] = ["plain", nil, "\\N", "tab\there", "a\\b", "\u{8}\u{B}\u{C}\r\n", "", "日本"]
        var line: [UInt8] = []
        for (index, value) in values.enumerated() { PGCopyText.append(value, to: &line, first: index == 0) }
        line.append(0x0A)
        #expect(line.withUnsafeBufferPointer { PGCopyText.fields($0) } == values)
    }
}
