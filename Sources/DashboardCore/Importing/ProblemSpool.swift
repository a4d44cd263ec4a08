import CSQLite
import Foundation

/// The rejected rows and warnings of one run, in file order, kept out of memory once there
/// are many.
///
/// Policy (bounded memory, docs/reliability.md): the first `memoryLimit` problems are kept in
/// an array; the next one moves them all into a private temporary SQLite database (opened
/// with the empty file name: SQLite deletes it when it is closed) and every later problem
/// goes there. The spool has its own connection, so the import's transaction, savepoints
/// and rollbacks never touch it, and a small page cache, so a run of 1,000,000 rejected
/// rows holds a few MiB whatever the count. A run without problems, or with a few, never
/// opens it: the import's hot path pays nothing.
///
/// Order: problems are kept in groups (one per file read, then one per later step); inside
/// a group that is `sortedByLine`, by line, ties in the order they were added (repeats are
/// found after later rows' problems, see `Importer`); inside other groups, as added.
///
/// A spool belongs to one run and is used by one thread at a time (the importer, then the
/// command that prints its result); it is `@unchecked Sendable` only so that `ImportResult`
/// (carried by `ImportFailure`, an `Error`) stays Sendable.
package final class ProblemSpool: @unchecked Sendable {
    /// How many problems are kept in memory before the spool moves to a temporary database.
    package static let defaultMemoryLimit = 1_000

    struct Key: Comparable {
        var group: Int
        var line: Int
        var seq: Int
        static func < (a: Key, b: Key) -> Bool { (a.group, a.line, a.seq) < (b.group, b.line, b.seq) }
    }

    let memoryLimit: Int
    private var memory: [(key: Key, problem: ImportProblem)] = []
    private var memorySorted = true
    private var spool: Database?
    private var group = 0
    private var groupSortedByLine = false
    private var nextSeq = 0
    /// Every problem added, rejected rows' errors and warnings.
    package private(set) var count = 0
    /// Problems of severity `error`.
    package private(set) var errorCount = 0
    /// Problems of severity `warning`.
    package private(set) var warningCount = 0

    /// - Parameter memoryLimit: problems kept in memory before spooling (tests pass a small one).
    package init(memoryLimit: Int = ProblemSpool.defaultMemoryLimit) {
        self.memoryLimit = max(0, memoryLimit)
    }

    /// A spool holding `problems`, in their order.
    package convenience init(_ problems: [ImportProblem]) {
        self.init()
        startGroup(sortedByLine: false)
        for problem in problems { try? append(problem) }
    }

    /// True once the problems live in the temporary database (for tests).
    package var isSpooled: Bool { spool != nil }

    /// Starts a new group: every problem added later sorts after every problem added before.
    /// - Parameter sortedByLine: the group's problems are listed by line (a file's problems).
    package func startGroup(sortedByLine: Bool) {
        group += 1
        groupSortedByLine = sortedByLine
    }

    /// Adds one problem.
    /// - Throws: `SQLiteError` when the temporary database cannot be written (a full disk).
    package func append(_ problem: ImportProblem) throws {
        let key = Key(group: group, line: groupSortedByLine ? problem.line : 0, seq: nextSeq)
        if spool == nil, memory.count >= memoryLimit {
            try Self.named { try moveToDatabase() }
        }
        if let spool {
            try Self.named { try insert(key, problem, into: spool) }
        } else {
            if let last = memory.last, key < last.key { memorySorted = false }
            memory.append((key, problem))
        }
        nextSeq += 1
        count += 1
        if problem.severity == .error { errorCount += 1 } else { warningCount += 1 }
    }

    /// A point to come back to with `truncate(to:)`.
    package struct Mark: Sendable {
        let seq: Int
        let count: Int
        let errors: Int
        let warnings: Int
    }

    package var mark: Mark { Mark(seq: nextSeq, count: count, errors: errorCount, warnings: warningCount) }

    /// Forgets every problem added after `mark` (a step of the run that is done again; rare,
    /// so a scan of the spool is fine).
    package func truncate(to mark: Mark) throws {
        if let spool {
            try spool.run("DELETE FROM problem WHERE seq >= ?", [mark.seq])
        } else {
            memory.removeAll { $0.key.seq >= mark.seq }
        }
        count = mark.count
        errorCount = mark.errors
        warningCount = mark.warnings
    }

    /// Calls `body` with every problem (of `severity`, when given), in order; stops after
    /// `limit` of them when given. Memory stays bounded: rows are read one at a time.
    package func forEachProblem(
        severity: ProblemSeverity? = nil, limit: Int? = nil, _ body: (ImportProblem) throws -> Void
    ) throws {
        if let spool {
            var sql = """
                SELECT code, frictionless_type, file, problem_line, row, column_name, value, message, hint
                FROM problem
                """
            var values: [SQLBindable] = []
            if let severity {
                let codes = ProblemCode.allCases.filter { $0.severity == severity }.map(\.rawValue)
                sql += " WHERE code IN (\(codes.map { _ in "?" }.joined(separator: ", ")))"
                values += codes as [SQLBindable]
            }
            sql += " ORDER BY grp, line, seq"
            if let limit { sql += " LIMIT \(max(0, limit))" }
            let statement = try spool.prepare(sql)
            let decoder = try ProblemRowDecoder(try statement.columnPositions, lineColumn: "problem_line")
            try statement.forEachRow(values) { row in
                if let problem = decoder.problem(row) { try body(problem) }
            }
            return
        }
        sortMemory()
        var given = 0
        for item in memory where severity == nil || item.problem.severity == severity {
            if let limit, given >= limit { return }
            try body(item.problem)
            given += 1
        }
    }

    /// The first `limit` problems, for a summary.
    package func first(_ limit: Int) throws -> [ImportProblem] {
        var result: [ImportProblem] = []
        try forEachProblem(limit: limit) { result.append($0) }
        return result
    }

    // MARK: - By file and code (the JUnit report lists problems rule by rule)

    /// How many problems each file has of each code, counted in one pass (a `GROUP BY` in the
    /// temporary database), so that a report can give its counts before its problems.
    package func countsByFile() throws -> [String: [ProblemCode: Int]] {
        var counts: [String: [ProblemCode: Int]] = [:]
        if let spool {
            let statement = try spool.prepare("SELECT file, code, count(*) FROM problem GROUP BY file, code")
            try statement.forEachRow([]) { row in
                guard let code = ProblemCode(rawValue: row.string(1) ?? "") else { return }
                counts[row.string(0) ?? "", default: [:]][code, default: 0] += row.int(2)
            }
            return counts
        }
        for item in memory { counts[item.problem.file, default: [:]][item.problem.code, default: 0] += 1 }
        return counts
    }

    /// Calls `body` with every problem of `code` in `file`, in order: one scan of the spool per
    /// call, rows read one at a time.
    package func forEachProblem(file: String, code: ProblemCode, _ body: (ImportProblem) throws -> Void) throws {
        if let spool {
            let statement = try spool.prepare(
                """
                SELECT code, frictionless_type, file, problem_line, row, column_name, value, message, hint
                FROM problem WHERE file = ? AND code = ? ORDER BY grp, line, seq
                """)
            let decoder = try ProblemRowDecoder(try statement.columnPositions, lineColumn: "problem_line")
            try statement.forEachRow([file, code.rawValue]) { row in
                if let problem = decoder.problem(row) { try body(problem) }
            }
            return
        }
        sortMemory()
        for item in memory where item.problem.file == file && item.problem.code == code { try body(item.problem) }
    }

    /// Runs `body`, naming the temporary file in a failure: a full or missing temp folder is
    /// an I/O error of that file (exit 74), never taken for a fault of the database.
    private static func named(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as SQLiteError {
            throw SQLiteError(
                code: error.isFull ? error.code : SQLITE_IOERR,
                message: "cannot spool the list of problems to a temporary file (in $TMPDIR, /var/tmp or /tmp): \(error.message)",
                systemErrno: error.systemErrno)
        }
    }

    private func sortMemory() {
        guard !memorySorted else { return }
        memory.sort { $0.key < $1.key }
        memorySorted = true
    }

    private func insert(_ key: Key, _ problem: ImportProblem, into database: Database) throws {
        try database.cached(
            """
            INSERT INTO problem (grp, line, seq, code, frictionless_type, file, problem_line, row, column_name, value, message, hint)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ).run([
            key.group, key.line, key.seq, problem.code.rawValue, problem.frictionlessType, problem.file, problem.line, problem.row,
            problem.column, problem.value, problem.message, problem.hint,
        ])
    }

    /// Opens the temporary database and moves the in-memory problems into it.
    private func moveToDatabase() throws {
        let database = try Database(path: "", mode: .readWriteCreate)
        // 2 MiB of page cache; no journal (the spool is thrown away, never rolled back).
        try database.execute(
            """
            PRAGMA cache_size = -2048;
            PRAGMA journal_mode = OFF;
            PRAGMA synchronous = OFF;
            PRAGMA temp_store = FILE;
            CREATE TABLE problem (
                grp INTEGER NOT NULL, line INTEGER NOT NULL, seq INTEGER NOT NULL,
                code TEXT NOT NULL, frictionless_type TEXT NOT NULL, file TEXT NOT NULL, problem_line INTEGER NOT NULL,
                row INTEGER NOT NULL, column_name TEXT NOT NULL, value TEXT NOT NULL, message TEXT NOT NULL, hint TEXT NOT NULL,
                PRIMARY KEY (grp, line, seq)
            ) WITHOUT ROWID;
            BEGIN;
            """)
        for item in memory { try insert(item.key, item.problem, into: database) }
        memory = []
        memorySorted = true
        spool = database
    }
}
