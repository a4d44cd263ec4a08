import Foundation
import PostgresTestSupport
import Testing

/// `dashboard access` against a throwaway server: a teacher's role reads exactly its courses
/// (and their tasks, overrides, audit entries and history) through psql, is refused every
/// write and the tables with other students' data, and reads nothing once revoked.
@Suite(.sqliteFiles) struct AccessCommandTests {
    /// A PostgreSQL database holding CopyCommandTests' two courses (Ann Lee's C1, Bo Chen's C2),
    /// and a login role for a teacher.
    static func district() throws -> (PostgresTestServer, String, String, Sandbox) {
        let server = try PostgresTestServer.shared()
        let sandbox = try CopyCommandTests.imported()
        let name = try server.database()
        #expect(try sandbox.run(["copy", "--from", "db.sqlite", "--to", server.url(name)]).exitCode == 0)
        let role = "teacher_" + name.suffix(8)
        #expect(try server.psql(name, "CREATE ROLE \(role) LOGIN").status == 0)
        return (server, name, role, sandbox)
    }

    @Test func aGrantedRoleReadsOnlyItsTeachersCoursesAndCanWriteNothing() throws {
        let (server, name, role, sandbox) = try Self.district()
        let grant = try sandbox.run(["--db", server.url(name), "access", "grant-teacher", role, "--teacher", "Ann Lee"])
        #expect(grant.exitCode == 0, "\(grant)")
        #expect(grant.stdout == "TEACHER  COURSES\nAnn Lee        1\n")
        #expect(
            grant.stderr
                == "dashboard: \(role) reads the courses of \"Ann Lee\" in postgresql://postgres@/\(name)?host=\(server.folder.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&port=\(server.port): 1 course of 1 teacher now, and later courses whose teacher has that name\n"
        )
        #expect(try server.psql(name, "SELECT course_id FROM courses ORDER BY 1", user: role).stdout == "C1\n")
        #expect(try server.psql(name, "SELECT task_id FROM tasks ORDER BY 1", user: role).stdout == "T1\nT2\n")
        let audit = try server.psql(name, "SELECT DISTINCT course_id FROM audit", user: role).stdout
        #expect(audit == "" || audit == "C1\n", "\(audit)")
        #expect(try server.psql(name, "SELECT count(*) FROM batches", user: role).stdout == "1\n")
        for write in [
            "UPDATE tasks SET title = 'x'", "DELETE FROM audit", "INSERT INTO courses (course_id, code, title) VALUES ('C9', 'X', 'X')",
        ] {
            let refused = try server.psql(name, write, user: role)
            #expect(refused.status != 0 && refused.stderr.contains("permission denied"), "\(write): \(refused)")
        }
        for hidden in ["held_tasks", "batch_problems"] {
            let refused = try server.psql(name, "SELECT count(*) FROM \(hidden)", user: role)
            #expect(refused.status != 0 && refused.stderr.contains("permission denied"), "\(hidden): \(refused)")
        }
        // A second teacher adds to the first; list shows both; the owner still reads everything.
        #expect(try sandbox.run(["--db", server.url(name), "access", "grant-teacher", role, "--teacher", "Bo Chen"]).exitCode == 0)
        #expect(try server.psql(name, "SELECT course_id FROM courses ORDER BY 1", user: role).stdout == "C1\nC2\n")
        let list = try sandbox.run(["--db", server.url(name), "access", "list"])
        #expect(list.exitCode == 0)
        #expect(
            list.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
                == ["ROLE TEACHER MAY COURSES", "\(role) Ann Lee read 1", "\(role) Bo Chen read 1"])
        #expect(try server.psql(name, "SELECT count(*) FROM tasks").stdout == "4\n")
        // Revoked: nothing left to read.
        let revoke = try sandbox.run(["--db", server.url(name), "access", "revoke", role])
        #expect(revoke.exitCode == 0, "\(revoke)")
        let after = try server.psql(name, "SELECT count(*) FROM courses", user: role)
        #expect(after.status != 0 && after.stderr.contains("permission denied"), "\(after)")
        #expect(try sandbox.run(["--db", server.url(name), "access", "list"]).stdout == "No role is granted a teacher's courses.\n")
    }

    @Test func anUnknownRoleARevokeOfNothingAndASQLiteDatabaseAreRefused() throws {
        let (server, name, role, sandbox) = try Self.district()
        let unknown = try sandbox.run(["--db", server.url(name), "access", "grant-teacher", "nobody_here", "--teacher", "Ann Lee"])
        #expect(unknown.exitCode == 65)
        #expect(unknown.stderr.hasPrefix("dashboard: error: no role \"nobody_here\" on the server; nothing was granted"))
        let nothing = try sandbox.run(["--db", server.url(name), "access", "revoke", role])
        #expect(nothing.exitCode == 65)
        #expect(nothing.stderr.hasPrefix("dashboard: error: \"\(role)\" holds no grant; nothing was revoked"))
        let missingTeacher = try sandbox.run(["--db", server.url(name), "access", "grant-teacher", role])
        #expect(missingTeacher.exitCode == 64)
        let sqlite = try sandbox.run(["--db", "db.sqlite", "access", "list"])
        #expect(sqlite.exitCode == 64)
        #expect(sqlite.stderr.hasPrefix("dashboard: error: access works on a PostgreSQL database: pass --db postgresql://…"))
        // A role name that would be SQL if spliced is only a name.
        let injected = try sandbox.run(["--db", server.url(name), "access", "grant-teacher", "x; DROP TABLE tasks", "--teacher", "Ann Lee"])
        #expect(injected.exitCode == 65)
        #expect(try server.psql(name, "SELECT count(*) FROM tasks").stdout == "4\n")
    }

    /// `dashboard` run as the teacher's role: the URI of the database with the role as its user
    /// (trust on the test server's socket stands for the role's password).
    static func asRole(_ role: String, _ server: PostgresTestServer, _ name: String) -> String { server.url(name, user: role) }

    @Test func aTeachersRoleSeesExactlyItsCoursesThroughEveryReportAndCanChangeNothing() throws {
        let (server, name, role, sandbox) = try Self.district()
        #expect(try sandbox.run(["--db", server.url(name), "access", "grant-teacher", role, "--teacher", "Ann Lee"]).exitCode == 0)
        let teacher = Self.asRole(role, server, name)
        let asOf = ["--as-of", "2026-11-30T08:00:00Z"]
        let grid = try sandbox.run(["--db", teacher] + asOf + ["report", "grid", "--format", "json"])
        #expect(grid.exitCode == 0, "\(grid)")
        let courses = JSON.objects(try JSON.object(grid.stdout)["courses"]).compactMap { $0["course_id"] as? String }
        #expect(courses == ["C1"])
        let list = try sandbox.run(["--db", teacher] + asOf + ["report", "list", "--include-completed", "--format", "csv"])
        #expect(list.exitCode == 0, "\(list)")
        #expect(list.stdout.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",")[2] } == ["T1", "T2"])
        // The same reports as the owner's, cut to C1: the owner's list of C1 is the teacher's list.
        let owners = try sandbox.run(
            ["--db", server.url(name)] + asOf + ["report", "list", "--include-completed", "--format", "csv", "--course", "C1"])
        #expect(owners.stdout == list.stdout)
        let audit = try sandbox.run(["--db", teacher, "audit", "--format", "csv"])
        #expect(audit.exitCode == 0, "\(audit)")
        #expect(!audit.stdout.contains("T3") && !audit.stdout.contains("T4") && !audit.stdout.contains("C2"), "\(audit.stdout)")
        let status = try sandbox.run(["--db", teacher, "status", "--format", "json"])
        #expect(status.exitCode == 0, "\(status)")
        #expect(try JSON.object(status.stdout)["tasks"] as? Int == 2)
        // Every write is refused, as the server refuses it (74), and nothing changes.
        let before = try server.psql(name, "SELECT task_id, bucket, coalesce(CAST(deleted_batch AS TEXT), '-') FROM tasks ORDER BY 1")
            .stdout
        try sandbox.write("more.csv", "task_id,course_id,title\nT9,C1,Extra\n")
        for write in [
            ["reclassify", "T1", "--to", "upcoming", "--reason", "x"], ["categorize", "--as-of", "2026-12-30T08:00:00Z"],
            ["import", "more.csv"], ["revert", "--batch", "1"], ["settings", "timezone", "Europe/Paris"],
        ] {
            let refused = try sandbox.run(["--db", teacher] + write)
            #expect(refused.exitCode == 74, "\(write): \(refused)")
            // In the product's words (AccessWriteTests has them whole), the server's last when it
            // gave them (a revert is asked of the server before it begins: no server message).
            #expect(refused.stderr.hasPrefix("dashboard: error: role \(role) may not "), "\(write): \(refused)")
            #expect(refused.stderr.contains("; nothing was changed"), "\(write): \(refused)")
            #expect(write[0] == "revert" || refused.stderr.contains("(the server said: permission denied for "), "\(write): \(refused)")
        }
        #expect(
            try server.psql(name, "SELECT task_id, bucket, coalesce(CAST(deleted_batch AS TEXT), '-') FROM tasks ORDER BY 1").stdout
                == before)
        #expect(try server.psql(name, "SELECT count(*) FROM batches").stdout == "1\n")
    }

    /// Issue 27, item 10: the scope of a teacher's role is its courses: "of N" counts their
    /// tasks, never the district's.
    @Test func aTeachersRoleCountsInItsOwnScope() throws {
        let (server, name, role, sandbox) = try Self.district()
        #expect(try sandbox.run(["--db", server.url(name), "access", "grant-teacher", role, "--teacher", "Ann Lee"]).exitCode == 0)
        let teacher = Self.asRole(role, server, name)
        let asOf = ["--as-of", "2026-11-30T08:00:00Z"]
        let list = try sandbox.run(["--db", teacher] + asOf + ["report", "list", "--search", "essay", "--width", "100"])
        #expect(list.exitCode == 0, "\(list)")
        #expect(list.stdout.split(separator: "\n")[1] == "Showing 1 of 2 tasks: --search essay", "\(list.stdout)")
        let owners = try sandbox.run(["--db", server.url(name)] + asOf + ["report", "list", "--search", "essay", "--width", "100"])
        #expect(owners.stdout.split(separator: "\n")[1] == "Showing 1 of 3 tasks: --search essay", "\(owners.stdout)")
        let json = try JSON.object(
            try sandbox.run(["--db", teacher] + asOf + ["report", "--teacher", "Ann Lee", "--format", "json"]).stdout)
        #expect(json["scope_courses"] as? Int == 1 && json["scope_tasks"] as? Int == 2 && json["total_tasks"] as? Int == 2, "\(json)")
    }

    @Test func aRoleGrantedReclassifyPinsItsTeachersTasksOnlyAndTheOwnerSeesTheEntries() throws {
        let (server, name, role, sandbox) = try Self.district()
        let grant = try sandbox.run(["--db", server.url(name), "access", "grant-teacher", role, "--teacher", "Ann Lee", "--reclassify"])
        #expect(grant.exitCode == 0, "\(grant)")
        #expect(grant.stderr.hasPrefix("dashboard: \(role) reads and may reclassify the courses of \"Ann Lee\" in postgresql://"))
        let teacher = Self.asRole(role, server, name)
        let pinned = try sandbox.run(["--db", teacher, "reclassify", "T1", "--to", "upcoming", "--reason", "extension agreed"])
        #expect(pinned.exitCode == 0, "\(pinned)")
        // Recorded under the role's own name (AccessWriteTests: whatever USER or --actor say).
        #expect(try server.psql(name, "SELECT bucket, reason, actor FROM overrides").stdout == "upcoming|extension agreed|\(role)\n")
        #expect(
            try server.psql(name, "SELECT task_id, cause, to_bucket FROM audit WHERE cause = 'override'").stdout == "T1|override|upcoming\n"
        )
        // Another teacher's task is not there for the role: an unknown task, nothing written.
        let other = try sandbox.run(["--db", teacher, "reclassify", "T3", "--to", "upcoming", "--reason", "x"])
        #expect(other.exitCode == 65, "\(other)")
        #expect(other.stderr.hasPrefix("dashboard: error: there is no task \"T3\""), "\(other)")
        // A pin is all it may do: the time pass (here it would move T2 back to upcoming), imports
        // and reverts stay the administrator's.
        let categorize = try sandbox.run(["--db", teacher, "--as-of", "2026-11-19T08:00:00Z", "categorize"])
        #expect(categorize.exitCode == 74, "\(categorize)")
        let audit = try server.psql(name, "SELECT count(*) FROM audit WHERE cause = 'time'").stdout
        #expect(try server.psql(name, "SELECT count(*) FROM audit WHERE cause = 'time'").stdout == audit)
        let revert = try sandbox.run(["--db", teacher, "revert", "--batch", "1"])
        #expect(revert.exitCode == 74, "\(revert)")
        #expect(try server.psql(name, "SELECT count(*) FROM batches").stdout == "1\n")
        // The log stays append-only for the role too.
        let edit = try server.psql(name, "UPDATE audit SET reason = 'x'", user: role)
        #expect(edit.status != 0 && edit.stderr.contains("permission denied"), "\(edit)")
        #expect(try sandbox.run(["--db", server.url(name), "access", "list"]).stdout.contains("Ann Lee  read, reclassify"))
        // A grant without --reclassify takes the right back.
        #expect(try sandbox.run(["--db", server.url(name), "access", "grant-teacher", role, "--teacher", "Ann Lee"]).exitCode == 0)
        let again = try sandbox.run(["--db", teacher, "reclassify", "T2", "--to", "upcoming", "--reason", "x"])
        #expect(again.exitCode == 74, "\(again)")
    }
}
