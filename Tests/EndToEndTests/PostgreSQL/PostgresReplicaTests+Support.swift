import Foundation
import PostgresTestSupport
import Testing

/// A hot standby of a test server (the test's own, `PostgresTestServer.startOwn()`): a read-only
/// server that replays the primary's WAL as it is written, as a district's read replica does.
///
/// Made by `pg_basebackup -R -X stream` through the primary's socket (initdb's trust
/// authentication includes `local replication all trust`, and `wal_level` is `replica` by
/// default in PostgreSQL 15), as the `postgres` OS user when the tests run as root, like the
/// primary. It has a folder, a port and a socket folder of its own and listens on no TCP address
/// (`listen_addresses = ''`): the port only names its socket (`.s.PGSQL.PORT`) in its own folder,
/// so no other server's port can collide with it.
///
/// Policy: no standby outlives its test. `tearDown()` (the test's `defer`) stops it and removes its
/// folder, and a watcher shell does the same if the test process dies first (a crash, kill -9).
/// The base backup copies the whole primary, every other test's database with it: its size and
/// time are reported (`copied`).
final class HotStandby {
    let primary: PostgresTestServer
    /// The standby's data, log and socket; removed with it.
    let folder: String
    /// The port in the name of its socket (no TCP).
    let port: Int
    /// What the base backup copied and how long it took (reported by the test).
    private(set) var copied = ""
    private let asRoot = getuid() == 0
    /// Stops the standby and removes its folder; harmless when done twice.
    private let removal: String
    private var watcher: Process?

    /// Makes the standby of `primary` and starts it; on any failure, removes what it made.
    init(of primary: PostgresTestServer) throws {
        self.primary = primary
        folder = FileManager.default.temporaryDirectory.path + "/dashboard-standby-" + UUID().uuidString.lowercased().prefix(8)
        port = Int.random(in: 20_000...60_000)
        removal =
            "{ \(getuid() == 0 ? "/usr/sbin/runuser -u postgres -- " : "")\(PostgresTestServer.binaries)/pg_ctl -D \(folder)/data "
            + "-m immediate stop; rm -rf \(folder); } >/dev/null 2>&1"
        do {
            try watch()
            try copyPrimary()
            try start()
        } catch {
            tearDown()
            throw error
        }
    }

    /// Stops the standby and removes its folder.
    func tearDown() {
        _ = system(removal)
        watcher?.terminate()
        watcher = nil
    }

    /// A `postgresql://` URI for `database` on the standby's socket, as `user` (what `--db` takes).
    func url(_ database: String, user: String? = nil) -> String {
        let host = folder.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? folder
        return "postgresql://\(user ?? primary.superuser)@/\(database)?host=\(host)&port=\(port)"
    }

    /// A libpq connection string for `database` on the standby's socket, as the superuser.
    func conninfo(_ database: String = "postgres") -> String {
        "host=\(folder) port=\(port) dbname=\(database) user=\(primary.superuser)"
    }

    /// The primary's WAL position written so far (`pg_current_wal_lsn()`), as text.
    func primaryPosition() throws -> String {
        try Self.scalar(primary.conninfo(), "SELECT pg_current_wal_lsn()")
    }

    /// Waits until the standby has replayed the primary's WAL up to `position`
    /// (`pg_last_wal_replay_lsn()`), polling every 20 ms for at most `timeout` seconds.
    /// - Returns: the seconds it waited.
    /// - Throws: `HarnessError` with both positions when the deadline passed.
    @discardableResult
    func waitForReplay(of position: String, timeout: TimeInterval = 60) throws -> Double {
        let started = Date()
        let query = "SELECT pg_last_wal_replay_lsn() >= '\(position)'::pg_lsn"
        while try Self.scalar(conninfo(), query) != "t" {
            guard seconds(since: started) < timeout else {
                let replayed = try Self.scalar(conninfo(), "SELECT pg_last_wal_replay_lsn()")
                throw HarnessError("the standby replayed up to \(replayed), not \(position), in \(Int(timeout)) s")
            }
            usleep(20_000)
        }
        return seconds(since: started)
    }

