import Foundation

/// The owner of `course_buckets`: how many live tasks each course has in each stored bucket,
/// kept at write time so that a grid reads a few thousand counts instead of a million tasks
/// (`GridCounts`; issue 15).
///
/// Policy:
/// - every write of a task's course, bucket or tombstone keeps the counts, whoever writes:
///   triggers on `tasks` do it for every connection whose triggers fire (a dashboard command,
///   a hand edit in the sqlite3 shell);
/// - a writer that turned its connection's triggers off (the importer: a trigger per row would
///   cost it seconds a million rows) keeps them itself: `counting` wraps each of its statements
///   that write tasks, and the direct writer of a first import adds up its rows (`Tally`);
/// - a count is of stored buckets: the grid still puts each task whose bucket the report's
///   as-of may change (not settled) in its bucket itself (`Store.forEachUnsettledTask`);
/// - the counts are trusted only as far as `DataMarks.valuesHold`: a writer that turned its
///   triggers off and edited tasks, or edited the counts, is one no proof can see; `verify`
///   compares them with the tasks.
enum CourseBuckets {
    static let schemaSQL = """
        CREATE TABLE IF NOT EXISTS course_buckets (
            course_id TEXT NOT NULL,
            bucket    TEXT NOT NULL,
            tasks     INTEGER NOT NULL,
            PRIMARY KEY (course_id, bucket)
        ) WITHOUT ROWID;
        INSERT OR IGNORE INTO course_buckets (course_id, bucket, tasks)
        SELECT course_id, bucket, count(*) FROM tasks WHERE deleted_batch IS NULL GROUP BY course_id, bucket;
        CREATE TRIGGER IF NOT EXISTS tasks_counted_inserted AFTER INSERT ON tasks WHEN NEW.deleted_batch IS NULL BEGIN
            INSERT INTO course_buckets (course_id, bucket, tasks) VALUES (NEW.course_id, NEW.bucket, 1)
            ON CONFLICT (course_id, bucket) DO UPDATE SET tasks = tasks + 1;
        END;
        CREATE TRIGGER IF NOT EXISTS tasks_counted_deleted AFTER DELETE ON tasks WHEN OLD.deleted_batch IS NULL BEGIN
            UPDATE course_buckets SET tasks = tasks - 1 WHERE course_id = OLD.course_id AND bucket = OLD.bucket;
        END;
        CREATE TRIGGER IF NOT EXISTS tasks_counted_updated AFTER UPDATE OF course_id, bucket, deleted_batch ON tasks BEGIN
            UPDATE course_buckets SET tasks = tasks - 1
            WHERE OLD.deleted_batch IS NULL AND course_id = OLD.course_id AND bucket = OLD.bucket;
            INSERT INTO course_buckets (course_id, bucket, tasks) SELECT NEW.course_id, NEW.bucket, 1 WHERE NEW.deleted_batch IS NULL
            ON CONFLICT (course_id, bucket) DO UPDATE SET tasks = tasks + 1;
        END;

        """

    /// True when the file keeps the counts (schema 8 on).
    static func exists(_ database: Database) throws -> Bool {
        try database.hasTable("course_buckets")
    }

    /// Counts to add, per course and bucket, written at once (`write`).
    struct Tally {
        private struct Key: Hashable {
            var course: String
            var bucket: String
        }
        private var counts: [Key: Int] = [:]

        var isEmpty: Bool { counts.values.allSatisfy { $0 == 0 } }

        mutating func add(course: String, bucket: String, _ n: Int) {
            counts[Key(course: course, bucket: bucket), default: 0] += n
        }

        /// The courses counted.
        var courses: Set<String> { Set(counts.keys.map(\.course)) }

        /// The totals per bucket, all courses together.
        var perBucket: [String: Int] {
            var totals: [String: Int] = [:]
            for (key, n) in counts { totals[key.bucket, default: 0] += n }
            return totals
        }

