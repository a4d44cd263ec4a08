import DashboardCore
import Foundation
import PostgresTestSupport

/// Which store the store suites run against: SQLite files (the default), or PostgreSQL
/// databases on this test process's throwaway server (`DASHBOARD_TEST_STORE=postgresql`: the
/// PostgreSQL pass of `make test`, docs/postgresql.md). A suite that opens its store through
/// `make` runs on both; one about SQLite files themselves opens `Store(path:)`.
enum TestStore {
    static let isPostgres = ProcessInfo.processInfo.environment["DASHBOARD_TEST_STORE"] == "postgresql"

    /// A new store: the SQLite file at `path`, or a new PostgreSQL database.
    static func make(_ path: String) throws -> Store {
        guard isPostgres else { return try Store(path: path) }
        let server = try PostgresTestServer.shared()
        let name = try server.database()
        guard case .postgres(let uri) = DatabaseLocation(server.url(name)) else { return try Store(path: path) }
        return try Store(postgres: uri, create: true)
    }
}
