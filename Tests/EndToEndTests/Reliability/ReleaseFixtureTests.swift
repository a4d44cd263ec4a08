import Foundation
import PostgresTestSupport
import Testing

/// Databases written by an earlier release, kept as files (Tests/Fixtures/Releases, made by
/// its `make-schema-12.sh`): the release before SPEC §11's states (issue 31), SQLite schema 12
/// and PostgreSQL schema 11. Today's binary must read them as that release did and, when it
/// writes, upgrade them in place: every report the same bytes as a database made today by the
/// same commands, `verify` clean before and after a write, the data and the audit kept.
@Suite struct ReleaseFixtureTests {
    static let folder = DashboardBinary.packageRoot.appendingPathComponent("Tests/Fixtures/Releases/schema-12")
    static let asOf = "2026-11-30T08:00:00Z"

    /// A sandbox holding `old.sqlite` (the release's database; in the PostgreSQL pass its dump
    /// loaded into a database of its own) and `new.sqlite`, made today by the same commands.
    static func databases() throws -> Sandbox {
        let sandbox = try Sandbox()
        if StoreUnderTest.isPostgres {
            let server = try PostgresTestServer.shared()
            let name = try server.database()
            let load = try PostgresTestServer.run(
                PostgresTestServer.binaries + "/psql",
                ["-X", "-q", "-v", "ON_ERROR_STOP=1", server.conninfo(name), "-f", folder.appendingPathComponent("postgresql.sql").path])
            guard load.status == 0 else { throw HarnessError("loading postgresql.sql failed:\n\(load.stderr)") }
            try StoreUnderTest.register(sandbox.path("old.sqlite"), database: name)
        } else {
            try sandbox.write("old.sqlite", bytes: try Data(contentsOf: folder.appendingPathComponent("dashboard.sqlite")))
        }
        // The release's commands (make-schema-12.sh), run by today's binary.
        let imports = URL(fileURLWithPath: SampleImportsTests.folder)
        try sandbox.write("night2/courses.csv", bytes: try Data(contentsOf: imports.appendingPathComponent("courses.csv")))
        try sandbox.write("night2/tasks.csv", bytes: try Data(contentsOf: folder.appendingPathComponent("night2-tasks.csv")))
        let steps: [([String], Int32)] = [
            (["--as-of", "2026-11-29T08:00:00Z", "import", SampleImportsTests.folder], 65),
            (
                [
                    "--as-of", "2026-11-29T09:00:00Z", "reclassify", "T1003", "--to", "upcoming", "--reason", "extension agreed", "--actor",
                    "fixture",
                ],
                0
            ),
            // The sample's invalid rows are rejected on purpose (65); the rest is committed.
            (["--as-of", "2026-11-30T02:00:00Z", "import", "--mode", "sync", "night2"], 65),
        ]
        for (arguments, code) in steps {
            let result = try sandbox.run(["--db", "new.sqlite"] + arguments)
            guard result.exitCode == code else { throw HarnessError("\(arguments) gave \(result)") }
        }
        return sandbox
    }

    static func reports(_ sandbox: Sandbox, _ database: String) throws -> [String: String] {
        var outputs: [String: String] = [:]
        for kind in ["grid", "list"] {
            for format in ["text", "markdown", "html", "json", "csv"] {
                let result = try sandbox.run(["--db", database, "--as-of", asOf, "report", kind, "--format", format])
                #expect(result.exitCode == 0, "\(database) \(kind) \(format): \(result)")
                outputs["\(kind).\(format)"] = result.stdout
            }
        }
        // The audit log, but for when each entry was written and by which user (the clock and
        // the user of the run that made the database).
        let audit = try sandbox.run(["--db", database, "audit", "--format", "json"])
        #expect(audit.exitCode == 0, "\(audit)")
        let entries = JSON.objects(try JSON.object(audit.stdout)["entries"]).map { entry in
            entry.keys.sorted().filter { $0 != "recorded_at" && !($0 == "actor" && entry["cause"] as? String != "override") }.map {
                "\($0)=\(entry[$0] ?? "nil")"
            }.joined(separator: " ")
        }
        outputs["audit"] = entries.joined(separator: "\n")
        return outputs
    }

