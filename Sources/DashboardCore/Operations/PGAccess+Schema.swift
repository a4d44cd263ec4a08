import Foundation

/// The tables, functions and policies of `dashboard access` (`PGAccess`), made by the first
/// grant and brought up to date by every `access` command: layout 2 (issue 27) matches grants by
/// words (`TeacherNames`), lets a reclassifying role revert its own pins, and numbers groups
/// over every course.
extension PGAccess {
    /// What `teacher_access`'s comment says once the layout is this one.
    static let layout = "dashboard access 2"

    /// The courses granted to the role (`dashboard_granted_courses`), an array computed once per
    /// statement (the scalar subquery is an init plan), not per row.
    static let readable = "CAST((SELECT dashboard_granted_courses(current_user, false)) AS text[])"
    /// The courses the role may reclassify in.
    static let writable = "CAST((SELECT dashboard_granted_courses(current_user, true)) AS text[])"

    /// A name's words as the server reads them: each character through `dashboard_fold` (the
    /// table `TeacherNames.characterTable` computes; a character it does not hold stays as it
    /// is), then split at the spaces; an ASCII name (most of them) without the table: its
    /// capitals made small, split at anything but a letter or a digit (what the table says of
    /// every ASCII character; `translate`, not `lower`, which follows the database's locale).
    /// Each character is looked up by the table's key (a join would hash the whole table per
    /// name: 2.4 ms a name instead of 0.04). Not inlined (`SET search_path`): one call per name.
    static let nameWords = """
        CREATE OR REPLACE FUNCTION dashboard_name_words(name text) RETURNS text[]
        LANGUAGE sql STABLE PARALLEL SAFE SET search_path FROM CURRENT AS $$
            SELECT coalesce(array_agg(w ORDER BY i) FILTER (WHERE w <> ''), '{}')
            FROM regexp_split_to_table(
                CASE WHEN $1 ~ '^[\\x01-\\x7f]*$'
                    THEN translate($1, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
                    ELSE (SELECT string_agg(coalesce((SELECT f.fragment FROM dashboard_fold f WHERE f.ch = c.ch), c.ch), '' ORDER BY c.n)
                          FROM regexp_split_to_table($1, '') WITH ORDINALITY AS c(ch, n))
                END,
                CASE WHEN $1 ~ '^[\\x01-\\x7f]*$' THEN '[^a-z0-9]+' ELSE ' ' END) WITH ORDINALITY AS x(w, i)
        $$
        """

    /// The courses granted to `role` (with `writing`: those granted with reclassify): the
    /// courses whose teacher holds every word of one of its grants (`TeacherNames.matches`),
    /// each distinct teacher's name read once. As the owner, so that reading `courses` does not
    /// apply its own policy again (which calls it). A grant without words gives nothing.
    static let grantedCourses = """
        CREATE OR REPLACE FUNCTION dashboard_granted_courses(role name, writing boolean) RETURNS text[]
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $$
            WITH granted AS (
                SELECT a.words FROM teacher_access a
                WHERE a.role = $1 AND (NOT $2 OR a.reclassify = 1) AND cardinality(a.words) > 0),
            names AS MATERIALIZED (
                SELECT d.teacher, dashboard_name_words(d.teacher) AS words
                FROM (SELECT DISTINCT c.teacher FROM courses c WHERE EXISTS (SELECT 1 FROM granted)) d)
            SELECT coalesce(array_agg(c.course_id), '{}') FROM courses c
            WHERE c.teacher IN (SELECT n.teacher FROM names n WHERE EXISTS (SELECT 1 FROM granted g WHERE g.words <@ n.words))
        $$
        """

    /// True when entry `entry` is a pin of `role`'s own or its revert of one (recorded under the
    /// role's name, cause override or revert, no batch): what a reclassifying role may revert.
    /// As the owner: the entry is read whatever the policies let the role see.
    static let ownPin = """
        CREATE OR REPLACE FUNCTION dashboard_own_pin(entry bigint, role name) RETURNS boolean
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $$
            SELECT EXISTS (SELECT 1 FROM audit a WHERE a.entry_id = $1 AND a.actor = $2::text
                           AND a.cause IN ('override', 'revert') AND a.batch_id IS NULL)
        $$
        """

