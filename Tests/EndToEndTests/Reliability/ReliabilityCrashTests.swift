import Foundation
import Testing

/// Crash safety: an import killed with SIGKILL at any moment leaves the courses and tasks exactly
/// as they were before it or exactly as it would have left them — never in between. The file
/// stays intact, no batch is left `running`, and the next import finishes the job.
@Suite(.serialized) struct ReliabilityCrashTests {
    /// `$RELIABILITY_KILLS` when set (Tests/Stress/stress.sh runs more, on a larger file); else
    /// 20 in the SQLite pass and 10 in the PostgreSQL pass, where the atomicity is the server's
    /// transaction and `PostgresStoreTests` kills a first import too (docs/performance.md, "Test
    /// time": the PostgreSQL pass is the longer one).
    static let killCount =
        ProcessInfo.processInfo.environment["RELIABILITY_KILLS"].flatMap { Int($0) } ?? (StoreUnderTest.isPostgres ? 10 : 20)

    /// Where a kill landed, told by the state it left and by how the process ended.
    enum Landing: String, CaseIterable {
        case beforeCommit = "before the commit"
        case afterCommit = "after the commit, before the process exited"
        case afterExit = "after the import had exited on its own"
    }

    @Test func syncImportKilledAtRandomMomentsLeavesTheDataBeforeOrAfterNeverBetween() throws {
        let fixture = try ReliabilityFixture.large.get()
        let sandbox = try Sandbox()
        try fixture.prepare(sandbox, database: "baseline.sqlite")
        let db = sandbox.path("db.sqlite")
        // The import's duration, measured here and again on every full import after a kill
        // (the mean of the last five), so that it follows the load the kills see.
        try copyDatabase(sandbox.path("baseline.sqlite"), to: db)
        let measuring = Date()
        let measured = try sandbox.run(ReliabilityFixture.syncArguments)
        var durations = [seconds(since: measuring)]
        var duration: Double { durations.suffix(5).reduce(0, +) / Double(durations.suffix(5).count) }
        #expect(measured == fixture.syncImport)
        #expect(try DatabaseSnapshot.data(db) == fixture.after)
        var generator = SeededGenerator(seed: 0x5EED_0001)
        var landings: [Landing: [Double]] = [:]
        let started = Date()
        var timings = (killed: 0.0, checked: 0.0, recovered: 0.0)
        for kill in 1...Self.killCount {
            try copyDatabase(sandbox.path("baseline.sqlite"), to: db)
            // Spread from 5 ms to the import's measured duration.
            let delay = 0.005 + generator.unit() * max(0, duration - 0.005)
            let context = "kill \(kill) of \(Self.killCount), \(Int(delay * 1000)) ms into the import"
            let running = try sandbox.launch(ReliabilityFixture.syncArguments)
            let launched = Date()
            let remaining = delay - seconds(since: launched)
            if remaining > 0 { usleep(UInt32(remaining * 1_000_000)) }
            Foundation.kill(running.process.processIdentifier, SIGKILL)
            running.process.waitUntilExit()
            let killed = running.process.terminationReason == .uncaughtSignal
            if !killed {
                #expect(running.process.terminationStatus == 65, "\(context): the import exited by itself with a wrong code")
            }

            timings.killed += seconds(since: launched)
            let checking = Date()
            #expect(try Consistency.check(db) == "ok\n", "\(context): integrity_check or foreign_key_check failed")
            #expect(try Consistency.runningBatches(db) == 0, "\(context): a batch was left 'running'")
            let state = try DatabaseSnapshot.data(db)
            let batches = try Consistency.batches(db)
            let landing: Landing
            if state == fixture.before {
                landing = .beforeCommit
                #expect(killed, "\(context): the import exited by itself but left the data as before")
                #expect(batches == "1|committed\n", "\(context): the data is as before, yet the batches say otherwise")
            } else if state == fixture.after {
                landing = killed ? .afterCommit : .afterExit
                #expect(batches == "1|committed\n2|committed\n", "\(context): the data is as after, yet the batches say otherwise")
            } else {
                Issue.record(
                    "\(context): the courses and tasks are neither as before nor as after the import; first difference from before: \(firstDifference(fixture.before, state)); from after: \(firstDifference(fixture.after, state))"
                )
                continue
            }
            landings[landing, default: []].append(delay)
            timings.checked += seconds(since: checking)
            let recovering = Date()

            // The next import succeeds (65: the export holds rejected rows) and gives the after state.
            let next = try sandbox.run(ReliabilityFixture.syncArguments)
            if landing == .beforeCommit { durations.append(seconds(since: recovering)) }
            if landing == .beforeCommit {
                #expect(next == fixture.syncImport, "\(context): the import after the kill")
            } else {
                #expect(next.exitCode == 65, "\(context): the import after the kill: \(next)")
                let summary = next.stderr.split(separator: "\n").last.map(String.init) ?? ""
                #expect(
                    summary.hasPrefix("dashboard: import batch 3 committed (sync): ") && summary.contains(" 0 inserted, 0 updated, ")
                        && summary.hasSuffix(
                            " 0 deleted, \(fixture.workload.rejectedRows) rejected, 0 warnings"
                                + "; the same files as batch 2 into unchanged data: not compared again"),
                    "\(context): the import after the kill: \(next)")
            }
            timings.recovered += seconds(since: recovering)
            #expect(try DatabaseSnapshot.data(db) == fixture.after, "\(context): the import after the kill did not give the after state")
            #expect(try Consistency.check(db) == "ok\n", "\(context): integrity after the next import")
        }
        let total = landings.values.reduce(0) { $0 + $1.count }
        let split = Landing.allCases.map { landing -> String in
            let delays = landings[landing] ?? []
            let range = delays.isEmpty ? "" : " (\(Int((delays.min() ?? 0) * 1000))–\(Int((delays.max() ?? 0) * 1000)) ms)"
            return "\(delays.count) \(landing.rawValue)\(range)"
        }
        reportFigure(
            "crash safety: \(total) of \(Self.killCount) kills survived on \(fixture.workload.taskCount) tasks "
                + "(sync import \(formatted(durations.min() ?? 0))–\(formatted(durations.max() ?? 0))): " + split.joined(separator: ", ")
                + "; \(formatted(seconds(since: started))) in all (until the kill \(formatted(timings.killed)), "
                + "checks \(formatted(timings.checked)), next imports \(formatted(timings.recovered)))")
        #expect(total == Self.killCount)
    }
}

/// The first line where two dumps differ, both sides shown, for a failure message.
func firstDifference(_ expected: String, _ actual: String) -> String {
    let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
    for index in 0..<max(a.count, b.count) {
        let left = index < a.count ? String(a[index]) : "(end)"
        let right = index < b.count ? String(b[index]) : "(end)"
        if left != right { return "line \(index + 1): expected \"\(left)\", found \"\(right)\"" }
    }
    return "none"
}
