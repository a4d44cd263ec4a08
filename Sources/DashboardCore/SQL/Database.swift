import CSQLite
import CSQLiteConfig
import Foundation

/// The SQL a connection speaks: the store writes SQLite's, which a PostgreSQL connection
/// translates (`PGDialect`); the few statements that cannot be said alike ask which it is.
package enum SQLDialect: Sendable {
    case sqlite
    case postgres
}

/// A connection to one dashboard database: an SQLite file, or a PostgreSQL database through
/// libpq (SPEC §10). The store above it writes one SQL, SQLite's, for both engines.
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

    /// SQLite's error for a result code of this connection's last call (only SQLite's calls have
    /// one: on a PostgreSQL connection the code cannot come from the engine, an `InternalError`).
    func error(code: Int32, sql: String?) -> any Error {
        guard let handle = sqliteHandle else {
            return InternalError.unexpected("SQLite's result code \(code) on a PostgreSQL connection (\(sql ?? "no statement"))")
        }
        let extended = sqlite3_extended_errcode(handle)
        let message = String(cString: sqlite3_errmsg(handle))
        return classified(extended != 0 ? extended : code, message: message, sql: sql)
    }

    /// The error for a failed call: a write refused because the file was found damaged is
    /// reported as that damage (never as "readonly database").
    private func classified(_ code: Int32, message: String, sql: String?) -> SQLiteError {
        // A failure of a connection whose files changed under it is that change (a page read
        // from a file cut short says "malformed"; a commit the watch refused says "constraint").
        if let change = fileChange(after: code) {
            return SQLiteError(code: code, message: message, sql: sql, filesChanged: change)
        }
        noteFailure(code, message: message)
        if let damage, code & 0xff == SQLITE_READONLY {
            return SQLiteError(code: damage.code, message: damage.message, sql: sql)
        }
        return SQLiteError(code: code, message: message, sql: sql, systemErrno: sqliteHandle.map { sqlite3_system_errno($0) } ?? 0)
    }

    /// The first damage this connection met (SQLITE_CORRUPT or SQLITE_NOTADB), if any.
    private var damage: (code: Int32, message: String)?

    /// True once this connection met a damaged file (SQLITE_CORRUPT or SQLITE_NOTADB).
    package var sawDamage: Bool { damage != nil }

    /// Policy (docs/reliability.md, class 7): once SQLite reports the file damaged, this
    /// connection writes nothing more to it: `query_only` makes every later write fail (so no
    /// failure record, staging clean-up or migration lands in a damaged file). Closing still
    /// checkpoints (nothing new can be committed any more), so the `-wal` and `-shm` SQLite made
    /// for this run are removed.
    private func noteFailure(_ code: Int32, message: String) {
        let primary = code & 0xff
        guard damage == nil, primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB else { return }
        damage = (code, message)
        if let handle = sqliteHandle { sqlite3_exec(handle, "PRAGMA query_only = 1", nil, nil, nil) }
        setKeepSideFiles(false)
    }

    /// Whether the `-wal` and `-shm` stay beside the file when the last connection closes
    /// (`SQLITE_FCNTL_PERSIST_WAL`); SQLite's default removes them.
    ///
    /// Policy (docs/operations.md, read-only readers): a reader that may not write the folder can
    /// read a WAL database only when both files are there for it to open
    /// (https://www.sqlite.org/wal.html#readonly), so the writer leaves them. Turned off again
    /// when the file is found damaged.
    package func setKeepSideFiles(_ keep: Bool) {
        guard let handle = sqliteHandle else { return }
        var flag: Int32 = keep ? 1 : 0
        _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &flag)
    }

    /// Whether closing the last connection copies the `-wal` into the file (SQLite's default);
    /// turned off while the file may be another application's or is damaged.
    package func setCheckpointOnClose(_ on: Bool) {
        guard let handle = sqliteHandle else { return }
        _ = dashboard_sqlite_no_checkpoint_on_close(handle, on ? 0 : 1)
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

    /// Streams `data`, rows in COPY's text format (`PGCopyText`), through `COPY … FROM STDIN`
    /// (`sql`): the bulk writes of an import on PostgreSQL. SQLite has no COPY: its writers bind
    /// statements of many rows instead.
    /// - Returns: the rows copied.
    @discardableResult
    func copyIn(_ sql: String, data: [UInt8]) throws -> Int {
        guard case .postgres(let session) = engine else { throw InternalError.unexpected("COPY on an SQLite connection: \(sql)") }
        try session.settle()
        try session.connection.copyIn(sql) { send in try send(data) }
        session.lastChanges = 0
        return try session.connection.lastCopyRows()
    }

    /// Runs `COPY … TO STDOUT` (`sql`, PostgreSQL only) and gives each line (one row in COPY's
    /// text format, with its newline) to `body`: a read of any size in one statement.
    func copyOut(_ sql: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        guard case .postgres(let session) = engine else { throw InternalError.unexpected("COPY on an SQLite connection: \(sql)") }
        try session.settle()
        try session.connection.copyOut(sql, body)
    }

    /// Streams `data` (rows in COPY's text format) into `COPY … FROM STDIN` (`sql`), left open
    /// across calls so that the server writes while the caller reads on (PostgreSQL only). The
    /// next other statement, or `endCopyStream`, ends it.
    func copyStream(_ sql: String, data: [UInt8]) throws {
        guard case .postgres(let session) = engine else { throw InternalError.unexpected("COPY on an SQLite connection: \(sql)") }
        try session.stream(sql, data)
    }

    /// Ends the streamed COPY: the rows it wrote.
    /// - Throws: the server's error for it (a repeated key: 23505).
    @discardableResult
    func endCopyStream() throws -> Int {
        guard case .postgres(let session) = engine else { return 0 }
        return try session.endStream()
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

    // MARK: - The files under the connection

    /// Starts watching the files of this SQLite connection (`DatabaseFileWatch`): from now on a
    /// commit is refused (rolled back) when the path no longer names the file SQLite has open,
    /// or its `-wal` or `-shm` changed, and a change seen right after a commit, or at the end of
    /// a read (`checkFilesAfterReading`), is an error.
    /// - Parameter judged: the file the caller judged before SQLite opened the path, if any.
    /// - Throws: `SQLiteError` carrying the change (moment `.opening`) when the path already
    ///   names another file than the one SQLite opened.
    func watchFiles(judged: DatabaseFileWatch.FileKey?) throws {
        guard let handle = sqliteHandle else { return }
        do {
            fileWatch = try DatabaseFileWatch(handle: handle, path: path, judged: judged)
        } catch {
            throw SQLiteError(code: SQLITE_IOERR, message: error.words(path: path), filesChanged: error)
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_commit_hook(
            handle,
            { context in
                guard let context else { return 0 }
                return Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().commitVerdict()
            }, context)

    }

    /// Takes note of the `-wal` and `-shm` SQLite opened since the watch began (a new file's).
    func noteSideFiles() { fileWatch?.noteSideFiles() }

    /// The watch, when the connection watches its files.
    private(set) var fileWatch: DatabaseFileWatch?
    /// True once the `-wal` was settled (or settling was decided against) after a change.
    private var walSettlingTried = false

    /// SQLite's commit hook: 1 turns the commit into a rollback.
    private func commitVerdict() -> Int32 {
        guard let handle = sqliteHandle, let watch = fileWatch else { return 0 }
        // Once the files changed, nothing more commits through this connection, whatever found
        // the change (a read's failure included: a later write would go into the files the path
        // no longer names, or pair the new file with the old -wal).
        if watch.finding != nil { return 1 }
        guard let kind = watch.checkBeforeCommit(handle) else { return 0 }
        watch.finding = DatabaseFileChange(kind: kind, moment: .beforeCommit)
        return 1
    }

    /// The change a failure with `code` stands for: the one the commit hook found, or, for a
    /// failure of the file itself (damage, I/O), a change the watch sees now.
    private func fileChange(after code: Int32) -> DatabaseFileChange? {
        guard let handle = sqliteHandle, let watch = fileWatch else { return nil }
        if let finding = watch.finding { return finding }
        let primary = code & 0xff
        guard [SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_IOERR, SQLITE_READONLY].contains(primary) else { return nil }
        // In a write, a page read back from a -wal cut short (a spilled one) reads as damage.
        // A read-only connection (a reader who may not write the folder) keeps its WAL index in
        // its own memory, not in the -shm file: only the files' identities are its to check.
        // A failed COMMIT has rolled back already: the write began all the same (`isWriting`).
        let writing = watch.isWriting && sqlite3_db_readonly(handle, "main") == 0
        guard let kind = writing ? watch.checkBeforeCommit(handle) : watch.checkFiles(handle) else { return nil }
        let change = DatabaseFileChange(kind: kind, moment: writing ? .beforeCommit : .reading)
        watch.finding = change
        // The write rolls back; nothing more is written through this connection (no failure
        // record). What the -wal holds is settled when the connection closes (`deinit`).
        if writing { sqlite3_exec(handle, "PRAGMA query_only = 1", nil, nil, nil) }
        return change
    }

    /// The error of a failed commit: when the watch refused it, the change, with what became
    /// of the `-wal` (`settleWAL`).
    private func settled(_ error: Error) -> Error {
        guard let watch = fileWatch, var change = watch.finding else { return error }
        change.walSettled = settleWAL()
        watch.finding = change
        return SQLiteError(code: SQLITE_IOERR, message: change.words(path: path), filesChanged: change)
    }

    /// Right after a commit: a change seen now means the commit went into the file SQLite had
    /// open, not into the one the path names (or into a `-wal` that lost it).
    private func checkFilesAfterCommit() throws {
        guard let handle = sqliteHandle, let watch = fileWatch, watch.finding == nil else { return }
        guard let kind = watch.checkAfterCommit(handle) else { return }
        var change = DatabaseFileChange(kind: kind, moment: .afterCommit)
        watch.finding = change
        change.walSettled = settleWAL()
        watch.finding = change
        throw SQLiteError(code: SQLITE_IOERR, message: change.words(path: path), filesChanged: change)
    }

    /// Right after a write's commit (and its check), copies the `-wal` into the file
    /// (`PRAGMA wal_checkpoint(PASSIVE)`: what the readers allow, without waiting for them), the
    /// copy SQLite would otherwise make when the connection closes, unchecked: a `-wal` cut short
    /// under that copy fails it, and the command must not then end as a success. The copy is
    /// work closing would have done anyway (for a command that commits once, the same work).
    /// - Throws: `SQLiteError` carrying the change when the copy failed because the files
    ///   changed; other failures of the copy are left to SQLite (the commit is safe in the
    ///   `-wal`, and closing copies it).
    private func checkpointAfterCommit() throws {
        guard let handle = sqliteHandle, let watch = fileWatch, watch.finding == nil else { return }
        var frames: Int32 = 0
        var copied: Int32 = 0
        let rc = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &frames, &copied)
        guard rc != SQLITE_OK, let kind = watch.checkAfterCommit(handle) else { return }
        var change = DatabaseFileChange(kind: kind, moment: .afterCommit)
        watch.finding = change
        change.walSettled = settleWAL()
        watch.finding = change
        throw SQLiteError(code: SQLITE_IOERR, message: change.words(path: path), filesChanged: change)
    }

    /// At the end of a read: the files must still be the ones the read had open.
    /// - Throws: `SQLiteError` carrying the change (moment `.reading`).
    func checkFilesAfterReading() throws {
        guard let handle = sqliteHandle, let watch = fileWatch else { return }
        if let finding = watch.finding {
            throw SQLiteError(code: SQLITE_IOERR, message: finding.words(path: path), filesChanged: finding)
        }
        guard let kind = watch.checkFiles(handle) else { return }
        let change = DatabaseFileChange(kind: kind, moment: .reading)
        watch.finding = change
        throw SQLiteError(code: SQLITE_IOERR, message: change.words(path: path), filesChanged: change)
    }

    /// After a change to the files: copies the committed pages of the `-wal` this connection
    /// uses into the file it opened and empties that `-wal` (`PRAGMA wal_checkpoint(TRUNCATE)`),
    /// so that no file at the path is ever read with pages of another; then makes the connection
    /// query-only, so that nothing more (no failure record) is written anywhere.
    ///
    /// Not when the file or its `-wal` was cut short: copying from a `-wal` that lost pages would
    /// write zeros into the file, and a file cut short is damaged whatever is copied into it;
    /// closing then copies nothing either (SQLite checkpoints on close).
    /// - Returns: true when the `-wal` was emptied, false when it could not be (another process
    ///   still reads it), nil when it was not tried.
    private func settleWAL() -> Bool? {
        guard let handle = sqliteHandle, !walSettlingTried else { return nil }
        walSettlingTried = true
        defer {
            sqlite3_exec(handle, "PRAGMA query_only = 1", nil, nil, nil)
        }
        guard let change = fileWatch?.finding, !change.damagesTheFile else {
            setCheckpointOnClose(false)
            return nil
        }
        // Readers of the old -wal may be finishing: wait for them a little.
        setBusyTimeout(milliseconds: 5000)
        var frames: Int32 = 0
        var copied: Int32 = 0
        let rc = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, &frames, &copied)
        if rc != SQLITE_OK { setCheckpointOnClose(false) }
        return rc == SQLITE_OK
    }
}
