import Foundation

/// The store's reads for reports: live courses, live tasks with their stored override,
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
                    "", countsOnly: countsOnly, order: " ORDER BY " + database.sql.unindexed("t.course_id"),
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
        let cache = try database.sql.lowerCacheForSort(database) ?? 0
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
        try SQLiteCourseResults(database: database.sql.keepsReportKeysInItself ? database : scratch.get())
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
        let keys = try SQLitePageKeys(database: database.sql.keepsReportKeysInItself ? database : scratch.get())
        currentPageKeys = keys
        return keys
    }

    /// The tasks query's filter for a page or a chunk of the read's page keys, and its values:
    /// on SQLite a subquery of the TEMP table; on PostgreSQL the page's ids, read from the
    /// scratch file (a page at a time: bounded by the page), as one JSON array.
    private func keptFilter(_ selection: TaskSelection) throws -> (String, [SQLBindable]) {
        guard !database.sql.keepsReportKeysInItself else {
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
