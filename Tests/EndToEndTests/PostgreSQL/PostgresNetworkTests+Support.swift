import Foundation
import PostgresTestSupport
import Testing

/// Two machines on one wire: a database server and a teacher's machine, each a network
/// namespace of its own, joined by a veth pair on a private /24 (server .1, teacher .2), with a
/// throwaway PostgreSQL 15 server of their own on the server's machine.
///
/// The server listens on TCP on the server's address only, and `pg_hba.conf` lets the teacher's
/// address in by password (SCRAM-SHA-256) and nothing else over TCP. Its Unix socket is an
/// abstract one (`@dbsrv-…`), with trust, for the administrator on the server's machine: an
/// abstract socket belongs to its network namespace, so the teacher's machine cannot reach it,
/// as on two real machines. A socket in a folder would not do: a path reaches it from every
/// namespace, and the teacher's role would get in by trust, without a password (tried: it does).
///
/// Everything is removed by `tearDown()` (the test's `defer`), and by a watcher shell if the test
/// process dies first (a crash, kill -9): the server stopped, both namespaces deleted (the veth
/// pair with them), the folder removed.
final class TwoMachineNetwork {
    /// One machine: its network namespace and its address on the wire.
    struct Machine {
        let namespace: String
        let address: String
    }

    /// iproute2's `ip`, where Debian puts it.
    static let ip = ["/usr/sbin/ip", "/sbin/ip"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// True when the network can be built: root, iproute2's `ip` and PostgreSQL's `initdb`.
    static var canBeBuilt: Bool {
        getuid() == 0 && ip != nil && FileManager.default.isExecutableFile(atPath: PostgresTestServer.binaries + "/initdb")
    }

    let server: Machine
    let teacher: Machine
    let port: Int
    /// The server's Unix socket: an abstract name (`@…`), reachable on the server's machine only.
    let socket: String
    /// The server's data and log, and the outputs of the runs; removed with the network.
    let folder: String
    private let ip = TwoMachineNetwork.ip ?? "/usr/sbin/ip"
    /// Stops the server, deletes both namespaces, removes the folder; harmless when done twice.
    private let removal: String
    private var watcher: Process?

    init() throws {
        let tag = String(UUID().uuidString.lowercased().prefix(8))
        let subnet = Int.random(in: 1...254)
        server = Machine(namespace: "dbsrv-\(tag)", address: "10.213.\(subnet).1")
        teacher = Machine(namespace: "teacher-\(tag)", address: "10.213.\(subnet).2")
        // The server's namespace is new: every port in it is free.
        port = Int.random(in: 20_000...60_000)
        socket = "@dbsrv-\(tag)"
        folder = FileManager.default.temporaryDirectory.path + "/dashboard-netns-\(tag)"
        removal =
            "{ /usr/sbin/runuser -u postgres -- \(PostgresTestServer.binaries)/pg_ctl -D \(folder)/data -m immediate stop; "
            + "\(ip) netns del \(server.namespace); \(ip) netns del \(teacher.namespace); rm -rf \(folder); } >/dev/null 2>&1"
        do {
            try watch()
            try wire(tag)
            try startServer()
        } catch {
            tearDown()
            throw error
        }
    }

    /// Removes everything the network made.
    func tearDown() {
        _ = system(removal)
        watcher?.terminate()
        watcher = nil
    }

    /// A URI through the server's socket, as `user` (only the server's machine reaches it).
    func socketURI(_ user: String, _ database: String) -> String {
        "postgresql://\(user)@/\(database)?host=%40\(socket.dropFirst())&port=\(port)"
    }

    /// A URI over TCP to the server's address, as `user`.
    func networkURI(_ user: String, _ database: String) -> String {
        "postgresql://\(user)@\(server.address):\(port)/\(database)"
    }

    /// Runs `program ARGS` on `machine` (`ip netns exec`) to its end, in `directory`, with the
    /// sandbox's base environment and `environment`.
    ///
    /// `DASHBOARD_DB` names `uri` as well: it keeps the PostgreSQL pass of the suites
    /// (`StoreUnderTest`) from giving a run without `--db` (psql) a database of the shared server.
    func run(
        on machine: Machine, _ program: String, _ arguments: [String], uri: String, environment: [String: String] = [:],
        in directory: URL
    ) throws -> CommandResult {
        let environment = Sandbox.baseEnvironment.merging(environment) { $1 }.merging(["DASHBOARD_DB": uri]) { $1 }
        return try RunningCommand(
            executable: URL(fileURLWithPath: ip), arguments: ["netns", "exec", machine.namespace, program] + arguments,
            directory: directory, environment: environment, stdin: nil, ioDirectory: URL(fileURLWithPath: folder), timeout: 60
        ).finish()
    }

    /// Runs `dashboard --db URI ARGS` on `machine`.
    func dashboard(
        on machine: Machine, _ uri: String, _ arguments: [String], environment: [String: String] = [:], in directory: URL
    ) throws -> CommandResult {
        try run(on: machine, DashboardBinary.url().path, ["--db", uri] + arguments, uri: uri, environment: environment, in: directory)
    }

    /// Runs `sql` in `psql` on `machine` (unaligned, no headers, stopping at the first error).
    func psql(on machine: Machine, _ uri: String, _ sql: String, environment: [String: String] = [:], in directory: URL) throws
        -> CommandResult
    {
        try run(
            on: machine, PostgresTestServer.binaries + "/psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", uri, "-c", sql],
            uri: uri, environment: environment, in: directory)
    }

