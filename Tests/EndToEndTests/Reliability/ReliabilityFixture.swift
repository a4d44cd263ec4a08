import Foundation
import Testing

// MARK: - Looking at a database

/// What the reliability tests check in a database after every fault.
enum Consistency {
    /// `PRAGMA integrity_check` and `PRAGMA foreign_key_check`, together: "ok\n" when both pass.
    static func check(_ path: String) throws -> String {
        try StoreUnderTest.consistency(path)
    }

    /// Batch ids and statuses, in order (`1|committed\n2|failed\n`).
    static func batches(_ path: String) throws -> String {
        try DatabaseSnapshot.lines(path, "SELECT batch_id, status FROM batches ORDER BY batch_id")
    }

    static func runningBatches(_ path: String) throws -> Int {
        try DatabaseSnapshot.int(path, "SELECT count(*) FROM batches WHERE status = 'running'")
    }

    /// The courses and tasks without the batch numbers: what a retried import must give whatever
    /// the failed attempts before it were numbered.
    static func dataWithoutBatchIDs(_ path: String) throws -> String {
        let courses = try DatabaseSnapshot.lines(
            path, "SELECT course_id, code, title, term, teacher, timezone, deleted_batch IS NULL FROM courses ORDER BY 1")
        let tasks = try DatabaseSnapshot.lines(
            path,
            "SELECT task_id, course_id, title, student_id, due, priority, completed, deleted_batch IS NULL, bucket FROM tasks ORDER BY 1")
        return "courses:\n" + courses + "tasks:\n" + tasks
    }
}

/// Copies a database file to `destination`, first removing whatever database (and `-wal`,
/// `-shm`) was there: a stale `-wal` next to a fresh copy could be replayed into it.
func copyDatabase(_ source: String, to destination: String) throws {
    if StoreUnderTest.isPostgres { return try StoreUnderTest.copyDatabase(source, to: destination) }
    let fm = FileManager.default
    for suffix in ["", "-wal", "-shm", "-journal"] where fm.fileExists(atPath: destination + suffix) {
        try fm.removeItem(atPath: destination + suffix)
    }
    // A reader leaves an empty -wal behind; one with frames would be data the copy misses.
    if let size = try? fm.attributesOfItem(atPath: source + "-wal")[.size] as? Int, size > 0 {
        throw HarnessError("\(source)-wal holds \(size) bytes: copy only databases that were closed cleanly")
    }
    try fm.copyItem(atPath: source, toPath: destination)
}

/// Renames a database file (in the PostgreSQL pass: its database stands for the new name).
func moveDatabase(_ source: String, to destination: String) throws {
    if StoreUnderTest.isPostgres { return try StoreUnderTest.moveDatabase(source, to: destination) }
    try FileManager.default.moveItem(atPath: source, toPath: destination)
}

/// Removes the empty `-wal` and the `-shm` a read-only connection leaves next to a database
/// (it may not delete them), so that the file looks as a writer that closed it cleanly left it.
func removeEmptyWAL(_ path: String) throws {
    let fm = FileManager.default
    guard let size = try? fm.attributesOfItem(atPath: path + "-wal")[.size] as? Int else { return }
    guard size == 0 else { throw HarnessError("\(path)-wal holds \(size) bytes; it is not a leftover of a reader") }
    try fm.removeItem(atPath: path + "-wal")
    if fm.fileExists(atPath: path + "-shm") { try fm.removeItem(atPath: path + "-shm") }
}

/// Seconds since `start`, for the figures the tests print.
func seconds(since start: Date) -> Double { Date().timeIntervalSince(start) }

func formatted(_ seconds: Double) -> String { String(format: "%.2f s", seconds) }

/// Prints one figure of the reliability suite on stdout, where `swift test` shows it.
func reportFigure(_ line: String) {
    print("reliability: " + line)
}

// MARK: - Shared databases

