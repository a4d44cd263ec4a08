import CSQLite
import Foundation

/// The size of the database, for `status` and the monitoring metrics
/// (`dashboard_database_size_bytes`).
extension Store {
    /// The bytes the database takes on its disk, or nil when it has no file (`:memory:`).
    ///
    /// Policy: what fills the disk. An SQLite database is its file plus its `-wal` (the pages
    /// committed since the last checkpoint; the `-shm` is an index of the `-wal`, a few pages,
    /// not counted), both found where SQLite itself opened them (a `--db` that is a symbolic
    /// link counts its target's files). A PostgreSQL database is what the server says it takes,
    /// `pg_database_size(current_database())` (its tables, indexes and TOAST; any role that may
    /// connect may ask).
    /// - Throws: the store's errors (PostgreSQL).
    func databaseBytes() throws -> Int? {
        if database.dialect == .postgres {
            return try database.int("SELECT pg_database_size(current_database())")
        }
        guard let handle = database.sqliteHandle, let name = sqlite3_db_filename(handle, "main") else { return nil }
        let path = String(cString: name)
        var info = stat()
        guard !path.isEmpty, stat(path, &info) == 0 else { return nil }
        var total = Int(info.st_size)
        if stat(path + "-wal", &info) == 0 { total += Int(info.st_size) }
        return total
    }
}
