import Foundation
import PostgresTestSupport
import Testing

/// The PostgreSQL store across a network (issue 16): the server and a teacher's machine are two
/// network namespaces joined by a wire (`TwoMachineNetwork`), and a teacher's login role reads
/// the district's database over TCP with a password, from `PGPASSWORD` or from a password file.
///
/// Policy: from her own machine a teacher reaches the server over TCP only, and only with her
/// password; `report list`, `report grid` and psql show her courses and their tasks and nothing
/// of another teacher's; a wrong password exits 74; no output ever holds a password, right or
/// wrong. The administrator imports and grants on the server's machine, through its socket.
@Suite(
    .enabled(
        if: TwoMachineNetwork.canBeBuilt,
        "needs root, iproute2's ip and PostgreSQL's initdb: two network namespaces and a server of their own")
)
struct PostgresNetworkTests {
    static let password = "a secret with spaces"
    static let wrongPassword = "not the secret at all"
    static let asOf = "2026-11-29T08:00:00Z"
    /// What Bo Chen's course C2 and its tasks T3 and T4 would show if they leaked.
    static let otherTeachersWords = ["C2", "BIO 200", "Biology", "Bo Chen", "T3", "Lab report", "T4", "Reading"]

    /// Where the teacher's password comes from.
    enum PasswordSource: CaseIterable, CustomTestStringConvertible {
        case environment
        case file

        var testDescription: String { self == .environment ? "PGPASSWORD" : "a PGPASSFILE" }

        /// The environment that hands libpq `password` this way: `PGPASSWORD`, or a 0600 password
        /// file in the sandbox whose line names the network's server, port, database and `ann`.
        func environment(_ password: String, _ network: TwoMachineNetwork, _ sandbox: Sandbox) throws -> [String: String] {
            guard self == .file else { return ["PGPASSWORD": password] }
            let escaped = password.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:")
            let line = "\(network.server.address):\(network.port):district:ann:\(escaped)\n"
            let path = try sandbox.write("pgpass-\(UUID().uuidString.prefix(8))", line)
            chmod(path, 0o600)
            return ["PGPASSFILE": path]
        }
    }

    /// The district on the network's server, made by the administrator on the server's machine:
    /// CopyCommandTests' courses and tasks (Ann Lee's C1 with T1 and T2, Bo Chen's C2 with T3
    /// and T4) imported, a login role `ann` with the password, granted Ann Lee's courses.
    /// - Returns: the outputs of the steps.
    static func district(_ network: TwoMachineNetwork, _ sandbox: Sandbox) throws -> [CommandResult] {
        try sandbox.write("courses.csv", CopyCommandTests.courses)
        try sandbox.write("tasks.csv", CopyCommandTests.tasks)
        let (server, here, admin) = (network.server, sandbox.directory, network.socketURI("postgres", "district"))
        var steps = [try network.psql(on: server, network.socketURI("postgres", "postgres"), "CREATE DATABASE district", in: here)]
        steps.append(try network.dashboard(on: server, admin, ["--as-of", asOf, "import", "courses.csv", "tasks.csv"], in: here))
        steps.append(try network.psql(on: server, admin, "CREATE ROLE ann LOGIN PASSWORD '\(password)'", in: here))
        steps.append(try network.dashboard(on: server, admin, ["access", "grant-teacher", "ann", "--teacher", "Ann Lee"], in: here))
        for step in steps { try #require(step.exitCode == 0, "setting up the district: \(step)") }
        return steps
    }

    @Test(arguments: PasswordSource.allCases)
    func aTeacherOnAnotherMachineReadsOnlyHerCoursesOverTCPWithHerPassword(from source: PasswordSource) throws {
        let network = try TwoMachineNetwork()
        defer { network.tearDown() }
        let sandbox = try Sandbox()
        var outputs = try Self.district(network, sandbox)
        let (teacher, here, uri) = (network.teacher, sandbox.directory, network.networkURI("ann", "district"))
        let right = try source.environment(Self.password, network, sandbox)
        let wrong = try source.environment(Self.wrongPassword, network, sandbox)

        for report in ["list", "grid"] {
            let result = try network.dashboard(
                on: teacher, uri, ["--as-of", Self.asOf, "report", report, "--format", "json"], environment: right, in: here)
            outputs.append(result)
            #expect(result.exitCode == 0 && result.stderr == "", "report \(report) as ann over TCP: \(result)")
            if result.exitCode == 0 { Self.expectOnlyAnnLeesCourse(report, result.stdout) }

            let refused = try network.dashboard(on: teacher, uri, ["report", report, "--format", "json"], environment: wrong, in: here)
            outputs.append(refused)
            #expect(refused.exitCode == 74, "report \(report) with a wrong password: \(refused)")
            #expect(refused.stdout == "")
            // libpq names the password file it used (the line break shown as ␊, as in every message).
            let file = wrong["PGPASSFILE"].map { "␊password retrieved from file \"\($0)\"" } ?? ""
            #expect(
                refused.stderr
                    == "dashboard: error: cannot read the database \(uri): cannot connect to PostgreSQL: connection to server at "
                    + "\"\(network.server.address)\", port \(network.port) failed: FATAL:  password authentication failed for user "
                    + "\"ann\"\(file)\ndashboard: hint: check that the server runs and the URI, user and password (~/.pgpass, "
                    + "PGPASSWORD) are right (docs/postgresql.md)\n")
        }
        let psql = try network.psql(on: teacher, uri, "SELECT course_id FROM courses ORDER BY 1", environment: right, in: here)
        outputs.append(psql)
        #expect(psql.exitCode == 0 && psql.stdout == "C1\n", "psql as ann over TCP: \(psql)")
        // Nor do the grid's counts kept per course (a table without a policy of its own) show Bo Chen's.
        let counts = try network.psql(on: teacher, uri, "SELECT DISTINCT course_id FROM course_buckets", environment: right, in: here)
        outputs.append(counts)
        #expect(!counts.stdout.contains("C2"), "course_buckets as ann: \(counts)")
        Self.expectNoPassword(in: outputs)
    }