    // MARK: - Building it

    /// A shell that waits for this test process to end, then removes the network: a crash or a
    /// kill -9 leaves no server and no namespace behind.
    private func watch() throws {
        watcher = try ServerProcess.watch(removal: removal)
    }

    /// Both namespaces, the veth pair between them (made in place), their addresses, links up.
    private func wire(_ tag: String) throws {
        let (s, t, serverEnd, teacherEnd) = (server.namespace, teacher.namespace, "vs-\(tag)", "vt-\(tag)")
        for command in [
            ["netns", "add", s], ["netns", "add", t],
            ["link", "add", serverEnd, "netns", s, "type", "veth", "peer", "name", teacherEnd, "netns", t],
            ["-n", s, "address", "add", server.address + "/24", "dev", serverEnd],
            ["-n", t, "address", "add", teacher.address + "/24", "dev", teacherEnd],
            ["-n", s, "link", "set", "lo", "up"], ["-n", s, "link", "set", serverEnd, "up"],
            ["-n", t, "link", "set", "lo", "up"], ["-n", t, "link", "set", teacherEnd, "up"],
        ] {
            let result = try PostgresTestServer.run(ip, command)
            guard result.status == 0 else { throw HarnessError("ip \(command.joined(separator: " ")) failed: \(result.stderr)") }
        }
    }

    /// `initdb` as the `postgres` user, the network's `pg_hba.conf`, `pg_ctl start` in the
    /// server's namespace.
    ///
    /// `pg_ctl` runs through `ServerProcess.start` (which says why not through `Process`).
    private func startServer() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        _ = try PostgresTestServer.run("/bin/chown", ["postgres:postgres", folder])
        let (binaries, data) = (PostgresTestServer.binaries, folder + "/data")
        let initdb = try PostgresTestServer.run(
            "/usr/sbin/runuser",
            [
                "-u", "postgres", "--", binaries + "/initdb", "-D", data, "-U", "postgres", "--auth-local=trust",
                "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=" + PostgresTestServer.locale,
            ])
        guard initdb.status == 0 else { throw HarnessError("initdb failed: \(initdb.stderr)") }
        // The server's machine through the socket; the teacher's machine by password; no one else.
        try "local all all trust\nhost all all \(teacher.address)/32 scram-sha-256\n".write(
            toFile: data + "/pg_hba.conf", atomically: false, encoding: .utf8)
        let options =
            "-k \(socket) -p \(port) -c listen_addresses=\(server.address) -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        try ServerProcess.start(
            "\(ip) netns exec \(server.namespace) /usr/sbin/runuser -u postgres -- \(binaries)/pg_ctl -D \(data) -o \"\(options)\" "
                + "-l \(folder)/server.log -w -t 60 start",
            folder: folder, log: folder + "/server.log", what: "the server in \(server.namespace)")
    }
}
