import DashboardCore
import Foundation
import Testing

/// Crash safety of the first import, the one that writes its tasks directly (DirectTaskWriter:
/// courses applied, `tasks_by_course` dropped, tasks inserted in many-row statements, audit
/// entries and history rows by INSERT … SELECT, the index built again, all in one transaction).
///
/// A SIGKILL at any moment leaves the database exactly as it was before the import (no task,
/// the index there) or exactly as a clean run of the same import leaves it — never in
/// between: the file intact, no batch `running`, and the next import finishes the job.
@Suite(.serialized) struct ReliabilityFirstImportCrashTests {
    /// `$RELIABILITY_KILLS` when set (per test); small by default so that `make test` stays fast.
    static let killCount = ProcessInfo.processInfo.environment["RELIABILITY_KILLS"].flatMap { Int($0) } ?? 12

    /// Where a kill landed, told by the state it left and by how the process ended.
    enum Landing: String, CaseIterable {
        case noFile = "before the file existed"
        case noSchema = "before the schema was committed"
        case partialSchema = "between two schema migrations"
        case beforeCommit = "before the commit"
        case afterCommit = "after the commit, before the process exited"
        case afterExit = "after the import had exited on its own"
    }

    /// What a killed import was doing, told by the phases its structured trace
    /// (`DASHBOARD_TRACE_FILE`, one JSON line as each phase ends) held after the kill.
    enum KillPhase: String, CaseIterable {
        case reading = "reading the files and inserting the tasks"
        case entries = "writing the audit entries"
        case history = "writing the history rows"
        case index = "building tasks_by_course"
        case finishing = "recording the batch and committing"
        case committed = "after the commit"

        init(trace: [String]) {
            let phases = Set(trace)
            if phases.contains("commit") {
                self = .committed
            } else if phases.contains("tasks_by_course") {
                self = .finishing
            } else if phases.contains("history rows") {
                self = .index
            } else if phases.contains("entries") {
                self = .history
            } else if phases.contains("read, normalize, stage") {
                self = .entries
            } else {
                self = .reading
            }
        }
    }

    @Test func firstImportIntoANewFileKilledAtRandomMomentsLeavesNothingOrEverything() throws {
        let fixture = try FirstImportFixture.shared.get()
        try killRepeatedly(fixture.newFile, fixture: fixture, seed: 0x5EED_0101)
    }

    @Test func firstTaskImportIntoACoursesOnlyDatabaseKilledAtRandomMomentsLeavesNoTaskOrAllOfThem() throws {
        let fixture = try FirstImportFixture.shared.get()
        try killRepeatedly(fixture.coursesOnly, fixture: fixture, seed: 0x5EED_0102)
    }

