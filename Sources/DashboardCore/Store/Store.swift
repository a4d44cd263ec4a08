import CSQLite
import Foundation

/// The dashboard's SQLite database: schema, connection settings and transactions.
///
/// Policy: the file is created with the mode the umask gives, never any bit for others
/// (`FileModes`); WAL journal so that readers are never blocked by the importer, its `-wal` and
/// `-shm` kept beside the file after the writer closes so that readers who may not write the
/// folder can read it (`ReaderSideFiles`); foreign keys on; `synchronous = FULL` so a committed
/// import survives a power cut.
/// A database from a newer version, another application's file and a damaged file are refused
/// before anything is written to them (see `StoreIdentity`).
package final class Store {
    package let database: Database
    package let path: String
    /// The PostgreSQL database behind the store, or nil for an SQLite file.
    package let postgres: PGStore?
    /// PostgreSQL: a private SQLite file (deleted when closed) for what a report keeps for the
    /// length of its read (page keys, per-course results), where SQLite keeps them in TEMP
    /// tables of its own connection. A report then creates nothing on the server: it runs on
    /// a read-only standby, and fifty readers at once write nothing into its catalog.
    lazy var scratch: Result<Database, Error> = Result { try Database(path: "") }
    /// The page keys of the current read (`TaskSelection.keptPage` and `keptAfter` read them).
    weak var currentPageKeys: SQLitePageKeys?
    /// The courses a role under row-level security sees, asked once (`visibleCourseIDs`).
    var visibleCourses: VisibleCourses?

    /// What `visibleCourseIDs` found: the ids, or nil for a role that sees every row.
    struct VisibleCourses {
        var ids: [String]?
        /// The role row-level security restricts (`current_user`), nil when none does.
        var role: String?
    }
    /// Which columns the open file has, looked up once each (`hasColumn`).
    private var columns: [String: Bool] = [:]

    /// True when the open file's `table` has `column`. A reader may open a file an older
    /// version wrote and that no writer has migrated yet (a read-only open migrates nothing):
    /// the reads of columns added since read them as empty instead (`assignment_id` before
    /// schema 6, `created_batch` before 7). A migration only adds columns, so a cached answer
    /// never goes wrong while the store is open.
    func hasColumn(_ table: String, _ column: String) throws -> Bool {
        let key = table + "." + column
        if let known = columns[key] { return known }
        let found = try database.hasColumn(table, column)
        columns[key] = found
        return found
    }

    /// What a read of `courses` selects for a course's language: the column, or `'' AS
    /// language` (no course names one) in a file from before it (SQLite's schema 12,
    /// PostgreSQL's version 11) that a reader opened as it is.
    func courseLanguageColumn() throws -> String {
        try hasColumn("courses", "language") ? "language" : "'' AS language"
    }

    /// What a read of `tasks` adds for a task's submission state and hand-in time (SPEC §11):
    /// `, status, submitted_at`, or nothing in a file from before them (SQLite's schema 12,
    /// PostgreSQL's version 11) that a reader opened as it is: `TaskRowDecoder` then takes the
    /// state `completed` means, as the file's writer did.
    func taskSubmissionColumns(_ alias: String = "") throws -> String {
        let prefix = alias.isEmpty ? "" : alias + "."
        return try hasColumn("tasks", "status") ? ", \(prefix)status, \(prefix)submitted_at" : ""
    }

    /// Opens the store at `path` for writing, creating and migrating it when needed.
    /// - Parameters:
    ///   - busyTimeout: seconds to wait for another writer's lock.
    ///   - modes: the mode a new database file gets (`FileModes.file`).
    /// - Throws: `StoreError`.
    package init(path: String, busyTimeout: Double = 0, modes: FileModes = .ownerOnly) throws(StoreError) {
        self.path = path
        postgres = nil
        try Store.refuseDirectory(path)
        // Whose file this is, judged from its bytes before anything opens it for writing.
        let judgement =
            path == ":memory:" ? StoreIdentity.Judgement(verdict: .absent, file: nil) : try StoreIdentity.judgeFileOnDisk(path)
        let onDisk = judgement.verdict
        do {
            database = try Database(path: path, mode: .readWriteCreate, fileMode: modes.file)
        } catch {
            throw Store.classify(error, path: path)
        }
        // Until SQLite's own reading agrees the file is ours, closing copies no -wal into it.
        if onDisk == .needsSQLite(walCommitted: true) { database.setCheckpointOnClose(false) }
        // Opening takes locks for milliseconds (reading the header, switching a new file to WAL):
        // two processes opening one new file at once would otherwise both fail as busy, neither
        // of them a writer. The open waits for those (`openingGraceSeconds`); the caller's
        // timeout applies from the migration on (a write, which waits for a writer only as asked).
        database.setBusyTimeout(milliseconds: Store.busyMilliseconds(max(busyTimeout, Store.openingGraceSeconds)))
        do {
            // Whose file this is, read before any setting below writes to it.
            let identity = try StoreIdentity.inspect(database, path: path)
            // From here on, every commit checks that the path still names this file, with the
            // same -wal and -shm (`DatabaseFileWatch`); the file judged above must be this one.
            if path != ":memory:" {
                try database.watchFiles(judged: judgement.file)
                // A writer refuses a damaged file before it writes anything (`PageCheck`).
                if identity != .blank { try PageCheck.run(database) }
            }
            database.setCheckpointOnClose(true)
            try database.execute("PRAGMA foreign_keys = ON")
            // A new file gets 16 KiB pages (fewer, fuller B-tree pages: a bulk import writes
            // less); an existing file keeps its page size.
            if identity == .blank {
                try database.execute("PRAGMA page_size = 16384")
            }
            // The writer's page cache (12 MiB, the default is 2 MiB): a million-row import
            // otherwise spills pages to the WAL in the middle of its transaction.
            try database.execute("PRAGMA cache_size = -12288")
            if path != ":memory:" {
                try database.execute("PRAGMA journal_mode = WAL")
                // Readers who may not write the folder need the -wal and -shm (`ReaderSideFiles`):
                // they stay; the -wal is cut to 0 bytes when the writer closes (and to 64 MiB
                // whenever a checkpoint restarts it), so it never keeps a whole import's size.
                database.setKeepSideFiles(true)
                try database.execute("PRAGMA journal_size_limit = 67108864")
                database.noteSideFiles()
            }
            try database.execute("PRAGMA synchronous = FULL")
            // A migration is a write: another writer's lock is waited for only as the caller asked.
            database.setBusyTimeout(milliseconds: Store.busyMilliseconds(busyTimeout))
            try migrate()
        } catch let error as StoreError {
            throw error
        } catch {
            throw Store.classify(error, path: path, waited: busyTimeout)
        }
    }

    /// Opens an existing store read-only; never creates or migrates anything.
    /// - Throws: `StoreError.missing` when there is no file yet.
    /// - Parameter checkPages: false for `verify`, which checks every page itself and reports
    ///   what it finds instead of refusing the file.
    package init(readOnlyPath path: String, checkPages: Bool = true) throws(StoreError) {
        self.path = path
        postgres = nil
        try Store.refuseDirectory(path)
        // Judged first from its bytes and through a connection that creates nothing (no -wal,
        // no -shm), so a refused file is left exactly as it was found.
        let judgement = try StoreIdentity.judgeFileOnDisk(path)
        guard judgement.verdict != .absent else { throw .missing(path: path) }
        // A reader who may not write the folder needs the -wal and -shm there and readable.
        try ReaderSideFiles.check(path)
        do {
            database = try Database(path: path, mode: .readOnly)
            database.setCheckpointOnClose(false)
            database.setBusyTimeout(milliseconds: 5000)
            // A file from before the mark is read as it is (a read-only open cannot mark it);
            // a blank file holds no data yet.
            switch try StoreIdentity.inspect(database, path: path) {
            case .blank: throw StoreError.empty(path: path)
            case .ours(let version) where version < 2, .unmarked(let version) where version < 2:
                throw StoreError.olderSchema(path: path, found: version)
            default: break
            }
            // The file judged is the one SQLite read; every read ends with a look at the files
            // (`read`), so a file replaced or cut short under it never reads as a success.
            try database.watchFiles(judged: judgement.file)
            // Pages no query of this command may read are checked too (`PageCheck`): a damaged
            // file is refused before anything that looks like data is shown.
            if checkPages { try PageCheck.run(database) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw Store.classify(error, path: path)
        }
    }

    /// Opens the PostgreSQL database at `uri` (SPEC §10): the same store over a PostgreSQL
    /// connection (`Database`), its schema judged and, when `create` is true and the database
    /// is empty, created (`PGStore`).
    /// - Parameter busyTimeout: seconds a writer waits for the writers' advisory lock.
    /// - Parameter upgrade: a writer: an older schema is upgraded when the role may (`PGStore`);
    ///   by default only when `create` (a writer that may also create the schema).
    package init(postgres uri: String, busyTimeout: Double = 0, create: Bool, upgrade: Bool? = nil) throws(StoreError) {
        let opened = try PGStore(uri: uri, create: create, upgrade: upgrade ?? create)
        postgres = opened
        path = opened.display
        database = Database(postgres: PGSession(connection: opened.connection), display: opened.display)
        database.setBusyTimeout(milliseconds: Store.busyMilliseconds(busyTimeout))
    }

    /// The schema version of the open file.
    package var schemaVersion: Int {
        if let postgres { return postgres.schemaVersion }
        return (try? database.int("PRAGMA user_version")) ?? 0
    }

    /// Applies every pending migration, each in its own transaction with its version bump.
    private func migrate() throws {
        var version = try database.int("PRAGMA user_version")
        while version < Schema.currentVersion {
            try database.inTransaction(.immediate) {
                // Re-read under the lock: another process may have migrated meanwhile.
                let current = try database.int("PRAGMA user_version")
                guard current == version else { return .commit }
                guard Schema.migrations.indices.contains(version) else {
                    throw StoreError.unknownSchema(path: path, found: version)
                }
                switch Schema.migrations[version] {
                case .sql(let statements): try database.execute(statements)
                case .respellChecks(let checks):
                    try rewrite(checks.map { Schema.CheckRewrite(table: $0.table, old: $0.inList, new: $0.orChain) }, from: version)
                case .rewriteChecks(let rewrites): try rewrite(rewrites, from: version)
                case .addColumns(let columns, let statements):
                    for column in columns where !(try has(column)) { try database.execute(column.statement) }
                    try database.execute(statements)
                }
                // A new file is marked as the dashboard's in the same transaction as its tables.
                if version == 0 { try database.execute("PRAGMA application_id = \(StoreIdentity.applicationID)") }
                try database.execute("PRAGMA user_version = \(version + 1)")
                return .commit
            }
            version = try database.int("PRAGMA user_version")
        }
    }

    /// Whether the column a migration adds is there already (a file whose version was set back
    /// by hand, or a migration repeated): adding it again would fail.
    private func has(_ column: Schema.ColumnAddition) throws -> Bool {
        try database.int("SELECT count(*) FROM pragma_table_info(?) WHERE name = ?", [column.table, column.column]) == 1
    }

    /// Rewrites CHECK constraints in place, by SQLite's documented procedure for changes that
    /// leave the stored rows valid and their format alone
    /// (https://www.sqlite.org/lang_altertable.html#otheralter): within the migration's
    /// transaction, edit the `CREATE TABLE` texts, bump `schema_version` so that every
    /// connection reads the schema again, and reset this connection's copy of it.
    /// A table that already holds the new text (a file whose version was set back by hand) is
    /// left as it is.
    /// - Throws: `StoreError.schemaEdited` when a table's text holds neither the constraint as
    ///   the migrations before wrote it nor the new one (the transaction then rolls back: nothing
    ///   changes).
    private func rewrite(_ rewrites: [Schema.CheckRewrite], from version: Int) throws {
        let cookie = try database.int("PRAGMA schema_version")
        try database.execute("PRAGMA writable_schema = ON")
        for rewrite in rewrites {
            try database.run(
                "UPDATE sqlite_schema SET sql = replace(sql, ?1, ?2) WHERE type = 'table' AND name = ?3 AND instr(sql, ?1) > 0",
                [rewrite.old, rewrite.new, rewrite.table])
            // A file whose version was set back by hand may hold the new text already.
            let done = { () throws -> Bool in
                try self.database.int(
                    "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?1 AND instr(sql, ?2) > 0",
                    [rewrite.table, rewrite.new]) == 1
            }
            guard try database.changes == 1 || done() else {
                try? database.execute("PRAGMA writable_schema = RESET")
                throw StoreError.schemaEdited(path: path, table: rewrite.table, version: version)
            }
        }
        try database.execute("PRAGMA schema_version = \(cookie + 1)")
        try database.execute("PRAGMA writable_schema = RESET")
    }

    /// Refuses a database path that is a folder, or anything else that is not a regular file (a
    /// FIFO would make SQLite wait forever for a writer; a device or socket is no database), a
    /// symbolic link that points to nothing or loops (named as such: SQLite would call it
    /// "unable to open"), and a path the user cannot reach ("cannot read", never "missing").
    private static func refuseDirectory(_ path: String) throws(StoreError) {
        guard path != ":memory:" else { return }
        let kind = PathInspection.inspect(path)
        switch kind {
        case .directory: throw .isDirectory(path: path)
        case .fifo, .socket, .characterDevice, .blockDevice: throw .notADatabase(path: path)
        case .danglingSymlink, .symlinkLoop: throw .badLink(path: path, words: PathInspection.describe(path, kind))
        case .inaccessible(let code): throw .unreadable(path: path, reason: String(cString: strerror(code)))
        default: return
        }
    }

    /// How long opening a database waits for another process's opening locks before its
    /// migration (seconds).
    static let openingGraceSeconds = 5.0

    /// The busy timeout in milliseconds: negative, NaN or sub-millisecond waits are 0, and
    /// anything above `Int32.max` ms (about 24 days) is that, so no value can trap.
    static func busyMilliseconds(_ seconds: Double) -> Int {
        guard !seconds.isNaN, seconds > 0 else { return 0 }
        return Int(min(seconds * 1000, Double(Int32.max)))
    }

    /// The store error behind any failure on the database at `path`: one mapping for every
    /// command, so that a damaged file is always named as such (SQLite's "malformed" and "not a
    /// database" after a valid header), never taken for a bug.
    package static func classify(_ error: Error, path: String, waited: Double = 0) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? InternalError { return .internalFailure(error) }
        if error is PGError { return PGStore.classify(error, display: path, waited: waited) }
        guard let error = error as? SQLiteError else { return .internalFailure(.unexpected("\(error)")) }
        if let change = error.filesChanged { return .filesChanged(path: path, change: change) }
        if error.primaryCode == SQLITE_CORRUPT {
            return .damaged(path: path, detail: error.message)
        }
        if error.primaryCode == SQLITE_NOTADB {
            // After a valid header, "not a database" means pages SQLite cannot read.
            return StoreIdentity.hasSQLiteHeader(path)
                ? .damaged(path: path, detail: error.message) : .notADatabase(path: path)
        }
        if error.isBusy { return .busy(path: path, waitedSeconds: waited) }
        if error.primaryCode == SQLITE_INTERRUPT { return .interrupted(path: path) }
        return .sqlite(error)
    }
}

extension Store: Interruptible {
    package func interrupter() -> @Sendable () -> Void { database.interrupter() }
    package func resumeAfterStop() { database.resumeAfterStop() }
}
