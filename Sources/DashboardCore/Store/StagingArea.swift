/// The validated rows of one run, held in temporary tables of the importing connection until
/// the run decides to apply, hold or drop them.
///
/// Staging first lets every count (and the delete guard) be known before any data is
/// written, and turns the apply into a few set-based statements.
final class StagingArea {
    let database: Database
    /// Rows of this run found unchanged by their print and not staged (`UnchangedRows`); nil
    /// when every row read was staged. When set, `temp.unseen_tasks` lists the live tasks the
    /// run did not find unchanged, and the plan looks up each staged row instead of comparing
    /// every live one.
    var skippedUnchanged: Int?
    /// The largest slot of any task when the run learnt it (`UnchangedRows.largestSlot`): new
    /// slots are given after it (nil: `apply` looks it up).
    var largestSlot: Int?

    init(database: Database) throws {
        self.database = database
        rowsPerFlush = database.sql.taskRowsPerFlush
        copies = database.sql.copiesTasks
        fullInsertSQL = Self.insertSQL(rowsPerFlush)
        try database.execute(database.sql.stagingTables)
    }

    /// Gives each path its file number now (before a savepoint that may be rolled back: a
    /// number must outlive it, `fileNumber`).
    func numberFiles(_ paths: [String]) throws {
        for path in paths { _ = try fileNumber(path) }
    }

    /// Forgets the rows waiting for their statement (a run that reads its files again).
    func discardPending() {
        pendingTasks.removeAll(keepingCapacity: true)
    }

    /// Removes everything staged (temporary tables live as long as the connection).
    func clear() throws {
        try database.execute(
            """
            DELETE FROM stage_courses; DELETE FROM stage_tasks; DELETE FROM plan_courses; DELETE FROM plan_tasks;
            DELETE FROM rejected_ids;
            """)
    }

    /// The last file given a number (rows come file by file).
    private var lastFile: (path: String, number: Int)?

    /// The number that stands for `path` in `stage_tasks.file_no`: a staged task carries a small
    /// integer instead of its file's path (often 50 bytes and more, 40 % of a staged row).
    /// Numbers are never cleared: a path keeps its number for the connection's life, so no
    /// staging area (there may be several on one connection) can hold a stale one.
    private func fileNumber(_ path: String) throws -> Int {
        if let lastFile, lastFile.path == path { return lastFile.number }
        try database.run("INSERT INTO stage_files (path) VALUES (?) ON CONFLICT DO NOTHING", [path])
        let number = try database.int("SELECT file_no FROM stage_files WHERE path = ?", [path])
        lastFile = (path, number)
        return number
    }

    /// Remembers the id of a rejected row: a sync must not delete the live row of that id
    /// (the row is in the file, only broken), and a rejected course keeps its tasks valid.
    func markRejected(_ kind: FileKind, id: String) throws {
        try database.run("INSERT INTO rejected_ids (kind, id) VALUES (?, ?) ON CONFLICT DO NOTHING", [kind.rawValue, id])
    }

    // MARK: - Staging rows

    /// The outcome of staging one row.
    enum StageOutcome: Equatable {
        case staged
        /// The same id was staged before with identical values, on `line` of `file`.
        case repeatOf(file: String, line: Int)
        /// The same id was staged before with different values, on `line` of `file`.
        case conflictsWith(file: String, line: Int)
    }

    func stage(_ course: CourseRecord, file: String, line: Int) throws -> StageOutcome {
        try database.run(
            """
            INSERT INTO stage_courses (course_id, code, title, term, teacher, timezone, teacher_email, language, file, line)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            """,
            [
                course.courseID, course.code, course.title, course.term, course.teacher, course.timezone, course.teacherEmail,
                course.language, file, line,
            ])
        if database.changes == 1 { return .staged }
        let statement = try database.cached(
            "SELECT course_id, code, title, term, teacher, timezone, teacher_email, language, file, line FROM stage_courses WHERE course_id = ?"
        )
        let c = try statement.columnPositions
        let decoder = try CourseRowDecoder(c)
        let (file, line, email) = (try c.position("file"), try c.position("line"), try c.position("teacher_email"))
        var existing: (course: CourseRecord, file: String, line: Int)?
        try statement.forEachRow([course.courseID]) { row in
            var staged = decoder.course(row)
            staged.teacherEmail = row.string(email) ?? ""
            existing = (staged, row.string(file) ?? "", row.int(line))
        }
        guard let existing else { return .staged }
        let same =
            existing.course.code == course.code && existing.course.title == course.title && existing.course.term == course.term
            && existing.course.teacher == course.teacher && existing.course.timezone == course.timezone
            && existing.course.teacherEmail == course.teacherEmail && existing.course.language == course.language
        return same ? .repeatOf(file: existing.file, line: existing.line) : .conflictsWith(file: existing.file, line: existing.line)
    }

    /// A task row waiting to be staged, with where it came from.
    struct PendingTask {
        var task: TaskRecord
        var bucket: String
        var file: String
        var line: Int
        var row: Int
        /// The fingerprint of the row it was read from, when the run keeps them.
        var print: RowPrint? = nil
    }

