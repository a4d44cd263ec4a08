import DashboardCore
import Foundation
import PostgresTestSupport
import Testing

/// Which store the end-to-end suites run against: SQLite files (the default), or PostgreSQL
/// databases on this test process's throwaway server (`DASHBOARD_TEST_STORE=postgresql`: the
/// second pass of `make test`, docs/postgresql.md).
///
/// In the PostgreSQL pass the suites run unchanged: every database a command names (`--db
/// NAME`, `DASHBOARD_DB=NAME`, or the default `dashboard.sqlite`) stands for a PostgreSQL
/// database of its own, created empty the first time a command of the test names it (an
/// empty database is what a missing file is to SQLite: no data yet). The command gets the
/// database's URI; what it prints gets the name back where it names the URI, so that outputs,
/// exit codes and goldens are compared byte for byte with what the SQLite store must print.
/// A test that reads the database (`DatabaseSnapshot`) reads the PostgreSQL one through
/// DashboardCore's own connection.
enum StoreUnderTest {
    /// The dashboard writers' advisory lock ("dashbord" in ASCII, `PGSession.writerLock`).
    static let writerLock: Int64 = 0x6461_7368_626F_7264

    /// True in the PostgreSQL pass.
    static let isPostgres = ProcessInfo.processInfo.environment["DASHBOARD_TEST_STORE"] == "postgresql"

    private static let lock = NSLock()
    /// The PostgreSQL database of each database path (absolute, standardized).
    nonisolated(unsafe) private static var databases: [String: String] = [:]

    /// The URI that stands for the database at `path` (created on first use).
    static func uri(forPath path: String) throws -> String {
        let server = try PostgresTestServer.shared()
        let key = URL(fileURLWithPath: path).standardizedFileURL.path
        lock.lock()
        defer { lock.unlock() }
        if let name = databases[key] { return server.url(name) }
        let name = try server.database()
        databases[key] = name
        return server.url(name)
    }

    /// The PostgreSQL pass's copy of a database file (`copyDatabase`): the database at
    /// `destination` becomes a new database cloned from the one at `source`.
    static func copyDatabase(_ source: String, to destination: String) throws {
        let server = try PostgresTestServer.shared()
        let (from, to) = (URL(fileURLWithPath: source).standardizedFileURL.path, URL(fileURLWithPath: destination).standardizedFileURL.path)
        lock.lock()
        defer { lock.unlock() }
        guard let template = databases[from] else { throw HarnessError("no PostgreSQL database stands for \(source)") }
        databases[to] = try server.database(template: template)
    }

    /// The PostgreSQL pass's rename of a database file: the database of `source` now stands for
    /// `destination`, and `source` names none.
    static func moveDatabase(_ source: String, to destination: String) throws {
        let (from, to) = (URL(fileURLWithPath: source).standardizedFileURL.path, URL(fileURLWithPath: destination).standardizedFileURL.path)
        lock.lock()
        defer { lock.unlock() }
        guard let name = databases.removeValue(forKey: from) else { throw HarnessError("no PostgreSQL database stands for \(source)") }
        databases[to] = name
    }

    /// Lets `path` stand for the PostgreSQL database `name` (a test that made one itself reads
    /// it through the helpers that take a path).
    static func register(_ path: String, database name: String) throws {
        let key = URL(fileURLWithPath: path).standardizedFileURL.path
        lock.lock()
        defer { lock.unlock() }
        databases[key] = name
    }

    /// The URI of the database at `path` if a command named it already.
    static func knownURI(forPath path: String) -> String? {
        let key = URL(fileURLWithPath: path).standardizedFileURL.path
        lock.lock()
        defer { lock.unlock() }
        guard let name = databases[key], let server = try? PostgresTestServer.shared() else { return nil }
        return server.url(name)
    }

