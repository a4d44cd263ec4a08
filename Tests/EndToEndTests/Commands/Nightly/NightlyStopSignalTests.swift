import Foundation
import Testing

/// Issue 27, item 7: SIGTERM (systemd's stop, a timer's timeout), SIGINT or SIGHUP during
/// `nightly` ends the night at its next safe point, says what it left, and exits 75.
@Suite(.serialized) struct NightlyStopSignalTests {
    /// The reports folder's entries (hidden ones included), sorted.
    private func listing(_ sandbox: Sandbox, _ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: sandbox.path(folder)).sorted()
    }

    /// A sandbox with the fixture's baseline as db.sqlite, `change/` as the drop folder, and
    /// one night already published (2026-11-28) in `reports/`.
    private func nightBefore(_ fixture: ReliabilityFixture) throws -> Sandbox {
        let sandbox = try Sandbox()
        try fixture.prepare(sandbox, database: "baseline.sqlite")
        try copyDatabase(sandbox.path("baseline.sqlite"), to: sandbox.path("db.sqlite"))
        let earlier = try sandbox.run(
            ["--db", "db.sqlite", "--as-of", "2026-11-28T06:00:00Z", "nightly", "--imports", "base", "--reports", "reports"])
        #expect(earlier.exitCode == 0, "\(earlier)")
        return sandbox
    }

    /// The courses and tasks without batch numbers and buckets (the earlier night moved some
    /// buckets with its own as-of): what the import wrote.
    private func imported(_ path: String) throws -> String {
        try DatabaseSnapshot.lines(
            path, "SELECT course_id, code, title, term, teacher, timezone, deleted_batch IS NULL FROM courses ORDER BY 1")
            + DatabaseSnapshot.lines(
                path,
                "SELECT task_id, course_id, title, student_id, due, priority, completed, deleted_batch IS NULL FROM tasks ORDER BY 1")
    }

    static let nightly = ["--db", "db.sqlite", "nightly", "--imports", "change", "--mode", "sync", "--reports", "reports"]

    @Test("SIGTERM while the night waits for another writer: exit 75 at once, nothing imported, nothing published")
    func aStopWhileWaitingForTheLock() throws {
        let fixture = try ReliabilityFixture.large.get()
        let sandbox = try nightBefore(fixture)
        let before = try DatabaseSnapshot.data(sandbox.path("db.sqlite"))
        let reportsBefore = try listing(sandbox, "reports")
        let holder = try LockingTests.WriteLockHolder(database: sandbox.path("db.sqlite"), directory: sandbox.directory)
        defer { holder.release() }
        let running = try sandbox.launch(Self.nightly + ["--wait", "600"])
        usleep(1_500_000)
        #expect(running.process.isRunning)
        let signalled = Date()
        kill(running.process.processIdentifier, SIGTERM)
        let result = try running.finish()
        #expect(seconds(since: signalled) < 10)
        #expect(result.exitCode == 75, "\(result)")
        #expect(
            result.stderr
                == "dashboard: error: stopped by SIGTERM: the import was stopped before it committed: nothing was imported; "
                + "buckets were not recomputed; the night's reports were not published; reports/latest still points at 2026-11-28\n"
                + "dashboard: hint: run `dashboard nightly` again to finish the night (a second SIGTERM stops at once)\n", "\(result)")
        holder.release()
        #expect(try DatabaseSnapshot.data(sandbox.path("db.sqlite")) == before)
        #expect(try listing(sandbox, "reports") == reportsBefore)
    }

    @Test("SIGTERM while the import writes: rolled back whole, nothing published, latest where it was")
    func aStopDuringTheImport() throws {
        let fixture = try ReliabilityFixture.large.get()
        for attempt in 1...6 {
            let sandbox = try nightBefore(fixture)
            let before = try DatabaseSnapshot.data(sandbox.path("db.sqlite"))
            let reportsBefore = try listing(sandbox, "reports")
            let trace = sandbox.path("trace.jsonl")
            let running = try sandbox.launch(Self.nightly, environment: [TraceFile.variable: trace])
            // The import has read its files; it now plans and writes.
            while running.process.isRunning, try !TraceFile.phases(trace).contains(where: { $0.phase == "read, normalize, stage" }) {
                usleep(1000)
            }
            kill(running.process.processIdentifier, SIGTERM)
            let result = try running.finish()
            #expect(result.exitCode == 75, "\(result)")
            // The import may have committed before the signal arrived: then try again.
            if result.stderr.contains("the import committed") {
                #expect(attempt < 6, "the import always committed before SIGTERM reached it")
                continue
            }
            #expect(
                result.stderr
                    == "dashboard: error: stopped by SIGTERM: the import was stopped before it committed: nothing was imported; "
                    + "buckets were not recomputed; the night's reports were not published; reports/latest still points at 2026-11-28\n"
                    + "dashboard: hint: run `dashboard nightly` again to finish the night (a second SIGTERM stops at once)\n",
                "\(result)")
            #expect(try DatabaseSnapshot.data(sandbox.path("db.sqlite")) == before)
            #expect(try Consistency.check(sandbox.path("db.sqlite")) == "ok\n")
            // Batch 2 is the earlier night's (the same files again).
            #expect(try Consistency.batches(sandbox.path("db.sqlite")) == "1|committed\n2|committed\n")
            #expect(try listing(sandbox, "reports") == reportsBefore)
            // The next night does the work.
            let again = try sandbox.run(Self.nightly)
            #expect(again.exitCode == 65, "\(again)")
            #expect(
                try imported(sandbox.path("db.sqlite"))
                    == imported(fixture.sandbox.path("after.sqlite")))
            return
        }
    }

    @Test("SIGTERM while the reports are written: the import and categorize stay committed, the half-written night is removed")
    func aStopDuringTheReports() throws {
        let fixture = try ReliabilityFixture.large.get()
        let sandbox = try nightBefore(fixture)
        let reportsBefore = try listing(sandbox, "reports")
        let running = try sandbox.launch(Self.nightly + ["--metrics", "night.prom"])
        // The night's folder is being written under a hidden name.
        while running.process.isRunning, try !listing(sandbox, "reports").contains(where: { $0.contains(".partial-") }) {
            usleep(1000)
        }
        kill(running.process.processIdentifier, SIGTERM)
        let result = try running.finish()
        #expect(result.exitCode == 75, "\(result)")
        #expect(
            result.stderr
                == "dashboard: error: stopped by SIGTERM: the import committed (batch 3); buckets were recomputed; "
                + "the night's reports were not published; reports/latest still points at 2026-11-28\n"
                + "dashboard: hint: run `dashboard nightly` again to finish the night (a second SIGTERM stops at once)\n", "\(result)")
        #expect(try listing(sandbox, "reports") == reportsBefore)
        #expect(
            try imported(sandbox.path("db.sqlite"))
                == imported(fixture.sandbox.path("after.sqlite")))
        // The monitor sees a night that did not finish.
        let metrics = String(decoding: try sandbox.read("night.prom"), as: UTF8.self)
        #expect(metrics.contains("dashboard_last_run_outcome{outcome=\"incomplete\"} 1"), "\(metrics)")
        // The stopped night still reads the database's status for its metrics.
        for family in ["dashboard_held_batches 0", "dashboard_database_size_bytes ", "dashboard_courses_without_teacher "] {
            #expect(metrics.contains("\n" + family), "\(family): \(metrics)")
        }
    }
}