/// The 40,000-task school imported once, and the changed export imported over a copy of it:
/// the "before" and "after" every crash and concurrency test compares against. Made once per
/// test run (the first test that needs it pays ~6 s in a debug build).
final class ReliabilityFixture: @unchecked Sendable {
    /// Holds `base/`, `change/`, `baseline.sqlite` (before) and `after.sqlite`. Never written
    /// after `init`; tests copy from it.
    let sandbox: Sandbox
    let workload: Workload
    /// `DatabaseSnapshot.data` of the baseline and of the baseline after the sync import.
    let before: String
    let after: String
    /// The sync import run to its end on a copy of the baseline, and how long it took.
    let syncImport: CommandResult
    let syncSeconds: Double
    /// `import --mode sync change/` with the test's database.
    static let syncArguments = ["--db", "db.sqlite", "import", "--mode", "sync", "change/"]

    static let large: Result<ReliabilityFixture, HarnessError> = make(
        Workload(courseCount: 50, taskCount: taskCount(default: 15_000), rejectedRows: 3))

    /// `$RELIABILITY_TASKS` when set: a smaller run while working on the suite, a larger one to soak.
    static func taskCount(default value: Int) -> Int {
        ProcessInfo.processInfo.environment["RELIABILITY_TASKS"].flatMap { Int($0) } ?? value
    }

    private static func make(_ workload: Workload) -> Result<ReliabilityFixture, HarnessError> {
        do {
            let fixture = try ReliabilityFixture(workload: workload)
            FixtureCleanup.removeAtExit(fixture.sandbox.directory.deletingLastPathComponent().path)
            return .success(fixture)
        } catch let error as HarnessError {
            return .failure(error)
        } catch {
            return .failure(HarnessError("making the reliability fixture failed: \(error)"))
        }
    }

    private init(workload: Workload) throws {
        self.workload = workload
        sandbox = try Sandbox()
        try workload.write(into: sandbox)
        let baseline = try sandbox.run(["--db", "baseline.sqlite", "import", "base/"])
        guard baseline.exitCode == 0 else { throw HarnessError("the baseline import failed:\n\(baseline)") }
        before = try DatabaseSnapshot.data(sandbox.path("baseline.sqlite"))
        try copyDatabase(sandbox.path("baseline.sqlite"), to: sandbox.path("db.sqlite"))
        let started = Date()
        syncImport = try sandbox.run(Self.syncArguments)
        syncSeconds = seconds(since: started)
        let expected: Int32 = workload.rejectedRows > 0 ? 65 : 0
        guard syncImport.exitCode == expected else { throw HarnessError("the reference sync import failed:\n\(syncImport)") }
        try moveDatabase(sandbox.path("db.sqlite"), to: sandbox.path("after.sqlite"))
        after = try DatabaseSnapshot.data(sandbox.path("after.sqlite"))
        guard after != before else { throw HarnessError("the changed export changed nothing") }
        reportFigure(
            "fixture: \(workload.taskCount) tasks in \(workload.courseCount) courses; sync import \(formatted(syncSeconds)): "
                + (syncImport.stderr.split(separator: "\n").last.map(String.init) ?? ""))
    }

    /// Copies the baseline (the state before the sync) into `sandbox` as `name`, with the
    /// `base/` and `change/` exports.
    func prepare(_ sandbox: Sandbox, database name: String = "db.sqlite") throws {
        for folder in ["base", "change"] {
            for file in ["courses.csv", "tasks.csv"] {
                try sandbox.write(folder + "/" + file, bytes: try self.sandbox.read(folder + "/" + file))
            }
        }
        try copyDatabase(self.sandbox.path("baseline.sqlite"), to: sandbox.path(name))
    }
}

/// The shared fixtures' directories, removed when the test process exits (a `static let` is
/// never deinitialized, so its `Sandbox` would otherwise stay behind).
enum FixtureCleanup {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths: [String] = []

    static func removeAtExit(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        if paths.isEmpty { atexit { FixtureCleanup.removeAll() } }
        paths.append(path)
    }

    private static func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
    }
}
