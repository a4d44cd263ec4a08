import Foundation

/// Per-course results in a TEMP table (SQLite keeps it on disk, in a bounded page cache), for
/// the length of one report's read: created empty, filled by `add`, indexed on the key once
/// every result is in, read back in key order, dropped at the end. Each set has its own table,
/// so a grid's and a list's can be open at once.
final class SQLiteCourseResults: CourseResults {
    private let database: Database
    private let table: String
    private var insert: Statement?
    private var ordered = false

    /// The columns after the key, in the order `add` binds them.
    private static let columns = [
        "course_id", "code", "title", "term", "teacher", "timezone", "language", "live", "completed_matching", "linked", "rows",
    ]
    private static let countColumns = Bucket.allCases.map { "n_" + $0.rawValue }

    /// Creates the empty TEMP table (inside the caller's read).
    init(database: Database) throws {
        self.database = database
        table = "report_courses_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let text = Self.columns.prefix(7).map { "\($0) TEXT NOT NULL" }
        let numbers = (Self.columns.dropFirst(7) + Self.countColumns).map { "\($0) INTEGER NOT NULL" }
        try database.execute(SQLiteStoreSQL.reportCoursesTable(table, columns: text + numbers))
    }

    func add(_ result: CourseResult) throws {
        let statement: Statement
        if let insert {
            statement = insert
        } else {
            let names = ["k"] + Self.columns + Self.countColumns
            let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
            statement = try database.prepare("INSERT INTO temp.\(table) (\(names.joined(separator: ", "))) VALUES (\(marks))")
            insert = statement
        }
        let c = result.course
        var values: [SQLBindable] = [SQLValue.blob(result.key), c.courseID, c.code, c.title, c.term, c.teacher, c.timezone, c.language]
        values += [result.live, result.completed, result.linked ? 1 : 0, result.rows]
        values += Bucket.allCases.map { result.counts[$0] }
        try statement.run(values)
    }

    func prepareOrderedReading() throws {
        guard !ordered else { return }
        try database.execute("CREATE INDEX temp.\(table)_order ON \(table) (k, course_id)")
        ordered = true
    }

    func forEach(offset: Int, count: Int?, _ body: (CourseResult) throws -> Void) throws {
        let names = ["k"] + Self.columns + Self.countColumns
        let statement = try database.prepare(
            "SELECT \(names.joined(separator: ", ")) FROM temp.\(table) ORDER BY k, course_id LIMIT ? OFFSET ?")
        let c = try statement.columnPositions
        let course = try CourseRowDecoder(c)
        let (key, live, completed, linked) = (
            try c.position("k"), try c.position("live"), try c.position("completed_matching"), try c.position("linked")
        )
        let rows = try c.position("rows")
        let counts = try Self.countColumns.map { try c.position($0) }
        try statement.forEachRow([count.map { max(0, $0) } ?? -1, max(0, offset)]) { row in
            var bytes: [UInt8] = []
            if case .blob(let stored) = row.value(key) { bytes = stored }
            var tally = BucketCounts()
            for (bucket, position) in zip(Bucket.allCases, counts) { tally[bucket] = row.int(position) }
            try body(
                CourseResult(
                    key: bytes, course: course.course(row), counts: tally, live: row.int(live), completed: row.int(completed),
                    linked: row.int(linked) != 0, rows: row.int(rows)))
        }
    }

    func drop() {
        insert = nil
        try? database.execute("DROP TABLE IF EXISTS temp.\(table)")
    }
}
