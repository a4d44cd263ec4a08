import DashboardCore
import Foundation
import PostgresTestSupport
import Testing

/// `dashboard copy --from SQLITE --to postgresql://…` against a throwaway server: what it
/// prints, its exit codes, that a refused copy leaves the target as it was, that a password is
/// never printed; and that every command names a PostgreSQL `--db` it cannot reach without its
/// password.
@Suite(.sqliteFiles) struct CopyCommandTests {
    static let courses = """
        course_id,code,title,teacher,timezone
        C1,MATH 101,Algebra,Ann Lee,Europe/Berlin
        C2,BIO 200,Biology,Bo Chen,America/New_York
        """
    static let tasks = """
        task_id,course_id,title,student_id,due,completed
        T1,C1,Worksheet 1,S1,2026-11-20,no
        T2,C1,Essay,S2,2026-11-29,no
        T3,C2,Lab report,S1,2026-12-05,yes
        T4,C2,Reading,S3,,no
        """

    /// A sandbox with a database of two courses and four tasks, two imports deep.
    static func imported() throws -> Sandbox {
        let sandbox = try Sandbox()
        _ = try sandbox.write("in/courses.csv", courses)
        _ = try sandbox.write("in/tasks.csv", tasks)
        let first = try sandbox.run(["--db", "db.sqlite", "--as-of", "2026-11-29T08:00:00Z", "import", "in/"])
        #expect(first.exitCode == 0, "\(first)")
        let second = try sandbox.run(["--db", "db.sqlite", "--as-of", "2026-11-30T08:00:00Z", "categorize"])
        #expect(second.exitCode == 0, "\(second)")
        return sandbox
    }

