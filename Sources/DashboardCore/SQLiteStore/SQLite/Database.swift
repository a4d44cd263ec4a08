import CSQLite
import CSQLiteConfig
import Foundation

/// A connection to one SQLite database file.
///
/// Statements prepared through `cached(_:)` are reused for the life of the connection.
/// A connection belongs to one thread at a time, so the type is not Sendable.
public final class Database {
    /// Process-wide settings, applied once before the first connection (see
    /// `dashboard_sqlite_configure`).
    private static let configured: Int32 = dashboard_sqlite_configure()

    let handle: OpaquePointer
    /// The path given when the connection was opened.
    public let path: String
    private var statementCache: [String: Statement] = [:]

    /// How to open the file.
    public enum Mode: Sendable {
        /// Read and write, creating the file (with the `fileMode` given to `init`) when it is missing.
        case readWriteCreate
        /// Read and write an existing file.
        case readWrite
        /// Read only; never creates or modifies anything.
        case readOnly
    }

    /// Opens (and if asked, creates) the database.
    ///
    /// The empty path opens a private temporary database that SQLite deletes when it is
    /// closed (used to spool data that must not live in memory, see `ProblemSpool`).
    ///
    /// A new file is created with `fileMode` (`FileModes.file`: what the umask gives, never any
    /// bit for others), set on the descriptor before SQLite opens it; SQLite gives the `-wal` and
    /// `-shm` it creates the database file's mode.
    /// - Throws: `SQLiteError` when the file cannot be opened.
    public init(path: String, mode: Mode = .readWriteCreate, fileMode: mode_t = FileModes.ownerOnly.file) throws {
        if mode == .readWriteCreate, !path.isEmpty, path != ":memory:", !FileManager.default.fileExists(atPath: path) {
            let fd = open(path, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, fileMode)
            if fd >= 0 {
                fchmod(fd, fileMode)
                close(fd)
            } else if errno != EEXIST {
                let reason = String(cString: strerror(errno))
                throw SQLiteError(code: SQLITE_CANTOPEN, message: "cannot create \(path): \(reason)")
            }
        }
        _ = Self.configured
        var db: OpaquePointer?
        let flags: Int32
        switch mode {
        case .readWriteCreate, .readWrite: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        case .readOnly: flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
        }
        let rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_URI, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open database"
            let systemErrno = db.map { sqlite3_system_errno($0) } ?? 0
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: message, systemErrno: systemErrno)
        }
        sqlite3_extended_result_codes(db, 1)
        self.handle = db
        self.path = path
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    func error(code: Int32, sql: String?) -> SQLiteError {
        let extended = sqlite3_extended_errcode(handle)
        let message = String(cString: sqlite3_errmsg(handle))
        return classified(extended != 0 ? extended : code, message: message, sql: sql)
    }

    /// The error for a failed call: a write refused because the file was found damaged is
    /// reported as that damage (never as "readonly database").
    private func classified(_ code: Int32, message: String, sql: String?) -> SQLiteError {
        noteFailure(code, message: message)
        if let damage, code & 0xff == SQLITE_READONLY {
            return SQLiteError(code: damage.code, message: damage.message, sql: sql)
        }
        return SQLiteError(code: code, message: message, sql: sql, systemErrno: sqlite3_system_errno(handle))
    }

    /// The first damage this connection met (SQLITE_CORRUPT or SQLITE_NOTADB), if any.
    private var damage: (code: Int32, message: String)?

    /// True once this connection met a damaged file (SQLITE_CORRUPT or SQLITE_NOTADB).
    public var sawDamage: Bool { damage != nil }

    /// Policy (docs/reliability.md, class 7): once SQLite reports the file damaged, this
    /// connection writes nothing more to it: `query_only` makes every later write fail (so no
    /// failure record, staging clean-up or migration lands in a damaged file). Closing still
    /// checkpoints (nothing new can be committed any more), so the `-wal` and `-shm` SQLite made
    /// for this run are removed.
    private func noteFailure(_ code: Int32, message: String) {
        let primary = code & 0xff
        guard damage == nil, primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB else { return }
        damage = (code, message)
        sqlite3_exec(handle, "PRAGMA query_only = 1", nil, nil, nil)
        setKeepSideFiles(false)
    }

    /// Whether the `-wal` and `-shm` stay beside the file when the last connection closes
    /// (`SQLITE_FCNTL_PERSIST_WAL`); SQLite's default removes them.
    ///
    /// Policy (docs/operations.md, read-only readers): a reader that may not write the folder can
    /// read a WAL database only when both files are there for it to open
    /// (https://www.sqlite.org/wal.html#readonly), so the writer leaves them. Turned off again
    /// when the file is found damaged.
    public func setKeepSideFiles(_ keep: Bool) {
        var flag: Int32 = keep ? 1 : 0
        _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &flag)
    }

    /// Whether closing the last connection copies the `-wal` into the file (SQLite's default);
    /// turned off while the file may be another application's or is damaged.
    public func setCheckpointOnClose(_ on: Bool) {
        _ = dashboard_sqlite_no_checkpoint_on_close(handle, on ? 0 : 1)
    }

    /// Whether triggers fire for this connection's writes (SQLite's default: on). Off only while
    /// the importer writes, which accounts for its own writes (`DataMarks`).
    public func setTriggersEnabled(_ on: Bool) {
        _ = dashboard_sqlite_enable_triggers(handle, on ? 1 : 0)
    }

    /// True when triggers fire for this connection's writes (a writer that turned them off
    /// keeps what they would have kept itself: `CourseBuckets.counting`).
    public var triggersEnabled: Bool { dashboard_sqlite_triggers_enabled(handle) != 0 }

    /// Runs one or more statements that take no parameters.
    public func execute(_ sql: String) throws {
        var errmsg: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errmsg)
        if rc != SQLITE_OK {
            let message = errmsg.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errmsg)
            throw classified(sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// A new prepared statement.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// A prepared statement kept for reuse on this connection.
    public func cached(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] { return statement }
        let statement = try Statement(database: self, sql: sql)
        statementCache[sql] = statement
        return statement
    }

    /// Runs a statement with bound values.
    public func run(_ sql: String, _ values: [SQLBindable] = []) throws {
        try cached(sql).run(values)
    }

    /// The rows of a query with bound values.
    public func rows(_ sql: String, _ values: [SQLBindable] = []) throws -> [[SQLValue]] {
        try cached(sql).rows(values)
    }

    /// The first column of the first row, or nil when there is no row.
    public func scalar(_ sql: String, _ values: [SQLBindable] = []) throws -> SQLValue? {
        var result: SQLValue?
        try cached(sql).forEachRow(values) { row in
            if result == nil { result = row.value(0) }
        }
        return result
    }

    /// The first column of the first row as an integer (0 when NULL or no row).
    public func int(_ sql: String, _ values: [SQLBindable] = []) throws -> Int {
        Int(try scalar(sql, values)?.integer ?? 0)
    }

    /// The number of rows the last statement changed.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The rowid of the last inserted row.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Milliseconds to wait for another connection's lock before failing with SQLITE_BUSY.
    public func setBusyTimeout(milliseconds: Int) {
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
    }

    /// True while a transaction is open.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    // MARK: - Transactions

    /// What a transaction body asks for when it returns.
    public enum TransactionCompletion: Sendable { case commit, rollback }

    /// How a transaction takes its locks.
    public enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        /// Takes the write lock at once: the single-writer guarantee of imports.
        case immediate = "IMMEDIATE"
    }

    /// Runs `body` in a transaction that commits or rolls back as the body returns.
    ///
    /// If the body throws, the transaction is rolled back and the body's error is rethrown
    /// (a failure of the rollback itself is not allowed to hide it).
    public func inTransaction(
        _ kind: TransactionKind = .deferred, _ body: () throws -> TransactionCompletion
    ) throws {
        try execute("BEGIN \(kind.rawValue) TRANSACTION")
        let completion: TransactionCompletion
        do {
            completion = try body()
        } catch {
            if isInTransaction { try? execute("ROLLBACK TRANSACTION") }
            throw error
        }
        switch completion {
        case .commit:
            do {
                try execute("COMMIT TRANSACTION")
            } catch {
                if isInTransaction { try? execute("ROLLBACK TRANSACTION") }
                throw error
            }
        case .rollback:
            try execute("ROLLBACK TRANSACTION")
        }
    }
}
