import CSQLite

/// An error reported by SQLite, with the extended result code, SQLite's own message and
/// the SQL that failed.
public struct SQLiteError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The extended result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_PRIMARYKEY`, …).
    public let code: Int32
    /// SQLite's message for the failure.
    public let message: String
    /// The statement that failed, when there was one.
    public let sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (the low byte of the extended code).
    public var primaryCode: Int32 { code & 0xFF }

    /// True when another connection holds the lock SQLite needed.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// True when the disk or the database's page limit is full.
    public var isFull: Bool { primaryCode == SQLITE_FULL }

    /// True for failures of the storage itself (read-only file, I/O error, cannot open).
    public var isIOError: Bool {
        [SQLITE_IOERR, SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_FULL, SQLITE_PERM, SQLITE_NOTADB]
            .contains(primaryCode)
    }

    public var description: String {
        if let sql { return "SQLite error \(code): \(message) (in: \(sql))" }
        return "SQLite error \(code): \(message)"
    }
}