    /// A new group's number over every entry (`AuditLog.nextGroupID`): a role under row-level
    /// security sees only its courses' entries, and would take a number another group has.
    static let nextGroup = """
        CREATE OR REPLACE FUNCTION dashboard_next_group_id() RETURNS bigint
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $$
            SELECT coalesce(max(group_id), 0) + 1 FROM audit WHERE group_id IS NOT NULL
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

    /// The audit entries a reclassifying role may append: under its own name, in a course it may
    /// reclassify, a pin, or a revert of one of its own pins or reverts (no batch: a revert of
    /// data is the administrator's). The time pass and imports are the administrator's.
    static let auditWrites =
        "actor = current_user::text AND course_id = ANY (\(writable)) AND (cause = 'override' OR (cause = 'revert' AND batch_id IS NULL AND reverts_entry IS NOT NULL AND dashboard_own_pin(reverts_entry, current_user)))"

    /// The writes a reclassifying role may make, each table's policy (`FOR` what, and the rows).
    static let writePolicies: [(table: String, command: String, condition: String)] = [
        ("tasks", "UPDATE", "course_id = ANY (\(writable))"),
        ("overrides", "INSERT", "EXISTS (SELECT 1 FROM tasks t WHERE t.task_id = overrides.task_id AND t.course_id = ANY (\(writable)))"),
        ("overrides", "UPDATE", "EXISTS (SELECT 1 FROM tasks t WHERE t.task_id = overrides.task_id AND t.course_id = ANY (\(writable)))"),
        ("overrides", "DELETE", "EXISTS (SELECT 1 FROM tasks t WHERE t.task_id = overrides.task_id AND t.course_id = ANY (\(writable)))"),
        ("audit", "INSERT", auditWrites),
    ]

    /// The statement that makes one write policy.
    static func writePolicy(_ table: String, _ command: String, _ condition: String) -> String {
        let rows =
            command == "INSERT"
            ? "WITH CHECK (\(condition))"
            : command == "DELETE" ? "USING (\(condition))" : "USING (\(condition)) WITH CHECK (\(condition))"
        return "CREATE POLICY teacher_\(command.lowercased())s ON \(table) FOR \(command) \(rows)"
    }

    /// Makes `teacher_access`, the fold table and the policies when they are not there yet, brings
    /// an older layout up to date (its grants get their words), and writes the fold table again
    /// when this program's differs. In the caller's transaction.
    static func prepare(_ connection: PGConnection) throws {
        var statements: [String] = []
        if try connection.scalar("SELECT to_regclass('teacher_access') IS NULL") == "t" {
            statements += [
                """
                CREATE TABLE teacher_access (role text COLLATE "C" NOT NULL, teacher text COLLATE "C" NOT NULL,
                    reclassify bigint NOT NULL DEFAULT 0 CHECK (reclassify IN (0, 1)), words text[] NOT NULL DEFAULT '{}',
                    PRIMARY KEY (role, teacher))
                """,
                "CREATE TABLE dashboard_fold (ch text COLLATE \"C\" PRIMARY KEY, fragment text COLLATE \"C\" NOT NULL)",
                nameWords, grantedCourses, ownPin, nextGroup,
            ]
            for (table, condition) in policies {
                statements.append("ALTER TABLE \(table) ENABLE ROW LEVEL SECURITY")
                statements.append("CREATE POLICY teacher_reads ON \(table) FOR SELECT USING (\(condition))")
            }
            statements += writePolicies.map { writePolicy($0.table, $0.command, $0.condition) }
        } else if try connection.scalar("SELECT obj_description('teacher_access'::regclass, 'pg_class')") != layout {
            // Layout 1: grants of exact names, pins only.
            statements +=
                [
                    "ALTER TABLE teacher_access ADD COLUMN words text[] NOT NULL DEFAULT '{}'",
                    "CREATE TABLE dashboard_fold (ch text COLLATE \"C\" PRIMARY KEY, fragment text COLLATE \"C\" NOT NULL)",
                ] + definitions
        }
        if !statements.isEmpty {
            statements.append("COMMENT ON TABLE teacher_access IS '\(layout)'")
            try connection.execute(statements.joined(separator: ";\n"))
            for row in try connection.query("SELECT teacher FROM teacher_access WHERE words = '{}'") {
                let teacher = row[0] ?? ""
                try connection.query(
                    "UPDATE teacher_access SET words = CAST($1 AS text[]) WHERE teacher = $2",
                    [PGDialect.arrayLiteral(TeacherNames.words(teacher)), teacher])
            }
        }
        try refreshFold(connection)
    }

    /// The functions the policies call, and the audit log's write policy: made again with the
    /// fold table when this program's differ from the database's.
    static var definitions: [String] {
        [
            nameWords, grantedCourses, ownPin, nextGroup, "DROP POLICY IF EXISTS teacher_inserts ON audit",
            writePolicy("audit", "INSERT", auditWrites),
        ]
    }

    /// Writes `TeacherNames.characterTable` into `dashboard_fold`, and makes the functions of
    /// `definitions` again, unless the database has this program's already (the digest of both
    /// is the fold table's comment): another version of this program, or of Unicode, brings
    /// them up to date.
    static func refreshFold(_ connection: PGConnection) throws {
        let table = TeacherNames.characterTable()
        let digest = TeacherNames.digest(table, definitions: definitions)
        guard try connection.scalar("SELECT obj_description('dashboard_fold'::regclass, 'pg_class')") != digest else { return }
        try connection.execute(definitions.joined(separator: ";\n"))
        try connection.execute("DELETE FROM dashboard_fold")
        try connection.query(
            "INSERT INTO dashboard_fold (ch, fragment) SELECT * FROM unnest(CAST($1 AS text[]), CAST($2 AS text[]))",
            [PGDialect.arrayLiteral(table.map(\.character)), PGDialect.arrayLiteral(table.map(\.fragment))])
        try connection.execute("COMMENT ON TABLE dashboard_fold IS '\(digest)'")
    }
}
