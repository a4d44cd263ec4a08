/// How an import writes its task rows, chosen before the first task is read.
///
/// - `direct`: into `tasks` at once (`DirectTaskWriter`), for the first import of a school:
///   the database holds no task, so every valid row is an insert and staging it first would
///   only write it twice.
/// - `staged`: into the staging tables (`StagingArea`), planned against the database, then
///   applied, held or dropped.
enum ImportPath: Equatable, Sendable {
    case direct
    case staged

    /// The path of a run, from what is known before its tasks are read.
    ///
    /// Policy: direct only for a recorded, real (not dry) run into a database without any task,
    /// live or deleted, whose course plan the delete guard would not hold (a held batch must
    /// keep its rows staged), and not when a test forces staging.
    static func choose(recorded: Bool, options: ImportOptions, databaseHasTasks: Bool, coursesWouldHold: Bool) -> ImportPath {
        guard recorded, !options.dryRun, !options.forceStaging, !databaseHasTasks, !coursesWouldHold else { return .staged }
        return .direct
    }
}

/// What a writer answers when it is given task rows.
enum TaskWriteOutcome {
    /// The rows were written; those listed repeat an id written before (empty almost always),
    /// each with what it repeats.
    case written([(StagingArea.PendingTask, StagingArea.StageOutcome)])
    /// The direct writer met a task id a second time: its message needs the first row's file and
    /// line, which only the staging tables keep. The run must take the staged path instead.
    case needsStagedPath
}

/// The writer of an import's task rows: `DirectTaskWriter` (`ImportPath.direct`) or
/// `StagingArea` (`ImportPath.staged`). The importer's orchestration is the same for both;
/// only where rows go, and how the batch is applied, differ.
protocol ImportWriter: AnyObject {
    var path: ImportPath { get }
    /// Takes one valid task (written in statements of many rows).
    func write(_ task: StagingArea.PendingTask) throws -> TaskWriteOutcome
    /// Writes the rows waiting; called at the end of each file.
    func endOfFile() throws -> TaskWriteOutcome
    /// The number of tasks written directly (every one an insert), nil when staged.
    var directInserts: Int? { get }
    /// Applies the run as batch `batchID` (the context's batch).
    func apply(context: Categorizer.PassContext) throws
    /// Categorizes what `apply` changed.
    func categorize(context: Categorizer.PassContext) throws -> CategorizeResult
}

extension StagingArea: ImportWriter {
    var path: ImportPath { .staged }
    var directInserts: Int? { nil }

    func write(_ task: PendingTask) throws -> TaskWriteOutcome { .written(try stage(task)) }

    func endOfFile() throws -> TaskWriteOutcome { .written(try flushTasks()) }

    func apply(context: Categorizer.PassContext) throws {
        guard let batchID = context.batchID else { throw InternalError.applyWithoutBatch }
        try apply(batchID: batchID)
    }

    func categorize(context: Categorizer.PassContext) throws -> CategorizeResult {
        try CategorizePass.run(database, plan: importPlan, context: context)
    }
}

extension DirectTaskWriter: ImportWriter {
    var path: ImportPath { .direct }
    var directInserts: Int? { inserted }

    func write(_ task: StagingArea.PendingTask) throws -> TaskWriteOutcome {
        try insert(task.task, bucket: task.bucket, print: task.print) ? .written([]) : .needsStagedPath
    }

    func endOfFile() throws -> TaskWriteOutcome { try endOfFileRows() ? .written([]) : .needsStagedPath }

    /// The courses were applied before the tasks, and the tasks written as they were read:
    /// what is left is the batch's births and the index.
    func apply(context: Categorizer.PassContext) throws {
        try finish()
    }

    /// Every live task is one this run inserted, with its bucket as of now (a birth, not a
    /// move: no entry): there is nothing to categorize.
    func categorize(context: Categorizer.PassContext) throws -> CategorizeResult {
        var categorized = CategorizeResult()
        categorized.tasks = inserted
        return categorized
    }
}