    /// Rows written at once: an INSERT statement's on SQLite, a COPY's on PostgreSQL
    /// (`StoreSQL.taskRowsPerFlush`).
    private let rowsPerFlush: Int
    /// True when rows go in by COPY (`StoreSQL.copiesTasks`).
    private let copies: Bool
    private var pendingTasks: [PendingTask] = []
    /// Numbers the rows staged in this run (a file given twice repeats its names and lines).
    private var stagedRows = 0

    private static func insertSQL(_ rows: Int) -> String {
        "INSERT INTO stage_tasks (\(StagingArea.storedTaskColumns), file_no, line, bucket, seq, print) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
            + " ON CONFLICT DO NOTHING"
    }
    private let fullInsertSQL: String

    /// Stages one task with its computed bucket (`""` when the caller leaves it to the
    /// categorization pass). Rows are written `rowsPerFlush` at a time.
    /// - Returns: the rows of a statement just written that repeat an id staged before, each
    ///   with what it repeats (empty almost always).
    func stage(_ pending: PendingTask) throws -> [(PendingTask, StageOutcome)] {
        pendingTasks.append(pending)
        return pendingTasks.count >= rowsPerFlush ? try flushTasks() : []
    }

    /// Writes the rows waiting; call at the end of each file.
    func flushTasks() throws -> [(PendingTask, StageOutcome)] {
        guard !pendingTasks.isEmpty else { return [] }
        let rows = pendingTasks
        pendingTasks.removeAll(keepingCapacity: true)
        if copies { return try copyTasks(rows) }
        let insert = rows.count == rowsPerFlush ? try database.cached(fullInsertSQL) : try database.prepare(Self.insertSQL(rows.count))
        insert.reset()
        let firstSeq = stagedRows + 1
        stagedRows += rows.count
        for (i, p) in rows.enumerated() {
            let stored = StagingArea.storedTaskColumnCount
            let base = Int32(i * (stored + 5))
            try insert.set(p.task, after: base)
            try insert.set(fileNumber(p.file), at: base + Int32(stored) + 1)
            try insert.set(p.line, at: base + Int32(stored) + 2)
            try insert.set(p.bucket, at: base + Int32(stored) + 3)
            try insert.set(firstSeq + i, at: base + Int32(stored) + 4)
            try insert.set(print: p.print, at: base + Int32(stored) + 5)
        }
        if try insert.step() == rows.count { return [] }
        // Some ids were staged before (rows are inserted in order, so a repeat within the
        // statement finds the earlier row): each row's own number tells it apart.
        var repeats: [(PendingTask, StageOutcome)] = []
        let lookup = try database.cached(
            """
            SELECT s.course_id, s.title, s.student_id, s.due, s.priority, s.completed, s.assignment_id, s.status, s.submitted_at,
                   f.path, s.line, s.seq
            FROM stage_tasks s JOIN stage_files f ON f.file_no = s.file_no WHERE s.task_id = ?
            """)
        let decoder = try StagedTaskColumns(try lookup.columnPositions)
        let seq = try lookup.columnPositions.position("seq")
        for (i, p) in rows.enumerated() {
            var outcome = StageOutcome.staged
            try lookup.forEachRow([p.task.taskID]) { row in
                guard row.int(seq) != firstSeq + i else { return }
                outcome = decoder.outcome(of: p.task, row)
            }
            if outcome != .staged { repeats.append((p, outcome)) }
        }
        return repeats
    }

    /// PostgreSQL's staging of `rows`: one COPY into `stage_tasks_incoming` (no key: every row
    /// goes in), then one statement moves them into `stage_tasks` in their order, the first row
    /// of an id kept (`ON CONFLICT DO NOTHING`), and the rows that repeat an id staged before are
    /// read back with what they repeat, as SQLite's statements of many rows find them.
    private func copyTasks(_ rows: [PendingTask]) throws -> [(PendingTask, StageOutcome)] {
        let firstSeq = stagedRows + 1
        stagedRows += rows.count
        var data: [UInt8] = []
        data.reserveCapacity(rows.count * 160)
        for (i, p) in rows.enumerated() {
            PGCopyText.appendTask(p.task, to: &data)
            PGCopyText.append(String(try fileNumber(p.file)), to: &data, first: false)
            PGCopyText.append(String(p.line), to: &data, first: false)
            PGCopyText.append(p.bucket, to: &data, first: false)
            PGCopyText.append(String(firstSeq + i), to: &data, first: false)
            PGCopyText.append(print: p.print, to: &data)
            data.append(0x0A)
        }
        try database.copyIn(
            """
            COPY stage_tasks_incoming (\(StagingArea.storedTaskColumns), file_no, line, bucket, seq, print) FROM STDIN
            """, data: data)
        defer { try? database.execute("TRUNCATE stage_tasks_incoming") }
        let moved = try database.cached(
            """
            INSERT INTO stage_tasks (\(StagingArea.storedTaskColumns), file_no, line, bucket, seq, print)
            SELECT * FROM stage_tasks_incoming ORDER BY seq ON CONFLICT DO NOTHING
            """
        ).step()
        if moved == rows.count { return [] }
        var repeats: [(PendingTask, StageOutcome)] = []
        let lookup = try database.cached(
            """
            SELECT i.seq AS repeat_seq, s.course_id, s.title, s.student_id, s.due, s.priority, s.completed, s.assignment_id,
                   s.status, s.submitted_at, f.path, s.line, s.seq
            FROM stage_tasks_incoming i JOIN stage_tasks s ON s.task_id = i.task_id JOIN stage_files f ON f.file_no = s.file_no
            WHERE s.seq <> i.seq ORDER BY i.seq
            """)
        let decoder = try StagedTaskColumns(try lookup.columnPositions)
        let repeatSeq = try lookup.columnPositions.position("repeat_seq")
        try lookup.forEachRow { row in
            let index = row.int(repeatSeq) - firstSeq
            guard rows.indices.contains(index) else { return }
            repeats.append((rows[index], decoder.outcome(of: rows[index].task, row)))
        }
        return repeats
    }
}

