import DashboardCore
import Foundation

/// The databases and clean runs ReliabilityFirstImportCrashTests compares its killed imports
/// with: the whole state of a database file, and the two first-import scenarios.

// MARK: - The database, whole

/// What a first import may change, read from a database file: the data (courses, tasks, their
/// history, the batches' births, the audit log without its wall-clock `recorded_at`, the schema
/// with its indexes) and the batches' ids and statuses.
struct DatabaseState: Equatable {
    var data: String
    var batches: String

    static let noFile = DatabaseState(data: "(no file)\n", batches: "")
    /// A file without a single table: killed before the schema's transaction committed.
    static let noSchema = DatabaseState(data: "(no schema)\n", batches: "")

    /// The schema version this build migrates to (an in-memory store is migrated whole).
    static let latestSchemaVersion = (try? Store(path: ":memory:"))?.schemaVersion ?? 0

    /// A file whose migrations stopped before the last one, with no row in any table.
    var isEmptyPartialSchema: Bool { data.hasPrefix("(schema version ") && data.hasSuffix(", 0 rows)\n") }

    static func read(_ path: String) throws -> DatabaseState {
        guard FileManager.default.fileExists(atPath: path) else { return .noFile }
        // A kill inside the new file's first transaction (before WAL mode) leaves a hot
        // rollback journal, which a read-only connection may not roll back (SQLite error 776,
        // SQLITE_READONLY_ROLLBACK): the state is what the next opener sees, so roll it back as
        // it would, with one read-write read.
        if let size = try? FileManager.default.attributesOfItem(atPath: path + "-journal")[.size] as? Int, size > 0 {
            _ = try Database(path: path, mode: .readWriteCreate).int("SELECT count(*) FROM sqlite_master")
        }
        guard try DatabaseSnapshot.int(path, "SELECT count(*) FROM sqlite_master") > 0 else { return .noSchema }
        let version = try DatabaseSnapshot.int(path, "PRAGMA user_version")
        if version < latestSchemaVersion {
            let tables = try DatabaseSnapshot.lines(path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            var rows = 0
            // `data_marks` is seeded with its one row by the migration that makes it (8): schema, not data.
            for table in tables.split(separator: "\n") where table != "data_marks" {
                rows += try DatabaseSnapshot.int(path, "SELECT count(*) FROM \"\(table)\"")
            }
            return DatabaseState(data: "(schema version \(version) of \(latestSchemaVersion), \(rows) rows)\n", batches: "")
        }
        let queries = [
            ("user_version", "PRAGMA user_version"),
            ("schema", "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"),
            ("courses", "SELECT * FROM courses ORDER BY course_id"),
            ("tasks", "SELECT \(DatabaseSnapshot.taskDataColumns) FROM tasks ORDER BY task_id"),
            ("course_history", "SELECT * FROM course_history ORDER BY batch_id, course_id"),
            ("task_history", "SELECT * FROM task_history ORDER BY batch_id, task_id"),
            ("batch_births", "SELECT * FROM batch_births ORDER BY batch_id, bucket"),
            (
                "audit",
                """
                SELECT entry_id, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor, reason, batch_id,
                       reverts_entry, conflict, override_until, override_before
                FROM audit ORDER BY entry_id
                """
            ),
            ("overrides", "SELECT * FROM overrides ORDER BY task_id"),
        ]
        var data = ""
        for (name, sql) in queries {
            data += name + ":\n" + (try DatabaseSnapshot.lines(path, sql))
        }
        return DatabaseState(data: data, batches: try Consistency.batches(path))
    }

    /// Rows per table, for the fixture's figures.
    var counts: String {
        var counts: [String] = []
        var table = ""
        var rows = 0
        for line in data.split(separator: "\n") {
            if line.hasSuffix(":"), !line.contains("|") {
                if !table.isEmpty { counts.append("\(rows) \(table)") }
                table = String(line.dropLast())
                rows = 0
            } else {
                rows += 1
            }
        }
        if !table.isEmpty { counts.append("\(rows) \(table)") }
        return counts.filter { !$0.hasSuffix(" user_version") && !$0.hasSuffix(" schema") }.joined(separator: ", ")
    }
}

/// Removes a database file and whatever `-wal`, `-shm` and `-journal` are next to it.
func removeDatabase(_ path: String) throws {
    let fm = FileManager.default
    for suffix in ["", "-wal", "-shm", "-journal"] where fm.fileExists(atPath: path + suffix) {
        try fm.removeItem(atPath: path + suffix)
    }
}

// MARK: - Shared databases

/// One first import: what it starts from, the states it may leave, and a clean run of it.
struct FirstImportScenario {
    let name: String
    /// The database the import starts from, in the fixture's sandbox; nil: no file at all.
    let startingDatabase: String?
    let before: DatabaseState
    let after: DatabaseState
    let cleanRun: CommandResult
    let cleanSeconds: Double
    /// The phases of a traced run (`DASHBOARD_TRACE_FILE`), for the figures.
    let phases: String

    /// A kill so early that the file or its schema is not there yet counts as "before".
    var allowsNoFile: Bool { startingDatabase == nil }

    /// Puts the starting database (or none) at `path`.
    func reset(_ path: String, from fixture: FirstImportFixture) throws {
        if let startingDatabase {
            try copyDatabase(fixture.sandbox.path(startingDatabase), to: path)
        } else {
            try removeDatabase(path)
        }
    }
}

/// A 15,000-task school export (`$RELIABILITY_TASKS` when set), imported cleanly once into a new
/// file and once into a database that holds its courses only. Made once per test run.
final class FirstImportFixture: @unchecked Sendable {
    /// Holds `base/`, `schema.sqlite` (migrated, empty), `courses.sqlite` (the courses only)
    /// and the clean runs' results. Never written after `init`; tests copy from it.
    let sandbox: Sandbox
    let workload: Workload
    let newFile: FirstImportScenario
    let coursesOnly: FirstImportScenario

