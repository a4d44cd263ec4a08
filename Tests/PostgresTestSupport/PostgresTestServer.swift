import Foundation
import Testing

/// A throwaway PostgreSQL server for the tests: `initdb` into a temporary folder (as the
/// unprivileged `postgres` user when the tests run as root: PostgreSQL refuses to run as root),
/// listening on a Unix socket in that folder and on 127.0.0.1 at a random free port, started
/// once per test process and stopped when it exits. A watcher process stops it too when the
/// test process dies without running its exit handlers (a crash, kill -9): no server outlives
/// the tests.
///
/// Each test asks for a database of its own (`database()`), so tests run in parallel.
public final class PostgresTestServer: @unchecked Sendable {
    public let folder: String
    public let port: Int
    /// The server's superuser (trust authentication on the socket).
    public let superuser = "postgres"

    private static let lock = NSLock()
    nonisolated(unsafe) private static var started: Result<PostgresTestServer, Error>?

    /// The server of this test process, started on first use.
    public static func shared() throws -> PostgresTestServer {
        StorePass.opened("the PostgreSQL test server")
        lock.lock()
        defer { lock.unlock() }
        if let started { return try started.get() }
        let result = Result { try PostgresTestServer() }
        started = result
        return try result.get()
    }

    /// Where PostgreSQL's programs are (`pg_config --bindir`, else Debian's 15), asked once.
    public static let binaries: String = {
        if let output = try? PostgresTestServer.run("/usr/bin/pg_config", ["--bindir"]), output.status == 0 {
            let path = output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            if FileManager.default.fileExists(atPath: path + "/initdb") { return path }
        }
        return "/usr/lib/postgresql/15/bin"
    }()