    @Test func aCopyPrintsEveryTableAndItsRowsAndTheTargetHoldsThem() throws {
        let server = try PostgresTestServer.shared()
        let sandbox = try Self.imported()
        let name = try server.database()
        let result = try sandbox.run(["copy", "--from", "db.sqlite", "--to", server.url(name)])
        #expect(result.exitCode == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("TABLE") == true && lines.first?.hasSuffix("ROWS") == true)
        let rows = Dictionary(
            lines.dropFirst().map { line in
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                return (String(parts[0]), Int(parts[1]) ?? -1)
            }, uniquingKeysWith: { a, _ in a })
        #expect(rows["tasks"] == 4 && rows["courses"] == 2 && rows["batches"] == 1)
        #expect(rows["audit"] ?? 0 > 0, "the categorize at a later as-of moved a task: \(rows)")
        #expect(rows["data_marks"] == nil && rows["course_buckets"] == nil)
        #expect(result.stderr.hasPrefix("dashboard: copied db.sqlite into postgresql://postgres@/\(name)?"))
        #expect(result.stderr.hasSuffix(" tables, every table compared\n"))
        #expect(
            try server.psql(name, "SELECT task_id, bucket FROM tasks ORDER BY task_id").stdout
                == "T1|overdue\nT2|overdue\nT3|completed\nT4|undated\n")
    }

    /// Issue 31: a copy keeps every task's submission state and hand-in time, and a pin that
    /// excuses a task, so the copy's reports are the source's.
    @Test func aCopyKeepsStatesHandInTimesAndExcusedPins() throws {
        let server = try PostgresTestServer.shared()
        let sandbox = try Sandbox()
        _ = try sandbox.write("in/courses.csv", Self.courses)
        _ = try sandbox.write(
            "in/tasks.csv",
            """
            task_id,course_id,title,student_id,due,status,submitted_at
            T1,C1,Worksheet 1,S1,2026-11-20,turned in,2026-11-21T09:30
            T2,C1,Essay,S2,2026-11-20,graded,2026-11-19
            T3,C2,Lab report,S1,2026-12-05,exempt,
            T4,C2,Reading,S3,2026-11-20,,
            """)
        let asOf = "2026-11-29T08:00:00Z"
        #expect(try sandbox.run(["--db", "db.sqlite", "--as-of", asOf, "import", "in/"]).exitCode == 0)
        let pinned = try sandbox.run(["--db", "db.sqlite", "--as-of", asOf, "reclassify", "T4", "--to", "excused", "--reason", "ill"])
        #expect(pinned.exitCode == 0, "\(pinned)")
        let name = try server.database()
        let copied = try sandbox.run(["copy", "--from", "db.sqlite", "--to", server.url(name)])
        #expect(copied.exitCode == 0, "\(copied)")
        #expect(
            try server.psql(name, "SELECT task_id, status, submitted_at, bucket FROM tasks ORDER BY task_id").stdout
                == "T1|submitted|2026-11-21T09:30:00|to_grade\nT2|completed|2026-11-19|completed\nT3|excused||excused\nT4|open||excused\n")
        #expect(try server.psql(name, "SELECT task_id, bucket FROM overrides").stdout == "T4|excused\n")
        for format in ["json", "csv"] {
            let arguments = ["--as-of", asOf, "report", "list", "--include-completed", "--format", format]
            let source = try sandbox.run(["--db", "db.sqlite"] + arguments)
            let target = try sandbox.run(["--db", server.url(name)] + arguments)
            #expect(source.exitCode == 0 && source.stdout == target.stdout, "\(format): \(source)\n\(target)")
        }
    }

    /// Issue 28: a source from before the teacher's address (a SQLite file of schema 10, which
    /// a copy opens read-only and never upgrades) copies with every address '' and the tables
    /// compared.
    @Test func aSourceFromBeforeTheTeachersAddressCopiesWithTheAddressEmpty() throws {
        let server = try PostgresTestServer.shared()
        let sandbox = try Self.imported()
        let downgrade = try sandbox.runTool(
            "sqlite3",
            [
                "db.sqlite",
                Self.withoutLanguage
                    + "DROP TRIGGER courses_email_written; ALTER TABLE courses DROP COLUMN teacher_email; "
                    + "ALTER TABLE course_history DROP COLUMN teacher_email; ALTER TABLE held_courses DROP COLUMN teacher_email; "
                    + "PRAGMA user_version = 10;",
            ])
        #expect(downgrade.exitCode == 0, "\(downgrade)")
        let name = try server.database()
        let result = try sandbox.run(["copy", "--from", "db.sqlite", "--to", server.url(name)])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.hasSuffix(" tables, every table compared\n"), "\(result)")
        #expect(try server.psql(name, "SELECT course_id, teacher_email FROM courses ORDER BY course_id").stdout == "C1|\nC2|\n")
    }

    /// What SQLite's schema 12 added, taken away (issue 29): the courses' languages.
    static let withoutLanguage =
        "DROP TRIGGER courses_language_written; ALTER TABLE courses DROP COLUMN language; "
        + "ALTER TABLE course_history DROP COLUMN language; ALTER TABLE held_courses DROP COLUMN language; "

    /// Issue 29: a source from before the course's language (a SQLite file of schema 11)
    /// copies with every language '' and the tables compared.
    @Test func aSourceFromBeforeTheLanguageCopiesWithTheLanguageEmpty() throws {
        let server = try PostgresTestServer.shared()
        let sandbox = try Self.imported()
        let downgrade = try sandbox.runTool("sqlite3", ["db.sqlite", Self.withoutLanguage + "PRAGMA user_version = 11;"])
        #expect(downgrade.exitCode == 0, "\(downgrade)")
        let name = try server.database()
        let result = try sandbox.run(["copy", "--from", "db.sqlite", "--to", server.url(name)])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.hasSuffix(" tables, every table compared\n"), "\(result)")
        #expect(try server.psql(name, "SELECT course_id, language FROM courses ORDER BY course_id").stdout == "C1|\nC2|\n")
    }

    /// Issue 29: the courses' languages, their history and a held batch's rows go to PostgreSQL
    /// and back into a new SQLite file as they were.
    @Test func theCoursesLanguagesGoToPostgreSQLAndBack() throws {
        let server = try PostgresTestServer.shared()
        let sandbox = try Self.imported()
        _ = try sandbox.write(
            "in2/courses.csv", "course_id,code,title,language\nC1,MATH 101,Algebra,de_AT\nC2,BIO 200,Biology,ja\n")
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "in2/"]).exitCode == 0)
        _ = try sandbox.write("in3/courses.csv", "course_id,code,title,language\nC1,MATH 101,Algebra,es-419\n")
        let held = try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "--max-delete", "0", "in3/"])
        #expect(held.exitCode == 65, "\(held)")
        let name = try server.database()
        #expect(try sandbox.run(["copy", "--from", "db.sqlite", "--to", server.url(name)]).exitCode == 0)
        #expect(try server.psql(name, "SELECT course_id, language FROM courses ORDER BY course_id").stdout == "C1|de-AT\nC2|ja\n")
        #expect(
            try server.psql(name, "SELECT course_id, language FROM course_history ORDER BY batch_id, course_id").stdout
                == "C1|\nC2|\nC1|\nC2|\n")
        #expect(try server.psql(name, "SELECT course_id, language FROM held_courses").stdout == "C1|es-419\n")
        let back = try sandbox.run(["copy", "--from", server.url(name), "--to", "back.sqlite"])
        #expect(back.exitCode == 0, "\(back)")
        for table in ["courses", "course_history", "held_courses"] {
            let sql = "SELECT * FROM \(table) ORDER BY 1, 2"
            #expect(
                try sandbox.runTool("sqlite3", ["back.sqlite", sql]).stdout == (try sandbox.runTool("sqlite3", ["db.sqlite", sql]).stdout),
                "\(table)")
        }
    }

    @Test func aCopyBackIntoANewSQLiteFileReportsAndAuditsAsTheOriginal() throws {
        let server = try PostgresTestServer.shared()
        let sandbox = try Self.imported()
        let name = try server.database()
        #expect(try sandbox.run(["copy", "--from", "db.sqlite", "--to", server.url(name)]).exitCode == 0)
        let back = try sandbox.run(["copy", "--from", server.url(name), "--to", "back.sqlite"])
        #expect(back.exitCode == 0, "\(back)")
        #expect(back.stderr.hasPrefix("dashboard: copied postgresql://postgres@/\(name)?"))
        #expect(back.stderr.contains(" into back.sqlite: "))
        for arguments in [
            ["--as-of", "2026-12-01T08:00:00Z", "report", "grid", "--format", "json"], ["audit", "--format", "csv"],
            ["batches", "list", "--format", "json"], ["verify"],
        ] {
            let original = try sandbox.run(["--db", "db.sqlite"] + arguments)
            let copied = try sandbox.run(["--db", "back.sqlite"] + arguments)
            #expect(original.exitCode == 0 && copied.exitCode == 0, "\(arguments)")
            #expect(copied.stdout == original.stdout.replacingOccurrences(of: "db.sqlite", with: "back.sqlite"), "\(arguments)")
        }
        // A second copy back into the same file: refused, the file unchanged.
        let again = try sandbox.run(["copy", "--from", server.url(name), "--to", "back.sqlite"])
        #expect(again.exitCode == 65)
        #expect(again.stderr.hasPrefix("dashboard: error: back.sqlite already holds dashboard data (1 rows in batches)"))
        // From a database without the schema: nothing to copy (66), and no file left behind.
        let empty = try server.database()
        let none = try sandbox.run(["copy", "--from", server.url(empty), "--to", "none.sqlite"])
        #expect(none.exitCode == 66, "\(none)")
        #expect(!sandbox.exists("none.sqlite"))
    }

    @Test func aSecondCopyIntoTheSameDatabaseIsRefusedAndChangesNothing() throws {
        let server = try PostgresTestServer.shared()
        let sandbox = try Self.imported()
        let name = try server.database()
        #expect(try sandbox.run(["copy", "--from", "db.sqlite", "--to", server.url(name)]).exitCode == 0)
        let before = try server.psql(name, "SELECT count(*) FROM audit").stdout
        let again = try sandbox.run(["copy", "--from", "db.sqlite", "--to", server.url(name)])
        #expect(again.exitCode == 65)
        #expect(again.stdout == "")
        #expect(again.stderr.contains("already holds dashboard data (1 rows in batches); nothing was copied"), "\(again.stderr)")
        #expect(try server.psql(name, "SELECT count(*) FROM audit").stdout == before)
    }

    @Test func aCopyWhileAnotherDashboardHoldsTheWriterLockIs75AndCopiesNothing() throws {
        let server = try PostgresTestServer.shared()
        let sandbox = try Self.imported()
        let name = try server.database()
        // Another writer: a session holding the dashboard's advisory lock ("dashbord" in ASCII).
        let other = try PGConnection(server.conninfo(name))
        try other.query("SELECT pg_advisory_lock($1)", [String(Int64(0x6461_7368_626F_7264))])
        let result = try sandbox.run(["copy", "--from", "db.sqlite", "--to", server.url(name)])
        #expect(result.exitCode == 75, "\(result)")
        #expect(result.stderr.hasPrefix("dashboard: error: another dashboard process is writing to postgresql://postgres@/\(name)"))
        #expect(try server.psql(name, "SELECT count(*) FROM batches").stdout == "0\n")
        try other.query("SELECT pg_advisory_unlock($1)", [String(Int64(0x6461_7368_626F_7264))])
        #expect(try sandbox.run(["copy", "--from", "db.sqlite", "--to", server.url(name)]).exitCode == 0)
    }

    @Test func aMissingSourceIs66AndAServerThatDoesNotAnswerIs74WithoutThePassword() throws {
        let sandbox = try Self.imported()
        let missing = try sandbox.run(["copy", "--from", "nope.sqlite", "--to", "postgresql://a@127.0.0.1:1/x"])
        #expect(missing.exitCode == 66, "\(missing)")
        #expect(!sandbox.exists("nope.sqlite"))
        let unreachable = try sandbox.run([
            "copy", "--from", "db.sqlite", "--to", "postgresql://ann:s3cret@127.0.0.1:1/x?connect_timeout=2",
        ])
        #expect(unreachable.exitCode == 74, "\(unreachable)")
        #expect(unreachable.stderr.hasPrefix("dashboard: error: cannot use the PostgreSQL database postgresql://ann@127.0.0.1:1/x"))
        #expect(!unreachable.stderr.contains("s3cret") && !unreachable.stdout.contains("s3cret"))
    }

    @Test(
        "--from and --to are checked before anything opens",
        arguments: [
            (["copy", "--to", "postgresql://a@h/x"], "missing --from SOURCE"),
            (["copy", "--from", "db.sqlite"], "missing --to TARGET"),
            (["copy", "--from", "postgresql://a@h/x", "--to", "postgresql://a@h/y"], "one of --from and --to must be a SQLite"),
            (["copy", "--from", "db.sqlite", "--to", "other.sqlite"], "one of --from and --to must be a SQLite"),
        ])
    func usage(arguments: [String], message: String) throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(arguments)
        #expect(result.exitCode == 64)
        #expect(result.stderr.hasPrefix("dashboard: error: " + message), "\(result.stderr)")
        #expect(try sandbox.listing() == [])
    }

    @Test(
        "every command names a PostgreSQL --db it cannot reach without its password, 74, and creates nothing",
        arguments: [["status"], ["report", "grid"], ["import", "in/"], ["verify"], ["categorize"], ["audit"], ["batches", "list"]])
    func anUnreachableServerIs74WithoutThePassword(arguments: [String]) throws {
        let sandbox = try Sandbox()
        _ = try sandbox.write("in/courses.csv", Self.courses)
        // Port 1 on the loopback: nothing listens there, the refusal is immediate.
        let result = try sandbox.run(["--db", "postgresql://ann:s3cret@127.0.0.1:1/district"] + arguments)
        #expect(result.exitCode == 74, "\(result)")
        #expect(
            result.stderr.hasPrefix(
                "dashboard: error: cannot read the database postgresql://ann@127.0.0.1:1/district: cannot connect to PostgreSQL: "),
            "\(result.stderr)")
        #expect(
            result.stderr.hasSuffix(
                "dashboard: hint: check that the server runs and the URI, user and password (~/.pgpass, PGPASSWORD) are right (docs/postgresql.md)\n"
            ), "\(result.stderr)")
        #expect(!result.stderr.contains("s3cret"))
        #expect(result.stdout == "")
        #expect(try sandbox.listing() == ["in"])
    }
}
