import Foundation

/// Writes the tasks of an import straight into `tasks` when the database holds no task at
/// all (the first import of a school): every valid row is then an insert, nothing can be
/// updated, deleted, pinned by an override or held, so staging the rows first would only write
/// each of them twice.
///
/// What it keeps equal to the staged path (the importer's tests run both and compare the
/// databases): every inserted task records the batch that created it (`created_batch`, so
/// `revert --batch` tombstones it) and no entry or history row (SPEC §6: births are not moves);
/// the batch keeps its births per bucket (`BatchLog.recordBirths`); the whole run is one
/// transaction.
///
/// How: the importer applies the run's courses first (every task insert finds its course)
/// inside a savepoint; `tasks_by_course` is dropped before the first row and built again at
/// the end (one sort instead of a million scattered index inserts). A repeated task id (a duplicate row,
/// which needs the first row's line for its message) makes `insert`/`flush` answer false:
/// the importer rolls the savepoint back and reads the task files again through the staging
/// tables (see `Importer.readTasks`).
final class DirectTaskWriter {
    private let database: Database
    private let batchID: Int
    /// Rows written at once: an INSERT statement's on SQLite, a COPY's on PostgreSQL.
    private let rowsPerFlush: Int
    private let insertFull: Statement?
    /// Rows waiting for the next statement.
    private var pending: [(task: TaskRecord, bucket: String, print: RowPrint?)] = []
    /// Each row's print and slot are written with it (`RowPrints`; schema 9 and later).
    private let prints: Bool
    /// SQLite: each row's title fold is written with it (`TitleFolds`), computed here.
    private let folds: Bool
    private let foldCache = TextFold.Cache()
    /// Tasks inserted so far.
    private(set) var inserted = 0
    /// Tasks inserted so far per course and bucket: the batch's births, and the live counts
    /// the grid reads (`CourseBuckets`; this writer's triggers are off).
    private var tally = CourseBuckets.Tally()
    /// True when the connection's triggers are off, so the writer keeps `course_buckets` itself.
    private let counts: Bool
    /// PostgreSQL: the triggers of `tasks` are suspended for this run's COPY (`StoreSQL.suspendTaskTriggers`).
    private let suspended: Bool

    init(database: Database, batchID: Int) throws {
        self.database = database
        self.batchID = batchID
        counts = try !database.triggersEnabled && CourseBuckets.exists(database)
        try database.sql.dropCourseIndexBeforeLoad(database)
        suspended = counts ? try database.sql.suspendTaskTriggers(database) : false
        prints = try RowPrints.kept(database)
        folds = try TitleFolds.kept(database)
        rowsPerFlush = database.sql.taskRowsPerFlush
        insertFull =
            database.sql.copiesTasks
            ? nil : try database.prepare(LiveRows.directInsertSQL(rows: rowsPerFlush, prints: prints, folds: folds))
        pending.reserveCapacity(rowsPerFlush)
    }

    /// Inserts one valid task (in statements of many rows).
    /// - Returns: false when a task id of the statement just run was inserted before in this
    ///   run (the run must take the staged path).
    func insert(_ task: TaskRecord, bucket: String, print: RowPrint? = nil) throws -> Bool {
        pending.append((task, bucket, print))
        return pending.count == rowsPerFlush ? try flush() : true
    }

    /// Writes the rows waiting; call at the end of each file.
    /// - Returns: false when an id was inserted before in this run.
    func flush() throws -> Bool {
        guard !pending.isEmpty else { return true }
        guard let insertFull else { return try copyPending() }
        let statement =
            pending.count == rowsPerFlush
            ? insertFull : try database.prepare(LiveRows.directInsertSQL(rows: pending.count, prints: prints, folds: folds))
        statement.reset()
        let stored = Int32(StagingArea.storedTaskColumnCount)
        let width: Int32 = stored + 3 + (prints ? 2 : 0) + (folds ? 1 : 0)
        for (i, row) in pending.enumerated() {
            let base = Int32(i) * width
            try statement.set(row.task, after: base)
            try statement.set(batchID, at: base + stored + 1)
            try statement.set(row.bucket, at: base + stored + 2)
            try statement.set(batchID, at: base + stored + 3)
            if prints {
                // Slots in insert order: the database held no task, so they are unique.
                try statement.set(print: row.print, at: base + stored + 4)
                try statement.set(inserted + i + 1, at: base + stored + 5)
            }
            if folds { try statement.set(titleFoldOf: row.task.title, at: base + width, cache: foldCache) }
        }
        let written = try statement.step()
        guard written == pending.count else { return false }
        inserted += written
        for row in pending { tally.add(course: row.task.courseID, bucket: row.bucket, 1) }
        pending.removeAll(keepingCapacity: true)
        return true
    }

    /// PostgreSQL's write of the rows waiting: sent into the COPY into `tasks` that stays open
    /// until the end of the file (`endCopy`, which gives the verdict on repeated ids).
    private func copyPending() throws -> Bool {
        var data: [UInt8] = []
        data.reserveCapacity(pending.count * 160)
        let batch = String(batchID)
        for (i, row) in pending.enumerated() {
            PGCopyText.appendTask(row.task, to: &data)
            PGCopyText.append(nil, to: &data, first: false)
            PGCopyText.append(batch, to: &data, first: false)
            PGCopyText.append(row.bucket, to: &data, first: false)
            PGCopyText.append(batch, to: &data, first: false)
            if prints {
                // Slots in insert order, as on SQLite.
                PGCopyText.append(print: row.print, to: &data)
                PGCopyText.append(String(inserted + i + 1), to: &data, first: false)
            }
            data.append(0x0A)
        }
        try database.copyStream("COPY tasks (\(LiveRows.taskColumns)\(prints ? ", print, slot" : "")) FROM STDIN", data: data)
        inserted += pending.count
        for row in pending { tally.add(course: row.task.courseID, bucket: row.bucket, 1) }
        pending.removeAll(keepingCapacity: true)
        return true
    }

    /// PostgreSQL's end of a file: the rows waiting are sent and the COPY, streamed since the
    /// file's first rows (the server wrote them while the reader read on), is ended; a task id
    /// inserted before breaks the table's key (23505) and fails the whole COPY: the answer is
    /// then false, and the importer rolls back to its savepoint.
    private func endCopy() throws -> Bool {
        guard try flush() else { return false }
        do {
            try database.endCopyStream()
        } catch let error as PGError where error.sqlState == "23505" {
            return false
        }
        return true
    }

    /// Records the batch's births per bucket and the counts per course, and builds the index
    /// again; call once, after the last row.
    /// Writes the rows waiting at the end of a file and says whether every one went in (false:
    /// an id was inserted before in this run).
    func endOfFileRows() throws -> Bool {
        database.sql.copiesTasks ? try endCopy() : try flush()
    }

    func finish() throws {
        var timer = PhaseTimer()
        guard try endOfFileRows() else { throw InternalError.directRepeatAfterReading }
        if suspended { try LiveRows.resumeTaskTriggers(database, courses: tally.courses) }
        try BatchLog.recordBirths(database, batchID: batchID, births: tally.perBucket)
        if counts { try tally.write(database) }
        timer.mark("  births")
        try database.sql.buildCourseIndex(database)
        timer.mark("  tasks_by_course")
        try database.sql.analyzeFirstImport(database)
        timer.mark("  statistics")
    }
}
