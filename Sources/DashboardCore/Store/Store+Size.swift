import Foundation

/// The size of the database, for `status` and the monitoring metrics
/// (`dashboard_database_size_bytes`).
extension Store {
    /// The bytes the database takes on its disk, or nil when it has no file (`:memory:`).
    ///
    /// Policy: what fills the disk, in each engine's words (`StoreSQL.databaseBytes`): an SQLite
    /// database is its file plus its `-wal`, a PostgreSQL database what the server says it takes.
    /// - Throws: the store's errors (PostgreSQL).
    func databaseBytes() throws -> Int? { try database.sql.databaseBytes(database) }
}
