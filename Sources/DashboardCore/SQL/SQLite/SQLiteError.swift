import CSQLite
import Foundation

/// An error reported by SQLite, with the extended result code, SQLite's own message and
/// the SQL that failed.
public struct SQLiteError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The extended result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_PRIMARYKEY`, …).
    public let code: Int32
    /// SQLite's message for the failure.
    public let message: String
    /// The statement that failed, when there was one.
    public let sql: String?
    /// The operating system's errno behind an I/O failure (0 when none).
    package let systemErrno: Int32
    /// The change to the database's files behind the failure, when the connection's watch saw
    /// one (`DatabaseFileWatch`): the store reports that, not SQLite's words.
    package let filesChanged: DatabaseFileChange?

    package init(code: Int32, message: String, sql: String? = nil, systemErrno: Int32 = 0, filesChanged: DatabaseFileChange? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
        self.systemErrno = systemErrno
        self.filesChanged = filesChanged
    }

    /// The primary result code (the low byte of the extended code).
    package var primaryCode: Int32 { code & 0xFF }

    /// True when another connection holds the lock SQLite needed.
    package var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// True when the disk or the database's page limit is full. SQLite reports some full-disk
    /// failures as I/O errors (e.g. `SQLITE_IOERR_SHMSIZE` when the shared-memory file cannot
    /// grow): the system errno tells them apart.
    package var isFull: Bool { primaryCode == SQLITE_FULL || systemErrno == ENOSPC || systemErrno == EDQUOT }

    /// True for failures of the storage itself (read-only file, I/O error, cannot open).
    package var isIOError: Bool {
        [SQLITE_IOERR, SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_FULL, SQLITE_PERM, SQLITE_NOTADB]
            .contains(primaryCode)
    }

    /// True when SQLite found the file's pages malformed (a damaged database file).
    package var isCorrupt: Bool { primaryCode == SQLITE_CORRUPT }

    public var description: String {
        if let sql { return "SQLite error \(code): \(message) (in: \(sql))" }
        return "SQLite error \(code): \(message)"
    }
}
