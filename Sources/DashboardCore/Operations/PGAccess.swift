import Foundation

/// Who reads what in a PostgreSQL database (`dashboard access`, SPEC §10): row-level security
/// lets a teacher's role read only the courses whose teacher a grant of it names, and those
/// courses' tasks, overrides, audit entries, history and kept counts; a grant with `reclassify`
/// also lets it pin the buckets of those courses' tasks (`dashboard reclassify`) and revert its
/// own pins (`dashboard revert ENTRY`, `--group G`).
///
/// A grant names a teacher as `report --teacher` does (`TeacherNames`): a course is granted when
/// its teacher holds every word of the grant's name, folded ("Nguyen" gives the courses of
/// "Nguyễn Văn An"). The rule holds for courses imported later too: a grant is a standing rule,
/// not a list of courses. A grant that matches no live course is refused unless the
/// administrator grants ahead of the data (`allowNoCourses`).
///
/// How: `teacher_access` (role, teacher, reclassify, words) lists the grants; every table with
/// student data has row-level security on and one policy for reading: a course row passes when
/// its teacher holds the words of a grant of `current_user`; a task, override, audit entry,
/// history row or count passes when its course passes (the policies read `courses` through its
/// own policy). Writes have policies of their own, narrower: a task's bucket, an override, or an
/// audit entry recorded under the role's own name (a pin, or a revert of its own pins) of a
/// course granted to `current_user` with `reclassify`. The owner of the tables (the
/// administrator who imports and reverts) is not subject to any of them.
///
/// A granted role gets SELECT on those tables and on the records a report needs (batches,
/// their counts and files, births, settings, the data marks: no student data in them), never on
/// held rows, batch problems (which quote rejected rows) or the grants of others. With
/// `reclassify` it also gets what `reclassify` writes and nothing more: INSERT on `audit` (the
/// log stays append-only: no UPDATE or DELETE), INSERT, UPDATE and DELETE on `overrides`,
/// UPDATE of `tasks.bucket` alone, UPDATE on `data_marks`, and the audit entries' numbers.
package enum PGAccess {
    /// One grant, and how many live courses it gives now.
    package struct Grant: Equatable, Sendable {
        package var role: String
        package var teacher: String
        /// The role may pin the buckets of the teacher's tasks too.
        package var reclassify: Bool
        /// The live courses whose teacher holds the grant's words, counted now.
        package var courses: Int
    }

    /// What a grant gives now: each teacher's name it matches and that teacher's live courses.
    package struct Outcome: Equatable, Sendable {
        package var teachers: [(name: String, courses: Int)]
        package var courses: Int { teachers.reduce(0) { $0 + $1.courses } }

        package static func == (a: Outcome, b: Outcome) -> Bool {
            a.teachers.map(\.name) == b.teachers.map(\.name) && a.teachers.map(\.courses) == b.teachers.map(\.courses)
        }
    }

    package enum Failure: Error, Equatable, Sendable {
        /// No such role on the server (roles are created by the administrator).
        case noSuchRole(String)
        /// `revoke` of a role that holds no grant.
        case notGranted(String)
        /// A teacher's name without a letter or a digit: it matches nobody.
        case noWords(String)
        /// A grant that matches no live course now (`allowNoCourses` grants it anyway), with
        /// the nearest teachers' names (`ReportSuggestions`' rule).
        case noCourses(String, nearest: [String])
        /// The server's reading of the names disagrees with `TeacherNames` for these teachers (a
        /// bug: the grant is not made).
        case rulesDisagree([String])
    }

    /// What a granted role may read without a policy: batch records, counts and settings.
    static let plainReads = [
        "batches", "batch_counts", "batch_files", "batch_births", "settings", "settings_log", "dashboard_schema", "data_marks",
    ]

    /// The privileges of a reclassifying role, on top of its reads.
    static let reclassifyPrivileges = [
        "GRANT INSERT ON audit TO %I", "GRANT INSERT, UPDATE, DELETE ON overrides TO %I", "GRANT UPDATE (bucket) ON tasks TO %I",
        "GRANT UPDATE ON data_marks TO %I",
    ]

    /// Grants `role` the courses of the teachers whose names hold every word of `teacher` (a
    /// second grant adds to the first); with `reclassify`, the pinning of their tasks' buckets
    /// too (a grant without it takes it back for that name).
    /// - Returns: the teachers it matches now, with their live courses.
    /// - Throws: `Failure`: no such role, a name without words, no live course matched (unless
    ///   `allowNoCourses`), or the server's rule disagreeing with `TeacherNames`; nothing is
    ///   granted then.
    @discardableResult
    package static func grant(_ store: PGStore, role: String, teacher: String, reclassify: Bool = false, allowNoCourses: Bool = false)
        throws -> Outcome
    {
        let words = TeacherNames.words(teacher)
        guard !words.isEmpty else { throw Failure.noWords(teacher) }
        let connection = store.connection
        return try connection.inTransaction {
            try requireRole(connection, role)
            try prepare(connection)
            let outcome = try matches(connection, teacher: teacher, words: words)
            if outcome.courses == 0, !allowNoCourses {
                var query = ReportQuery()
                query.teachers = [teacher]
                var suggestions = ReportSuggestions(query)
                for row in try connection.query("SELECT DISTINCT teacher FROM courses WHERE deleted_batch IS NULL AND teacher <> ''") {
                    suggestions.offer(CourseRecord(courseID: "", code: "", title: "", teacher: row[0] ?? ""))
                }
                throw Failure.noCourses(teacher, nearest: suggestions.unmatched.first?.nearest ?? [])
            }
            try connection.query(
                """
                INSERT INTO teacher_access (role, teacher, reclassify, words) VALUES ($1, $2, $3, CAST($4 AS text[]))
                ON CONFLICT (role, teacher) DO UPDATE SET reclassify = excluded.reclassify, words = excluded.words
                """, [role, teacher, reclassify ? "1" : "0", PGDialect.arrayLiteral(words)])
            for table in policies.map(\.table) + plainReads {
                try connection.execute(try quoted(connection, "GRANT SELECT ON %I TO %I", table, role))
            }
            try grantWrites(connection, role)
            return outcome
        }
    }

    /// The teachers' names the server's policy matches for `words`, with their live courses,
    /// checked against `TeacherNames.matches` name by name (every name a course holds).
    static func matches(_ connection: PGConnection, teacher: String, words: [String]) throws -> Outcome {
        let rows = try connection.query(
            """
            SELECT teacher, count(*) FILTER (WHERE deleted_batch IS NULL),
                   CASE WHEN CAST($1 AS text[]) <@ dashboard_name_words(teacher) THEN 1 ELSE 0 END
            FROM courses GROUP BY teacher ORDER BY teacher COLLATE "C"
            """, [PGDialect.arrayLiteral(words)])
        var outcome = Outcome(teachers: [])
        var disagree: [String] = []
        for row in rows {
            let (name, live, server) = (row[0] ?? "", Int(row[1] ?? "") ?? 0, row[2] == "1")
            if server != TeacherNames.matches(words, teacher: name) { disagree.append(name) }
            if server, live > 0 { outcome.teachers.append((name, live)) }
        }
        guard disagree.isEmpty else { throw Failure.rulesDisagree(disagree) }
        return outcome
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

    /// Every grant, by role then teacher, with the live courses it gives now (the server's
    /// rule, the policies'). Brings an older layout up to date first (in one transaction).
    package static func list(_ store: PGStore) throws -> [Grant] {
        let connection = store.connection
        guard try connection.scalar("SELECT to_regclass('teacher_access') IS NULL") == "f" else { return [] }
        return try connection.inTransaction {
            try prepare(connection)
            return try connection.query(
                """
                WITH names AS MATERIALIZED (
                    SELECT teacher, count(*) AS live, dashboard_name_words(teacher) AS words
                    FROM courses WHERE deleted_batch IS NULL GROUP BY teacher)
                SELECT a.role, a.teacher, a.reclassify,
                       (SELECT coalesce(sum(n.live), 0) FROM names n WHERE cardinality(a.words) > 0 AND a.words <@ n.words)
                FROM teacher_access a ORDER BY a.role COLLATE "C", a.teacher COLLATE "C"
                """
            ).map { Grant(role: $0[0] ?? "", teacher: $0[1] ?? "", reclassify: $0[2] == "1", courses: Int($0[3] ?? "") ?? 0) }
        }
    }

    /// The live courses' teachers' names the server reads otherwise than `TeacherNames.words`
    /// (a character whose fold depends on its neighbours: `TeacherNames.characterTable`), by
    /// name: a grant may give other courses of theirs than `report --teacher` shows. Empty where
    /// no grant was ever made.
    package static func misreadNames(_ store: PGStore) throws -> [String] {
        let connection = store.connection
        guard try connection.scalar("SELECT to_regproc('dashboard_name_words') IS NULL") == "f" else { return [] }
        return try connection.query(
            """
            SELECT d.teacher, array_to_string(dashboard_name_words(d.teacher), ' ')
            FROM (SELECT DISTINCT teacher FROM courses WHERE deleted_batch IS NULL) d ORDER BY d.teacher COLLATE "C"
            """
        ).compactMap { row in
            let name = row[0] ?? ""
            return row[1] == TeacherNames.words(name).joined(separator: " ") ? nil : name
        }
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
