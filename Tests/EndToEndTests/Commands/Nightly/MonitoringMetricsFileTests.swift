import Foundation
import Testing

/// Issue 17, item 4: the metrics file is written as every file of the program is — whole or
/// not at all, never over what the run reads, with the umask's mode without others — and what a
/// monitor without Prometheus reads (`status --format json`) carries the same facts.
@Suite struct MonitoringMetricsFileTests {
    /// The names in a folder of the sandbox, sorted.
    static func listing(_ sandbox: Sandbox, _ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: sandbox.path(folder)).sorted()
    }

    @Test func aFullDiskLeavesLastNightsFileWholeAndNoTemporaryFile() throws {
        let sandbox = try MonitoringMetricsTests.school()
        let disk = try ScratchDisk(sandbox, megabytes: 1)
        defer { disk.unmount() }
        let first = try sandbox.run([
            "--db", "db.sqlite", "--as-of", MonitoringMetricsTests.night, "nightly", "--imports", "drop", "--reports", "reports",
            "--metrics", "disk/dashboard.prom",
        ])
        #expect(first.exitCode == 0, "\(first)")
        let lastNight = try sandbox.read("disk/dashboard.prom")
        try disk.fill(leaving: 0)
        let result = try sandbox.run([
            "--db", "db.sqlite", "--as-of", "2026-11-30T02:00:00Z", "nightly", "--imports", "drop", "--reports", "reports",
            "--metrics", "disk/dashboard.prom",
        ])
        // A good night whose metrics could not be written is 74, after its summary line.
        #expect(result.exitCode == 74, "\(result)")
        #expect(
            result.stderr.hasSuffix(
                "reports: 40 files in reports/2026-11-30; 2 courses have no teacher: their pages are in teachers/unassigned/\n"
                    + "dashboard: error: cannot write --metrics disk/dashboard.prom: No space left on device\n"
                    + "dashboard: hint: check the folder's permissions and the disk; the previous file was left as it was\n"),
            "\(result)")
        #expect(try sandbox.read("disk/dashboard.prom") == lastNight)
        #expect(try Self.listing(sandbox, "disk") == ["dashboard.prom", "filler"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.path("reports/latest")) == "2026-11-30")
    }

    @Test(arguments: [
        (
            "drop/tasks.csv",
            "dashboard: error: --metrics drop/tasks.csv is the input file drop/tasks.csv; refusing to overwrite it\n"
                + "dashboard: hint: write the output somewhere else; nothing was read or written\n", Int32(64)
        ),
        (
            "drop/dashboard.prom",
            "dashboard: error: --metrics drop/dashboard.prom is inside the input folder drop; the next run over that folder would read it as input\n"
                + "dashboard: hint: write the output somewhere else; nothing was read or written\n", Int32(64)
        ),
        (
            "drop/",
            "dashboard: error: --metrics drop/ names a folder\n"
                + "dashboard: hint: give a file name, like /var/lib/dashboard-metrics/dashboard.prom\n", Int32(64)
        ),
        (
            "elsewhere",
            "dashboard: error: --metrics elsewhere names a folder\n"
                + "dashboard: hint: give a file name, like /var/lib/dashboard-metrics/dashboard.prom\n", Int32(64)
        ),
        (
            "fifo",
            "dashboard: error: --metrics fifo is not a regular file (a FIFO (named pipe)); dashboard replaces only regular files\n"
                + "dashboard: hint: give a file name such as /var/lib/dashboard-metrics/dashboard.prom, or remove what is in the way; nothing was read or written\n",
            Int32(64)
        ),
        (
            "missing/dashboard.prom",
            "dashboard: error: cannot write --metrics missing/dashboard.prom: the folder missing does not exist\n"
                + "dashboard: hint: give a file in a folder you own and can write to; nothing was imported\n", Int32(74)
        ),
        (
            "link/dashboard.prom",
            "dashboard: error: cannot write --metrics link/dashboard.prom: link is a symbolic link, and dashboard never writes through one\n"
                + "dashboard: hint: give a file in a folder you own and can write to; nothing was imported\n", Int32(74)
        ),
    ])
    func aRefusedMetricsPathStopsTheNightBeforeAnythingIsImported(path: String, stderr: String, exitCode: Int32) throws {
        let sandbox = try MonitoringMetricsTests.school()
        try FileManager.default.createDirectory(atPath: sandbox.path("elsewhere"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("link"), withDestinationPath: "elsewhere")
        #expect(mkfifo(sandbox.path("fifo"), 0o600) == 0)
        try sandbox.write("drop/tasks.csv", Fixtures.numberedTasks(21))
        let before = try sandbox.read("drop/tasks.csv")
        let result = try sandbox.run([
            "--db", "db.sqlite", "--as-of", MonitoringMetricsTests.night, "nightly", "--imports", "drop", "--reports", "reports",
            "--metrics", path,
        ])
        #expect(result == CommandResult(exitCode: exitCode, stdout: "", stderr: stderr), "\(result)")
        #expect(try Consistency.batches(sandbox.path("db.sqlite")) == "1|committed\n", "nothing was imported")
        #expect(try sandbox.read("drop/tasks.csv") == before)
        #expect(try Self.listing(sandbox, "drop") == ["courses.csv", "tasks.csv"])
        #expect(try Self.listing(sandbox, "elsewhere") == [])
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("reports")), "no report was written")
    }

    @Test(.sqliteFiles) func theDatabaseIsNeverTheMetricsFile() throws {
        let sandbox = try MonitoringMetricsTests.school()
        let before = try sandbox.read("db.sqlite")
        for name in ["db.sqlite", "db.sqlite-wal"] {
            let result = try sandbox.run(["--db", "db.sqlite", "nightly", "--imports", "drop", "--metrics", name])
            #expect(result.exitCode == 64, "\(result)")
            #expect(result.stderr.hasPrefix("dashboard: error: --metrics \(name) is the database"), "\(result)")
        }
        #expect(try sandbox.read("db.sqlite") == before)
    }

    /// The run that holds the lock does the night's work and writes its metrics; the one that
    /// found it held (75) leaves the file as it was.
    @Test func aNightThatFindsTheDatabaseBusyLeavesTheFileAsItWas() throws {
        let sandbox = try MonitoringMetricsTests.school()
        try sandbox.write("metrics/dashboard.prom", "# last night's\n")
        let lock = try LockingTests.WriteLockHolder(database: sandbox.path("db.sqlite"), directory: sandbox.directory)
        let result = try MonitoringMetricsTests.nightly(sandbox)
        lock.release()
        #expect(result.exitCode == 75, "\(result)")
        #expect(try MonitoringMetricsTests.metricsText(sandbox) == "# last night's\n")
        #expect(try Self.listing(sandbox, "metrics") == ["dashboard.prom"])
    }

    /// A database that cannot be opened is a failed night, without the database's families.
    @Test(.sqliteFiles) func aDatabaseThatCannotBeOpenedIsAFailedNight() throws {
        let sandbox = try MonitoringMetricsTests.school()
        try FileManager.default.createDirectory(atPath: sandbox.path("folder.sqlite"), withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: sandbox.path("metrics"), withIntermediateDirectories: false)
        let result = try sandbox.run(["--db", "folder.sqlite", "nightly", "--imports", "drop", "--metrics", "metrics/dashboard.prom"])
        #expect(result.exitCode == 74, "\(result)")
        #expect(result.stderr.hasPrefix("dashboard: error: folder.sqlite is a directory, not a database file\n"), "\(result)")
        let metrics = try PrometheusMetrics.parse(try MonitoringMetricsTests.metricsText(sandbox), in: sandbox)
        MetricsContract.expectWellFormed(metrics, "unopened")
        #expect(metrics.currentOutcomes == ["failed"])
        // No phase ran: the durations are absent, never 0.
        #expect(metrics.names == MetricsContract.run)
    }

    /// The file replaces whatever was at its name, never writes through it: a hard link to
    /// another file leaves that file as it was.
    @Test func aHardLinkAtTheNameIsReplacedNotWrittenThrough() throws {
        let sandbox = try MonitoringMetricsTests.school()
        try sandbox.write("metrics/other.txt", "someone else's file\n")
        try FileManager.default.linkItem(atPath: sandbox.path("metrics/other.txt"), toPath: sandbox.path("metrics/dashboard.prom"))
        let result = try MonitoringMetricsTests.nightly(sandbox)
        #expect(result.exitCode == 0, "\(result)")
        #expect(String(decoding: try sandbox.read("metrics/other.txt"), as: UTF8.self) == "someone else's file\n")
        #expect(try MonitoringMetricsTests.metricsText(sandbox).hasPrefix("# HELP dashboard_last_run_timestamp_seconds "))
        #expect(try Self.listing(sandbox, "metrics") == ["dashboard.prom", "other.txt"])
    }

    /// Modes are a file's, not an engine's: the database of this test is a file in both passes.
    @Test(arguments: [("027", 0o640), ("002", 0o660), ("077", 0o600)])
    func theFileHasTheUmasksModeWithoutOthers(umask: String, mode: Int) throws {
        let sandbox = try Sandbox()
        try sandbox.write("drop/courses.csv", Fixtures.courses)
        try FileManager.default.createDirectory(atPath: sandbox.path("metrics"), withIntermediateDirectories: false)
        let result = try sandbox.run(
            umask: umask,
            ["--db", "db.sqlite", "nightly", "--imports", "drop", "--reports", "reports", "--metrics", "metrics/dashboard.prom"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(try sandbox.mode("metrics/dashboard.prom") == mode)
    }

    @Test func statusJSONCarriesTheFactsOfTheMetrics() throws {
        let sandbox = try MonitoringMetricsTests.school()
        try sandbox.write("drop/tasks.csv", Fixtures.numberedTasks(5))
        _ = try MonitoringMetricsTests.nightly(sandbox, ["--mode", "sync"])
        let status = try sandbox.run(["--db", "db.sqlite", "status", "--format", "json"])
        #expect(status.exitCode == 0, "\(status)")
        let json = try JSON.object(status.stdout)
        #expect(JSON.duplicateKeys(status.stdout) == [])
        // The last import that committed (batch 1), apart from the last batch (held).
        #expect((json["last_import"] as? [String: Any])?["batch_id"] as? Int == 1)
        #expect((json["last_import"] as? [String: Any])?["as_of"] as? String == MonitoringMetricsTests.dayBefore)
        #expect((json["last_batch"] as? [String: Any])?["status"] as? String == "held")
        #expect((json["database_bytes"] as? Int ?? 0) > 10_000)
        // The keys that were there stay, in their order; the new ones come last.
        let keys = status.stdout.matches(of: /\n  "([a-z_]+)":/).map { String($0.output.1) }
        #expect(
            keys == [
                "schema", "database", "exists", "schema_version", "courses", "tasks", "deleted_courses", "deleted_tasks", "last_batch",
                "last_committed", "held", "last_import", "database_bytes", "courses_without_teacher",
            ])
    }
}