        /// Adds `sign` for each live task among `taskIDs` (a SELECT of a `task_id` column, bound
        /// with `values`), by its course and stored bucket now.
        mutating func addLive(_ taskIDs: String, values: [SQLBindable], sign: Int, in database: Database) throws {
            let statement = try database.prepare(
                """
                SELECT t.course_id, t.bucket FROM (\(taskIDs)) p JOIN tasks t ON t.task_id = p.task_id
                WHERE t.deleted_batch IS NULL
                """)
            try statement.forEachRow(values) { row in add(course: row.string(0) ?? "", bucket: row.string(1) ?? "", sign) }
        }

        /// Adds the counts to `course_buckets`, in statements of many rows (one round trip per
        /// 500 courses and buckets on PostgreSQL, instead of one per row).
        func write(_ database: Database) throws {
            let rows = counts.sorted(by: { ($0.key.course, $0.key.bucket) < ($1.key.course, $1.key.bucket) }).filter { $0.value != 0 }
            var start = rows.startIndex
            while start < rows.endIndex {
                let chunk = rows[start..<min(start + Self.rowsPerStatement, rows.endIndex)]
                let sql = """
                    INSERT INTO course_buckets (course_id, bucket, tasks) VALUES \(Array(repeating: "(?, ?, ?)", count: chunk.count).joined(separator: ", "))
                    ON CONFLICT (course_id, bucket) DO UPDATE SET tasks = course_buckets.tasks + excluded.tasks
                    """
                let values: [SQLBindable] = chunk.flatMap { [$0.key.course, $0.key.bucket, $0.value] as [SQLBindable] }
                try (chunk.count == Self.rowsPerStatement ? database.cached(sql) : database.prepare(sql)).run(values)
                start = chunk.endIndex
            }
        }

        /// Rows per statement of `write`.
        static let rowsPerStatement = 500
    }

    /// Runs `body`, a write of the tasks among `taskIDs` (a SELECT of a `task_id` column, bound
    /// with `values`; a task `body` inserts must be among them), and keeps the counts when this
    /// connection's triggers are off: the live tasks among them before are taken away, the
    /// live ones after added. With triggers on, `body` alone (the triggers count).
    static func counting(_ database: Database, tasks taskIDs: String, values: [SQLBindable] = [], _ body: () throws -> Void) throws {
        guard !database.triggersEnabled, try exists(database) else { return try body() }
        var tally = Tally()
        try tally.addLive(taskIDs, values: values, sign: -1, in: database)
        try body()
        try tally.addLive(taskIDs, values: values, sign: 1, in: database)
        try tally.write(database)
    }

    /// Counts every course's live tasks per stored bucket afresh (a sort of every task: about a
    /// second a million tasks; only when data is made clean again, `DataMarks`).
    static func rebuild(_ database: Database) throws {
        guard try exists(database) else { return }
        try database.execute(
            """
            DELETE FROM course_buckets;
            INSERT INTO course_buckets (course_id, bucket, tasks)
            SELECT course_id, bucket, count(*) FROM tasks WHERE deleted_batch IS NULL GROUP BY course_id, bucket;
            """)
    }

    /// Each course and bucket whose count is not its live tasks': `(course_id, bucket, stored,
    /// actual)`, in key order (`dashboard verify`).
    static func mismatches(_ database: Database, _ body: (String, String, Int, Int) throws -> Void) throws {
        guard try exists(database) else { return }
        try database.prepare(
            """
            SELECT course_id, bucket, sum(stored) AS stored, sum(actual) AS actual FROM (
                SELECT course_id, bucket, tasks AS stored, 0 AS actual FROM course_buckets
                UNION ALL
                SELECT course_id, bucket, 0, count(*) FROM tasks WHERE deleted_batch IS NULL GROUP BY course_id, bucket
            ) AS counts GROUP BY course_id, bucket HAVING sum(stored) <> sum(actual) ORDER BY course_id, bucket
            """
        ).forEachRow { row in try body(row.string(0) ?? "", row.string(1) ?? "", row.int(2), row.int(3)) }
    }

    /// The counts of live tasks per course and stored bucket.
    static func read(_ database: Database) throws -> [String: [String: Int]] {
        var counts: [String: [String: Int]] = [:]
        try database.cached("SELECT course_id, bucket, tasks FROM course_buckets WHERE tasks <> 0").forEachRow { row in
            counts[row.string(0) ?? "", default: [:]][row.string(1) ?? ""] = row.int(2)
        }
        return counts
    }
}
