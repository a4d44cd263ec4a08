import CSQLite
import CSQLiteConfig
import Foundation

/// The engine a connection speaks to. The store never asks it: what the engines say
/// differently each says itself (`Database.sql`, `StoreSQL`).
package enum SQLDialect: Sendable {
    case sqlite
    case postgres
}

/// A connection to one dashboard database: an SQLite file, or a PostgreSQL database through
/// libpq (SPEC §10). The store above it writes its shared SQL once (a PostgreSQL connection
/// rewrites only its parameters and `LIMIT -1`, `PGDialect`) and asks `sql` (`StoreSQL`) for
/// what the engines say differently. SQLite's own parts of a connection are in `SQL/SQLite/`
/// (`Database+SQLiteErrors`, `Database+SQLiteFiles`), PostgreSQL's in `SQL/PostgreSQL/`
/// (`PGSession`, `Database+Copy`).
///
/// Statements prepared through `cached(_:)` are reused for the life of the connection.
/// A connection belongs to one thread at a time, so the type is not Sendable.
package final class Database {
    /// Process-wide settings, applied once before the first connection (see
    /// `dashboard_sqlite_configure`).
    private static let configured: Int32 = dashboard_sqlite_configure()

    /// The engine behind the connection.
    enum Engine {
        case sqlite(OpaquePointer)
        case postgres(PGSession)
    }
    let engine: Engine
    /// The path given when the connection was opened (for PostgreSQL: the location without
    /// its password).
    package let path: String
    private var statementCache: [String: Statement] = [:]

    /// The dialect of the connection's engine.
    package var dialect: SQLDialect {
        switch engine {
        case .sqlite: return .sqlite
        case .postgres: return .postgres
        }
    }

    /// SQLite's handle, or nil on PostgreSQL (SQLite's own settings do nothing there).
    var sqliteHandle: OpaquePointer? {
        if case .sqlite(let handle) = engine { return handle }
        return nil
    }

    /// How to open the file.
    package enum Mode: Sendable {
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
    package init(path: String, mode: Mode = .readWriteCreate, fileMode: mode_t = FileModes.ownerOnly.file) throws {
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
        // The function the dashboard's writers of titles compute `tasks.title_fold` with.
        TitleFolds.register(on: db)
        self.engine = .sqlite(db)
        self.path = path
        interruption = ConnectionInterrupt(sqlite: db)
        // Every 1,000 steps of a running statement: an interrupt requested meanwhile ends it
        // (`ConnectionInterrupt`), and every 20th time a watched connection samples its -wal's
        // size (`DatabaseFileWatch.sampleWAL`: about every millisecond of a busy writer).
        sqlite3_progress_handler(
            db, 1000,
            { context in
                guard let context else { return 0 }
                return Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().progress()
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    private var progressCalls = 0

    /// SQLite's progress handler: non-zero interrupts the running statement.
    private func progress() -> Int32 {
        if interruption.wasRequested { return 1 }
        progressCalls &+= 1
        if progressCalls % 20 == 0 { fileWatch?.sampleWAL() }
        return 0
    }

    /// Throws SQLITE_INTERRUPT when this connection was interrupted (`interrupter`): a
    /// statement checks it before it runs.
    func checkInterrupted(sql: String?) throws {
        guard interruption.wasRequested else { return }
        throw SQLiteError(code: SQLITE_INTERRUPT, message: "interrupted", sql: sql)
    }

    /// A connection to a PostgreSQL database (`PGSession`); `display` names it in messages.
    init(postgres session: PGSession, display: String) {
        engine = .postgres(session)
        path = display
        let interruption = ConnectionInterrupt(postgres: session.connection.handle)
        self.interruption = interruption
        session.isInterrupted = { interruption.wasRequested }
    }

    /// The first damage this connection met (SQLITE_CORRUPT or SQLITE_NOTADB), if any
    /// (`Database+SQLiteErrors`).
    var damage: (code: Int32, message: String)?
    /// The watch, when the connection watches its files (`Database+SQLiteFiles`).
    var fileWatch: DatabaseFileWatch?
    /// True once the `-wal` was settled (or settling was decided against) after a change.
    var walSettlingTried = false

    /// What another thread may do to this connection (`interrupter`).
    private let interruption: ConnectionInterrupt

    /// A function any thread may call to interrupt this connection's running statement and its
    /// waits for a lock (`ConnectionInterrupt`); calls after the connection closed do nothing.
    package func interrupter() -> @Sendable () -> Void {
        let interruption = self.interruption
        return { interruption.interrupt() }
    }

    /// Lets the connection's statements run again once a stop was handled (`Interruptible`).
    package func resumeAfterStop() { interruption.resume() }

    deinit {
        interruption.closing()
        statementCache.removeAll()
        // A write refused or found gone astray by a path that did not go through a transaction.
        if let moment = fileWatch?.finding?.moment, moment == .beforeCommit || moment == .afterCommit {
            _ = settleWAL()
        } else if fileWatch?.finding?.damagesTheFile == true {
            // A read found the file cut short or overwritten in place: the -wal's pages must not
            // be copied into it when the connection closes.
            setCheckpointOnClose(false)
        }
        if let handle = sqliteHandle { sqlite3_close_v2(handle) }
    }

    /// Whether triggers fire for this connection's writes (SQLite's default: on). Off only while
    /// the importer writes, which accounts for its own writes (`DataMarks`). On PostgreSQL the
    /// store's triggers read the session's `dashboard.triggers` setting (`PGSchema`).
    package func setTriggersEnabled(_ on: Bool) {
        switch engine {
        case .sqlite(let handle): _ = dashboard_sqlite_enable_triggers(handle, on ? 1 : 0)
        case .postgres(let session): session.setTriggersEnabled(on)
        }
    }

    /// True when triggers fire for this connection's writes (a writer that turned them off
    /// keeps what they would have kept itself: `CourseBuckets.counting`).
    package var triggersEnabled: Bool {
        switch engine {
        case .sqlite(let handle): return dashboard_sqlite_triggers_enabled(handle) != 0
        case .postgres(let session): return session.triggersEnabled
        }
    }

    /// Runs one or more statements that take no parameters.
    package func execute(_ sql: String) throws {
        guard case .sqlite(let handle) = engine else {
            if case .postgres(let session) = engine { try session.execute(sql) }
            return
        }
        var errmsg: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errmsg)
        if rc != SQLITE_OK {
            let message = errmsg.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errmsg)
            throw classified(sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// A new prepared statement.
    package func prepare(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// A prepared statement kept for reuse on this connection.
    package func cached(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] { return statement }
        let statement = try Statement(database: self, sql: sql, reused: true)
        statementCache[sql] = statement
        return statement
    }

    /// Runs a statement with bound values.
    package func run(_ sql: String, _ values: [SQLBindable] = []) throws {
        try cached(sql).run(values)
    }

    /// The rows of a query with bound values.
    package func rows(_ sql: String, _ values: [SQLBindable] = []) throws -> [[SQLValue]] {
        try cached(sql).rows(values)
    }

    /// The first column of the first row, or nil when there is no row.
    package func scalar(_ sql: String, _ values: [SQLBindable] = []) throws -> SQLValue? {
        var result: SQLValue?
        try cached(sql).forEachRow(values) { row in
            if result == nil { result = row.value(0) }
        }
        return result
    }

    /// The first column of the first row as an integer (0 when NULL or no row).
    package func int(_ sql: String, _ values: [SQLBindable] = []) throws -> Int {
        Int(try scalar(sql, values)?.integer ?? 0)
    }

    /// True when the database has a table `name` (a reader of an older SQLite file that no
    /// writer migrated yet may not find the newer ones).
    package func hasTable(_ name: String) throws -> Bool {
        switch dialect {
        case .sqlite: return try int("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", [name]) == 1
        case .postgres: return try int("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?", [name]) == 1
        }
    }

    /// True when `table` has `column`.
    package func hasColumn(_ table: String, _ column: String) throws -> Bool {
        switch dialect {
        case .sqlite: return try int("SELECT count(*) FROM pragma_table_info(?) WHERE name = ?", [table, column]) == 1
        case .postgres:
            return try int(
                "SELECT count(*) FROM pg_attribute WHERE attrelid = to_regclass(?) AND attname = ? AND attnum > 0 AND NOT attisdropped",
                [table, column]) == 1
        }
    }

    /// The number of rows the last statement changed.
    package var changes: Int {
        switch engine {
        case .sqlite(let handle): return Int(sqlite3_changes64(handle))
        case .postgres(let session): return session.lastChanges
        }
    }

    /// Milliseconds to wait for another connection's lock before failing with SQLITE_BUSY
    /// (PostgreSQL: for the writers' advisory lock).
    package func setBusyTimeout(milliseconds: Int) {
        switch engine {
        case .sqlite: interruption.setBusyTimeout(milliseconds: milliseconds)
        case .postgres(let session): session.busyMilliseconds = milliseconds
        }
    }

    /// True while a transaction is open.
    package var isInTransaction: Bool {
        switch engine {
        case .sqlite(let handle): return sqlite3_get_autocommit(handle) == 0
        case .postgres(let session): return session.connection.isInTransaction
        }
    }

    // MARK: - Transactions

    /// What a transaction body asks for when it returns.
    package enum TransactionCompletion: Sendable { case commit, rollback }

    /// How a transaction takes its locks.
    package enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        /// Takes the write lock at once: the single-writer guarantee of imports.
        case immediate = "IMMEDIATE"
    }

    /// Runs `body` in a transaction that commits or rolls back as the body returns.
    ///
    /// If the body throws, the transaction is rolled back and the body's error is rethrown
    /// (a failure of the rollback itself is not allowed to hide it).
    package func inTransaction(
        _ kind: TransactionKind = .deferred, _ body: () throws -> TransactionCompletion
    ) throws {
        switch engine {
        case .sqlite(let handle):
            try execute("BEGIN \(kind.rawValue) TRANSACTION")
            if kind == .immediate { fileWatch?.writeBegan(handle) }
        case .postgres(let session): try session.begin(writer: kind == .immediate)
        }
        defer { fileWatch?.writeEnded() }
        let completion: TransactionCompletion
        do {
            completion = try body()
        } catch {
            if isInTransaction { try? execute("ROLLBACK TRANSACTION") }
            throw error
        }
        switch completion {
        case .commit:
            // A read's commit writes nothing: what it read is checked by `checkFilesAfterReading`.
            let wrote = sqliteHandle.map { sqlite3_txn_state($0, nil) == SQLITE_TXN_WRITE } ?? false
            do {
                try execute("COMMIT TRANSACTION")
            } catch {
                if isInTransaction { try? execute("ROLLBACK TRANSACTION") }
                throw settled(error)
            }
            if wrote {
                try checkFilesAfterCommit()
                try checkpointAfterCommit()
            }
        case .rollback:
            try execute("ROLLBACK TRANSACTION")
        }
    }
}