    /// Every row of every table of `database` at `conninfo`, in one text (each row as the
    /// table's name and the row's text, in byte order), read as the superuser: what "the data is
    /// unchanged" compares.
    static func contents(_ conninfo: String) throws -> String {
        let tables = try query(conninfo, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
        let union = tables.split(separator: "\n").map { "SELECT '\($0)', CAST(x AS text) FROM \($0) x" }.joined(separator: " UNION ALL ")
        return try query(conninfo, "SELECT t || ': ' || r FROM (\(union)) AS all_rows(t, r) ORDER BY t, r COLLATE \"C\"")
    }

    /// The unaligned output of `sql` (no headers) at `conninfo`.
    static func query(_ conninfo: String, _ sql: String) throws -> String {
        let result = try PostgresTestServer.run(
            PostgresTestServer.binaries + "/psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", conninfo, "-c", sql])
        guard result.status == 0 else { throw HarnessError("psql \(conninfo) -c \(sql) failed: \(result.stderr)") }
        return result.stdout
    }

    /// The one value `sql` returns at `conninfo`.
    static func scalar(_ conninfo: String, _ sql: String) throws -> String {
        try query(conninfo, sql).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: - Making it

    /// A shell that waits for this test process to end, then stops the standby and removes its
    /// folder: a crash or a kill -9 leaves no server behind.
    private func watch() throws {
        watcher = try ServerProcess.watch(removal: removal)
    }

    /// The primary's base backup into `folder/data` with the WAL streamed alongside (`-X stream`),
    /// a fast checkpoint (`-c fast`: a spread one waits for the primary's checkpoint pace) and
    /// `standby.signal` and `primary_conninfo` written (`-R`); then the standby's own port and
    /// socket folder, no TCP, and fsync off (a throwaway server, as the primary).
    private func copyPrimary() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        if asRoot { _ = try PostgresTestServer.run("/bin/chown", ["postgres:postgres", folder]) }
        chmod(folder, 0o755)
        let started = Date()
        let backup = try asServerUser(
            PostgresTestServer.binaries + "/pg_basebackup",
            [
                "-h", primary.folder, "-p", String(primary.port), "-U", primary.superuser, "-D", folder + "/data", "-R", "-X", "stream",
                "-c", "fast", "-N",
            ])
        guard backup.status == 0 else { throw HarnessError("pg_basebackup failed (\(backup.status)): \(backup.stderr)") }
        let size = try PostgresTestServer.run("/usr/bin/du", ["-sm", folder + "/data"]).stdout.split(separator: "\t").first ?? "?"
        copied = "\(size) MB in \(formatted(seconds(since: started)))"
        let settings = "\nport = \(port)\nunix_socket_directories = '\(folder)'\nlisten_addresses = ''\nfsync = off\n"
        guard let configuration = FileHandle(forWritingAtPath: folder + "/data/postgresql.conf") else {
            throw HarnessError("no postgresql.conf in the base backup at \(folder)/data")
        }
        defer { try? configuration.close() }
        try configuration.seekToEnd()
        try configuration.write(contentsOf: Data(settings.utf8))
    }

    /// `pg_ctl start`, waiting until the standby accepts connections (`ServerProcess.start`).
    private func start() throws {
        let runAs = asRoot ? "/usr/sbin/runuser -u postgres -- " : ""
        try ServerProcess.start(
            "\(runAs)\(PostgresTestServer.binaries)/pg_ctl -D \(folder)/data -l \(folder)/server.log -w -t 60 start",
            folder: folder, log: folder + "/server.log", what: "the standby")
    }

    /// Runs `program` as the server's OS user (`postgres` when the tests run as root).
    private func asServerUser(_ program: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        asRoot
            ? try PostgresTestServer.run("/usr/sbin/runuser", ["-u", "postgres", "--", program] + arguments)
            : try PostgresTestServer.run(program, arguments)
    }
}
