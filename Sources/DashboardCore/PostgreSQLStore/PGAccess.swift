import Foundation

/// Who reads what in a PostgreSQL database (`dashboard access`, SPEC §10): row-level security
/// lets a teacher's role read only the courses whose teacher is one of the names granted to it,
/// and those courses' tasks, overrides, audit entries, history and kept counts; a grant with
/// `reclassify` also lets it pin the buckets of those courses' tasks (`dashboard reclassify`).
///
/// How: `teacher_access` (role, teacher, reclassify) lists the grants; every table with student
/// data has row-level security on and one policy for reading: a course row passes when its
/// teacher is granted to `current_user`; a task, override, audit entry, history row or count
/// passes when its course passes (the policies read `courses` through its own policy). Writes
/// have policies of their own, narrower: a task's bucket, an override or an audit entry of a
/// course whose teacher is granted to `current_user` with `reclassify`. The owner of the tables
/// (the administrator who imports and reverts) is not subject to any of them.
///
/// A granted role gets SELECT on those tables and on the records a report needs (batches,
/// their counts and files, births, settings, the data marks: no student data in them), never on
/// held rows, batch problems (which quote rejected rows) or the grants of others. With
/// `reclassify` it also gets what `reclassify` writes and nothing more: INSERT on `audit` (the
/// log stays append-only: no UPDATE or DELETE), INSERT, UPDATE and DELETE on `overrides`,
/// UPDATE of `tasks.bucket` alone, UPDATE on `data_marks`, and the audit entries' numbers.
package enum PGAccess {
    /// One grant.
    package struct Grant: Equatable, Sendable {
        package var role: String
        package var teacher: String
        /// The role may pin the buckets of the teacher's tasks too.
        package var reclassify: Bool
    }

    package enum Failure: Error, Equatable, Sendable {
        /// No such role on the server (roles are created by the administrator).
        case noSuchRole(String)
        /// `revoke` of a role that holds no grant.
        case notGranted(String)
    }

    /// The courses granted to the role (`dashboard_granted_courses`), an array computed once per
    /// statement (the scalar subquery is an init plan), not per row.
    static let readable = "CAST((SELECT dashboard_granted_courses(current_user, false)) AS text[])"
    /// The courses the role may reclassify in.
    static let writable = "CAST((SELECT dashboard_granted_courses(current_user, true)) AS text[])"

    /// The courses granted to `role` (with `writing`: those granted with reclassify). As the
    /// owner, so that reading `courses` does not apply its own policy again (which calls it).
    static let grantedCourses = """
        CREATE FUNCTION dashboard_granted_courses(role name, writing boolean) RETURNS text[]
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $$
            SELECT coalesce(array_agg(c.course_id), '{}') FROM courses c
            WHERE c.teacher IN (SELECT a.teacher FROM teacher_access a WHERE a.role = $1 AND (NOT $2 OR a.reclassify = 1))
        $$
        """

    /// The tables a teacher's role reads through a policy, and the condition of each.
    static let policies: [(table: String, condition: String)] = [
        ("courses", "course_id = ANY (\(readable))"),
        ("tasks", "course_id = ANY (\(readable))"),
        ("overrides", "EXISTS (SELECT 1 FROM tasks t WHERE t.task_id = overrides.task_id)"),
        ("audit", "course_id = ANY (\(readable))"),
        ("task_history", "EXISTS (SELECT 1 FROM tasks t WHERE t.task_id = task_history.task_id)"),
        ("course_history", "course_id = ANY (\(readable))"),
        ("course_buckets", "course_id = ANY (\(readable))"),
        ("teacher_access", "role = current_user"),
    ]

    /// The writes a reclassifying role may make, each table's policy (`FOR` what, and the rows).
    static let writePolicies: [(table: String, command: String, condition: String)] = [
        ("tasks", "UPDATE", "course_id = ANY (\(writable))"),
        ("overrides", "INSERT", "EXISTS (SELECT 1 FROM tasks t WHERE t.task_id = overrides.task_id AND t.course_id = ANY (\(writable)))"),
        ("overrides", "UPDATE", "EXISTS (SELECT 1 FROM tasks t WHERE t.task_id = overrides.task_id AND t.course_id = ANY (\(writable)))"),
        ("overrides", "DELETE", "EXISTS (SELECT 1 FROM tasks t WHERE t.task_id = overrides.task_id AND t.course_id = ANY (\(writable)))"),
        // Only a pin's entry: the time pass, imports and reverts are the administrator's.
        ("audit", "INSERT", "cause = 'override' AND course_id = ANY (\(writable))"),
    ]

    /// What a granted role may read without a policy: batch records, counts and settings.
    static let plainReads = [
        "batches", "batch_counts", "batch_files", "batch_births", "settings", "settings_log", "dashboard_schema", "data_marks",
    ]

    /// The privileges of a reclassifying role, on top of its reads.
    static let reclassifyPrivileges = [
        "GRANT INSERT ON audit TO %I", "GRANT INSERT, UPDATE, DELETE ON overrides TO %I", "GRANT UPDATE (bucket) ON tasks TO %I",
        "GRANT UPDATE ON data_marks TO %I",
    ]

    /// Makes `teacher_access` and the policies when they are not there yet (idempotent).
    static func prepare(_ connection: PGConnection) throws {
        guard try connection.scalar("SELECT to_regclass('teacher_access') IS NULL") == "t" else { return }
        var statements = [
            """
            CREATE TABLE teacher_access (role text COLLATE "C" NOT NULL, teacher text COLLATE "C" NOT NULL,
                reclassify bigint NOT NULL DEFAULT 0 CHECK (reclassify IN (0, 1)), PRIMARY KEY (role, teacher))
            """,
            grantedCourses,
        ]
        for (table, condition) in policies {
            statements.append("ALTER TABLE \(table) ENABLE ROW LEVEL SECURITY")
            statements.append("CREATE POLICY teacher_reads ON \(table) FOR SELECT USING (\(condition))")
        }
        for (table, command, condition) in writePolicies {
            let rows =
                command == "INSERT"
                ? "WITH CHECK (\(condition))"
                : command == "DELETE" ? "USING (\(condition))" : "USING (\(condition)) WITH CHECK (\(condition))"
            statements.append("CREATE POLICY teacher_\(command.lowercased())s ON \(table) FOR \(command) \(rows)")
        }
        try connection.execute(statements.joined(separator: ";\n"))
    }

    /// Grants `role` the courses of `teacher` (a second teacher adds to the first); with
    /// `reclassify`, the pinning of their tasks' buckets too (a grant without it takes it back
    /// for that teacher).
    package static func grant(_ store: PGStore, role: String, teacher: String, reclassify: Bool = false) throws {
        let connection = store.connection
        try connection.inTransaction {
            try requireRole(connection, role)
            try prepare(connection)
            try connection.query(
                """
                INSERT INTO teacher_access (role, teacher, reclassify) VALUES ($1, $2, $3)
                ON CONFLICT (role, teacher) DO UPDATE SET reclassify = excluded.reclassify
                """, [role, teacher, reclassify ? "1" : "0"])
            for table in policies.map(\.table) + plainReads {
                try connection.execute(try quoted(connection, "GRANT SELECT ON %I TO %I", table, role))
            }
            try grantWrites(connection, role)
        }
    }

    /// Gives `role` the privileges `reclassify` needs while one of its grants has it, and takes
    /// them away when none has (the policies still hold its writes to those teachers' courses).
    private static func grantWrites(_ connection: PGConnection, _ role: String) throws {
        let writes = try connection.scalar("SELECT count(*) FROM teacher_access WHERE role = $1 AND reclassify = 1", [role]) != "0"
        let sequence = try connection.scalar("SELECT pg_get_serial_sequence('audit', 'entry_id')") ?? ""
        if writes {
            for privilege in reclassifyPrivileges { try connection.execute(try quoted(connection, privilege, role)) }
            try connection.execute(try quoted(connection, "GRANT USAGE ON SEQUENCE %s TO %I", sequence, role))
        } else {
            for table in ["audit", "overrides", "tasks", "data_marks"] {
                try connection.execute(try quoted(connection, "REVOKE INSERT, UPDATE, DELETE ON %I FROM %I", table, role))
            }
            try connection.execute(try quoted(connection, "REVOKE USAGE ON SEQUENCE %s FROM %I", sequence, role))
        }
    }

    /// Takes every grant of `role` away, and its reads and writes.
    package static func revoke(_ store: PGStore, role: String) throws {
        let connection = store.connection
        try connection.inTransaction {
            try prepare(connection)
            let removed = try connection.query("DELETE FROM teacher_access WHERE role = $1 RETURNING teacher", [role])
            guard !removed.isEmpty else { throw Failure.notGranted(role) }
            if try connection.scalar("SELECT count(*) FROM pg_roles WHERE rolname = $1", [role]) == "1" {
                for table in policies.map(\.table) + plainReads {
                    try connection.execute(try quoted(connection, "REVOKE ALL ON %I FROM %I", table, role))
                }
                try grantWrites(connection, role)
            }
        }
    }

    /// Every grant, by role then teacher.
    package static func list(_ store: PGStore) throws -> [Grant] {
        guard try store.connection.scalar("SELECT to_regclass('teacher_access') IS NULL") == "f" else { return [] }
        return try store.connection.query(
            "SELECT role, teacher, reclassify FROM teacher_access ORDER BY role COLLATE \"C\", teacher COLLATE \"C\""
        ).map { Grant(role: $0[0] ?? "", teacher: $0[1] ?? "", reclassify: $0[2] == "1") }
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
