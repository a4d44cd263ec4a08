import CSQLite
import CSQLiteConfig

/// SQLite's side of a connection's failures (`Database`): a result code made an `SQLiteError`
/// (a change of the files under it, or damage met before, named as such), the connection made
/// query-only once it met damage, and the settings of SQLite's side files.
extension Database {
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
    func classified(_ code: Int32, message: String, sql: String?) -> SQLiteError {
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

    /// True once this connection met a damaged file (SQLITE_CORRUPT or SQLITE_NOTADB).
    package var sawDamage: Bool { damage != nil }

    /// Policy (docs/reliability.md, class 7): once SQLite reports the file damaged, this
    /// connection writes nothing more to it: `query_only` makes every later write fail (so no
    /// failure record, staging clean-up or migration lands in a damaged file). Closing still
    /// checkpoints (nothing new can be committed any more), so the `-wal` and `-shm` SQLite made
    /// for this run are removed.
    func noteFailure(_ code: Int32, message: String) {
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
}
