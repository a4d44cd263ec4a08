import Foundation

/// The stored-value and audit-chain rules of `Verifier`, one declaration each.
enum VerifierRules {
    /// A rule SQL can check alone: `bad` is true for a row that breaks it.
    struct SQLRule {
        var table: String
        var key: String
        var column: String
        var bad: String
        var rule: String
    }

    static func oneOf(_ values: [String], empty: Bool = false) -> String {
        ((empty ? [""] : []) + values).map { "'\($0)'" }.joined(separator: ", ")
    }

    static func listText(_ values: [String], empty: Bool = false) -> String {
        "must be " + (values.dropLast().joined(separator: ", ") + " or " + (values.last ?? ""))
            + (empty ? " (or empty)" : "")
    }

    /// A text column that must hold one of `values` (or, with `empty`, nothing).
    static func textIn(_ table: String, _ key: String, _ column: String, _ values: [String], empty: Bool = false) -> SQLRule {
        SQLRule(
            table: table, key: key, column: column,
            bad: "\(column) IS NULL OR \(typeIsNot("text", column)) OR \(column) NOT IN (\(oneOf(values, empty: empty)))",
            rule: listText(values, empty: empty))
    }

    /// An integer column that must be 0 or 1.
    static func flag(_ table: String, _ key: String, _ column: String) -> SQLRule {
        SQLRule(
            table: table, key: key, column: column, bad: "\(typeIsNot("integer", column)) OR \(column) NOT IN (0, 1)",
            rule: "must be 0 or 1")
    }

    /// An integer column that must not be negative.
    static func count(_ table: String, _ key: String, _ column: String) -> SQLRule {
        SQLRule(
            table: table, key: key, column: column, bad: "\(typeIsNot("integer", column)) OR \(column) < 0",
            rule: "must be a whole number, 0 or more")
    }

    /// `TYPEOF(column) NOT TYPE`, a placeholder the store's dialect fills (`typeCheck`): SQLite
    /// stores any type in any column, PostgreSQL's typed columns hold only theirs.
    static func typeIsNot(_ type: String, _ column: String) -> String { "TYPEOF(\(column)) NOT \(type)" }

    /// `sql` with its type checks in the dialect of `database`.
    static func typeChecks(_ sql: String, _ database: Database) -> String {
        sql.replacingOccurrences(
            of: "TYPEOF\\(([a-z_]+)\\) NOT ([a-z]+)", with: database.sql.typeIsNot("$2", "$1"),
            options: .regularExpression)
    }

    static let buckets = Bucket.allCases.map(\.rawValue)
    static let countKey = "batch_id || '/' || kind"

    static let sqlRules: [SQLRule] =
        [
            textIn("tasks", "task_id", "priority", Priority.allCases.map(\.rawValue)),
            flag("tasks", "task_id", "completed"),
            textIn("tasks", "task_id", "bucket", buckets, empty: true),
            textIn("overrides", "task_id", "bucket", Bucket.pinnable.map(\.rawValue)),
            textIn("batches", "batch_id", "status", BatchStatus.allCases.map(\.rawValue)),
            textIn("batches", "batch_id", "mode", ImportMode.allCases.map(\.rawValue)),
            textIn("audit", "entry_id", "cause", AuditCause.allCases.map(\.rawValue)),
            flag("audit", "entry_id", "conflict"),
        ] + ["read", "inserted", "updated", "unchanged", "deleted", "rejected", "warnings"].map { count("batch_counts", countKey, $0) }
        + ["size", "rows"].map { count("batch_files", "batch_id || '/' || position", $0) }
        + ["line", "row"].map { count("batch_problems", "batch_id || '/' || seq", $0) }

    /// Every stored value the program decodes, against the rule it decodes with.
    static func values(_ database: Database, _ found: (VerificationProblem) throws -> Void) throws {
        for r in sqlRules {
            let statement = try database.prepare(
                typeChecks(
                    "SELECT \(r.key) AS row_key, \(Verifier.shown(database, r.column)) AS shown FROM \(r.table) WHERE \(r.bad) ORDER BY 1",
                    database))
            let c = try statement.columnPositions
            let (key, shown) = (try c.position("row_key"), try c.position("shown"))
            try statement.forEachRow { row in
                try found(
                    VerificationProblem(
                        table: r.table, key: row.string(key) ?? "", column: r.column, value: row.string(shown) ?? "", rule: r.rule))
            }
        }
        let dueRule = "must be empty, YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS or YYYY-MM-DDTHH:MM:SSZ"
        for (table, key, column) in [("tasks", "task_id", "due"), ("overrides", "task_id", "until")] {
            try texts(database, table, key, column) { text in
                DueDate.canonical(text) != nil
            } bad: { key, value in
                try found(VerificationProblem(table: table, key: key, column: column, value: value, rule: dueRule))
            }
        }
        var zones: [String: Bool] = [:]
        try texts(database, "courses", "course_id", "timezone") { name in
            if let known = zones[name] { return known }
            let known = CourseZones.knows(name)
            zones[name] = known
            return known
        } bad: { key, value in
            try found(
                VerificationProblem(
                    table: "courses", key: key, column: "timezone", value: value,
                    rule: "must be an IANA time zone name such as Europe/Berlin (or empty)"))
        }
        try submissions(database, found)
        // A course's language (from SQLite's schema 12, PostgreSQL's version 11): a report
        // reads a tag it cannot use as the database's default language.
        guard try database.hasColumn("courses", "language") else { return }
        try texts(database, "courses", "course_id", "language") { text in
            if case .success(let tag) = ReportLanguage.tag(text) { return tag.text == text }
            return false
        } bad: { key, value in
            try found(
                VerificationProblem(
                    table: "courses", key: key, column: "language", value: value,
                    rule: "must be a BCP 47 tag of \(ReportLanguage.listed) in its canonical case, such as de-AT (or empty)"))
        }
    }