    private func killRepeatedly(_ scenario: FirstImportScenario, fixture: FirstImportFixture, seed: UInt64) throws {
        let sandbox = try Sandbox()
        try fixture.copyExport(into: sandbox)
        let db = sandbox.path("db.sqlite")
        // The import's duration: the clean run's, then that of every full import after a kill
        // (the mean of the last five), so that it follows the load the kills see.
        var durations = [scenario.cleanSeconds]
        var duration: Double { durations.suffix(5).reduce(0, +) / Double(durations.suffix(5).count) }
        var generator = SeededGenerator(seed: seed)
        var landings: [Landing: [Double]] = [:]
        var phases: [KillPhase: Int] = [:]
        var timings = (killed: 0.0, checked: 0.0, recovered: 0.0)
        let started = Date()
        for kill in 1...Self.killCount {
            try scenario.reset(db, from: fixture)
            // Spread from 5 ms to the import's measured duration.
            let delay = 0.005 + generator.unit() * max(0, duration - 0.005)
            let context = "\(scenario.name), kill \(kill) of \(Self.killCount), \(Int(delay * 1000)) ms into the import"
            let traceFile = sandbox.path("trace-\(kill).jsonl")
            let running = try sandbox.launch(FirstImportFixture.importArguments, environment: [TraceFile.variable: traceFile])
            let launched = Date()
            let remaining = delay - seconds(since: launched)
            if remaining > 0 { usleep(UInt32(remaining * 1_000_000)) }
            Foundation.kill(running.process.processIdentifier, SIGKILL)
            running.process.waitUntilExit()
            let killed = running.process.terminationReason == .uncaughtSignal
            // `finish` throws for a process that died of a signal, its output in the message.
            do {
                let result = try running.finish()
                #expect(result.exitCode == 0, "\(context): the import exited by itself with a wrong code: \(result)")
            } catch let error as HarnessError {
                #expect(killed, "\(context): \(error)")
            }
            let phase = KillPhase(trace: try TraceFile.phases(traceFile).map(\.phase))
            try? FileManager.default.removeItem(atPath: traceFile)

            timings.killed += seconds(since: launched)
            let checking = Date()
            let state = try DatabaseState.read(db)
            if state != .noFile {
                #expect(try Consistency.check(db) == "ok\n", "\(context): integrity_check or foreign_key_check failed")
            }
            if state != .noFile, state != .noSchema, !state.isEmptyPartialSchema {
                #expect(try Consistency.runningBatches(db) == 0, "\(context): a batch was left 'running'")
            }
            let landing: Landing
            if state == .noFile, scenario.allowsNoFile {
                landing = .noFile
            } else if state == .noSchema, scenario.allowsNoFile {
                landing = .noSchema
            } else if state.isEmptyPartialSchema, scenario.allowsNoFile {
                // Each migration commits with its version bump; the next open goes on from there.
                landing = .partialSchema
            } else if state == scenario.before {
                landing = .beforeCommit
            } else if state == scenario.after {
                landing = killed ? .afterCommit : .afterExit
            } else {
                let message =
                    "\(context): the database is neither as before nor as after the import; batches: \(state.batches.debugDescription); "
                    + "first difference from before: \(firstDifference(scenario.before.data, state.data)); "
                    + "from after: \(firstDifference(scenario.after.data, state.data))"
                Issue.record(Comment(rawValue: message))
                continue
            }
            if landing != .afterCommit, landing != .afterExit {
                #expect(killed, "\(context): the import exited by itself but left the data as before")
            }
            if phase == .committed {
                #expect(landing == .afterCommit || landing == .afterExit, "\(context): the import had committed, yet the data is as before")
            }
            landings[landing, default: []].append(delay)
            phases[phase, default: 0] += 1

            // The next import succeeds and gives the after state.
            timings.checked += seconds(since: checking)
            let recovering = Date()
            let next = try sandbox.run(FirstImportFixture.importArguments)
            let committedBefore = landing == .afterCommit || landing == .afterExit
            var expectedBatches = scenario.after.batches
            if committedBefore {
                let batch = scenario.after.batches.split(separator: "\n").count + 1
                expectedBatches += "\(batch)|committed\n"
                let summary = next.stderr.split(separator: "\n").last.map(String.init) ?? ""
                #expect(
                    next.exitCode == 0 && summary.hasPrefix("dashboard: import batch \(batch) committed")
                        && summary.contains(" 0 inserted, 0 updated, "),
                    "\(context): the import after the kill: \(next)")
            } else {
                durations.append(seconds(since: recovering))
                #expect(next == scenario.cleanRun, "\(context): the import after the kill")
            }
            timings.recovered += seconds(since: recovering)
            let checkingAgain = Date()
            let recovered = try DatabaseState.read(db)
            #expect(
                recovered.data == scenario.after.data,
                "\(context): the import after the kill did not give the after state: \(firstDifference(scenario.after.data, recovered.data))"
            )
            #expect(recovered.batches == expectedBatches, "\(context): the batches after the next import")
            #expect(try Consistency.check(db) == "ok\n", "\(context): integrity after the next import")
            timings.checked += seconds(since: checkingAgain)
        }
        let total = landings.values.reduce(0) { $0 + $1.count }
        let split = Landing.allCases.compactMap { landing -> String? in
            let delays = landings[landing] ?? []
            if !scenario.allowsNoFile, [.noFile, .noSchema, .partialSchema].contains(landing) { return nil }
            let range = delays.isEmpty ? "" : " (\(Int((delays.min() ?? 0) * 1000))–\(Int((delays.max() ?? 0) * 1000)) ms)"
            return "\(delays.count) \(landing.rawValue)\(range)"
        }
        let during = KillPhase.allCases.map { phase in
            "\(phases[phase] ?? 0) \(phase.rawValue)"
        }
        reportFigure(
            "first import crash safety, \(scenario.name): \(total) of \(Self.killCount) kills survived on "
                + "\(fixture.workload.taskCount) tasks (import \(formatted(durations.min() ?? 0))–\(formatted(durations.max() ?? 0)); "
                + "\(scenario.phases)): " + split.joined(separator: ", ") + "; by the trace, killed while " + during.joined(separator: ", ")
                + "; \(formatted(seconds(since: started))) in all (until the kill \(formatted(timings.killed)), "
                + "checks \(formatted(timings.checked)), next imports \(formatted(timings.recovered)))")
        #expect(total == Self.killCount)
    }
}

// MARK: - The database, whole

/// What a first import may change, read from a database file: the data (courses, tasks, their
/// history, the audit log without its wall-clock `recorded_at`, the schema with its indexes)
/// and the batches' ids and statuses.
private struct DatabaseState: Equatable {
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
        guard try DatabaseSnapshot.int(path, "SELECT count(*) FROM sqlite_master") > 0 else { return .noSchema }
        let version = try DatabaseSnapshot.int(path, "PRAGMA user_version")
        if version < latestSchemaVersion {
            let tables = try DatabaseSnapshot.lines(path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            var rows = 0
            for table in tables.split(separator: "\n") {
                rows += try DatabaseSnapshot.int(path, "SELECT count(*) FROM \"\(table)\"")
            }
            return DatabaseState(data: "(schema version \(version) of \(latestSchemaVersion), \(rows) rows)\n", batches: "")
        }
        let queries = [
            ("user_version", "PRAGMA user_version"),
            ("schema", "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"),
            ("courses", "SELECT * FROM courses ORDER BY course_id"),
            ("tasks", "SELECT * FROM tasks ORDER BY task_id"),
            ("course_history", "SELECT * FROM course_history ORDER BY batch_id, course_id"),
            ("task_history", "SELECT * FROM task_history ORDER BY batch_id, task_id"),
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
private func removeDatabase(_ path: String) throws {
    let fm = FileManager.default
    for suffix in ["", "-wal", "-shm", "-journal"] where fm.fileExists(atPath: path + suffix) {
        try fm.removeItem(atPath: path + suffix)
    }
}

// MARK: - Shared databases

/// One first import: what it starts from, the states it may leave, and a clean run of it.
private struct FirstImportScenario {
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
private final class FirstImportFixture: @unchecked Sendable {
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
        guard after.data != before.data, after.data.contains("tasks_by_course"), after.data.contains("|import|") else {
            throw HarnessError("the clean first import \(name) wrote no tasks, no audit entry or no tasks_by_course")
        }

        try reset()
        let traceFile = sandbox.path("trace.jsonl")
        let traced = try sandbox.run(importArguments, environment: [TraceFile.variable: traceFile])
        guard traced.exitCode == 0, try DatabaseState.read(db) == after else {
            throw HarnessError("the traced first import \(name) differs from the clean one:\n\(traced)")
        }
        // DirectTaskWriter.finish traces its three steps; the staged path does not.
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
