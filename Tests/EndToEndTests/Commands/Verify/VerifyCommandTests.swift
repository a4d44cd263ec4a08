import Foundation
import Testing

/// `dashboard verify`: integrity, foreign keys, stored values, audit chains and kept counts; read-only;
/// exit 0 when all is well, 65 when anything is wrong.
@Suite("verify command", .sqliteFiles)
struct VerifyCommandTests {
    /// A database from the valid fixtures with one override (audit entry 1, the override of t3:
    /// the import's births stored no entry).
    private func verifiedSandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        #expect(try sandbox.run(["--db", "db.sqlite", "reclassify", "t3", "--to", "overdue", "--reason", "late"]).exitCode == 0)
        return sandbox
    }

    /// One planted value (or link) per rule, past the CHECK constraints and foreign keys as a
    /// hand edit can.
    static let plant = """
        PRAGMA ignore_check_constraints = 1;
        UPDATE tasks SET priority = 'urgent' WHERE task_id = 't1';
        UPDATE tasks SET completed = 2, due = '2026-02-30' WHERE task_id = 't2';
        UPDATE tasks SET bucket = 'soon', course_id = 'nope' WHERE task_id = 't3';
        UPDATE courses SET timezone = 'Mars/Olympus_Mons' WHERE course_id = 'his';
        UPDATE overrides SET bucket = 'later', until = 'next week' WHERE task_id = 't3';
        UPDATE batches SET status = 'lost', mode = 'both' WHERE batch_id = 1;
        UPDATE batch_counts SET read = -1 WHERE kind = 'tasks';
        INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor, reverts_entry, conflict)
          VALUES ('t', 't', 't1', 'bio', 'upcoming', 'today', 'revert', 'me', 1, 0),
                 ('t', 't', 't1', 'bio', 'today', 'upcoming', 'revert', 'me', 1, 0),
                 ('t', 't', 't1', 'bio', 'upcoming', 'today', 'whim', 'me', 99, 3);
        INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor, override_before)
          VALUES ('t', 't', 't2', 'bio', 'today', 'overdue', 'override', 'me', 2);
        """

    @Test func aCleanDatabaseHasNoProblems() throws {
        let sandbox = try verifiedSandbox()
        let bytes = try sandbox.read("db.sqlite")
        #expect(
            try sandbox.run(["--db", "db.sqlite", "verify"])
                == CommandResult(
                    exitCode: 0,
                    stdout: "db.sqlite: no problems found (integrity, foreign keys, stored values, audit chains, kept counts)\n",
                    stderr: ""))
        #expect(
            try sandbox.run(["--db", "db.sqlite", "verify", "--format", "json"])
                == CommandResult(
                    exitCode: 0, stdout: "{\n  \"schema\": 1,\n  \"database\": \"db.sqlite\",\n  \"problems\": [],\n  \"count\": 0\n}\n",
                    stderr: ""))
        #expect(try sandbox.read("db.sqlite") == bytes)
    }

    @Test func everyBrokenRuleIsOneLineWithTableKeyColumnValueAndRule() throws {
        let sandbox = try verifiedSandbox()
        #expect(try sandbox.runTool("sqlite3", ["db.sqlite"], stdin: Self.plant).exitCode == 0)
        let bytes = try sandbox.read("db.sqlite")
        let result = try sandbox.run(["--db", "db.sqlite", "verify"])
        #expect(
            result
                == CommandResult(
                    exitCode: 65,
                    stdout: """
                        audit 4 reverts_entry 99: must name an existing audit.entry_id
                        tasks t3 course_id 'nope': must name an existing courses.course_id
                        tasks t1 priority 'urgent': must be low, normal or high
                        tasks t2 completed 2: must be 0 or 1
                        tasks t3 bucket 'soon': must be overdue, today, upcoming, undated, completed, to_grade or excused (or empty)
                        overrides t3 bucket 'later': must be overdue, today, upcoming, undated, completed or excused
                        batches 1 status 'lost': must be running, committed, failed, dry_run, held, approved, discarded or reverted
                        batches 1 mode 'both': must be merge or sync
                        audit 4 cause 'whim': must be time, import, override, delete, restore or revert
                        audit 4 conflict 3: must be 0 or 1
                        batch_counts 1/tasks read -1: must be a whole number, 0 or more
                        tasks t2 due '2026-02-30': must be empty, YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS or YYYY-MM-DDTHH:MM:SSZ
                        overrides t3 until 'next week': must be empty, YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS or YYYY-MM-DDTHH:MM:SSZ
                        courses his timezone 'Mars/Olympus_Mons': must be an IANA time zone name such as Europe/Berlin (or empty)
                        audit 3 reverts_entry 1: entry 1 was already reverted by entry 2
                        audit 5 override_before 2: must name an override entry (entry 2 is cause revert)

                        """,
                    stderr: """
                        dashboard: error: db.sqlite: 16 problems found
                        dashboard: hint: restore the last backup, or correct the values listed above (see docs/operations.md)

                        """))
        #expect(try sandbox.read("db.sqlite") == bytes, "verify only reads")
    }

    @Test func jsonGivesEachProblemAsAnObject() throws {
        let sandbox = try verifiedSandbox()
        #expect(
            try sandbox.runTool(
                "sqlite3", ["db.sqlite", "PRAGMA ignore_check_constraints = 1; UPDATE tasks SET completed = 2 WHERE task_id = 't2';"]
            )
            .exitCode == 0)
        let result = try sandbox.run(["--db", "db.sqlite", "verify", "--format", "json"])
        #expect(result.exitCode == 65)
        #expect(
            result.stdout == """
                {
                  "schema": 1,
                  "database": "db.sqlite",
                  "problems": [
                    {"table":"tasks","key":"t2","column":"completed","value":"2","rule":"must be 0 or 1"}
                  ],
                  "count": 1
                }

                """)
    }

    @Test func aControlCharacterInAStoredValueIsShownEscaped() throws {
        let sandbox = try verifiedSandbox()
        let sql = "PRAGMA ignore_check_constraints = 1; UPDATE tasks SET priority = 'x' || char(27) || '[2J' WHERE task_id = 't1';"
        #expect(try sandbox.runTool("sqlite3", ["db.sqlite", sql]).exitCode == 0)
        let result = try sandbox.run(["--db", "db.sqlite", "verify"])
        #expect(result.stdout == "tasks t1 priority 'x\\u{1B}[2J': must be low, normal or high\n")
    }

    @Test func aDamagedFileIsAProblemNotACrash() throws {
        let sandbox = try verifiedSandbox()
        try sandbox.write("db.sqlite", bytes: try sandbox.read("db.sqlite").prefix(4096))
        let result = try sandbox.run(["--db", "db.sqlite", "verify"])
        #expect(
            result
                == CommandResult(
                    exitCode: 65, stdout: "integrity: the database file is damaged: db.sqlite: database disk image is malformed\n",
                    stderr: """
                        dashboard: error: db.sqlite: 1 problem found
                        dashboard: hint: restore the last backup, or correct the values listed above (see docs/operations.md)

                        """))
    }

    @Test func aDroppedTableIsAProblem() throws {
        let sandbox = try verifiedSandbox()
        #expect(try sandbox.runTool("sqlite3", ["db.sqlite", "PRAGMA foreign_keys = OFF; DROP TABLE held_rejected;"]).exitCode == 0)
        let result = try sandbox.run(["--db", "db.sqlite", "verify"])
        #expect(result.exitCode == 65)
        #expect(result.stdout == "integrity: the database file is damaged: db.sqlite: missing table held_rejected\n")
        let report = try sandbox.run(["--db", "db.sqlite", "report", "grid"])
        #expect(report.exitCode == 74)
        #expect(report.stderr.hasPrefix("dashboard: error: the database file is damaged: db.sqlite: missing table held_rejected\n"))
    }

    /// batch_births (schema 7) is a table of the schema like held_rejected: a file that lost it
    /// is damaged, for verify and for every command, never a bug of the program.
    @Test func aDroppedBirthsTableIsAProblemToo() throws {
        let sandbox = try verifiedSandbox()
        #expect(try sandbox.runTool("sqlite3", ["db.sqlite", "DROP TABLE batch_births;"]).exitCode == 0)
        let result = try sandbox.run(["--db", "db.sqlite", "verify"])
        #expect(result.exitCode == 65, "\(result)")
        #expect(result.stdout == "integrity: the database file is damaged: db.sqlite: missing table batch_births\n")
        try sandbox.write("more.csv", "task_id,course_id,title\nt9,bio,New\n")
        let imported = try sandbox.run(["--db", "db.sqlite", "import", "more.csv"])
        #expect(imported.exitCode == 74, "\(imported)")
        #expect(imported.stderr.hasPrefix("dashboard: error: the database file is damaged: db.sqlite: missing table batch_births\n"))
    }

    @Test func aMissingDatabaseIs66AndIsNotCreated() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["--db", "db.sqlite", "verify"])
        #expect(result.exitCode == 66)
        let json = try sandbox.run(["--db", "db.sqlite", "verify", "--format", "json"])
        #expect(json.exitCode == 66)
        #expect(json.stdout == "", "no half JSON document")
        #expect(try sandbox.listing() == [])
    }

    @Test func anotherApplicationsFileIs74() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.runTool("sqlite3", ["db.sqlite", "CREATE TABLE notes(body TEXT);"]).exitCode == 0)
        let result = try sandbox.run(["--db", "db.sqlite", "verify"])
        #expect(result.exitCode == 74)
        #expect(result.stderr.contains("is not a dashboard database"))
    }

    @Test func verifyIsListedAndHasHelpWithExamples() throws {
        let sandbox = try Sandbox()
        let overview = try sandbox.run(["--help"])
        #expect(
            overview.stdout.contains(
                "  verify       Check the database: integrity, foreign keys, stored values, audit chains and kept counts."))
        let help = try sandbox.run(["verify", "--help"])
        #expect(help.exitCode == 0)
        #expect(help.stdout.contains("dashboard verify --format json") || help.stdout.contains("verify --format json"))
    }
}
