import DashboardCore
import Foundation
import Testing

/// Crash safety of the first import, the one that writes its tasks directly (DirectTaskWriter:
/// courses applied, `tasks_by_course` dropped, tasks inserted in many-row statements, the batch's
/// births per bucket recorded, the index built again, all in one transaction).
///
/// A SIGKILL at any moment leaves the database exactly as it was before the import (no task,
/// the index there) or exactly as a clean run of the same import leaves it — never in
/// between: the file intact, no batch `running`, and the next import finishes the job.
@Suite(.sqliteFiles, .serialized) struct ReliabilityFirstImportCrashTests {
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
        case births = "recording the batch's births"
        case index = "building tasks_by_course"
        case finishing = "recording the batch and committing"
        case committed = "after the commit"

        init(trace: [String]) {
            let phases = Set(trace)
            if phases.contains("commit") {
                self = .committed
            } else if phases.contains("tasks_by_course") {
                self = .finishing
            } else if phases.contains("births") {
                self = .index
            } else if phases.contains("read, normalize, stage") {
                self = .births
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
        // A run whose kills all fell after the commit proves nothing about a crash mid-import.
        let beforeCommit = [Landing.noFile, .noSchema, .partialSchema, .beforeCommit].reduce(0) { $0 + (landings[$1]?.count ?? 0) }
        #expect(beforeCommit > 0, "no kill of \(scenario.name) landed before the commit: \(split.joined(separator: ", "))")
    }
}
