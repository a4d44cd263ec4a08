import Foundation

/// The grid's reads (`GridCounts`): the counts kept at write time (`CourseBuckets`), the few
/// tasks whose stored bucket the as-of may change, a teacher's role's courses, and a search's
/// candidates, each in one scan of the live tasks.
extension Store {
    package func storedBucketsHold() throws -> Bool {
        try hasColumn("tasks", "created_batch") && CourseBuckets.exists(database) && DataMarks.valuesHold(database)
    }

    package func storedBucketCounts() throws -> [String: [String: Int]] {
        try CourseBuckets.read(database)
    }

    /// One scan of the live tasks in key order (no sort) that returns only the few whose
    /// stored bucket is not settled. A settled stored bucket is the task's bucket at the as-of
    /// even when an override pins it (the pin and the computed bucket agree there, or the
    /// stored bucket is not settled), so only these need the pins.
    package func forEachUnsettledTask(settledIn window: BucketPolicy.SettledWindow, _ body: (LiveTask, String) throws -> Void) throws {
        let settled = try settledTasksSQL()
        let (visible, courses) = try visibleCoursesFilter(parameter: 3)
        let statement = try database.prepare(
            """
            SELECT t.task_id, t.course_id, '' AS title, '' AS student_id, '' AS assignment_id, t.due, t.priority, t.completed\(try taskSubmissionColumns("t")),
                   t.bucket AS stored_bucket, o.bucket, o.until, '' AS reason, '' AS actor
            FROM tasks t LEFT JOIN overrides o ON o.task_id = t.task_id
            WHERE t.deleted_batch IS NULL AND NOT \(settled)\(visible)
            """)
        let c = try statement.columnPositions
        let stored = try c.position("stored_bucket")
        let decoder = try TaskRowDecoder(c)
        let overrides = try OverrideColumns(c)
        try statement.forEachRow([window.overdueBefore.isoText, window.upcomingFrom.isoText] + courses) { row in
            try body(LiveTask(task: decoder.task(row), override: overrides.override(row)), row.string(stored) ?? "")
        }
    }

    /// PostgreSQL, a role under row-level security (a teacher's): the ids of the courses it sees,
    /// by id; nil for a role that sees every row (the tables' owner) and on SQLite.
    ///
    /// Policy: such a role reads its courses' tasks course by course through `tasks_by_course`
    /// instead of scanning every task for the policy to drop all but its own (a teacher's grid of
    /// 20 courses among 2,000: 0.48 s for a scan of a million tasks); what it reads is the same,
    /// the policy still decides it. Asked once per store: the role's courses do not change during
    /// a command.
    func visibleCourseIDs() throws -> [String]? {
        if let known = visibleCourses { return known.ids }
        guard let role = try database.sql.restrictedRole(database) else {
            visibleCourses = VisibleCourses(ids: nil, role: nil)
            return nil
        }
        var ids: [String] = []
        try database.prepare("SELECT course_id FROM courses WHERE deleted_batch IS NULL ORDER BY course_id").forEachRow {
            ids.append($0.string(0) ?? "")
        }
        visibleCourses = VisibleCourses(ids: ids, role: role)
        return ids
    }

    /// The filter of a scan of `tasks t` to the courses a restricted role sees (`visibleCourseIDs`),
    /// its parameter (numbered `parameter`) as one JSON array; none for a role that sees all.
    func visibleCoursesFilter(parameter: Int) throws -> (String, [SQLBindable]) {
        guard let visible = try visibleCourseIDs() else { return ("", []) }
        return (
            " AND t.course_id = ANY (CAST(?\(parameter) AS text[]))", [PGDialect.arrayLiteral(visible)]
        )
    }