    /// A command's arguments and environment with every database named by a path given its
    /// PostgreSQL database, and the replacements that give its outputs the names back.
    static func prepare(_ arguments: [String], environment: [String: String], directory: URL) throws -> (
        arguments: [String], environment: [String: String], replacements: [(String, String)]
    ) {
        guard isPostgres else { return (arguments, environment, []) }
        var replacements: [(String, String)] = []
        let (arguments, environment) = try mapDatabases(arguments, environment: environment, directory: directory) { value, absolute in
            let uri = try uri(forPath: absolute)
            replacements.append((DatabaseLocation(uri).display, value))
            return uri
        }
        return (arguments, environment, replacements)
    }

    /// The SQLite files a command names (absolute paths): what `prepare` would give PostgreSQL
    /// databases in the PostgreSQL pass (`StorePass`: a command of a `.storeIndependent` test
    /// must leave none behind).
    static func namedDatabaseFiles(_ arguments: [String], environment: [String: String], directory: URL) -> [String] {
        var files: [String] = []
        _ = mapDatabases(arguments, environment: environment, directory: directory) { value, absolute in
            files.append(absolute)
            return value
        }
        return files
    }

    /// `arguments` and `environment` with each database a command names by a path (`--db NAME`,
    /// `--db=NAME`, else `DASHBOARD_DB`, else the default `dashboard.sqlite`) replaced by what
    /// `map` gives for it (the value as given, and its absolute path).
    private static func mapDatabases(
        _ arguments: [String], environment: [String: String], directory: URL, _ map: (String, String) throws -> String
    ) rethrows -> ([String], [String: String]) {
        var arguments = arguments
        var environment = environment
        func mapped(_ value: String) throws -> String {
            guard case .sqlite(let path) = DatabaseLocation(value), !path.isEmpty else { return value }
            return try map(value, path.hasPrefix("/") ? path : directory.appendingPathComponent(path).path)
        }
        var named = false
        var index = 0
        // Only the options before a `--` (none of the commands take one) are options.
        while index < arguments.count, arguments[index] != "--" {
            if arguments[index] == "--db", index + 1 < arguments.count {
                arguments[index + 1] = try mapped(arguments[index + 1])
                named = true
                index += 2
                continue
            }
            if arguments[index].hasPrefix("--db=") {
                arguments[index] = "--db=" + (try mapped(String(arguments[index].dropFirst(5))))
                named = true
            }
            index += 1
        }
        if !named {
            if let value = environment["DASHBOARD_DB"], !value.isEmpty {
                environment["DASHBOARD_DB"] = try mapped(value)
            } else {
                environment["DASHBOARD_DB"] = try mapped("dashboard.sqlite")
            }
        }
        return (arguments, environment)
    }

