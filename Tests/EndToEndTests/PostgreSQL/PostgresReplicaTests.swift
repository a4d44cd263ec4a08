import DashboardCore
import Foundation
import PostgresTestSupport
import Testing

/// The PostgreSQL store on a read replica: a hot standby of the test server (`HotStandby`), a
/// read-only server replaying the primary's WAL.
///
/// Policy: a district serves many readers from read replicas. A report creates nothing on the
/// server (its page keys and per-course results go to a local scratch file) and reads in one
/// REPEATABLE READ snapshot, so `report` (grid and list, every format, a page of a list, the list
/// by student), `status`, `audit` and `batches list` run on a standby and print, byte for byte,
/// what they print on the primary; a teacher's role sees there exactly the courses it was granted,
/// as on the primary. Every write (`import`, `categorize`, `reclassify`, `settings`) is refused
/// with exit 74 and the server's words about a read-only transaction, and changes nothing on
/// either server. A change on the primary reaches the standby's reports once it is replayed.
@Suite(.postgresPass, .serialized) struct PostgresReplicaTests {
    /// The moment every report of the test is made at (a day after the import).
    static let asOf = ["--as-of", "2026-11-30T08:00:00Z"]

    /// The header of `report list --format csv`.
    static let listHeader =
        "course_id,course_code,task_id,title,student_id,due,priority,completed,bucket,status,days_late,late,override_until,"
        + "override_reason,override_actor,submission_status,submitted_at,submitted_late"

    /// The owner's `report list --format csv` of the district at `asOf` (completed tasks left out):
    /// Bo Chen's undated T4, Ann Lee's overdue T1 and her T2 pinned to upcoming by hand.
    static let ownersList = [
        listHeader,
        "C2,BIO 200,T4,Reading,S3,,normal,false,undated,no due date,,,,,,open,,false",
        "C1,MATH 101,T1,Worksheet 1,S1,2026-11-20,normal,false,overdue,overdue,10,10 days late,,,,open,,false",
        "C1,MATH 101,T2,Essay,S2,2026-11-29,normal,false,upcoming,upcoming (set by hand),,,,extension agreed,e2e-tester,open,,false",
    ]

    /// What every write run on the standby says on stderr: a standby, not a missing right.
    static func refusal(_ standby: String) -> String {
        "dashboard: error: \(DatabaseLocation(standby).display) is a read-only server (a standby): nothing can be written there\n"
            + "dashboard: hint: point writing commands at the primary server; a standby serves reports (docs/postgresql.md, \"Read replicas\")\n"
    }

    /// The district on the primary, made as its owner with `dashboard` itself: CopyCommandTests'
    /// courses and tasks (Ann Lee's C1 with T1 and T2, Bo Chen's C2 with T3 and T4) imported the
    /// day before `asOf`, a `categorize` at `asOf` (T2 falls overdue: an audit entry), T2 pinned to
    /// upcoming by `reclassify` (another), and a login role granted Ann Lee's courses.
    ///
    /// The database commits synchronously (`ALTER DATABASE … SET synchronous_commit = on`; the
    /// test server commits asynchronously): once a command has returned, `pg_current_wal_lsn()`,
    /// the position the primary has written, holds its commit, which is what the standby is
    /// waited for.
    /// - Returns: the database's name and the role's.
    static func district(_ server: PostgresTestServer, _ sandbox: Sandbox) throws -> (name: String, role: String) {
        let name = try server.database()
        let role = "teacher_" + name.suffix(8)
        let owner = server.url(name)
        try sandbox.write("in/courses.csv", CopyCommandTests.courses)
        try sandbox.write("in/tasks.csv", CopyCommandTests.tasks)
        let settings = try server.psql("postgres", "ALTER DATABASE \(name) SET synchronous_commit = on")
        try #require(settings.status == 0, "\(settings)")
        for step in [
            ["--db", owner, "--as-of", "2026-11-29T08:00:00Z", "import", "in/"],
            ["--db", owner] + asOf + ["categorize"],
            ["--db", owner, "reclassify", "T2", "--to", "upcoming", "--reason", "extension agreed"],
        ] {
            let result = try sandbox.run(step)
            try #require(result.exitCode == 0, "setting up the district: \(step): \(result)")
        }
        let login = try server.psql(name, "CREATE ROLE \(role) LOGIN")
        try #require(login.status == 0, "\(login)")
        let grant = try sandbox.run(["--db", owner, "access", "grant-teacher", role, "--teacher", "Ann Lee"])
        try #require(grant.exitCode == 0, "\(grant)")
        return (name, role)
    }

    /// `result` of a run on the standby with the standby's location named as the primary's
    /// (`status` names the database it reads): the only difference the outputs may have.
    static func namedAsOnPrimary(_ result: CommandResult, standby: String, primary: String) -> CommandResult {
        let (from, to) = (DatabaseLocation(standby).display, DatabaseLocation(primary).display)
        return CommandResult(
            exitCode: result.exitCode, stdout: result.stdout.replacingOccurrences(of: from, with: to),
            stderr: result.stderr.replacingOccurrences(of: from, with: to))
    }

