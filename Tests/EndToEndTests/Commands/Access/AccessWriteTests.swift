import Foundation
import PostgresTestSupport
import Testing

/// What a teacher's role may write, and the words of everything it may not (issue 27, items 9
/// and 11): a role granted `--reclassify` pins its courses' tasks and reverts its own pins (every
/// hint it is given is one it can follow), records them under its own name, and is told in the
/// product's words — what it tried, what it may do, who grants the rest — when the server
/// refuses it anything else, which changes nothing.
@Suite(.postgresPass) struct AccessWriteTests {
    typealias District = AccessGrantTests

    /// The district, a role granted Ann Lee's course (C3: T4 overdue, T5 completed) with
    /// `--reclassify` or not, and the role's URI.
    static func teacher(reclassify: Bool) throws -> (
        server: PostgresTestServer, name: String, owner: String, role: String, uri: String, sandbox: Sandbox
    ) {
        let (server, name, owner, sandbox) = try District.district()
        let role = try District.role(server, name, reclassify ? "pin" : "read")
        let grant = try sandbox.run(
            ["--db", owner, "access", "grant-teacher", role, "--teacher", "Ann Lee"] + (reclassify ? ["--reclassify"] : []))
        #expect(grant.exitCode == 0, "\(grant)")
        return (server, name, owner, role, server.url(name, user: role), sandbox)
    }

    /// Every row a refused command could have changed, read as the owner.
    static func state(_ server: PostgresTestServer, _ name: String) throws -> String {
        try server.psql(
            name,
            """
            SELECT (SELECT string_agg(task_id || ':' || bucket || ':' || coalesce(CAST(deleted_batch AS text), '-'), ',' ORDER BY task_id) FROM tasks)
                || ' | ' || (SELECT string_agg(entry_id || ':' || cause || ':' || actor, ',' ORDER BY entry_id) FROM audit)
                || ' | ' || (SELECT string_agg(task_id || ':' || entry_id, ',' ORDER BY task_id) FROM overrides)
                || ' | ' || (SELECT string_agg(batch_id || ':' || status, ',' ORDER BY batch_id) FROM batches)
                || ' | ' || (SELECT string_agg(key || ':' || value, ',' ORDER BY key) FROM settings)
            """
        ).stdout
    }

