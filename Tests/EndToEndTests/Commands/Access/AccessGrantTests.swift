import Foundation
import PostgresTestSupport
import Testing

/// `dashboard access grant-teacher` names teachers as `report --teacher` does, says what it gives
/// and refuses a grant that gives nothing; `access list` counts each grant's courses now; a role
/// that sees no course is told so by every report (issue 27, item 8).
@Suite(.postgresPass) struct AccessGrantTests {
    static let courses = """
        course_id,code,title,teacher,timezone
        C1,HIST 220,Australian History,Nguyễn Văn An,Australia/Sydney
        C2,HIST 230,Asian History,Ms. Olivia Nguyen,Australia/Sydney
        C3,MATH 101,Algebra,Ann Lee,Europe/Berlin
        C4,MATH 102,Geometry,Bruce Lee,Europe/Berlin
        C5,BIO 200,Biology,Bo Chen,America/New_York

        """
    static let tasks = """
        task_id,course_id,title,student_id,due,completed
        T1,C1,Federation debates,S1,2026-11-20,no
        T2,C1,Gold rushes,S2,2026-12-04,no
        T3,C2,Silk road,S1,2026-11-25,no
        T4,C3,Worksheet 1,S3,2026-11-20,no
        T5,C3,Worksheet 2,S3,2026-12-02,yes
        T6,C4,Triangles,S4,,no
        T7,C5,Lab report,S5,2026-11-27,no

        """
    static let asOf = "2026-11-30T08:00:00Z"

    /// A PostgreSQL database holding the five courses above, imported by the owner, and the
    /// owner's URI.
    static func district() throws -> (server: PostgresTestServer, name: String, owner: String, sandbox: Sandbox) {
        let server = try PostgresTestServer.shared()
        let name = try server.database()
        let sandbox = try Sandbox()
        try sandbox.write("in/courses.csv", courses)
        try sandbox.write("in/tasks.csv", tasks)
        let owner = server.url(name)
        let imported = try sandbox.run(["--db", owner, "--as-of", asOf, "import", "in/", "--actor", "importer"])
        #expect(imported.exitCode == 0, "\(imported)")
        return (server, name, owner, sandbox)
    }

    /// A new login role (roles are the server's, not one database's: each test makes its own).
    static func role(_ server: PostgresTestServer, _ name: String, _ tag: String) throws -> String {
        let role = "\(tag)_" + name.suffix(10)
        #expect(try server.psql(name, "CREATE ROLE \(role) LOGIN").status == 0)
        return role
    }

