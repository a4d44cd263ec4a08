import Foundation

/// The SQLite store's reads for reports: live courses, live tasks with their stored override,
/// and the TEMP table of page keys (`SQLitePageKeys`). Rows are decoded into values here and
/// nowhere above (`ReportSource` applies the bucket policy).
extension Store: ReportReading {
    package func liveCourses(only: [String]) throws -> [CourseRecord] {
        var courses: [CourseRecord] = []
        let (statement, values) = try coursesStatement(only: only)
        let decoder = try CourseRowDecoder(try statement.columnPositions)
        try statement.forEachRow(values) { row in courses.append(decoder.course(row)) }
        return courses
    }

    package func forEachLiveCourse(
        only: [String], countsOnly: Bool, course: (CourseRecord) throws -> Void, task: (LiveTask) throws -> Void
    ) throws {
        // A role that sees some courses reads them one by one (see `visibleCourseIDs`).
        if only.isEmpty, let visible = try visibleCourseIDs() {
            guard !visible.isEmpty else { return }
            return try forEachLiveCourse(only: visible, countsOnly: countsOnly, course: course, task: task)
        }
        let (courses, values) = try coursesStatement(only: only)
        let decoder = try CourseRowDecoder(try courses.columnPositions)
        // Every course: one scan of the tasks sorted by course (SQLite's sorter, bounded, spills
        // to disk), merged with the courses; a scan costs less than a lookup per task through
        // `tasks_by_course`. Some courses: each one's tasks through that index.
        let tasks = try database.prepare(
            only.isEmpty
                ? Self.tasksSQL(
                    "", countsOnly: countsOnly, order: database.dialect == .sqlite ? " ORDER BY +t.course_id" : " ORDER BY t.course_id",
                    assignments: try hasColumn("tasks", "assignment_id"), submissions: try taskSubmissionColumns("t"))
                : Self.tasksSQL(
                    " AND t.course_id = ?", countsOnly: countsOnly, order: "", assignments: try hasColumn("tasks", "assignment_id"),
                    submissions: try taskSubmissionColumns("t")))
        let c = try tasks.columnPositions
        let taskDecoder = try TaskRowDecoder(c)
        let courseID = try c.position("course_id")
        let overrides = try OverrideColumns(c)
        func live(_ row: Row) -> LiveTask { LiveTask(task: taskDecoder.task(row), override: overrides.override(row)) }
        if !only.isEmpty {
            try courses.forEachRow(values) { row in
                let record = decoder.course(row)
                try course(record)
                try tasks.forEachRow([record.courseID]) { try task(live($0)) }
            }
            return
        }
        try tasks.bind([])
        defer { tasks.reset() }
        // SQLite's sorter keeps up to the connection's page cache in memory before it spills:
        // 2 MiB for this sort whatever the connection's cache (the writer's is 12 MiB). The
        // first step sorts; the cache is given back then.
        let cache = database.dialect == .sqlite ? try database.int("PRAGMA cache_size") : 0
        if cache > 2048 || cache < -2048 { try database.execute("PRAGMA cache_size = -2048") }
        var pending: Row?
        do {
            pending = try tasks.nextRow()
        } catch {
            if cache != 0 { try? database.execute("PRAGMA cache_size = \(cache)") }
            throw error
        }
        if cache != 0 { try database.execute("PRAGMA cache_size = \(cache)") }
        try courses.forEachRow(values) { row in
            let record = decoder.course(row)
            try course(record)
            // Bytes compared as SQLite's BINARY order does (never Swift's canonical equivalence).
            let id = record.courseID.utf8
            // Tasks of a course that is not live sort before the next live one: skipped.
            while let next = pending, (next.string(courseID) ?? "").utf8.lexicographicallyPrecedes(id) {
                pending = try tasks.nextRow()
            }
            while let next = pending, (next.string(courseID) ?? "").utf8.elementsEqual(id) {
                try task(live(next))
                pending = try tasks.nextRow()
            }
        }
    }

    package func courseResults() throws -> any CourseResults {
        try SQLiteCourseResults(database: database.dialect == .sqlite ? database : scratch.get())
    }

    /// The live courses (or those whose id or code is in `only`) by course id, and its values.
    func coursesStatement(only: [String]) throws -> (Statement, [SQLBindable]) {
        let marks = Array(repeating: "?", count: only.count).joined(separator: ", ")
        let courseFilter = only.isEmpty ? "" : " AND (course_id IN (\(marks)) OR code IN (\(marks)))"
        let statement = try database.prepare(
            """
            SELECT course_id, code, title, term, teacher, timezone, \(try courseLanguageColumn())
            FROM courses WHERE deleted_batch IS NULL\(courseFilter) ORDER BY course_id
            """)
        return (statement, only.isEmpty ? [] : only + only)
    }

    package func forEachLiveTask(_ selection: TaskSelection, countsOnly: Bool, _ body: (LiveTask) throws -> Void) throws {
        let filter: String
        let values: [SQLBindable]
        switch selection {
        case .all:
            if let visible = try visibleCourseIDs() { return try forEachLiveTask(.courses(visible), countsOnly: countsOnly, body) }
            (filter, values) = ("", [])
        case .courses(let ids):
            if ids.isEmpty { return }
            (filter, values) = (" AND t.course_id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))", ids)
        case .keptPage, .keptAfter:
            (filter, values) = try keptFilter(selection)
        }
        // The hot path of every report: names are resolved here, once per statement; each row
        // then costs the same array reads as decoding by position.
        let statement = try database.prepare(
            Self.tasksSQL(
                filter, countsOnly: countsOnly, assignments: try hasColumn("tasks", "assignment_id"),
                submissions: try taskSubmissionColumns("t")))
        let c = try statement.columnPositions
        let decoder = try TaskRowDecoder(c)
        let overrides = try OverrideColumns(c)
        try statement.forEachRow(values) { row in try body(LiveTask(task: decoder.task(row), override: overrides.override(row))) }
    }

