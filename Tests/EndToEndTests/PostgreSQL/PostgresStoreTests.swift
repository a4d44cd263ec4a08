import Foundation
import PostgresTestSupport
import Testing

/// What only the PostgreSQL store has, in the PostgreSQL pass of the end-to-end suites
/// (`StoreUnderTest`): its first import killed at random moments, `verify` of a database changed
/// by hand in psql, and an empty database as "no data yet". Everything else both stores share
/// runs in the other suites on both.
@Suite(.postgresPass, .serialized) struct PostgresStoreTests {
    /// Kills per run (`$RELIABILITY_KILLS`, as the SQLite crash suites).
    static let killCount = ProcessInfo.processInfo.environment["RELIABILITY_KILLS"].flatMap { Int($0) } ?? 12

    /// The state a killed first import left: none of it, or all of it.
    enum Landing: String, CaseIterable {
        case noSchema = "before the schema was made"
        case emptySchema = "after the schema, before the import's commit"
        case whole = "after the import's commit"
    }

    /// A first import into an empty database is two transactions (the schema, then the batch):
    /// killed at any moment it leaves no schema, an empty schema, or the whole batch, and the next
    /// import finishes the job.
    @Test func aFirstImportKilledAtRandomMomentsLeavesNothingOrEverything() throws {
        let fixture = try ReliabilityFixture.large.get()
        let sandbox = try Sandbox()
        try fixture.prepare(sandbox, database: "unused.sqlite")
        let server = try PostgresTestServer.shared()
        var generator = SeededGenerator(seed: 0x5EED_0016)
        var landings: [Landing: Int] = [:]
        var duration = fixture.syncSeconds
        for kill in 1...Self.killCount {
            let name = try server.database()
            let uri = server.url(name)
            let delay = 0.005 + generator.unit() * duration
            let context = "kill \(kill) of \(Self.killCount), \(Int(delay * 1000)) ms into the first import"
            let launched = Date()
            let running = try sandbox.launch(["--db", uri, "import", "base/"])
            let remaining = delay - seconds(since: launched)
            if remaining > 0 { usleep(UInt32(remaining * 1_000_000)) }
            Foundation.kill(running.process.processIdentifier, SIGKILL)
            running.process.waitUntilExit()
            let killed = running.process.terminationReason == .uncaughtSignal
            if !killed { duration = seconds(since: launched) }
            let schema = try server.psql(name, "SELECT to_regclass('dashboard_schema') IS NOT NULL").stdout
            let landing: Landing
            if schema == "f\n" {
                landing = .noSchema
                #expect(try server.psql(name, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").stdout == "0\n", "\(context)")
            } else {
                let rows = try server.psql(
                    name, "SELECT (SELECT count(*) FROM courses) + (SELECT count(*) FROM tasks) + (SELECT count(*) FROM batches)"
                ).stdout
                if rows == "0\n" {
                    landing = .emptySchema
                } else {
                    landing = .whole
                    #expect(try server.psql(name, "SELECT batch_id, status FROM batches").stdout == "1|committed\n", "\(context)")
                    #expect(try Self.data(server, name) == fixture.before, "\(context): a part of the import")
                }
            }
            landings[landing, default: 0] += 1
            // The next import gives the whole batch, numbered 1: nothing of the killed one stayed.
            let next = try sandbox.run(["--db", uri, "import", "base/"])
            #expect(next.exitCode == 0, "\(context): the import after the kill: \(next)")
            #expect(try Self.data(server, name) == fixture.before, "\(context): the import after the kill")
            let batches = landing == .whole ? "1|committed\n2|committed\n" : "1|committed\n"
            #expect(try server.psql(name, "SELECT batch_id, status FROM batches ORDER BY 1").stdout == batches, "\(context)")
        }
        reportFigure(
            "PostgreSQL first import: \(Self.killCount) kills on \(fixture.workload.taskCount) tasks: "
                + Landing.allCases.map { "\(landings[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", "))
        #expect(landings.values.reduce(0, +) == Self.killCount)
    }

    /// The courses and tasks as `DatabaseSnapshot.data` reads them from a database file.
    static func data(_ server: PostgresTestServer, _ name: String) throws -> String {
        let path = "/postgres/" + name
        try StoreUnderTest.register(path, database: name)
        return try DatabaseSnapshot.data(path)
    }

    @Test func verifyReportsWhatAHandInPsqlBrokeAndNothingForADatabaseTheDashboardWrote() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        let clean = try sandbox.run(["--db", "db.sqlite", "verify"])
        #expect(
            clean
                == CommandResult(
                    exitCode: 0,
                    stdout: "db.sqlite: no problems found (integrity, foreign keys, stored values, audit chains, kept counts)\n",
                    stderr: ""))
        let edit = try sandbox.sqlShell(
            "db.sqlite",
            """
            ALTER TABLE tasks DISABLE TRIGGER tasks_refer_inserted;
            INSERT INTO tasks (task_id, course_id, title) VALUES ('x1', 'nowhere', 'Orphan');
            UPDATE tasks SET due = 'soon' WHERE task_id = 't1';
            """)
        #expect(edit.exitCode == 0, "\(edit)")
        let broken = try sandbox.run(["--db", "db.sqlite", "verify"])
        #expect(broken.exitCode == 65, "\(broken)")
        #expect(
            broken.stdout == """
                integrity: disabled trigger tasks_refer_inserted
                tasks x1 course_id 'nowhere': must name an existing courses.course_id
                tasks t1 due 'soon': must be empty, YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS or YYYY-MM-DDTHH:MM:SSZ

                """)
        #expect(broken.stderr.hasPrefix("dashboard: error: db.sqlite: 3 problems found\n"), "\(broken.stderr)")
    }

    @Test func anEmptyDatabaseHoldsNoDataYetForEveryReaderAndEveryChangeOfDataWithoutCreatingTheSchema() throws {
        let sandbox = try Sandbox()
        let status = try sandbox.run(["--db", "db.sqlite", "status"])
        #expect(
            status
                == CommandResult(
                    exitCode: 66,
                    stdout:
                        "No data imported yet: db.sqlite holds no data yet (an empty database).\nNext step: dashboard import imports/\n",
                    stderr: ""))
        for command in [["categorize"], ["reclassify", "t1", "--to", "today", "--reason", "x"], ["revert", "1"]] {
            let result = try sandbox.run(["--db", "db.sqlite"] + command)
            #expect(result.exitCode == 66, "\(command): \(result)")
            #expect(result.stderr.hasPrefix("dashboard: error: db.sqlite holds no data yet (an empty database)\n"), "\(command): \(result)")
        }
        #expect(!sandbox.exists("db.sqlite"), "no schema was made")
    }

    /// A password given in the URI reaches libpq only: no output, message, batch record or
    /// setting holds it, also when the run fails.
    @Test func aPasswordInTheURIIsNeverPrintedOrStored() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let server = try PostgresTestServer.shared()
        let name = try server.database()
        // The socket's trust authentication takes the password and ignores it.
        let uri = server.url(name).replacingOccurrences(of: "postgresql://postgres@", with: "postgresql://postgres:s3cret-word@")
        var outputs = ""
        for command in [
            ["import", "courses.csv", "tasks.csv"], ["import", "--format", "json", "missing.csv"], ["status", "--format", "json"],
            ["batches", "list", "--format", "json"], ["report", "grid"], ["verify", "--format", "json"], ["nightly", "--reports", "out"],
        ] {
            let result = try sandbox.run(["--db", uri] + command)
            outputs += result.stdout + result.stderr
        }
        #expect(outputs.contains("postgresql://postgres@/\(name)"), "the location is named, without the password")
        #expect(!outputs.contains("s3cret"))
        let tables = try server.psql(name, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1").stdout
        for table in tables.split(separator: "\n") {
            let rows = try server.psql(name, "SELECT * FROM \(table)").stdout
            #expect(!rows.contains("s3cret"), "\(table)")
        }
        let reports = try FileManager.default.subpathsOfDirectory(atPath: sandbox.path("out"))
        for report in reports where report.hasSuffix(".html") || report.hasSuffix(".json") {
            #expect(!(try String(contentsOfFile: sandbox.path("out/" + report), encoding: .utf8).contains("s3cret")), "\(report)")
        }
    }

    /// The backup docs/postgresql.md gives: `pg_dump` of a live database, `pg_restore` into an
    /// empty one; the restored database is the dashboard's at once, whole, and reports the same.
    @Test func aDatabaseDumpedAndRestoredWithPostgreSQLsToolsIsWholeAndReportsTheSame() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let server = try PostgresTestServer.shared()
        let (original, restored) = (try server.database(), try server.database())
        let asOf = ["--as-of", "2026-11-30T08:00:00Z"]
        #expect(try sandbox.run(["--db", server.url(original), "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        #expect(
            try sandbox.run(["--db", server.url(original)] + asOf + ["reclassify", "t1", "--to", "today", "--reason", "x"]).exitCode == 0)
        let dump = sandbox.path("district.dump")
        let dumped = try PostgresTestServer.run(
            PostgresTestServer.binaries + "/pg_dump", ["--format=custom", "--file=\(dump)", server.conninfo(original)])
        #expect(dumped.status == 0, "\(dumped.stderr)")
        let loaded = try PostgresTestServer.run(
            PostgresTestServer.binaries + "/pg_restore", ["--exit-on-error", "--dbname=\(server.conninfo(restored))", dump])
        #expect(loaded.status == 0, "\(loaded.stderr)")
        let verify = try sandbox.run(["--db", server.url(restored), "verify"])
        #expect(verify.exitCode == 0, "\(verify)")
        for report in [["report", "grid"], ["report", "list", "--format", "csv"], ["audit"], ["status", "--format", "json"]] {
            let a = try sandbox.run(["--db", server.url(original)] + asOf + report)
            let b = try sandbox.run(["--db", server.url(restored)] + asOf + report)
            #expect(a.exitCode == 0 && b.exitCode == a.exitCode, "\(report)")
            // The server's size of each database differs (a restore packs its pages tighter).
            let sized = { (text: String) in text.replacing(#/"database_bytes": \d+/#, with: "\"database_bytes\": N") }
            #expect(sized(b.stdout.replacingOccurrences(of: restored, with: original)) == sized(a.stdout), "\(report)")
        }
        // The restored database goes on: the next import into it compares and commits.
        #expect(try sandbox.run(["--db", server.url(restored), "import", "courses.csv", "tasks.csv"]).exitCode == 0)
    }
}
