/// Writes the tasks of an import straight into `tasks`, with their audit entries, when the
/// database holds no task at all (the first import of a school): every valid row is then an
/// insert, nothing can be updated, deleted, pinned by an override or held, so staging the rows
/// first would only write each of them twice.
///
/// What it keeps equal to the staged path (the importer's tests run both): a repeated id is a
/// `duplicate_row` or `duplicate_id` naming the first row's file and line, the first row is
/// kept; every inserted task gets one `import` entry (from no bucket to its bucket) and one
/// `insert` history row, so `revert --batch` tombstones it; the whole run is one transaction.
///
/// How: the courses of the run are applied after its tasks, so foreign keys are checked at
/// commit (`defer_foreign_keys`, reset by SQLite at the end of the transaction);
/// `tasks_by_course` is dropped before the first row and built again at the end (one
/// sort instead of a million scattered index inserts). The line of each inserted row is kept
/// in a temporary table in blocks of 4,096 (memory stays flat); a repeated id finds its first
/// row through its audit entry, whose id is the first entry's plus the row's ordinal.
final class DirectTaskWriter {
    private let database: Database
    private let batchID: Int
    private let insertTask: Statement
    private let insertEntry: Statement
    private let recordedAt: String
    private let asOf: String
    private let actor: String
    /// Tasks inserted so far.
    private(set) var inserted = 0
    private var firstEntryID: Int?
    /// Lines of the inserted rows not yet written to `temp.direct_lines`.
    private var lines: [Int32] = []
    /// Files by the ordinal of their first inserted row.
    private var files: [(firstOrdinal: Int, path: String)] = []
    private static let block = 4096

    /// True when `tasks` has no row at all, live or deleted.
    static func applies(to database: Database) throws -> Bool {
        try database.int("SELECT NOT EXISTS (SELECT 1 FROM tasks)") == 1
    }

    init(database: Database, batchID: Int, recordedAt: String, asOf: String, actor: String) throws {
        self.database = database
        self.batchID = batchID
        self.recordedAt = recordedAt
        self.asOf = asOf
        self.actor = actor
        try database.execute(
            """
            PRAGMA defer_foreign_keys = ON;
            CREATE TEMP TABLE IF NOT EXISTS direct_lines (block INTEGER PRIMARY KEY, lines BLOB NOT NULL);
            DELETE FROM direct_lines;
            DROP INDEX IF EXISTS main.tasks_by_course;
            """)
        insertTask = try database.prepare(
            """
            INSERT INTO tasks (task_id, course_id, title, student_id, due, priority, completed, deleted_batch, changed_batch, bucket)
            VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?) ON CONFLICT DO NOTHING
            """)
        insertEntry = try database.prepare(
            """
            INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor, reason,
                               batch_id, reverts_entry, conflict, override_until, override_before)
            VALUES (?, ?, ?, ?, '', ?, 'import', ?, '', ?, NULL, 0, '', NULL)
            """)
        lines.reserveCapacity(Self.block)
    }

    /// Inserts one valid task, or reports the row it repeats.
    func insert(_ task: TaskRecord, file: String, line: Int, bucket: String) throws -> StagingArea.StageOutcome {
        insertTask.reset()
        try insertTask.set(task.taskID, at: 1)
        try insertTask.set(task.courseID, at: 2)
        try insertTask.set(task.title, at: 3)
        try insertTask.set(task.studentID, at: 4)
        try insertTask.set(task.due, at: 5)
        try insertTask.set(task.priority.rawValue, at: 6)
        try insertTask.set(task.completed ? 1 : 0, at: 7)
        try insertTask.set(batchID, at: 8)
        try insertTask.set(bucket, at: 9)
        guard try insertTask.step() == 1 else { return try repeated(task) }
        insertEntry.reset()
        try insertEntry.set(recordedAt, at: 1)
        try insertEntry.set(asOf, at: 2)
        try insertEntry.set(task.taskID, at: 3)
        try insertEntry.set(task.courseID, at: 4)
        try insertEntry.set(bucket, at: 5)
        try insertEntry.set(actor, at: 6)
        try insertEntry.set(batchID, at: 7)
        try insertEntry.step()
        if firstEntryID == nil { firstEntryID = Int(database.lastInsertRowID) }
        if files.last?.path != file { files.append((inserted, file)) }
        lines.append(Int32(clamping: line))
        inserted += 1
        if lines.count == Self.block { try flushLines() }
        return .staged
    }

    /// Builds the index again and records the batch's history rows; call once, after the
    /// last row and before the batch is recorded.
    func finish() throws {
        try database.run(
            """
            INSERT INTO task_history (batch_id, task_id, change, existed)
            SELECT ?1, task_id, 'insert', 0 FROM tasks WHERE changed_batch = ?1
            """, [batchID])
        try database.execute("CREATE INDEX IF NOT EXISTS main.tasks_by_course ON tasks(course_id); DELETE FROM direct_lines;")
    }

    private func flushLines() throws {
        let data = lines.withUnsafeBytes { [UInt8]($0) }
        try database.run("INSERT INTO direct_lines VALUES (?, ?)", [(inserted - 1) / Self.block, SQLValue.blob(data)])
        lines.removeAll(keepingCapacity: true)
    }

    /// The outcome for a task whose id was inserted before in this run.
    private func repeated(_ task: TaskRecord) throws -> StagingArea.StageOutcome {
        let rows = try database.rows(
            """
            SELECT t.course_id, t.title, t.student_id, t.due, t.priority, t.completed, a.entry_id
            FROM tasks t JOIN audit a ON a.task_id = t.task_id AND a.batch_id = ?
            WHERE t.task_id = ?
            """, [batchID, task.taskID])
        guard let row = rows.first, let entry = row[6].integer, let first = firstEntryID else { return .staged }
        let ordinal = Int(entry) - first
        let file = files.last { $0.firstOrdinal <= ordinal }?.path ?? ""
        let line = try self.line(ofOrdinal: ordinal)
        let same =
            row[0].text == task.courseID && row[1].text == task.title && row[2].text == task.studentID
            && row[3].text == task.due && row[4].text == task.priority.rawValue && row[5].integer == (task.completed ? 1 : 0)
        return same ? .repeatOf(file: file, line: line) : .conflictsWith(file: file, line: line)
    }

    private func line(ofOrdinal ordinal: Int) throws -> Int {
        let block = ordinal / Self.block
        let offset = ordinal % Self.block
        if block == inserted / Self.block, offset < lines.count { return Int(lines[offset]) }
        guard case .blob(let data)? = try database.scalar("SELECT lines FROM direct_lines WHERE block = ?", [block]),
            data.count >= (offset + 1) * 4
        else { return 0 }
        return data.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset * 4, as: Int32.self)) }
    }
}
