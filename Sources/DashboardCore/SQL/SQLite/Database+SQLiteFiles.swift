import CSQLite
import CSQLiteConfig

/// The files under an SQLite connection (`Database`, `DatabaseFileWatch`): a commit refused when
/// the path no longer names the file SQLite has open, the checks after a commit and after a
/// read, and the `-wal` settled after a change.
extension Database {
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

    /// SQLite's commit hook: 1 turns the commit into a rollback.
    func commitVerdict() -> Int32 {
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
    func fileChange(after code: Int32) -> DatabaseFileChange? {
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
    func settled(_ error: Error) -> Error {
        guard let watch = fileWatch, var change = watch.finding else { return error }
        change.walSettled = settleWAL()
        watch.finding = change
        return SQLiteError(code: SQLITE_IOERR, message: change.words(path: path), filesChanged: change)
    }

    /// Right after a commit: a change seen now means the commit went into the file SQLite had
    /// open, not into the one the path names (or into a `-wal` that lost it).
    func checkFilesAfterCommit() throws {
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
    func checkpointAfterCommit() throws {
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
    func settleWAL() -> Bool? {
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