    @Test func aHotStandbyReportsAsThePrimaryRefusesEveryWriteAndFollowsThePrimary() throws {
        let started = Date()
        // A primary of its own: the shared server holds a database of every test run so far, and
        // the standby's base backup would copy them all (3 to 10 GB, 20 to 50 s).
        let server = try PostgresTestServer.startOwn()
        defer { server.stop() }
        let sandbox = try Sandbox()
        let (name, role) = try Self.district(server, sandbox)
        let standby = try HotStandby(of: server)
        defer { standby.tearDown() }
        let firstReplay = try standby.waitForReplay(of: standby.primaryPosition())
        try #require(try HotStandby.scalar(standby.conninfo(), "SELECT pg_is_in_recovery()") == "t", "the standby is a standby")
        let (primary, replica) = (server.url(name), standby.url(name))

        // As the owner: every reader exits 0 and prints on the standby what it prints on the primary.
        var reads: [[String]] = []
        for format in ["text", "json", "csv", "html"] {
            reads += [Self.asOf + ["report", "grid", "--format", format], Self.asOf + ["report", "list", "--format", format]]
        }
        reads += [
            Self.asOf + ["report", "list", "--limit", "2", "--page", "2"], Self.asOf + ["report", "list", "--group-by", "student"],
            ["status"], ["audit"], ["batches", "list"],
        ]
        for read in reads {
            let onPrimary = try sandbox.run(["--db", primary] + read)
            #expect(onPrimary.exitCode == 0, "\(read) on the primary: \(onPrimary)")
            let onStandby = try sandbox.run(["--db", replica] + read)
            #expect(onStandby.exitCode == 0, "\(read) on the standby: \(onStandby)")
            #expect(Self.namedAsOnPrimary(onStandby, standby: replica, primary: primary) == onPrimary, "\(read) on the standby")
        }
        let list = try sandbox.run(["--db", replica] + Self.asOf + ["report", "list", "--format", "csv"])
        #expect(list == CommandResult(exitCode: 0, stdout: Self.ownersList.joined(separator: "\r\n") + "\r\n", stderr: ""))

        // As the teacher's role: exactly Ann Lee's course, as on the primary.
        let (teacherOnStandby, teacherOnPrimary) = (standby.url(name, user: role), server.url(name, user: role))
        for read in [Self.asOf + ["report", "grid", "--format", "json"], Self.asOf + ["report", "list", "--format", "csv"]] {
            let onStandby = try sandbox.run(["--db", teacherOnStandby] + read)
            #expect(onStandby.exitCode == 0, "\(read) as \(role) on the standby: \(onStandby)")
            let onPrimary = try sandbox.run(["--db", teacherOnPrimary] + read)
            #expect(onPrimary.exitCode == 0, "\(read) as \(role) on the primary: \(onPrimary)")
            #expect(Self.namedAsOnPrimary(onStandby, standby: teacherOnStandby, primary: teacherOnPrimary) == onPrimary, "\(read)")
        }
        let grid = try sandbox.run(["--db", teacherOnStandby] + Self.asOf + ["report", "grid", "--format", "json"])
        #expect(JSON.objects(try JSON.object(grid.stdout)["courses"]).compactMap { $0["course_id"] as? String } == ["C1"])
        let teachersList = try sandbox.run(["--db", teacherOnStandby] + Self.asOf + ["report", "list", "--format", "csv"])
        let annLeesRows = Self.ownersList.filter { $0 == Self.listHeader || $0.hasPrefix("C1,") }
        #expect(teachersList == CommandResult(exitCode: 0, stdout: annLeesRows.joined(separator: "\r\n") + "\r\n", stderr: ""))

        // Every write is refused by the standby (74), and neither server's data changes.
        let primaryData = try HotStandby.contents(server.conninfo(name))
        let standbyData = try HotStandby.contents(standby.conninfo(name))
        #expect(standbyData == primaryData, "the standby holds the primary's rows")
        try sandbox.write("more.csv", "task_id,course_id,title\nT9,C1,Extra\n")
        for write in [
            ["import", "more.csv"], ["--as-of", "2026-12-30T08:00:00Z", "categorize"],
            ["reclassify", "T1", "--to", "upcoming", "--reason", "x"], ["settings", "timezone", "Europe/Paris"],
        ] {
            let refused = try sandbox.run(["--db", replica] + write)
            #expect(refused.exitCode == 74, "\(write) on the standby: \(refused)")
            #expect(refused.stdout == "", "\(write) on the standby: \(refused)")
            #expect(refused.stderr == Self.refusal(replica), "\(write) on the standby: \(refused)")
        }
        #expect(try HotStandby.contents(server.conninfo(name)) == primaryData, "the primary's rows after the refused writes")
        #expect(try HotStandby.contents(standby.conninfo(name)) == standbyData, "the standby's rows after the refused writes")

        // A change on the primary reaches the standby's reports once replayed.
        try sandbox.write("quiz.csv", "task_id,course_id,title,student_id,due,completed\nT5,C1,Quiz,S3,2026-12-10,no\n")
        let imported = try sandbox.run(["--db", primary, "import", "quiz.csv"])
        try #require(imported.exitCode == 0, "\(imported)")
        let secondReplay = try standby.waitForReplay(of: standby.primaryPosition())
        let followed = try sandbox.run(["--db", replica] + Self.asOf + ["report", "list", "--format", "csv"])
        let withQuiz = Self.ownersList + ["C1,MATH 101,T5,Quiz,S3,2026-12-10,normal,false,upcoming,upcoming,,,,,,open,,false"]
        #expect(followed == CommandResult(exitCode: 0, stdout: withQuiz.joined(separator: "\r\n") + "\r\n", stderr: ""))
        #expect(followed == (try sandbox.run(["--db", primary] + Self.asOf + ["report", "list", "--format", "csv"])))
        print(
            "replica: base backup \(standby.copied); replayed in \(formatted(firstReplay)) and \(formatted(secondReplay)); "
                + "test \(formatted(seconds(since: started)))")
    }
}