    @Test func theReleasesDatabaseIsOfItsSchema() throws {
        if StoreUnderTest.isPostgres {
            let dump = try String(contentsOf: Self.folder.appendingPathComponent("postgresql.sql"), encoding: .utf8)
            #expect(dump.contains("COPY public.dashboard_schema (id, version, application) FROM stdin;\n1\t11\t"))
        } else {
            let sandbox = try Sandbox()
            try sandbox.write("old.sqlite", bytes: try Data(contentsOf: Self.folder.appendingPathComponent("dashboard.sqlite")))
            #expect(try DatabaseSnapshot.lines(sandbox.path("old.sqlite"), "PRAGMA user_version") == "12\n")
        }
    }

    @Test func todaysBinaryReadsItAsTheReleaseWroteItAndUpgradesItWhenItWrites() throws {
        let sandbox = try Self.databases()
        let verify = try sandbox.run(["--db", "old.sqlite", "verify"])
        #expect(
            verify.exitCode == 0
                && verify.stdout.hasSuffix("no problems found (integrity, foreign keys, stored values, audit chains, kept counts)\n"),
            "\(verify)")
        let made = try Self.reports(sandbox, "new.sqlite")
        #expect(made["list.text"]?.contains("T1099") == true && made["audit"]?.contains("extension agreed") == true, "\(made)")
        let read = try Self.reports(sandbox, "old.sqlite")
        for key in made.keys.sorted() { #expect(read[key] == made[key], "\(key) of the release's database") }
        // A write: the same night again changes nothing (its invalid rows rejected again), and
        // the database stays whole.
        let again = try sandbox.run(["--db", "old.sqlite", "--as-of", "2026-12-01T02:00:00Z", "import", "--mode", "sync", "night2"])
        #expect(again.exitCode == 65, "\(again)")
        #expect(
            again.stderr.contains(" 111 rows read, 0 inserted, 0 updated, 103 unchanged, 0 deleted, 7 rejected, 3 warnings"), "\(again)")
        let after = try sandbox.run(["--db", "old.sqlite", "verify"])
        #expect(after.exitCode == 0, "\(after)")
        let same = try sandbox.run(["--db", "new.sqlite", "--as-of", "2026-12-01T02:00:00Z", "import", "--mode", "sync", "night2"])
        #expect(same.exitCode == 65 && same.stderr.contains(" 0 inserted, 0 updated, 103 unchanged, 0 deleted, 7 rejected"), "\(same)")
        let written = try Self.reports(sandbox, "old.sqlite")
        let madeAgain = try Self.reports(sandbox, "new.sqlite")
        for key in madeAgain.keys.sorted() { #expect(written[key] == madeAgain[key], "\(key) after a write") }
        #expect(
            try DatabaseSnapshot.lines(sandbox.path("old.sqlite"), "SELECT count(*) FROM tasks WHERE deleted_batch IS NULL")
                == DatabaseSnapshot.lines(sandbox.path("new.sqlite"), "SELECT count(*) FROM tasks WHERE deleted_batch IS NULL"))
        // The write upgraded the file in place (SQLite schema 14, PostgreSQL 13): every task,
        // live or deleted, holds the state its completed meant, as a database made today does.
        let version = StoreUnderTest.isPostgres ? "SELECT version FROM dashboard_schema" : "PRAGMA user_version"
        #expect(try DatabaseSnapshot.lines(sandbox.path("old.sqlite"), version) == (StoreUnderTest.isPostgres ? "13\n" : "14\n"))
        let states = "SELECT task_id, completed, status, submitted_at, deleted_batch IS NULL FROM tasks ORDER BY task_id"
        let upgraded = try DatabaseSnapshot.lines(sandbox.path("old.sqlite"), states)
        #expect(upgraded == (try DatabaseSnapshot.lines(sandbox.path("new.sqlite"), states)))
        #expect(upgraded.contains("|completed|") && upgraded.contains("|open|"), "\(upgraded)")
        #expect(
            try DatabaseSnapshot.lines(sandbox.path("old.sqlite"), "SELECT count(*) FROM tasks WHERE status NOT IN ('open', 'completed')")
                == "0\n")
        // And it takes what the release could not hold: a task excused by hand.
        let excused = try sandbox.run([
            "--db", "old.sqlite", "--as-of", Self.asOf, "reclassify", "T1099", "--to", "excused", "--reason", "note",
        ])
        #expect(excused.exitCode == 0, "\(excused)")
        #expect(
            try DatabaseSnapshot.lines(sandbox.path("old.sqlite"), "SELECT bucket FROM overrides WHERE task_id = 'T1099'") == "excused\n")
        #expect(try sandbox.run(["--db", "old.sqlite", "verify"]).exitCode == 0)
    }
}