    @Test func aReclassifyingRoleRevertsItsOwnPinsAndItsRevertsAndNothingElse() throws {
        let (server, name, owner, role, uri, sandbox) = try Self.teacher(reclassify: true)
        let asOf = ["--as-of", District.asOf]
        #expect(
            try sandbox.run(["--db", owner] + asOf + ["reclassify", "T4", "--to", "today", "--reason", "owner", "--actor", "alice"])
                .exitCode == 0)
        let pin = try sandbox.run(["--db", uri] + asOf + ["reclassify", "T4", "--to", "upcoming", "--reason", "extension"])
        #expect(
            pin
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr: "dashboard: entry 2: task T4 pinned to upcoming (was today); undo with `dashboard revert 2`\n"))
        // The hint is one it can follow: its own pin comes off, the owner's comes back.
        let undo = try sandbox.run(["--db", uri] + asOf + ["revert", "2"])
        #expect(
            undo
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr: "dashboard: reverted entry 2: 1 audit entry recorded (entry 3); undo with `dashboard revert 3`\n"))
        #expect(try server.psql(name, "SELECT entry_id, bucket, actor FROM overrides").stdout == "1|today|alice\n")
        let redo = try sandbox.run(["--db", uri] + asOf + ["revert", "3"])
        #expect(redo.exitCode == 0 && redo.stderr.hasSuffix("undo with `dashboard revert 4`\n"), "\(redo)")
        #expect(
            try server.psql(name, "SELECT entry_id, cause, actor FROM audit ORDER BY 1").stdout
                == "1|override|alice\n2|override|\(role)\n3|revert|\(role)\n4|revert|\(role)\n")
        // The owner's pin is not its own: refused in words before anything else is said (never
        // "pass --force" first: it has later changes), nothing changed.
        let before = try Self.state(server, name)
        for force in [[], ["--force"]] {
            let others = try sandbox.run(["--db", uri] + asOf + ["revert", "1"] + force)
            #expect(
                others
                    == CommandResult(
                        exitCode: 74, stdout: "",
                        stderr: """
                            dashboard: error: role \(role) may not revert entry 1 in \(uri): a teacher's role undoes only its own pins (override entries recorded under its name, and its reverts of them); nothing was changed
                            dashboard: hint: `dashboard audit --task TASK` shows who recorded each entry; the administrator can revert it, or pin the task again with `dashboard reclassify`

                            """), "\(force)")
        }
        // The server holds the same line by itself (the words above come first, not instead):
        // in psql the role appends a revert of its own pin, not of the owner's, nor anything
        // under another name.
        func append(_ values: String) throws -> (status: Int32, stdout: String, stderr: String) {
            try server.psql(
                name,
                """
                BEGIN; INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor, reverts_entry)
                VALUES ('2026-11-30T08:00:00Z', '2026-11-30T08:00:00Z', 'T4', 'C3', 'upcoming', 'today', \(values)); ROLLBACK
                """, user: role)
        }
        #expect(try append("'revert', '\(role)', 2").status == 0)
        for values in ["'revert', '\(role)', 1", "'revert', 'alice', 2", "'override', 'alice', NULL", "'time', '\(role)', NULL"] {
            let refused = try append(values)
            #expect(
                refused.status != 0 && refused.stderr.contains("row-level security policy for table \"audit\""), "\(values): \(refused)")
        }
        let batch = try sandbox.run(["--db", uri] + asOf + ["revert", "--batch", "1"])
        #expect(
            batch
                == CommandResult(
                    exitCode: 74, stdout: "",
                    stderr: """
                        dashboard: error: role \(role) may not revert batch 1 in \(uri): that is the administrator's (the role that owns the dashboard's tables); nothing was changed
                        dashboard: hint: a teacher's role reads its courses and, granted --reclassify, pins their tasks and undoes its own pins; run this as the administrator (docs/postgresql.md, "Roles and teachers")

                        """))
        #expect(try Self.state(server, name) == before)
    }

    @Test func aRolesBulkPinTakesAGroupNoOtherGroupHasAndItRevertsThatGroup() throws {
        let (server, name, owner, role, uri, sandbox) = try Self.teacher(reclassify: true)
        let asOf = ["--as-of", District.asOf]
        // The owner's group 1 is in a course the role does not see.
        let owners = try sandbox.run(
            ["--db", owner] + asOf + [
                "reclassify", "--course", "BIO 200", "--to", "upcoming", "--reason", "snow", "--yes", "--actor", "alice",
            ])
        #expect(owners.exitCode == 0 && owners.stderr.contains("group 1:"), "\(owners)")
        let bulk = try sandbox.run(
            ["--db", uri] + asOf + [
                "reclassify", "--course", "MATH 101", "--bucket", "overdue", "--to", "upcoming", "--reason", "snow", "--yes",
            ])
        #expect(bulk.exitCode == 0, "\(bulk)")
        #expect(
            bulk.stderr.hasSuffix("dashboard: group 2: pinned 1 task to upcoming (entry 2); undo with `dashboard revert --group 2`\n"),
            "\(bulk)")
        let undo = try sandbox.run(["--db", uri] + asOf + ["revert", "--group", "2"])
        #expect(
            undo
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr: "dashboard: reverted group 2 as group 3: 1 task put back (entry 3); undo with `dashboard revert --group 3`\n"))
        #expect(
            try server.psql(name, "SELECT entry_id, group_id, actor FROM audit ORDER BY 1").stdout
                == "1|1|alice\n2|2|\(role)\n3|3|\(role)\n")
        // The owner's group is not there for it.
        let hidden = try sandbox.run(["--db", uri] + asOf + ["revert", "--group", "1"])
        #expect(hidden.exitCode == 65 && hidden.stderr.hasPrefix("dashboard: error: there is no group 1\n"), "\(hidden)")
    }

    @Test func aRoleThatMayOnlyReadIsToldWhoGivesItTheRightToPin() throws {
        let (server, name, owner, role, uri, sandbox) = try Self.teacher(reclassify: false)
        let asOf = ["--as-of", District.asOf]
        #expect(
            try sandbox.run(["--db", owner] + asOf + ["reclassify", "T4", "--to", "today", "--reason", "owner", "--actor", "alice"])
                .exitCode == 0)
        let before = try Self.state(server, name)
        let hint =
            "dashboard: hint: the administrator can give it that right: `dashboard access grant-teacher \(role) --teacher NAME --reclassify` (NAME: a teacher `dashboard access list` shows for it)\n"
        for (arguments, action) in [
            (["reclassify", "T4", "--to", "upcoming", "--reason", "x"], "pin task T4"),
            (["reclassify", "--course", "MATH 101", "--to", "upcoming", "--reason", "x", "--yes"], "pin the selected tasks"),
            (["revert", "1"], "revert entry 1"),
        ] {
            let refused = try sandbox.run(["--db", uri] + asOf + arguments)
            #expect(refused.exitCode == 74 && refused.stdout == "", "\(arguments): \(refused)")
            // A pin is refused by the server (its words last); a revert before it begins.
            let server = arguments[0] == "revert" ? "\n" : " (the server said: permission denied for table "
            #expect(
                refused.stderr.hasPrefix(
                    "dashboard: error: role \(role) may not \(action) in \(uri): its grant lets it read its courses, not pin their tasks; nothing was changed"
                        + server), "\(arguments): \(refused)")
            #expect(refused.stderr.hasSuffix("\n" + hint), "\(arguments): \(refused)")
        }
        // Its preview is not followed by advice it cannot take: --yes would be refused.
        let preview = try sandbox.run(["--db", uri] + asOf + ["reclassify", "--course", "MATH 101", "--to", "upcoming", "--reason", "x"])
        #expect(preview.exitCode == 0, "\(preview)")
        #expect(
            preview.stderr.hasSuffix(
                "dashboard: warning: role \(role) may only read: its grant lets it read its courses, not pin their tasks, so --yes would be refused; the administrator can give it that right: `dashboard access grant-teacher \(role) --teacher NAME --reclassify`\n"
            ), "\(preview)")
        #expect(try Self.state(server, name) == before)
    }

    @Test(arguments: [true, false])
    func everyWriteOfTheAdministratorIsRefusedInTheProductsWordsAndChangesNothing(reclassify: Bool) throws {
        let (server, name, owner, role, uri, sandbox) = try Self.teacher(reclassify: reclassify)
        // A held batch: a sync that would delete four of five courses.
        try sandbox.write("one/courses.csv", "course_id,code,title,teacher\nC1,HIST 220,Australian History,Nguyễn Văn An\n")
        let held = try sandbox.run(["--db", owner, "--as-of", District.asOf, "import", "one/", "--mode", "sync"])
        #expect(held.exitCode == 65, "\(held)")
        try sandbox.write("more.csv", "course_id,code,title,teacher\nC9,ART 100,Drawing,Ann Lee\n")
        let before = try Self.state(server, name)
        let hint =
            "dashboard: hint: a teacher's role reads its courses and, granted --reclassify, pins their tasks and undoes its own pins; run this as the administrator (docs/postgresql.md, \"Roles and teachers\")\n"
        for (arguments, action) in [
            (["--as-of", District.asOf, "import", "more.csv"], "import files"),
            // As of a day T4 was not due yet: the time pass would move it.
            (["--as-of", "2026-11-19T08:00:00Z", "categorize"], "run the time pass (categorize)"),
            (["--as-of", District.asOf, "revert", "--batch", "1"], "revert batch 1"),
            (["--as-of", District.asOf, "batches", "approve", "2"], "approve batch 2"),
            (["--as-of", District.asOf, "batches", "discard", "2"], "discard batch 2"),
            (["--as-of", District.asOf, "settings", "timezone", "Europe/Paris"], "change the default time zone"),
        ] {
            let refused = try sandbox.run(["--db", uri] + arguments)
            #expect(refused.exitCode == 74, "\(arguments): \(refused)")
            // Refused by the server (its words last), or for a revert of a batch before it begins.
            let server = arguments.contains("revert") ? "\n" : " (the server said: "
            #expect(
                refused.stderr.hasPrefix(
                    "dashboard: error: role \(role) may not \(action) in \(uri): that is the administrator's (the role that owns the dashboard's tables); nothing was changed"
                        + server), "\(arguments): \(refused)")
            #expect(refused.stderr.hasSuffix("\n" + hint), "\(arguments): \(refused)")
            #expect(!refused.stderr.contains("refused this role"), "\(arguments): \(refused)")
        }
        // The night's job: the same words, then its summary (the role's own reports are written).
        try sandbox.write("drop/more.csv", "course_id,code,title,teacher\nC9,ART 100,Drawing,Ann Lee\n")
        let night = try sandbox.run(["--db", uri, "--as-of", District.asOf, "nightly", "--imports", "drop", "--reports", "rep"])
        #expect(night.exitCode == 74, "\(night)")
        #expect(
            night.stderr.hasPrefix(
                "dashboard: error: role \(role) may not run the nightly job in \(uri): that is the administrator's (the role that owns the dashboard's tables); nothing was changed (the server said: permission denied for table \(reclassify ? "batches" : "data_marks"))\n"
                    + hint), "\(night)")
        #expect(try Self.state(server, name) == before)
    }

    @Test func aTeachersRoleIsItsOwnActorWhateverUSERSays() throws {
        let (server, name, _, role, uri, sandbox) = try Self.teacher(reclassify: true)
        let asOf = ["--as-of", District.asOf]
        let pin = try sandbox.run(
            ["--db", uri] + asOf + ["reclassify", "T4", "--to", "upcoming", "--reason", "x"], environment: ["USER": "laptop"])
        #expect(pin.exitCode == 0, "\(pin)")
        #expect(try server.psql(name, "SELECT actor FROM audit").stdout == "\(role)\n")
        #expect(try server.psql(name, "SELECT actor FROM overrides").stdout == "\(role)\n")
        let before = try Self.state(server, name)
        let other = try sandbox.run(["--db", uri] + asOf + ["reclassify", "T4", "--to", "today", "--reason", "x", "--actor", "principal"])
        #expect(
            other
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr: """
                        dashboard: error: --actor "principal": a teacher's role records what it does under its own name (\(role))
                        dashboard: hint: leave --actor out: the audit log names the role \(role), as the server requires

                        """))
        #expect(try sandbox.run(["--db", uri] + asOf + ["revert", "1", "--actor", role]).exitCode == 0)
        #expect(try Self.state(server, name) != before)
    }

    /// Issue 31: a database at version 12 (before an excused pin could be held) that only its
    /// owner may upgrade: a teacher's role that excuses a task by hand is told so in words (74),
    /// never the server's CHECK as a bug (70); nothing changes; the owner's next write upgrades it
    /// and then the same command goes through.
    @Test func excusingOnADatabaseOnlyItsOwnerCanUpgradeSaysSo() throws {
        let (server, name, owner, _, uri, sandbox) = try Self.teacher(reclassify: true)
        let downgrade = try server.psql(
            name,
            """
            ALTER TABLE overrides DROP CONSTRAINT overrides_bucket_check;
            ALTER TABLE overrides ADD CONSTRAINT overrides_bucket_check
                CHECK (bucket IN ('overdue', 'today', 'upcoming', 'undated', 'completed'));
            UPDATE dashboard_schema SET version = 12 WHERE id = 1;
            """)
        #expect(downgrade.status == 0, "\(downgrade.stderr)")
        let before = try Self.state(server, name)
        let asOf = ["--as-of", District.asOf]
        let excuse = ["reclassify", "T4", "--to", "excused", "--reason", "medical note"]
        let refused = try sandbox.run(["--db", uri] + asOf + excuse)
        #expect(
            refused
                == CommandResult(
                    exitCode: 74, stdout: "",
                    stderr: """
                        dashboard: error: \(uri) has schema version 12, and what was asked needs version 13: only a writer of the \
                        role that owns its tables upgrades it; nothing was written
                        dashboard: hint: the role that owns the database's tables runs a writing command once (`dashboard categorize`), \
                        which upgrades it (docs/postgresql.md, "The schema")

                        """), "\(refused)")
        #expect(try Self.state(server, name) == before)
        #expect(try server.psql(name, "SELECT version FROM dashboard_schema").stdout == "12\n")
        // Any other pin still goes through at version 12.
        let pinned = try sandbox.run(["--db", uri] + asOf + ["reclassify", "T4", "--to", "upcoming", "--reason", "extension"])
        #expect(pinned.exitCode == 0, "\(pinned)")
        // The owner's write upgrades it; then the teacher's excuse is taken.
        #expect(try sandbox.run(["--db", owner] + asOf + ["categorize"]).exitCode == 0)
        #expect(try server.psql(name, "SELECT version FROM dashboard_schema").stdout == "13\n")
        let excused = try sandbox.run(["--db", uri] + asOf + excuse)
        #expect(excused.exitCode == 0, "\(excused)")
        #expect(try server.psql(name, "SELECT bucket FROM overrides WHERE task_id = 'T4'").stdout == "excused\n")
    }
}
