import Foundation

/// Who reads what in a PostgreSQL database (`dashboard access`, SPEC §10): row-level security
/// lets a teacher's role read only the courses whose teacher is one of the names granted to it,
/// and those courses' tasks, overrides, audit entries and history.
///
/// How: `teacher_access` (role, teacher) lists the grants; every table with student data has
/// row-level security on and one policy for reading: a course row passes when its teacher is
/// granted to `current_user`; a task, override, audit entry or history row passes when its
/// course passes (the policies read `courses` through its own policy). The owner of the tables
/// (the administrator who imports and reverts) is not subject to them. A granted role gets
/// SELECT on those tables and on the batch records a report needs (no student data in them),
/// never on held rows, batch problems (which quote rejected rows) or the grants of others.
public enum PGAccess {
    /// One grant.
    public struct Grant: Equatable, Sendable {
        public var role: String
        public var teacher: String
    }

    public enum Failure: Error, Equatable, Sendable {
        /// No such role on the server (roles are created by the administrator).
        case noSuchRole(String)
        /// `revoke` of a role that holds no grant.
        case notGranted(String)
    }

    /// The tables a teacher's role reads through a policy, and the condition of each.
    static let policies: [(table: String, condition: String)] = [
        ("courses", "teacher IN (SELECT teacher FROM teacher_access WHERE role = current_user)"),
        ("tasks", "course_id IN (SELECT course_id FROM courses)"),
        ("overrides", "task_id IN (SELECT task_id FROM tasks)"),
        ("audit", "course_id IN (SELECT course_id FROM courses)"),
        ("task_history", "task_id IN (SELECT task_id FROM tasks)"),
        ("course_history", "course_id IN (SELECT course_id FROM courses)"),
        ("teacher_access", "role = current_user"),
    ]

    /// What a granted role may read without a policy: batch records, counts and settings.
    static let plainReads = ["batches", "batch_counts", "batch_files", "batch_births", "settings", "settings_log", "dashboard_schema"]

    /// Makes `teacher_access` and the policies when they are not there yet (idempotent).
    static func prepare(_ connection: PGConnection) throws {
        guard try connection.scalar("SELECT to_regclass('teacher_access') IS NULL") == "t" else { return }
        var statements = ["CREATE TABLE teacher_access (role text NOT NULL, teacher text NOT NULL, PRIMARY KEY (role, teacher))"]
        for (table, condition) in policies {
            statements.append("ALTER TABLE \(table) ENABLE ROW LEVEL SECURITY")
            statements.append("CREATE POLICY teacher_reads ON \(table) FOR SELECT USING (\(condition))")
        }
        try connection.execute(statements.joined(separator: ";\n"))
    }

    /// Grants `role` the courses of `teacher` (a second teacher adds to the first).
    public static func grant(_ store: PGStore, role: String, teacher: String) throws {
        let connection = store.connection
        try connection.inTransaction {
            try requireRole(connection, role)
            try prepare(connection)
            try connection.query("INSERT INTO teacher_access VALUES ($1, $2) ON CONFLICT DO NOTHING", [role, teacher])
            for table in policies.map(\.table) + plainReads {
                try connection.execute(try quoted(connection, "GRANT SELECT ON %I TO %I", table, role))
            }
        }
    }

    /// Takes every grant of `role` away, and its reads.
    public static func revoke(_ store: PGStore, role: String) throws {
        let connection = store.connection
        try connection.inTransaction {
            try prepare(connection)
            let removed = try connection.query("DELETE FROM teacher_access WHERE role = $1 RETURNING teacher", [role])
            guard !removed.isEmpty else { throw Failure.notGranted(role) }
            if try connection.scalar("SELECT count(*) FROM pg_roles WHERE rolname = $1", [role]) == "1" {
                for table in policies.map(\.table) + plainReads {
                    try connection.execute(try quoted(connection, "REVOKE ALL ON %I FROM %I", table, role))
                }
            }
        }
    }

    /// Every grant, by role then teacher.
    public static func list(_ store: PGStore) throws -> [Grant] {
        guard try store.connection.scalar("SELECT to_regclass('teacher_access') IS NULL") == "f" else { return [] }
        return try store.connection.query("SELECT role, teacher FROM teacher_access ORDER BY role COLLATE \"C\", teacher COLLATE \"C\"")
            .map { Grant(role: $0[0] ?? "", teacher: $0[1] ?? "") }
    }

    private static func requireRole(_ connection: PGConnection, _ role: String) throws {
        guard try connection.scalar("SELECT count(*) FROM pg_roles WHERE rolname = $1", [role]) == "1" else {
            throw Failure.noSuchRole(role)
        }
    }

    /// A statement with identifiers quoted by the server (`format('%I')`), never by hand.
    private static func quoted(_ connection: PGConnection, _ pattern: String, _ values: String...) throws -> String {
        let placeholders = values.indices.map { ", $\($0 + 2)::text" }.joined()
        guard let sql = try connection.scalar("SELECT format($1\(placeholders))", [pattern] + values) else {
            throw PGError(sqlState: nil, message: "format gave no statement")
        }
        return sql
    }
}