    package func pageKeys() throws -> any PageKeys {
        let keys = try SQLitePageKeys(database: database.dialect == .sqlite ? database : scratch.get())
        currentPageKeys = keys
        return keys
    }

    /// The tasks query's filter for a page or a chunk of the read's page keys, and its values:
    /// on SQLite a subquery of the TEMP table; on PostgreSQL the page's ids, read from the
    /// scratch file (a page at a time: bounded by the page), as one JSON array.
    private func keptFilter(_ selection: TaskSelection) throws -> (String, [SQLBindable]) {
        guard database.dialect == .postgres else {
            switch selection {
            case .keptPage(let offset, let count): return (SQLitePageKeys.pageFilter, [count, offset])
            case .keptAfter(let key, let count): return (SQLitePageKeys.afterFilter, [SQLValue.blob(key), count])
            default: return ("", [])
            }
        }
        guard let keys = currentPageKeys else { throw InternalError.unexpected("a page of keys read outside the read that kept them") }
        let ids = try keys.taskIDs(selection)
        return (
            " AND t.task_id = ANY (CAST(? AS text[]))", [PGDialect.arrayLiteral(ids)]
        )
    }

    /// The tasks query; `filter` narrows it (to some courses, or to a page of `SQLitePageKeys`).
    /// An override's reason and actor are read with the titles (a list shows them), not for
    /// counts.
    /// - Parameters:
    ///   - assignments: false for a file from before schema 6 (no `assignment_id`).
    ///   - submissions: `taskSubmissionColumns("t")`: the state and hand-in time, or nothing in a
    ///     file from before them.
    static func tasksSQL(
        _ filter: String, countsOnly: Bool = false, order: String = " ORDER BY t.task_id", assignments: Bool = true,
        submissions: String = ""
    ) -> String {
        """
        SELECT t.task_id, t.course_id, \(countsOnly ? "'' AS title, '' AS student_id" : "t.title, t.student_id"), \(countsOnly || !assignments ? "'' AS assignment_id" : "t.assignment_id"), t.due, t.priority, t.completed\(submissions), o.bucket, o.until, \(countsOnly ? "'' AS reason, '' AS actor" : "o.reason, o.actor")
        FROM tasks t LEFT JOIN overrides o ON o.task_id = t.task_id
        WHERE t.deleted_batch IS NULL\(filter)\(order)
        """
    }

    /// The override columns of the tasks query, resolved once per statement.
    struct OverrideColumns {
        let bucket: Int
        let until: Int
        let reason: Int
        let actor: Int

        init(_ columns: ColumnPositions) throws {
            (bucket, until) = (try columns.position("bucket"), try columns.position("until"))
            (reason, actor) = (try columns.position("reason"), try columns.position("actor"))
        }

        /// The row's stored override, or nil when the task has none.
        func override(_ row: Row) -> StoredOverride? {
            guard !row.isNull(bucket) else { return nil }
            return StoredOverride(
                bucket: row.string(bucket) ?? "", until: row.string(until) ?? "", reason: row.string(reason) ?? "",
                actor: row.string(actor) ?? "")
        }
    }
}

/// The grid from the counts kept at write time (`GridCounts`, `CourseBuckets`).
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
        let role: String? =
            database.dialect == .postgres
            ? try database.rows(
                """
                SELECT current_user::text FROM pg_roles r, pg_class c
                WHERE r.rolname = current_user AND c.oid = to_regclass('tasks')
                  AND NOT (r.rolsuper OR r.rolbypassrls OR pg_has_role(current_user, c.relowner, 'USAGE'))
                """
            ).first?.first?.text : nil
        guard let role else {
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
                switch database.dialect {
                case .sqlite: test.append("t.course_id IN (SELECT value FROM json_each(?\(values.count)))")
                case .postgres: test.append("t.course_id IN (SELECT json_array_elements_text(CAST(?\(values.count) AS json)))")
                }
            }
            values.append("%" + Self.likeEscaped(word.word) + "%")
            let like = values.count
            switch database.dialect {
            case .sqlite where folds:
                values.append(SQLValue.blob(Array(word.word.utf8)))
                test.append(
                    """
                    CASE WHEN t.title_fold = X'' THEN t.title LIKE ?\(like) ESCAPE '\\' WHEN t.title_fold IS NULL THEN 1
                         ELSE instr(t.title_fold, ?\(values.count)) > 0 END
                    """)
            case .sqlite:
                test.append("t.title LIKE ?\(like) ESCAPE '\\' OR length(t.title) <> length(CAST(t.title AS BLOB))")
            case .postgres:
                // ILIKE under the titles' "C" collation folds ASCII letters only, as SQLite's LIKE.
                test.append("t.title ILIKE ?\(like) ESCAPE '\\' OR length(t.title) <> octet_length(t.title)")
            }
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
