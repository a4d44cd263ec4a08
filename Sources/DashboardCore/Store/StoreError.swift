import Foundation

/// Why the store could not be opened or used.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    /// An upgrade that rewrites a table's constraint in place (schema 3, 14) found the table's
    /// text not as `dashboard` wrote it (a table rebuilt by hand): the file stays at `version`,
    /// unchanged.
    case schemaEdited(path: String, table: String, version: Int)
    /// What was asked needs schema version `needed`, and the database is at `found`: a
    /// PostgreSQL database that only its owner's write upgrades (`PGStore.upgrade`); nothing was
    /// written.
    case upgradeNeeded(path: String, found: Int, needed: Int)
    /// The file was written by a newer `dashboard`; it is left untouched.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The file's schema version is one no dashboard ever wrote (negative, or 0 with the
    /// dashboard's mark and tables); it is left untouched.
    case unknownSchema(path: String, found: Int)
    /// A read-only command met a file too old to read as it is (schema 1: no buckets or audit
    /// log yet); a writing command migrates it.
    case olderSchema(path: String, found: Int)
    /// An SQLite file of another application (tables without the dashboard's mark); it is left
    /// untouched.
    case foreign(path: String)
    /// An SQLite file with another application's mark (`PRAGMA application_id`); left untouched.
    case foreignMark(path: String, mark: Int)
    /// A `-wal` file beside the database that holds another database's pages; both are left
    /// untouched.
    case foreignWAL(path: String)
    /// The file (or its `-wal`) exists but cannot be read (the system's reason).
    case unreadable(path: String, reason: String)
    /// The path is a symbolic link that points to nothing, or a loop of links (the words).
    case badLink(path: String, words: String)
    /// An empty file (0 bytes, or SQLite's header and nothing else): a new database that holds
    /// no data yet, which a read-only command cannot initialise.
    case empty(path: String)
    /// An SQLite file SQLite cannot read: truncated, or a page overwritten.
    case damaged(path: String, detail: String)
    /// The path is a directory, not a database file.
    case isDirectory(path: String)
    /// The file exists but is not an SQLite database.
    case notADatabase(path: String)
    /// No database file exists yet (read-only commands never create one).
    case missing(path: String)
    /// A read-only command cannot open the `-wal` or `-shm` (the suffix) that reading a WAL
    /// database needs: missing and not ours to create, or there but unreadable (`reason`, the
    /// system's words); nothing was created.
    case sideFileUnavailable(path: String, suffix: String, reason: String?)
    /// Another process holds the write lock.
    case busy(path: String, waitedSeconds: Double)
    /// SQLite failed.
    case sqlite(SQLiteError)
    /// The PostgreSQL server refused a statement (a bug, or a database changed by hand).
    case postgres(PGError)
    /// The PostgreSQL server refused the role something it was not granted (`refusal`: which
    /// table, why, and the server's words).
    case refused(path: String, refusal: RoleRefusal)
    /// A write asked of a read-only PostgreSQL server: a standby (a replica).
    case readOnlyServer(path: String)
    /// The program broke one of its own invariants (a bug).
    case internalFailure(InternalError)
    /// The run was asked to stop (`StopRequest`) and its running statement was interrupted:
    /// the transaction rolled back.
    case interrupted(path: String)
    /// The file (or its `-wal` or `-shm`) was replaced, deleted or cut short while the command
    /// had it open (`DatabaseFileChange`: what, when, and what became of a write).
    case filesChanged(path: String, change: DatabaseFileChange)

    /// True for the errors a stop leaves (`StopRequest`): an interrupted statement, or a wait
    /// for another writer's lock that the stop ended.
    package var isInterruption: Bool {
        switch self {
        case .interrupted, .busy: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .newerSchema(let path, let found, let supported):
            return "\(path) has schema version \(found), but this dashboard knows versions up to \(supported); it was left unchanged"
        case .unknownSchema(let path, let found):
            return "\(path) has schema version \(found), which no dashboard writes; it was left unchanged"
        case .upgradeNeeded(let path, let found, let needed):
            return
                "\(path) has schema version \(found), and what was asked needs version \(needed): only a writer of the role "
                + "that owns its tables upgrades it; nothing was written"
        case .schemaEdited(let path, let table, let version):
            return
                "\(path): table \(table) does not hold the constraint that the upgrade to schema \(version + 1) rewrites "
                + "(the table was changed by hand); the file was left at schema \(version), unchanged"
        case .olderSchema(let path, let found):
            return "\(path) has schema version \(found), older than this dashboard reads without migrating it; it was left unchanged"
        case .foreign(let path):
            return "\(path) is not a dashboard database (it holds tables of another application); it was left unchanged"
        case .foreignMark(let path, let mark):
            return
                "\(path) is not a dashboard database (it carries another application's mark, application_id \(mark)); it was left unchanged"
        case .foreignWAL(let path):
            return "\(path)-wal holds pages of another database, not of \(path); both files were left unchanged"
        case .unreadable(let path, let reason): return "cannot read the database \(path): \(reason)"
        case .refused(let path, let refusal):
            return "\(path) refused \(refusal.role.map { "role \($0)" } ?? "this role"): \(refusal.serverMessage)"
        case .readOnlyServer(let path): return "\(path) is a read-only server (a standby): nothing can be written there"
        case .badLink(_, let words): return words
        case .empty(let path): return "\(path) holds no data yet (an empty database)"
        case .damaged(let path, let detail):
            if case .postgres = DatabaseLocation(path) { return "the database is damaged: \(path): \(detail)" }
            return "the database file is damaged: \(path): \(detail)"
        case .isDirectory(let path): return "\(path) is a directory, not a database file"
        case .notADatabase(let path): return "\(path) is not a dashboard database (not an SQLite file)"
        case .missing(let path): return "no database at \(path) yet"
        case .sideFileUnavailable(let path, let suffix, let reason):
            if let reason { return "cannot read \(path)\(suffix), which a reader of the database needs: \(reason)" }
            return "\(path)\(suffix), which a reader of the database needs, is missing, and this user may not create it"
        case .busy(let path, let waited):
            let waitedText = waited > 0 && waited.isFinite ? " after waiting \(Int(min(waited, 1e12))) s" : ""
            return "another dashboard process is writing to \(path)\(waitedText)"
        case .sqlite(let error): return error.description
        case .postgres(let error):
            let state = error.sqlState.map { " (SQLSTATE \($0))" } ?? ""
            return "PostgreSQL error\(state): \(error.message)\(error.sql.map { " (in: \($0))" } ?? "")"
        case .internalFailure(let error): return error.description
        case .filesChanged(let path, let change): return change.words(path: path)
        case .interrupted: return "the run was stopped before it committed; nothing of it was written"

        }
    }
}