    private init() throws {
        let base = FileManager.default.temporaryDirectory.path + "/dashboard-pg-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: false)
        folder = base
        port = try Self.freePort()
        let asRoot = getuid() == 0
        if asRoot {
            // The server's own user owns its folder; the socket folder is readable by all.
            _ = try Self.run("/bin/chown", ["postgres:postgres", base])
            chmod(base, 0o755)
        }
        let data = base + "/data"
        let initdb = try Self.asServerUser(
            asRoot, Self.binaries + "/initdb", ["-D", data, "-U", superuser, "--auth=trust", "-E", "UTF8", "--locale=" + Self.locale])
        guard initdb.status == 0 else { throw Failure("initdb failed: \(initdb.stderr)") }
        // Listening on the socket folder and on 127.0.0.1 only; fsync off (a throwaway server).
        let options = "-k \(base) -p \(port) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        try ServerProcess.start(
            "\(asRoot ? "/usr/sbin/runuser -u postgres -- " : "")\(Self.binaries)/pg_ctl -D \(data) -o '\(options)' -l \(base)/server.log -w -t 60 start",
            folder: base, log: base + "/server.log", what: "the test server")
        // The watcher: when this process is gone, the server stops.
        let stop = "\(Self.binaries)/pg_ctl -D \(data) -m immediate stop"
        _ = try ServerProcess.watch(removal: "\(asRoot ? "runuser -u postgres -- " : "")\(stop) >/dev/null 2>&1; rm -rf \(base)")
        let stopNow = asRoot ? "runuser -u postgres -- \(stop)" : stop
        stopCommand = stopNow + " >/dev/null 2>&1; rm -rf " + base
        Self.exitLock.lock()
        defer { Self.exitLock.unlock() }
        if Self.atExit.isEmpty { atexit { PostgresTestServer.stopAllAtExit() } }
        Self.atExit.append(stopCommand)
    }

    /// A server of its own, not the shared one: for a test that copies a whole server (a
    /// standby's base backup, `HotStandby`), which on the shared server, holding a database of
    /// every test run so far, copies gigabytes. Stopped by `stop()`, else when the process exits.
    public static func startOwn() throws -> PostgresTestServer {
        try PostgresTestServer()
    }

    /// Stops the server and removes its folder now (a server of its own, `startOwn()`).
    public func stop() {
        Self.exitLock.lock()
        Self.atExit.removeAll { $0 == stopCommand }
        Self.exitLock.unlock()
        _ = try? Self.run("/bin/sh", ["-c", stopCommand])
    }

    /// The shell command that stops the server immediately and removes its folder.
    private var stopCommand = ""
    private static let exitLock = NSLock()
    /// The stop commands of the servers still running, run by an exit handler.
    nonisolated(unsafe) private static var atExit: [String] = []

    private static func stopAllAtExit() {
        exitLock.lock()
        let commands = atExit
        exitLock.unlock()
        for command in commands { _ = try? run("/bin/sh", ["-c", command]) }
    }

    /// A libpq connection string for `database` on the socket, as `user`.
    public func conninfo(_ database: String = "postgres", user: String? = nil) -> String {
        "host=\(folder) port=\(port) dbname=\(database) user=\(user ?? superuser)"
    }

    /// A `postgresql://` URI for `database` on the socket (what `--db` takes).
    public func url(_ database: String, user: String? = nil) -> String {
        let host = folder.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? folder
        return "postgresql://\(user ?? superuser)@/\(database)?host=\(host)&port=\(port)"
    }

    /// A new empty database of its own for one test (or, with `template`, a copy of that
    /// database, which no one may be connected to). Copied file by file (`STRATEGY FILE_COPY`),
    /// not through the WAL as PostgreSQL 15 does by default: 27 ms a database instead of 42 on a
    /// server with fsync off, and the PostgreSQL pass makes one for each database a test names.
    public func database(template: String? = nil) throws -> String {
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        let create = "CREATE DATABASE \(name)" + (template.map { " TEMPLATE \($0)" } ?? "") + " STRATEGY FILE_COPY"
        let result = try Self.run(Self.binaries + "/psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", conninfo(), "-c", create])
        guard result.status == 0 else { throw Failure("CREATE DATABASE failed: \(result.stderr)") }
        return String(name)
    }

    /// Runs `psql` on `database` with `sql` and returns its unaligned output.
    public func psql(_ database: String, _ sql: String, user: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        try Self.run(
            Self.binaries + "/psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", conninfo(database, user: user), "-c", sql])
    }

    /// The server's locale, and so the collation of its databases: `DASHBOARD_TEST_PG_LOCALE`
    /// (`make test` sets en_US.UTF-8, which it generates: districts' servers have a non-C
    /// collation, and the store must not depend on byte order it did not ask for), else C.UTF-8.
    public static var locale: String {
        let given = ProcessInfo.processInfo.environment["DASHBOARD_TEST_PG_LOCALE"] ?? ""
        return given.isEmpty ? "C.UTF-8" : given
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    private static func asServerUser(_ asRoot: Bool, _ program: String, _ arguments: [String]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        asRoot ? try run("/usr/sbin/runuser", ["-u", "postgres", "--", program] + arguments) : try run(program, arguments)
    }

    /// Runs `program` and returns its exit status and output. The output goes to temporary
    /// files, not pipes: `pg_ctl start` leaves a server running that inherits them, and a
    /// pipe would never reach its end.
    public static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        let base = FileManager.default.temporaryDirectory.path + "/dashboard-pg-run-" + UUID().uuidString
        FileManager.default.createFile(atPath: base + ".out", contents: nil)
        FileManager.default.createFile(atPath: base + ".err", contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: base + ".out")
            try? FileManager.default.removeItem(atPath: base + ".err")
        }
        let (out, err) = (FileHandle(forWritingAtPath: base + ".out")!, FileHandle(forWritingAtPath: base + ".err")!)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try? out.close()
        try? err.close()
        let stdout = (try? String(contentsOfFile: base + ".out", encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: base + ".err", encoding: .utf8)) ?? ""
        return (process.terminationStatus, stdout, stderr)
    }

    /// A TCP port nobody listens on at this moment (bound to port 0, read back, closed).
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw Failure("bind: \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw Failure("getsockname: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
