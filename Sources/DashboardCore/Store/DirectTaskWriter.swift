import Foundation

/// Writes the tasks of an import straight into `tasks` when the database holds no task at
/// all (the first import of a school): every valid row is then an insert, nothing can be
/// updated, deleted, pinned by an override or held, so staging the rows first would only write
/// each of them twice.
///
/// What it keeps equal to the staged path (the importer's tests run both and compare the
/// databases): every inserted task gets one `import` entry (from no bucket to its bucket, in
/// task_id order) and one `insert` history row, so `revert --batch` tombstones it; the whole
/// run is one transaction.
///
/// How: the importer applies the run's courses first (every task insert finds its course)
/// inside a savepoint; `tasks_by_course` is dropped before the first row and built again at
/// the end (one sort instead of a million scattered index inserts); the entries and history
/// rows are written by two `INSERT … SELECT` at the end. A repeated task id (a duplicate row,
/// which needs the first row's line for its message) throws `Repeated`: the importer rolls
/// the savepoint back and reads the task files again through the staging tables.
final class DirectTaskWriter {
    /// A task id came twice: the run must go through the staging tables instead.
    struct Repeated: Error {}

    private let database: Database
    private let batchID: Int
    private let insertTask: Statement
    /// Tasks inserted so far.
    private(set) var inserted = 0

    /// True when `tasks` has no row at all, live or deleted.
    static func applies(to database: Database) throws -> Bool {
        try database.int("SELECT NOT EXISTS (SELECT 1 FROM tasks)") == 1
    }

    init(database: Database, batchID: Int) throws {
        self.database = database
        self.batchID = batchID
        try database.execute("DROP INDEX IF EXISTS main.tasks_by_course")
        insertTask = try database.prepare(
            """
            INSERT INTO tasks (task_id, course_id, title, student_id, due, priority, completed, deleted_batch, changed_batch, bucket)
            VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?) ON CONFLICT DO NOTHING
            """)
    }

    /// Inserts one valid task.
    /// - Throws: `Repeated` when its id was inserted before in this run.
    func insert(_ task: TaskRecord, bucket: String) throws -> StagingArea.StageOutcome {
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
        guard try insertTask.step() == 1 else { throw Repeated() }
        inserted += 1
        return .staged
    }

    /// Records the entries and history rows of every inserted task and builds the index
    /// again; call once, after the last row.
    func finish(recordedAt: Date, asOf: Date, actor: String) throws {
        try database.run(
            """
            INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor, reason,
                               batch_id, reverts_entry, conflict, override_until, override_before)
            SELECT ?1, ?2, task_id, course_id, '', bucket, 'import', ?3, '', ?4, NULL, 0, '', NULL
            FROM tasks WHERE changed_batch = ?4 ORDER BY task_id
            """, [Timestamp.text(recordedAt), Timestamp.text(asOf), actor, batchID])
        try database.run(
            """
            INSERT INTO task_history (batch_id, task_id, change, existed)
            SELECT ?1, task_id, 'insert', 0 FROM tasks WHERE changed_batch = ?1
            """, [batchID])
        try database.execute("CREATE INDEX IF NOT EXISTS main.tasks_by_course ON tasks(course_id)")
    }
}