    /// `import base/` (courses and tasks) with the test's database.
    static let importArguments = ["--db", "db.sqlite", "import", "base/"]

    static let shared: Result<FirstImportFixture, HarnessError> = {
        do {
            let fixture = try FirstImportFixture(
                workload: Workload(courseCount: 50, taskCount: ReliabilityFixture.taskCount(default: 15_000)))
            FixtureCleanup.removeAtExit(fixture.sandbox.directory.deletingLastPathComponent().path)
            return .success(fixture)
        } catch let error as HarnessError {
            return .failure(error)
        } catch {
            return .failure(HarnessError("making the first-import fixture failed: \(error)"))
        }
    }()

    private init(workload: Workload) throws {
        self.workload = workload
        sandbox = try Sandbox()
        try sandbox.write("base/courses.csv", workload.baselineCourses())
        try sandbox.write("base/tasks.csv", workload.baselineTasks())

        // Before, in a new file: the schema alone (what a kill after the migration leaves).
        _ = try Store(path: sandbox.path("schema.sqlite"))
        let schemaOnly = try DatabaseState.read(sandbox.path("schema.sqlite"))
        guard DatabaseState.latestSchemaVersion > 0, schemaOnly.data.hasPrefix("user_version:\n\(DatabaseState.latestSchemaVersion)\n")
        else {
            throw HarnessError("the migrated empty database is not what it should be:\n\(schemaOnly.data)")
        }
        // Before, with the courses only.
        let courses = try sandbox.run(["--db", "courses.sqlite", "import", "base/courses.csv"])
        guard courses.exitCode == 0 else { throw HarnessError("the courses-only import failed:\n\(courses)") }
        let coursesState = try DatabaseState.read(sandbox.path("courses.sqlite"))
        try removeEmptyWAL(sandbox.path("courses.sqlite"))
        guard coursesState.data.contains("|Course 0|"), !coursesState.data.contains("T0000000") else {
            throw HarnessError("the courses-only database is not what it should be")
        }

        newFile = try Self.scenario("into a new file", startingDatabase: nil, before: schemaOnly, in: sandbox)
        coursesOnly = try Self.scenario(
            "into a courses-only database", startingDatabase: "courses.sqlite", before: coursesState, in: sandbox)
        for scenario in [newFile, coursesOnly] {
            reportFigure(
                "first-import fixture, \(scenario.name): \(workload.taskCount) tasks in \(workload.courseCount) courses; "
                    + "clean import \(formatted(scenario.cleanSeconds)) (\(scenario.phases)); after it: \(scenario.after.counts)")
        }
    }

    /// Runs the import cleanly from `startingDatabase` (nil: no file), then again traced to check
    /// that it takes the direct path and to time its phases.
    private static func scenario(
        _ name: String, startingDatabase: String?, before: DatabaseState, in sandbox: Sandbox
    ) throws -> FirstImportScenario {
        let db = sandbox.path("db.sqlite")
        func reset() throws {
            if let startingDatabase {
                try copyDatabase(sandbox.path(startingDatabase), to: db)
            } else {
                try removeDatabase(db)
            }
        }
        try reset()
        let started = Date()
        let clean = try sandbox.run(importArguments)
        let cleanSeconds = seconds(since: started)
        guard clean.exitCode == 0 else { throw HarnessError("the clean first import \(name) failed:\n\(clean)") }
        let after = try DatabaseState.read(db)
        // Births, not entries: every task records its creating batch, which counts it per bucket.
        let created = try DatabaseSnapshot.int(db, "SELECT count(*) FROM tasks WHERE created_batch IS NOT NULL")
        let births = try DatabaseSnapshot.int(db, "SELECT coalesce(sum(tasks), 0) FROM batch_births")
        guard after.data != before.data, after.data.contains("tasks_by_course"), created > 0, births == created,
            try DatabaseSnapshot.int(db, "SELECT count(*) FROM audit") == 0
        else {
            throw HarnessError(
                "the clean first import \(name) wrote no tasks, births that are not its tasks (\(births) for \(created)), "
                    + "an audit entry or no tasks_by_course")
        }

        try reset()
        let traceFile = sandbox.path("trace.jsonl")
        let traced = try sandbox.run(importArguments, environment: [TraceFile.variable: traceFile])
        guard traced.exitCode == 0, try DatabaseState.read(db) == after else {
            throw HarnessError("the traced first import \(name) differs from the clean one:\n\(traced)")
        }
        // DirectTaskWriter.finish traces its two steps (births, tasks_by_course); the staged path does not.
        let trace = try TraceFile.phases(traceFile)
        try FileManager.default.removeItem(atPath: traceFile)
        guard trace.contains(where: { $0.phase == "tasks_by_course" }) else {
            throw HarnessError("the first import \(name) did not write its tasks directly: \(trace.map(\.phase))")
        }
        let phases = trace.filter { $0.milliseconds >= 1 }.map { "\($0.phase) \(Int($0.milliseconds.rounded())) ms" }
        try removeDatabase(db)
        return FirstImportScenario(
            name: name, startingDatabase: startingDatabase, before: before, after: after, cleanRun: clean,
            cleanSeconds: cleanSeconds, phases: phases.joined(separator: ", "))
    }

    /// Copies `base/` into `sandbox`.
    func copyExport(into sandbox: Sandbox) throws {
        for file in ["courses.csv", "tasks.csv"] {
            try sandbox.write("base/" + file, bytes: try self.sandbox.read("base/" + file))
        }
    }
}