    /// `text` with each URI replaced by the name it stands for.
    static func restoreNames(_ text: String, _ replacements: [(String, String)]) -> String {
        replacements.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    /// The database at `path` for a test's reads: the SQLite file, or in the PostgreSQL pass
    /// the PostgreSQL database a command of the test gave it.
    static func open(_ path: String) throws -> Database {
        StorePass.opened("the database \(path)")
        if isPostgres, let uri = knownURI(forPath: path) {
            guard case .postgres(let location) = DatabaseLocation(uri) else { throw HarnessError("not a PostgreSQL URI: \(uri)") }
            return try Store(postgres: location, create: false).database
        }
        return try Database(path: path, mode: .readOnly)
    }

    /// Every row of every table of the PostgreSQL database that stands for `path`, in key order
    /// (nil outside the PostgreSQL pass, or for a path no command named).
    static func contents(_ path: String) throws -> Data? {
        guard isPostgres, knownURI(forPath: path) != nil else { return nil }
        let database = try open(path)
        var text = ""
        for table in try database.rows("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename") {
            let name = table.first?.text ?? ""
            text += name + ":\n"
            for row in try database.rows("SELECT * FROM \(name) ORDER BY 1") {
                text += row.map { $0.text ?? "NULL" }.joined(separator: "|") + "\n"
            }
        }
        return Data(text.utf8)
    }

    /// True when the database at `path` is whole: SQLite's `PRAGMA integrity_check`; PostgreSQL
    /// checks its own pages (no statement asks it to), so there its foreign keys are read, which
    /// the server enforces as SQLite does with `foreign_keys` on.
    static func integrityHolds(_ path: String) throws -> Bool {
        try consistency(path) == "ok\n"
    }

    /// SQLite's `PRAGMA integrity_check` and `PRAGMA foreign_key_check` together ("ok\n" when
    /// both pass); on PostgreSQL, every reference of a task (to its course and its batches), the
    /// ones the store's triggers check: "ok\n" when they hold, else the tasks that break them.
    static func consistency(_ path: String) throws -> String {
        let database = try open(path)
        if database.dialect == .sqlite {
            let integrity = try database.rows("PRAGMA integrity_check").map { ($0.first?.text ?? "") + "\n" }.joined()
            let foreignKeys = try database.rows("PRAGMA foreign_key_check").map {
                $0.map { $0.text ?? "NULL" }.joined(separator: "|") + "\n"
            }
            return integrity + foreignKeys.joined()
        }
        let broken = try database.rows(
            """
            SELECT t.task_id FROM tasks t WHERE NOT EXISTS (SELECT 1 FROM courses c WHERE c.course_id = t.course_id)
               OR EXISTS (SELECT 1 FROM (VALUES (t.deleted_batch), (t.changed_batch), (t.created_batch)) AS r(id)
                          WHERE r.id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM batches b WHERE b.batch_id = r.id))
            ORDER BY 1
            """
        ).map { ($0.first?.text ?? "") + "\n" }.joined()
        return broken.isEmpty ? "ok\n" : broken
    }

    /// The store at `path` (the PostgreSQL database of the pass, else the SQLite file).
    static func store(_ path: String) throws -> Store {
        if isPostgres, let uri = knownURI(forPath: path), case .postgres(let location) = DatabaseLocation(uri) {
            return try Store(postgres: location, create: false)
        }
        return try Store(path: path)
    }

    /// The SQL of a text column's UTF-8 bytes in upper-case hexadecimal (SQLite's `hex`).
    static func hex(_ column: String) -> String {
        isPostgres ? "upper(encode(convert_to(\(column), 'UTF8'), 'hex'))" : "hex(\(column))"
    }

    /// True when the database at `path` holds the dashboard's schema (PostgreSQL pass), or the
    /// file exists (SQLite).
    static func exists(_ path: String) -> Bool {
        if isPostgres, let uri = knownURI(forPath: path), case .postgres(let location) = DatabaseLocation(uri) {
            return (try? Store(postgres: location, create: false)) != nil
        }
        return FileManager.default.fileExists(atPath: path)
    }
}

extension Trait where Self == ConditionTrait {
    /// A test about SQLite files themselves (a missing or foreign file, its bytes, side files,
    /// modes, paths, damage, older schemas): it runs in the SQLite pass; in the PostgreSQL pass
    /// there is no file to look at (`StoreUnderTest`).
    static var sqliteFiles: Self { .enabled(if: !StoreUnderTest.isPostgres, "about SQLite files: runs in the SQLite pass") }

    /// A suite about the report folders a command writes (which files, renamed when), whose
    /// commands need a store but whose outcome no store changes beyond what the suites on both
    /// stores check: it runs in the SQLite pass only (docs/postgresql.md, "Tests").
    static var reportFoldersOnly: Self {
        .enabled(if: !StoreUnderTest.isPostgres, "about the report folders: runs in the SQLite pass")
    }
}

extension Trait where Self == ConditionTrait {
    /// A test of what only the PostgreSQL store has: it runs in the PostgreSQL pass.
    static var postgresPass: Self { .enabled(if: StoreUnderTest.isPostgres, "about the PostgreSQL store: runs in the PostgreSQL pass") }
}
