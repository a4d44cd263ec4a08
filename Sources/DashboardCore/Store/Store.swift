import CSQLite
import Foundation

/// Why the store could not be opened or used.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    /// The file was written by a newer `dashboard`; it is left untouched.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The path is a directory, not a database file.
    case isDirectory(path: String)
    /// The file exists but is not an SQLite database.
    case notADatabase(path: String)
    /// No database file exists yet (read-only commands never create one).
    case missing(path: String)
    /// Another process holds the write lock.
    case busy(path: String, waitedSeconds: Double)
    /// SQLite failed.
    case sqlite(SQLiteError)

    public var description: String {
        switch self {
        case .newerSchema(let path, let found, let supported):
            return "\(path) has schema version \(found), but this dashboard knows versions up to \(supported); it was left unchanged"
        case .isDirectory(let path): return "\(path) is a directory, not a database file"
        case .notADatabase(let path): return "\(path) is not a dashboard database (not an SQLite file)"
        case .missing(let path): return "no database at \(path) yet"
        case .busy(let path, let waited):
            let waitedText = waited > 0 ? " after waiting \(Int(waited)) s" : ""
            return "another dashboard process is writing to \(path)\(waitedText)"
        case .sqlite(let error): return error.description
        }
    }
}

/// The dashboard's SQLite database: schema, connection settings and transactions.
///
/// Policy: the file is created 0600; WAL journal so that readers are never blocked by the
/// importer; foreign keys on; `synchronous = FULL` so a committed import survives a power cut.
/// A database from a newer version is refused before anything is written to it.
public final class Store {
    public let database: Database
    public let path: String

    /// Opens the store at `path` for writing, creating and migrating it when needed.
    /// - Parameter busyTimeout: seconds to wait for another writer's lock.
    /// - Throws: `StoreError`.
    public init(path: String, busyTimeout: Double = 0) throws(StoreError) {
        self.path = path
        try Store.refuseDirectory(path)
        do {
            database = try Database(path: path, mode: .readWriteCreate)
        } catch {
            throw Store.classify(error, path: path)
        }
        database.setBusyTimeout(milliseconds: Store.busyMilliseconds(busyTimeout))
        do {
            try checkVersion()
            try database.execute("PRAGMA foreign_keys = ON")
            // A new file gets 16 KiB pages (fewer, fuller B-tree pages: a bulk import writes
            // less); an existing file keeps its page size.
            if try database.int("SELECT count(*) FROM sqlite_master") == 0 {
                try database.execute("PRAGMA page_size = 16384")
            }
            // The writer's page cache (12 MiB, the default is 2 MiB): a million-row import
            // otherwise spills pages to the WAL in the middle of its transaction.
            try database.execute("PRAGMA cache_size = -12288")
            if path != ":memory:" {
                try database.execute("PRAGMA journal_mode = WAL")
            }
            try database.execute("PRAGMA synchronous = FULL")
            try migrate()
        } catch let error as StoreError {
            throw error
        } catch {
            throw Store.classify(error, path: path, waited: busyTimeout)
        }
    }

    /// Opens an existing store read-only; never creates or migrates anything.
    /// - Throws: `StoreError.missing` when there is no file yet.
    public init(readOnlyPath path: String) throws(StoreError) {
        self.path = path
        try Store.refuseDirectory(path)
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
        do {
            database = try Database(path: path, mode: .readOnly)
            database.setBusyTimeout(milliseconds: 5000)
            try checkVersion()
            _ = try database.int("SELECT count(*) FROM sqlite_master")
        } catch let error as StoreError {
            throw error
        } catch {
            throw Store.classify(error, path: path)
        }
    }

    /// The schema version of the open file.
    public var schemaVersion: Int {
        (try? database.int("PRAGMA user_version")) ?? 0
    }

    private func checkVersion() throws {
        let found = try database.int("PRAGMA user_version")
        if found > Schema.currentVersion {
            throw StoreError.newerSchema(path: path, found: found, supported: Schema.currentVersion)
        }
    }

    /// Applies every pending migration, each in its own transaction with its version bump.
    private func migrate() throws {
        var version = try database.int("PRAGMA user_version")
        while version < Schema.currentVersion {
            try database.inTransaction(.immediate) {
                // Re-read under the lock: another process may have migrated meanwhile.
                let current = try database.int("PRAGMA user_version")
                guard current == version else { return .commit }
                switch Schema.migrations[version] {
                case .sql(let statements): try database.execute(statements)
                case .respellChecks(let checks): try respell(checks)
                }
                try database.execute("PRAGMA user_version = \(version + 1)")
                return .commit
            }
            version = try database.int("PRAGMA user_version")
        }
    }

    /// Rewrites CHECK constraints in place, by SQLite's documented procedure for changes that
    /// leave the stored rows valid and their format alone
    /// (https://www.sqlite.org/lang_altertable.html#otheralter): within the migration's
    /// transaction, edit the `CREATE TABLE` texts, bump `schema_version` so that every
    /// connection reads the schema again, and reset this connection's copy of it.
    /// - Throws: when a table's text does not hold the constraint as migrations 1 and 2 wrote it
    ///   (the transaction then rolls back: nothing changes).
    private func respell(_ checks: [Schema.ValueListCheck]) throws {
        let version = try database.int("PRAGMA schema_version")
        try database.execute("PRAGMA writable_schema = ON")
        for check in checks {
            try database.run(
                "UPDATE sqlite_schema SET sql = replace(sql, ?1, ?2) WHERE type = 'table' AND name = ?3 AND instr(sql, ?1) > 0",
                [check.inList, check.orChain, check.table])
            guard database.changes == 1 else {
                try? database.execute("PRAGMA writable_schema = RESET")
                throw SQLiteError(
                    code: SQLITE_ERROR,
                    message: "table \(check.table) does not hold the constraint \(check.inList) that migration 3 rewrites")
            }
        }
        try database.execute("PRAGMA schema_version = \(version + 1)")
        try database.execute("PRAGMA writable_schema = RESET")
    }

    private static func refuseDirectory(_ path: String) throws(StoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .isDirectory(path: path)
        }
    }

    /// The busy timeout in milliseconds: negative, NaN or sub-millisecond waits are 0, and
    /// anything above `Int32.max` ms (about 24 days) is that, so no value can trap.
    static func busyMilliseconds(_ seconds: Double) -> Int {
        guard !seconds.isNaN, seconds > 0 else { return 0 }
        return Int(min(seconds * 1000, Double(Int32.max)))
    }

    static func classify(_ error: Error, path: String, waited: Double = 0) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let error = error as? SQLiteError else {
            return .sqlite(SQLiteError(code: SQLITE_ERROR, message: "\(error)"))
        }
        if error.primaryCode == SQLITE_NOTADB { return .notADatabase(path: path) }
        if error.isBusy { return .busy(path: path, waitedSeconds: waited) }
        return .sqlite(error)
    }
}