    /// One scan of the live tasks in key order: the unsettled ones and the search's candidates.
    /// Each word's test: its courses, else the title. SQLite at schema 10 (`TitleFolds`) decides
    /// every title whose fold it keeps: an ASCII title by `LIKE '%word%'` (SQLite compares ASCII
    /// letters in any case), another by `instr` in its stored fold; a title whose fold is
    /// unknown passes, and Swift folds it. Without stored folds (PostgreSQL, an older SQLite
    /// file), `LIKE` / `ILIKE` decide an ASCII title without NUL, and every title with a byte
    /// that is not ASCII passes. A settled task is returned only when it passed every word's
    /// test; an unsettled one comes with the values of its bucket from the same row (its
    /// override by the join), and is read whole by its key only when the caller asks.
    package func forEachSearchCandidate(
        settledIn window: BucketPolicy.SettledWindow, words: [SearchWord], found: SearchCandidate.Finder,
        _ body: (_ row: SearchCandidate, _ values: () -> LiveTask, _ task: () throws -> LiveTask) throws -> Void
    ) throws {
        let settled = try settledTasksSQL()
        var values: [SQLBindable] = [window.overdueBefore.isoText, window.upcomingFrom.isoText]
        let (visible, courses) = try visibleCoursesFilter(parameter: 3)
        values += courses
        let folds = try TitleFolds.usable(database)
        var tests: [String] = []
        for word in words {
            var test: [String] = []
            if !word.courses.isEmpty {
                values.append(JSONValue.array(word.courses.map { .string($0) }).rendered())
                test.append(database.sql.courseInJSONArray(parameter: values.count))
            }
            values.append("%" + Self.likeEscaped(word.word) + "%")
            let like = values.count
            test.append(database.sql.titleTest(like: like, word: word.word, folds: folds, values: &values))
            tests.append("(" + test.joined(separator: " OR ") + ")")
        }
        let candidate = tests.isEmpty ? "false" : tests.joined(separator: " AND ")
        // Whether a returned row's title test was exact: with stored folds, every known fold.
        let decidedSQL = folds ? "t.title_fold IS NOT NULL" : "0"
        // What decides a task's bucket comes with the row (the override by the join, looked up
        // only for the rows the filter keeps); the rest of a task (students, reasons) is read
        // by its key when the caller asks (the few tasks a page may list).
        let statement = try database.prepare(
            """
            SELECT t.task_id, t.course_id, t.title, '' AS student_id, '' AS assignment_id, t.due, t.priority, t.completed\(try taskSubmissionColumns("t")),
                   t.bucket AS stored_bucket, NOT \(settled) AS unsettled, \(decidedSQL) AS decided, o.bucket, o.until, '' AS reason,
                   '' AS actor
            FROM tasks t LEFT JOIN overrides o ON o.task_id = t.task_id
            WHERE t.deleted_batch IS NULL AND (NOT \(settled) OR \(candidate))\(visible)
            """)
        let c = try statement.columnPositions
        let (key, course, title) = (try c.position("task_id"), try c.position("course_id"), try c.position("title"))
        let (stored, unsettled, decided) = (try c.position("stored_bucket"), try c.position("unsettled"), try c.position("decided"))
        let scanned = try TaskRowDecoder(c)
        let scannedOverride = try OverrideColumns(c)
        let whole = try database.cached(
            """
            SELECT t.task_id, t.course_id, t.title, t.student_id, \(try hasColumn("tasks", "assignment_id") ? "t.assignment_id" : "'' AS assignment_id"),
                   t.due, t.priority, t.completed\(try taskSubmissionColumns("t")), o.bucket, o.until, o.reason, o.actor
            FROM tasks t LEFT JOIN overrides o ON o.task_id = t.task_id
            WHERE t.task_id = ?1
            """)
        let decoder = try TaskRowDecoder(try whole.columnPositions)
        let overrides = try OverrideColumns(try whole.columnPositions)
        func read(_ taskID: String) throws -> LiveTask {
            var live: LiveTask?
            try whole.forEachRow([taskID]) { live = LiveTask(task: decoder.task($0), override: overrides.override($0)) }
            guard let live else { throw InternalError.unexpected("task \(taskID) of the scan is gone from its own read") }
            return live
        }
        try statement.forEachRow(values) { row in
            // The course and title first: a row is a candidate or unsettled, and either may not be
            // found. The candidate test is not read back (SQLite would evaluate it again): a
            // settled row passed it (the filter), exactly when its fold is known (`decided`) or,
            // without stored folds, its title is plain ASCII; an unsettled one is not known to.
            let courseID = row.string(course) ?? ""
            let isUnsettled = row.int(unsettled) != 0
            let isFound: Bool
            if !isUnsettled, row.int(decided) != 0 {
                // Decided in SQL: the title is not read.
                isFound = found(courseID, UnsafeBufferPointer(start: nil, count: 0), true)
            } else {
                isFound = row.withText(title) { found(courseID, $0, !isUnsettled && !folds && TextFold.isPlainASCII($0)) }
            }
            guard isFound || isUnsettled else { return }
            let candidate = SearchCandidate(
                courseID: courseID, storedBucket: row.string(stored) ?? "", unsettled: isUnsettled, found: isFound)
            try body(candidate, { LiveTask(task: scanned.task(row), override: scannedOverride.override(row)) }) {
                try read(row.string(key) ?? "")
            }
        }
    }

    /// `text` with LIKE's wildcards and the escape character escaped by a backslash.
    static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}

extension Store {
    /// `CategorizePass.settledSQL` over the alias `t` of `tasks`. A file from before SPEC §11
    /// (read, never written, by this binary) has no `status` column: there the state is the
    /// one `completed` means, as the upgrade would store it.
    func settledTasksSQL() throws -> String {
        let sql = CategorizePass.settledSQL
        let spelled =
            try hasColumn("tasks", "status")
            ? sql : sql.replacingOccurrences(of: "u.status", with: "(CASE u.completed WHEN 1 THEN 'completed' ELSE 'open' END)")
        return spelled.replacingOccurrences(of: "u.", with: "t.")
    }
}