/// The columns of a staged task that a repeated id is compared with, resolved once per
/// statement: the outcome of staging a row whose id was staged before.
struct StagedTaskColumns {
    let course, title, student, due, priority, completed, assignment, status, submittedAt, path, line: Int

    init(_ c: ColumnPositions) throws {
        (course, title, student, due) = (
            try c.position("course_id"), try c.position("title"), try c.position("student_id"), try c.position("due")
        )
        (priority, completed, assignment) = (try c.position("priority"), try c.position("completed"), try c.position("assignment_id"))
        (status, submittedAt) = (try c.position("status"), try c.position("submitted_at"))
        (path, line) = (try c.position("path"), try c.position("line"))
    }

    /// `task` repeats the staged row `row` exactly, or conflicts with it.
    func outcome(of task: TaskRecord, _ row: Row) -> StagingArea.StageOutcome {
        let file = row.string(path) ?? ""
        let line = row.int(self.line)
        let same =
            row.string(course) == task.courseID && row.string(title) == task.title && row.string(student) == task.studentID
            && row.string(due) == task.due && row.string(priority) == task.priority.rawValue
            && row.int(completed) == (task.completed ? 1 : 0) && row.string(assignment) == task.assignmentID
            && row.string(status) == task.state.rawValue && row.string(submittedAt) == task.submittedAt
        return same ? .repeatOf(file: file, line: line) : .conflictsWith(file: file, line: line)
    }
}

extension PGCopyText {
    /// Appends a print as a field (after a tab): bytea's hex form (`\\x` and 32 hex digits, its
    /// backslash escaped as COPY reads it), or NULL.
    static func append(print: RowPrint?, to line: inout [UInt8]) {
        line.append(0x09)
        guard let print else {
            line.append(contentsOf: [0x5C, 0x4E])
            return
        }
        line.append(contentsOf: [0x5C, 0x5C, 0x78])
        for word in [print.high, print.low] {
            for shift in stride(from: 60, through: 0, by: -4) {
                let digit = UInt8(truncatingIfNeeded: word >> UInt64(shift)) & 0x0F
                line.append(digit < 10 ? 0x30 + digit : 0x57 + digit)
            }
        }
    }

    /// Appends a task's stored columns (`StagingArea.storedTaskColumns`), in that order, as the
    /// first fields of a line.
    static func appendTask(_ task: TaskRecord, to line: inout [UInt8]) {
        append(task.taskID, to: &line, first: true)
        append(task.courseID, to: &line, first: false)
        append(task.title, to: &line, first: false)
        append(task.studentID, to: &line, first: false)
        append(task.due, to: &line, first: false)
        append(task.priority.rawValue, to: &line, first: false)
        append(task.completed ? "1" : "0", to: &line, first: false)
        append(task.assignmentID, to: &line, first: false)
        append(task.state.rawValue, to: &line, first: false)
        append(task.submittedAt, to: &line, first: false)
    }
}

extension Statement {
    /// Binds a task's stored columns (`StagingArea.storedTaskColumns`) to the parameters after
    /// `base`, in that order.
    func set(_ task: TaskRecord, after base: Int32) throws {
        try set(task.taskID, at: base + 1)
        try set(task.courseID, at: base + 2)
        try set(task.title, at: base + 3)
        try set(task.studentID, at: base + 4)
        try set(task.due, at: base + 5)
        try set(task.priority.rawValue, at: base + 6)
        try set(task.completed ? 1 : 0, at: base + 7)
        try set(task.assignmentID, at: base + 8)
        try set(task.state.rawValue, at: base + 9)
        try set(task.submittedAt, at: base + 10)
    }
}

extension StagingArea {
    /// A task's stored columns as the staging area and the first import bind them, in this
    /// order (`Statement.set(_:after:)`, `PGCopyText.appendTask`).
    static let storedTaskColumns =
        "task_id, course_id, title, student_id, due, priority, completed, assignment_id, status, submitted_at"
    /// How many they are.
    static let storedTaskColumnCount = 10
}
