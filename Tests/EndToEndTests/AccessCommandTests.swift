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
        #expect(
            grant.stderr
                == "dashboard: \(role) reads the courses of Ann Lee in postgresql://postgres@/\(name)?host=\(server.folder.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&port=\(server.port)\n"
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
                == ["ROLE TEACHER", "\(role) Ann Lee", "\(role) Bo Chen"])
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
}