    @Test func aGrantGivesTheCoursesReportTeacherFindsAndListsTheirTeachers() throws {
        let (server, name, owner, sandbox) = try Self.district()
        let role = try Self.role(server, name, "ngu")
        let grant = try sandbox.run(["--db", owner, "access", "grant-teacher", role, "--teacher", "Nguyen"])
        #expect(
            grant
                == CommandResult(
                    exitCode: 0, stdout: "TEACHER            COURSES\nMs. Olivia Nguyen        1\nNguyễn Văn An            1\n",
                    stderr: """
                        dashboard: \(role) reads the courses of "Nguyen" in \(display(owner)): 2 courses of 2 teachers now, and later courses whose teacher has that name
                        dashboard: warning: "Nguyen" matches 2 teachers: to give one teacher's courses only, `dashboard access revoke \(role)` and grant that teacher's full name

                        """))
        #expect(try server.psql(name, "SELECT course_id FROM courses ORDER BY 1", user: role).stdout == "C1\nC2\n")
        // The role's report is the owner's `report --teacher Nguyen`, byte for byte.
        let list = ["--as-of", Self.asOf, "report", "list", "--include-completed", "--format", "csv"]
        let teachers = try sandbox.run(["--db", server.url(name, user: role)] + list)
        let owners = try sandbox.run(["--db", owner] + list + ["--teacher", "Nguyen"])
        #expect(teachers.exitCode == 0 && owners.exitCode == 0 && teachers.stdout == owners.stdout, "\(teachers)\n\(owners)")
        #expect(teachers.stdout.contains("T1") && teachers.stdout.contains("T3") && !teachers.stdout.contains("T4"))
        // A name that is a word of two teachers' names gives both; the full name, one.
        let lee = try Self.role(server, name, "lee")
        let both = try sandbox.run(["--db", owner, "access", "grant-teacher", lee, "--teacher", "LEE"])
        #expect(both.stdout == "TEACHER    COURSES\nAnn Lee          1\nBruce Lee        1\n", "\(both)")
        let ann = try Self.role(server, name, "ann")
        let one = try sandbox.run(["--db", owner, "access", "grant-teacher", ann, "--teacher", "ann lee", "--reclassify"])
        #expect(
            one
                == CommandResult(
                    exitCode: 0, stdout: "TEACHER  COURSES\nAnn Lee        1\n",
                    stderr:
                        "dashboard: \(ann) reads and may reclassify the courses of \"ann lee\" in \(display(owner)): 1 course of 1 teacher now, and later courses whose teacher has that name\n"
                ))
        #expect(try server.psql(name, "SELECT course_id FROM courses ORDER BY 1", user: ann).stdout == "C3\n")
    }

    @Test func aGrantThatGivesNoCourseIsRefusedAndGrantsNothing() throws {
        let (server, name, owner, sandbox) = try Self.district()
        let role = try Self.role(server, name, "none")
        let refused = try sandbox.run(["--db", owner, "access", "grant-teacher", role, "--teacher", "Smith"])
        #expect(
            refused
                == CommandResult(
                    exitCode: 65, stdout: "",
                    stderr: """
                        dashboard: error: no course's teacher has the name "Smith" (every word of it, case and accents aside); nothing was granted
                        dashboard: hint: check the name against the teachers `dashboard report list` shows; to grant it before those courses are imported, add --allow-no-courses

                        """))
        let nearest = try sandbox.run(["--db", owner, "access", "grant-teacher", role, "--teacher", "Bo Chn"])
        #expect(nearest.exitCode == 65)
        #expect(
            nearest.stderr.hasPrefix(
                "dashboard: error: no course's teacher has the name \"Bo Chn\" (every word of it, case and accents aside; the nearest: \"Bo Chen\"); nothing was granted\n"
            ), "\(nearest)")
        let wordless = try sandbox.run(["--db", owner, "access", "grant-teacher", role, "--teacher", "—"])
        #expect(
            wordless
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr:
                        "dashboard: error: --teacher \"—\" has no letter or digit: it names no teacher\ndashboard: hint: see `dashboard access --help`\n"
                ))
        // Nothing was granted: no grant (not even the table of grants: the first grant makes it),
        // no privilege.
        #expect(try server.psql(name, "SELECT to_regclass('teacher_access') IS NULL").stdout == "t\n")
        #expect(try server.psql(name, "SELECT has_table_privilege('\(role)', 'courses', 'SELECT')").stdout == "f\n")
        #expect(try sandbox.run(["--db", owner, "access", "list"]).stdout == "No role is granted a teacher's courses.\n")
    }

    @Test func aGrantAheadOfTheDataIsMadeWithAWarningAndGivesTheCoursesWhenTheyCome() throws {
        let (server, name, owner, sandbox) = try Self.district()
        let role = try Self.role(server, name, "kim")
        let ahead = try sandbox.run(["--db", owner, "access", "grant-teacher", role, "--teacher", "Kim Park", "--allow-no-courses"])
        #expect(
            ahead
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr: """
                        dashboard: \(role) reads the courses of "Kim Park" in \(display(owner))
                        dashboard: warning: no course's teacher has the name "Kim Park" now: \(role) reads nothing until an import brings one (`dashboard access list` counts them)

                        """))
        let list = try sandbox.run(["--db", owner, "access", "list"])
        #expect(
            list
                == CommandResult(
                    exitCode: 0,
                    stdout:
                        "ROLE  \(String(repeating: " ", count: role.count - 4))TEACHER   MAY   COURSES\n\(role)  Kim Park  read        0\n",
                    stderr:
                        "dashboard: warning: a grant gives no course now: \(role) \"Kim Park\"; such a role reads nothing until an import brings a course whose teacher has those words\n"
                ), "\(list)")
        // The next import brings her course: the grant is a rule, not a list of courses.
        try sandbox.write("more.csv", "course_id,code,title,teacher\nC6,ART 100,Drawing,Dr. Kim PARK\n")
        #expect(try sandbox.run(["--db", owner, "--as-of", Self.asOf, "import", "more.csv"]).exitCode == 0)
        #expect(try server.psql(name, "SELECT course_id FROM courses ORDER BY 1", user: role).stdout == "C6\n")
        #expect(try sandbox.run(["--db", owner, "access", "list"]).stdout.hasSuffix("Kim Park  read        1\n"))
    }

    @Test func accessListCountsEachGrantsCoursesAsTheyAreNow() throws {
        let (server, name, owner, sandbox) = try Self.district()
        let (a, b) = (try Self.role(server, name, "la"), try Self.role(server, name, "lb"))
        for (role, teacher, extra) in [(a, "Lee", ["--reclassify"]), (a, "Bo Chen", []), (b, "nguyễn", [])] {
            #expect(try sandbox.run(["--db", owner, "access", "grant-teacher", role, "--teacher", teacher] + extra).exitCode == 0)
        }
        let expected = """
            ROLE           TEACHER  MAY               COURSES
            \(a)  Bo Chen  read                    1
            \(a)  Lee      read, reclassify        2
            \(b)  nguyễn   read                    2

            """
        #expect(try sandbox.run(["--db", owner, "access", "list"]) == CommandResult(exitCode: 0, stdout: expected, stderr: ""))
        // Counted now: a course that changes teacher moves between the grants.
        #expect(try server.psql(name, "UPDATE courses SET teacher = 'Bo Chen' WHERE course_id = 'C4'").status == 0)
        let after = try sandbox.run(["--db", owner, "access", "list"]).stdout
        #expect(
            after.contains("\(a)  Bo Chen  read                    2\n") && after.contains("\(a)  Lee      read, reclassify        1\n"),
            "\(after)")
    }

    @Test func aRoleThatSeesNoCourseIsToldSoNeverAnAllClear() throws {
        let (server, name, owner, sandbox) = try Self.district()
        let role = try Self.role(server, name, "empty")
        #expect(
            try sandbox.run(["--db", owner, "access", "grant-teacher", role, "--teacher", "Kim Park", "--allow-no-courses"]).exitCode == 0)
        let teacher = server.url(name, user: role)
        let warning =
            "dashboard: warning: role \(role) sees no course in \(display(teacher)): no grant of it names a course's teacher; the administrator grants it: `dashboard access grant-teacher \(role) --teacher \"YOUR NAME\"`\n"
        let grid = try sandbox.run(["--db", teacher, "--as-of", Self.asOf, "report", "--width", "100"])
        #expect(
            grid
                == CommandResult(
                    exitCode: 0,
                    stdout: """
                        Courses as of 2026-11-30 08:00 UTC
                        This role (\(role)) sees no course: no course's teacher is granted to it.
                        Next step: ask the administrator for a grant of your courses (`dashboard access grant-teacher
                        \(role) --teacher "YOUR NAME"`), then run this report again.

                        """, stderr: warning), "\(grid)")
        let json = try sandbox.run(["--db", teacher, "--as-of", Self.asOf, "report", "list", "--format", "json"])
        let object = try JSON.object(json.stdout)
        #expect(object["state"] as? String == "no_courses")
        #expect(
            object["message"] as? String
                == "This role (\(role)) sees no course: no course's teacher is granted to it. Next step: ask the administrator for a grant of your courses (`dashboard access grant-teacher \(role) --teacher \"YOUR NAME\"`), then run this report again."
        )
        for format in ["md", "html", "csv"] {
            let other = try sandbox.run(["--db", teacher, "--as-of", Self.asOf, "report", "--format", format])
            #expect(other.exitCode == 0 && other.stderr == warning, "\(format): \(other)")
            #expect(format == "csv" || other.stdout.contains("sees no course"), "\(format): \(other)")
        }
        let status = try sandbox.run(["--db", teacher, "status"])
        #expect(status.exitCode == 0 && status.stderr == warning, "\(status)")
    }

    @Test func grantsOfAnEarlierVersionAreBroughtUpToDateByTheNextAccessCommand() throws {
        let (server, name, owner, sandbox) = try Self.district()
        let role = try Self.role(server, name, "old")
        #expect(try sandbox.run(["--db", owner, "access", "grant-teacher", role, "--teacher", "Ann Lee"]).exitCode == 0)
        // Layout 1: grants of exact names, no words, no fold table, no comment.
        #expect(
            try server.psql(
                name,
                """
                ALTER TABLE teacher_access DROP COLUMN words CASCADE; COMMENT ON TABLE teacher_access IS NULL;
                DROP TABLE dashboard_fold CASCADE; UPDATE courses SET teacher = 'Dr. Ann Lee' WHERE course_id = 'C3'
                """
            ).status == 0)
        let list = try sandbox.run(["--db", owner, "access", "list"])
        #expect(list.exitCode == 0 && list.stdout.hasSuffix("Ann Lee  read        1\n"), "\(list)")
        #expect(try server.psql(name, "SELECT words FROM teacher_access").stdout == "{ann,lee}\n")
        #expect(try server.psql(name, "SELECT course_id FROM courses", user: role).stdout == "C3\n")
    }

    /// The URI as messages name it (no password; these have none).
    func display(_ uri: String) -> String { uri }
}
