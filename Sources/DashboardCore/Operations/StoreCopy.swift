import Foundation

/// `dashboard copy --from SQLITE --to postgresql://…`: a whole dashboard database moved into an
/// empty PostgreSQL one, table by table (batches, files, counts, problems, courses, tasks,
/// history, held rows, audit, overrides, settings and their log, births), ids kept, in one
/// transaction; then every copied table is read back from both sides in key order and compared
/// row by row. Anything wrong rolls the whole copy back: the target is left empty.
///
/// What is not copied: the proof for the fast grid (`data_marks`, `course_buckets`): the target's
/// own triggers (`PGSchema.keptMarksAndCounts`) count the copied tasks as they arrive, and its
/// data starts unproven until a clean-making sync; SQLite's
/// `sqlite_sequence`, and the import's fingerprints and slots of tasks (`RowPrints`: the copy
/// leaves the data unproven, and the next clean-making sync gives them again); the PostgreSQL
/// identity columns are moved past the copied ids instead.
///
/// The source is checked first with the same rules as `dashboard verify` (a value PostgreSQL's
/// typed columns would take differently, or a broken reference, is refused with the list of
/// problems, before anything is written).
package enum StoreCopy {
    /// The tables a copy moves, in an order where references come first.
    static var tables: [PGSchema.Table] { PGSchema.tables.filter { !["data_marks", "course_buckets"].contains($0.name) } }

    /// What a copy did: the rows of each table, in the copy's order.
    package struct Summary: Equatable, Sendable {
        package var rows: [(table: String, rows: Int)]

        package static func == (a: Summary, b: Summary) -> Bool {
            a.rows.map(\.table) == b.rows.map(\.table) && a.rows.map(\.rows) == b.rows.map(\.rows)
        }
    }

    package enum Failure: Error, Equatable, Sendable {
        /// The target holds dashboard data already (a copy goes into an empty database only).
        case targetNotEmpty(table: String, rows: Int)
        /// The source breaks the rules `verify` checks: each problem as `verify` prints it.
        case sourceHasProblems([VerificationProblem])
        /// A table read back from the target differs from the source (a bug, or a value the
        /// target's types changed): the first row that differs, as COPY text.
        case differs(table: String, source: String, target: String)
    }

    /// Copies `source` into `target` (its schema created and empty), then compares.
    package static func copy(from source: Store, to target: PGStore) throws -> Summary {
        var problems: [VerificationProblem] = []
        try source.verify { problems.append($0) }
        guard problems.isEmpty else { throw Failure.sourceHasProblems(problems) }
        let connection = target.connection
        return try connection.inTransaction {
            // One writer at a time: another dashboard writing to the target makes this one busy.
            guard try connection.scalar("SELECT pg_try_advisory_xact_lock($1)", [String(PGStore.writerLock)]) == "t" else {
                throw StoreError.busy(path: target.display, waitedSeconds: 0)
            }
            for table in tables {
                let rows = Int(try connection.scalar("SELECT count(*) FROM \(table.name)") ?? "0") ?? 0
                // A new database's own rows (its data marks) aside, every table must be empty.
                guard rows == 0 else { throw Failure.targetNotEmpty(table: table.name, rows: rows) }
            }
            var summary = Summary(rows: [])
            try source.read {
                for table in tables {
                    summary.rows.append((table.name, try copy(table, from: source, to: connection)))
                    if let identity = table.identity {
                        try connection.query(
                            "SELECT setval(pg_get_serial_sequence($1, $2), GREATEST((SELECT max(\(identity)) FROM \(table.name)), 0) + 1, false)",
                            [table.name, identity])
                    }
                }
                for table in tables { try compare(table, source: source, target: connection) }
            }
            // The triggers counted the copied tasks per course and bucket; the data starts
            // unproven, as a copy back into SQLite does (its stored buckets were not written by
            // this store), until a clean-making sync.
            try connection.execute("UPDATE data_marks SET clean = 0, trusted = writes WHERE id = 1")
            try connection.execute("CREATE INDEX IF NOT EXISTS tasks_by_course ON tasks (course_id)")
            return summary
        }
    }

    /// Copies the PostgreSQL database `source` into `target`, a SQLite database with no data
    /// (just created), in one SQLite transaction with the connection's triggers off; then counts
    /// the SQLite store's kept counts afresh (`CourseBuckets.rebuild`), leaves its data marks
    /// unproven (no identical-import shortcut matches a copied batch; the grid counts task by
    /// task until a clean-making sync), and compares every table as `copy(from:to:)` does.
    package static func copy(from source: PGStore, to target: Store) throws -> Summary {
        let database = target.database
        var summary = Summary(rows: [])
        try database.inTransaction(.immediate) {
            for table in tables {
                let rows = try database.int("SELECT count(*) FROM \(table.name)")
                guard rows == 0 else { throw Failure.targetNotEmpty(table: table.name, rows: rows) }
            }
            database.setTriggersEnabled(false)
            defer { database.setTriggersEnabled(true) }
            try source.connection.inTransaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
                for table in tables {
                    summary.rows.append((table.name, try copy(table, from: source.connection, to: database)))
                }
                // The SQLite store's own proof: counted afresh, and the data not taken as proven;
                // the titles' folds PostgreSQL does not keep, computed.
                try CourseBuckets.rebuild(database)
                try TitleFolds.fillAll(in: database)
                let mark = "(SELECT coalesce(max(data_mark), 0) + 1 FROM batches)"
                try database.execute("UPDATE data_marks SET data = \(mark), writes = \(mark), clean = 0 WHERE id = 1")
                try database.execute("UPDATE data_marks SET trusted = writes WHERE id = 1")
                for table in tables { try compare(table, source: target, target: source.connection) }
            }
            return .commit
        }
        return summary
    }

    /// Reads the table from PostgreSQL in key order (`COPY … TO STDOUT`) and inserts each row
    /// into SQLite, integers as integers.
    private static func copy(_ table: PGSchema.Table, from connection: PGConnection, to database: Database) throws -> Int {
        let types = table.copiedColumns
        let placeholders = types.indices.map { "?\($0 + 1)" }.joined(separator: ", ")
        let names = types.map(\.name).joined(separator: ", ")
        let insert = try database.prepare("INSERT INTO \(table.name) (\(names)) VALUES (\(placeholders))")
        var count = 0
        let select = try selectList(table) { try hasColumn(connection, table.name, $0) }
        try connection.copyOut("COPY (SELECT \(select) FROM \(table.name) ORDER BY \(table.byteOrder)) TO STDOUT") { line in
            let fields = PGCopyText.fields(line)
            guard fields.count == types.count else {
                throw Failure.differs(
                    table: table.name, source: String(decoding: line, as: UTF8.self), target: "a row of \(types.count) fields")
            }
            var values: [SQLBindable] = []
            for (field, column) in zip(fields, types) {
                if let field {
                    if column.type == "bigint", let number = Int64(field) { values.append(number) } else { values.append(field) }
                } else {
                    values.append(SQLValue.null)
                }
            }
            try insert.run(values)
            count += 1
        }
        return count
    }

    /// Sends the table's rows in key order through `COPY … FROM STDIN`, 256 KiB at a time.
    private static func copy(_ table: PGSchema.Table, from source: Store, to connection: PGConnection) throws -> Int {
        let columns = table.copiedColumns.map(\.name)
        var count = 0
        try connection.copyIn("COPY \(table.name) (\(columns.joined(separator: ", "))) FROM STDIN") { send in
            var chunk: [UInt8] = []
            chunk.reserveCapacity(1 << 18)
            try forEachLine(table, in: source) { line in
                chunk.append(contentsOf: line)
                count += 1
                if chunk.count >= 1 << 18 {
                    try send(chunk)
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            if !chunk.isEmpty { try send(chunk) }
        }
        return count
    }

    /// Each row of `table` in the source, in key order, as a line of COPY text.
    static func forEachLine(_ table: PGSchema.Table, in source: Store, _ body: ([UInt8]) throws -> Void) throws {
        var rows = try lines(table, in: source)
        while let line = try rows.next() { try body(line) }
    }

    /// Reads the table back from the target in the same order (`COLLATE "C"`: byte order, as
    /// SQLite's BINARY) and compares each line with the source's.
    private static func compare(_ table: PGSchema.Table, source: Store, target connection: PGConnection) throws {
        let columns = table.copiedColumns.map(\.name)
        var sourceLines: [[UInt8]] = []
        var targetLines: [[UInt8]] = []
        func check() throws {
            let count = min(sourceLines.count, targetLines.count)
            for index in 0..<count where sourceLines[index] != targetLines[index] {
                throw Failure.differs(
                    table: table.name, source: String(decoding: sourceLines[index], as: UTF8.self),
                    target: String(decoding: targetLines[index], as: UTF8.self))
            }
            sourceLines.removeFirst(count)
            targetLines.removeFirst(count)
        }
        // Both sides stream; the target is read first into bounded windows of the source.
        var sourceRows = try lines(table, in: source)
        let select = try selectList(table) { try hasColumn(connection, table.name, $0) }
        try connection.copyOut("COPY (SELECT \(select) FROM \(table.name) ORDER BY \(table.byteOrder)) TO STDOUT") { bytes in
            targetLines.append(Array(bytes))
            if let next = try sourceRows.next() { sourceLines.append(next) }
            try check()
        }
        while let next = try sourceRows.next() { sourceLines.append(next) }
        try check()
        if let extra = sourceLines.first {
            throw Failure.differs(table: table.name, source: String(decoding: extra, as: UTF8.self), target: "(no row)")
        }
        if let extra = targetLines.first {
            throw Failure.differs(table: table.name, source: "(no row)", target: String(decoding: extra, as: UTF8.self))
        }
    }

    /// The source's lines of `table`, one at a time.
    struct SourceLines {
        let statement: Statement
        let columns: [String]
        let table: String

        mutating func next() throws -> [UInt8]? {
            guard let row = try statement.nextRow() else { return nil }
            var line: [UInt8] = []
            for index in columns.indices {
                let text: String?
                switch row.value(index) {
                case .null: text = nil
                case .integer(let value): text = String(value)
                case .text(let value): text = value
                case .real(let value): text = String(value)
                case .blob: throw Failure.differs(table: table, source: "a blob in \(columns[index])", target: "text")
                }
                PGCopyText.append(text, to: &line, first: index == 0)
            }
            line.append(0x0A)
            return line
        }
    }

    private static func lines(_ table: PGSchema.Table, in source: Store) throws -> SourceLines {
        let columns = table.copiedColumns.map(\.name)
        let select = try selectList(table) { try source.database.hasColumn(table.name, $0) }
        let statement = try source.database.prepare(
            "SELECT \(select) FROM \(table.name) ORDER BY \(table.key.joined(separator: ", "))")
        return SourceLines(statement: statement, columns: columns, table: table.name)
    }

    /// What a source's table is read as: its columns, and for one an older schema does not have
    /// (a source is opened as it is, never upgraded) the value the upgrade gives it: '' (NULL in
    /// the history). Those columns: the teacher's address (before SQLite's schema 11 and
    /// PostgreSQL's version 10) and the course's language (before 12 and 11), of `courses`,
    /// `course_history` and `held_courses`; a task's submission state (the one its `completed`
    /// means, NULL in the history of a row that did not exist) and hand-in time ('') before
    /// SQLite's schema 13 and PostgreSQL's version 12, of `tasks`, `task_history` and
    /// `held_tasks`, as the upgrade sets them.
    static func selectList(_ table: PGSchema.Table, has: (String) throws -> Bool) throws -> String {
        try table.copiedColumns.map { column in
            let added = addedToCourses.contains(column.name) || (addedToTasks.contains(column.name) && table.name.contains("task"))
            guard added, try !has(column.name) else { return column.name }
            switch (table.name, column.name) {
            case ("task_history", "status"):
                return "CASE completed WHEN 1 THEN 'completed' WHEN 0 THEN 'open' END AS status"
            case ("task_history", "submitted_at"):
                return "CASE WHEN existed = 1 OR completed IS NOT NULL THEN '' END AS submitted_at"
            case (_, "status"):
                return "CASE completed WHEN 1 THEN 'completed' ELSE 'open' END AS status"
            case ("course_history", _):
                return "NULL AS \(column.name)"
            default:
                return "'' AS \(column.name)"
            }
        }.joined(separator: ", ")
    }

    /// The columns added to the task tables after PostgreSQL's version 11 (`selectList`).
    static let addedToTasks: Set<String> = ["status", "submitted_at"]

    /// The columns added to the course tables after PostgreSQL's first version (`selectList`).
    static let addedToCourses: Set<String> = ["teacher_email", "language"]

    static func hasColumn(_ connection: PGConnection, _ table: String, _ column: String) throws -> Bool {
        try connection.scalar(
            "SELECT count(*) FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = $2 AND attnum > 0 AND NOT attisdropped",
            [table, column]) == "1"
    }
}