    /// A task's submission state and hand-in time (SQLite's schema 13, PostgreSQL's version
    /// 12; SPEC §11): a state of §11 that agrees with `completed` (completed exactly when the
    /// state is completed: the rule the importer writes by), and a hand-in time in a form of
    /// `due`. A reader decodes a state that breaks them as the one `completed` means.
    static func submissions(_ database: Database, _ found: (VerificationProblem) throws -> Void) throws {
        guard try database.hasColumn("tasks", "status") else { return }
        // A completed that is neither 0 nor 1 is its own problem (one hand edit, one line).
        let states = SubmissionState.allCases.map(\.rawValue)
        let statement = try database.prepare(
            typeChecks(
                """
                SELECT task_id AS row_key, \(Verifier.shown(database, "status")) AS shown,
                       status IS NULL OR \(typeIsNot("text", "status")) OR status NOT IN (\(oneOf(states))) AS unknown
                FROM tasks
                WHERE status IS NULL OR \(typeIsNot("text", "status")) OR status NOT IN (\(oneOf(states)))
                   OR (completed IN (0, 1) AND (completed = 1) <> (status = 'completed'))
                ORDER BY 1
                """, database))
        let c = try statement.columnPositions
        let (key, shown, unknown) = (try c.position("row_key"), try c.position("shown"), try c.position("unknown"))
        try statement.forEachRow { row in
            let rule =
                row.int(unknown) == 1
                ? listText(states) : "must be completed exactly when completed is 1 (SPEC §11: completed alone means completed or open)"
            try found(
                VerificationProblem(
                    table: "tasks", key: row.string(key) ?? "", column: "status", value: row.string(shown) ?? "", rule: rule))
        }
        try texts(database, "tasks", "task_id", "submitted_at") { text in
            DueDate.canonical(text) != nil
        } bad: { key, value in
            try found(
                VerificationProblem(
                    table: "tasks", key: key, column: "submitted_at", value: value,
                    rule: "must be empty, YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS or YYYY-MM-DDTHH:MM:SSZ"))
        }
    }

    /// Calls `bad` with the key and quoted value of every row whose `column` is not empty text
    /// that `isValid` accepts (a null or a number is never valid).
    static func texts(
        _ database: Database, _ table: String, _ key: String, _ column: String, isValid: (String) -> Bool,
        bad: (String, String) throws -> Void
    ) throws {
        let statement = try database.prepare(
            """
            SELECT \(key) AS row_key, \(column) AS value, \(database.sql.isText(column)) AS is_text,
                   \(Verifier.shown(database, column)) AS shown
            FROM \(table) WHERE \(column) IS DISTINCT FROM '' ORDER BY 1
            """)
        let c = try statement.columnPositions
        let (keyColumn, value, isText, shown) = (
            try c.position("row_key"), try c.position("value"), try c.position("is_text"), try c.position("shown")
        )
        try statement.forEachRow { row in
            if row.int(isText) == 1, let text = row.string(value), isValid(text) { return }
            try bad(row.string(keyColumn) ?? "", row.string(shown) ?? "")
        }
    }

    /// The audit log's links: no entry reverted twice, and `override_before` names an entry
    /// that set an override. (A link to a missing entry is a foreign-key problem.)
    static func chains(_ database: Database, _ found: (VerificationProblem) throws -> Void) throws {
        let twice = try database.prepare(
            """
            SELECT a.entry_id, a.reverts_entry,
                   (SELECT min(b.entry_id) FROM audit b WHERE b.reverts_entry = a.reverts_entry) AS first_revert
            FROM audit a WHERE a.reverts_entry IS NOT NULL
              AND a.entry_id > (SELECT min(b.entry_id) FROM audit b WHERE b.reverts_entry = a.reverts_entry)
            ORDER BY a.entry_id
            """)
        let t = try twice.columnPositions
        let (entry, reverts, first) = (try t.position("entry_id"), try t.position("reverts_entry"), try t.position("first_revert"))
        try twice.forEachRow { row in
            try found(
                VerificationProblem(
                    table: "audit", key: row.string(entry) ?? "", column: "reverts_entry", value: row.string(reverts) ?? "",
                    rule: "entry \(row.string(reverts) ?? "") was already reverted by entry \(row.string(first) ?? "")"))
        }
        let notOverride = try database.prepare(
            """
            SELECT a.entry_id, a.override_before, b.cause FROM audit a JOIN audit b ON b.entry_id = a.override_before
            WHERE b.cause IS DISTINCT FROM 'override' ORDER BY a.entry_id
            """)
        let o = try notOverride.columnPositions
        let (overrideEntry, before, cause) = (try o.position("entry_id"), try o.position("override_before"), try o.position("cause"))
        try notOverride.forEachRow { row in
            try found(
                VerificationProblem(
                    table: "audit", key: row.string(overrideEntry) ?? "", column: "override_before",
                    value: row.string(before) ?? "",
                    rule: "must name an override entry (entry \(row.string(before) ?? "") is cause \(row.string(cause) ?? "NULL"))"))
        }
    }
}