    @Test func theServersSocketIsOutOfTheTeachersReachAndTCPLetsInOnlyTheTeachersMachine() throws {
        let network = try TwoMachineNetwork()
        defer { network.tearDown() }
        let sandbox = try Sandbox()
        var outputs = try Self.district(network, sandbox)
        let (server, teacher, here) = (network.server, network.teacher, sandbox.directory)
        let socket = network.socketURI("ann", "district")
        let right = ["PGPASSWORD": Self.password]

        // On the server's machine the socket lets ann in without a password (trust): only the
        // machine boundary keeps her out of it from her own.
        let local = try network.psql(on: server, socket, "SELECT current_user", in: here)
        #expect(local.exitCode == 0 && local.stdout == "ann\n", "psql as ann on the server's machine: \(local)")

        let unreachable = "connection to server on socket \"\(network.socket)/.s.PGSQL.\(network.port)\" failed: Connection refused"
        let viaSocket = try network.dashboard(on: teacher, socket, ["report", "list", "--format", "json"], environment: right, in: here)
        #expect(viaSocket.exitCode == 74 && viaSocket.stdout == "", "the socket from the teacher's machine: \(viaSocket)")
        #expect(viaSocket.stderr.hasPrefix("dashboard: error: cannot read the database \(socket): cannot connect to PostgreSQL: "))
        #expect(viaSocket.stderr.contains(unreachable), "\(viaSocket.stderr)")
        let psqlViaSocket = try network.psql(on: teacher, socket, "SELECT 1", environment: right, in: here)
        #expect(psqlViaSocket.exitCode == 2 && psqlViaSocket.stderr.contains(unreachable), "\(psqlViaSocket)")

        // TCP from any address but the teacher's (here the server's own) finds no pg_hba line.
        let fromServer = try network.psql(on: server, network.networkURI("ann", "district"), "SELECT 1", environment: right, in: here)
        #expect(fromServer.exitCode == 2, "ann over TCP from the server's address: \(fromServer)")
        #expect(
            fromServer.stderr.contains(
                "no pg_hba.conf entry for host \"\(network.server.address)\", user \"ann\", database \"district\""),
            "\(fromServer.stderr)")
        outputs += [local, viaSocket, psqlViaSocket, fromServer]
        Self.expectNoPassword(in: outputs)
    }

    /// `report list|grid --format json` shows C1 and its tasks T1 and T2, and nothing of Bo Chen's C2:
    /// not its words, not its tasks in the counts.
    static func expectOnlyAnnLeesCourse(_ report: String, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(strings("course_id", in: json) == ["C1"], "report \(report): \(json)", sourceLocation: sourceLocation)
        #expect(strings("task_id", in: json) == (report == "list" ? ["T1", "T2"] : []), sourceLocation: sourceLocation)
        #expect(otherTeachersWords.filter(json.contains) == [], "report \(report) shows C2", sourceLocation: sourceLocation)
        #expect(number(["total_tasks"], in: json) == 2, "report \(report): \(json)", sourceLocation: sourceLocation)
        if report == "grid" {
            #expect(number(["totals", "courses"], in: json) == 1, sourceLocation: sourceLocation)
            #expect(number(["totals", "total"], in: json) == 2, sourceLocation: sourceLocation)
        }
    }

    /// Every string value under `key` anywhere in the JSON document `text`, in a set.
    static func strings(_ key: String, in text: String) -> Set<String> {
        func collect(_ value: Any) -> [String] {
            if let array = value as? [Any] { return array.flatMap(collect) }
            guard let object = value as? [String: Any] else { return [] }
            return object.flatMap { name, inner in
                let own = name == key ? inner as? String : nil
                return collect(inner) + (own.map { [$0] } ?? [])
            }
        }
        return Set((try? JSONSerialization.jsonObject(with: Data(text.utf8))).map(collect) ?? [])
    }

    /// The number at `path` (keys from the top) in the JSON document `text`.
    static func number(_ path: [String], in text: String) -> Int? {
        let top = try? JSONSerialization.jsonObject(with: Data(text.utf8))
        return path.reduce(top) { ($0 as? [String: Any])?[$1] } as? Int
    }

    /// Neither password, right or wrong, in any output of any run.
    static func expectNoPassword(in outputs: [CommandResult], sourceLocation: SourceLocation = #_sourceLocation) {
        for output in outputs {
            for secret in [password, wrongPassword] {
                #expect(
                    !output.stdout.contains(secret) && !output.stderr.contains(secret), "a password printed: \(output)",
                    sourceLocation: sourceLocation)
            }
        }
    }
}
