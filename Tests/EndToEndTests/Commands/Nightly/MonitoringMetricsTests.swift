import Foundation
import Testing

/// Issue 17, item 4: `nightly --metrics FILE` and `status --format prometheus` write the
/// Prometheus text format. Each output has a golden (the phases' durations and the database's
/// size masked: they depend on the machine and the engine) and is read back by
/// prometheus_client's own parser, which must find every family with its type, labels and
/// values: a committed, a held, a failed, an incomplete night and one without an export.
@Suite struct MonitoringMetricsTests {
    static let dayBefore = "2026-11-28T02:00:00Z"
    static let night = "2026-11-29T02:00:00Z"
    /// `night` and the day before, in unix seconds.
    static let (nightSeconds, dayBeforeSeconds): (Double, Double) = (1_795_917_600, 1_795_831_200)

    /// A school imported the day before (`db.sqlite`: 2 courses, 20 tasks), and a drop folder
    /// with the same files.
    static func school() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("drop/courses.csv", Fixtures.courses)
        try sandbox.write("drop/tasks.csv", Fixtures.numberedTasks(20))
        let first = try sandbox.run(["--db", "db.sqlite", "--as-of", dayBefore, "import", "drop"])
        guard first.exitCode == 0 else { throw HarnessError("the first import failed:\n\(first)") }
        return sandbox
    }

    /// Runs tonight's nightly with `--metrics metrics/dashboard.prom` (and `extra` options).
    static func nightly(_ sandbox: Sandbox, _ extra: [String] = [], imports: String = "drop") throws -> CommandResult {
        try FileManager.default.createDirectory(atPath: sandbox.path("metrics"), withIntermediateDirectories: true)
        return try sandbox.run(
            [
                "--db", "db.sqlite", "--as-of", night, "nightly", "--imports", imports, "--reports", "reports", "--metrics",
                "metrics/dashboard.prom",
            ]
                + extra)
    }

    static func metricsText(_ sandbox: Sandbox) throws -> String {
        String(decoding: try sandbox.read("metrics/dashboard.prom"), as: UTF8.self)
    }

    /// The file read back by prometheus_client, checked for what holds for every output.
    static func parsed(_ text: String, _ sandbox: Sandbox, _ what: String) throws -> PrometheusMetrics {
        let metrics = try PrometheusMetrics.parse(text, in: sandbox)
        MetricsContract.expectWellFormed(metrics, what)
        return metrics
    }

    @Test func aCommittedNightWritesEveryFamilyWithTheRunsCounts() throws {
        let sandbox = try Self.school()
        // Tonight: one task retitled, one new, one with a date that does not exist.
        let tasks = Fixtures.numberedTasks(20).replacingOccurrences(of: "t01,bio,Worksheet 1,", with: "t01,bio,Worksheet one,")
        try sandbox.write("drop/tasks.csv", tasks + "t21,bio,Worksheet 21,2026-12-21\nt22,bio,Worksheet 22,2026-02-30\n")
        let result = try Self.nightly(sandbox)
        #expect(result.exitCode == 65, "rows were rejected: \(result)")
        let text = try Self.metricsText(sandbox)
        GoldenFile.expectMatch(MetricsContract.masked(text), golden: "metrics/nightly-committed.prom")
        let metrics = try Self.parsed(text, sandbox, "committed")
        #expect(metrics.names == MetricsContract.all.filter { !$0.hasPrefix("dashboard_oldest_held") })
        #expect(metrics.currentOutcomes == ["committed"])
        #expect(metrics.value("dashboard_last_run_timestamp_seconds") == Self.nightSeconds)
        let tasksRows = MetricsContract.rowFamilies.map { metrics.value($0, ["kind": "tasks"]) }
        #expect(tasksRows == [22, 1, 1, 19, 0, 1, 0], "read, inserted, updated, unchanged, deleted, rejected, warnings")
        #expect(MetricsContract.rowFamilies.map { metrics.value($0, ["kind": "courses"]) } == [2, 0, 0, 2, 0, 0, 0])
        for phase in MetricsContract.phases {
            let seconds = metrics.value("dashboard_last_run_phase_duration_seconds", ["phase": phase]) ?? -1
            #expect(seconds >= 0 && seconds < 60, "\(phase): \(seconds)")
        }
        #expect(metrics.value("dashboard_data_as_of_timestamp_seconds") == Self.nightSeconds)
        #expect(metrics.value("dashboard_data_age_seconds") == 0)
        #expect(metrics.value("dashboard_last_successful_import_timestamp_seconds") == Self.nightSeconds)
        #expect(metrics.value("dashboard_held_batches") == 0)
        #expect((metrics.value("dashboard_database_size_bytes") ?? 0) > 10_000)
        // Issue 27: the fixture's two courses name no teacher.
        #expect(metrics.value("dashboard_courses_without_teacher") == 2)
        // The summary line is the night's, as without --metrics.
        #expect(
            result.stderr.hasSuffix(
                "reports: 40 files in reports/2026-11-29; 2 courses have no teacher: their pages are in teachers/unassigned/\n"),
            "\(result)")
    }

    @Test func aHeldNightSaysHeldAndTheStatusOfTheNextDayAgesIt() throws {
        let sandbox = try Self.school()
        // Tonight's export lost 15 of the 20 tasks: a sync over the 10 % guard is held.
        try sandbox.write("drop/tasks.csv", Fixtures.numberedTasks(5))
        let held = try Self.nightly(sandbox, ["--mode", "sync"])
        #expect(held.exitCode == 65, "\(held)")
        let text = try Self.metricsText(sandbox)
        GoldenFile.expectMatch(MetricsContract.masked(text), golden: "metrics/nightly-held.prom")
        let metrics = try Self.parsed(text, sandbox, "held")
        #expect(metrics.names == MetricsContract.all)
        #expect(metrics.currentOutcomes == ["held"])
        // What the held batch would do: it deleted nothing.
        #expect(MetricsContract.rowFamilies.map { metrics.value($0, ["kind": "tasks"]) } == [5, 0, 0, 5, 15, 0, 0])
        #expect(metrics.value("dashboard_data_as_of_timestamp_seconds") == Self.dayBeforeSeconds)
        #expect(metrics.value("dashboard_data_age_seconds") == 86_400)
        #expect(metrics.value("dashboard_held_batches") == 1)
        #expect(metrics.value("dashboard_oldest_held_batch_timestamp_seconds") == Self.nightSeconds)
        #expect(metrics.value("dashboard_oldest_held_batch_age_seconds") == 0)

        // The next day, nobody approved it: status ages the data and the held batch.
        let status = try sandbox.run(["--db", "db.sqlite", "--as-of", "2026-11-30T02:00:00Z", "status", "--format", "prometheus"])
        #expect(status.exitCode == 0 && status.stderr == "", "\(status)")
        GoldenFile.expectMatch(MetricsContract.masked(status.stdout), golden: "metrics/status-held.prom")
        let later = try Self.parsed(status.stdout, sandbox, "status")
        // The same families as the night's, without the durations of a run status did not make.
        #expect(later.names == MetricsContract.all.filter { $0 != "dashboard_last_run_phase_duration_seconds" })
        #expect(later.currentOutcomes == ["held"])
        #expect(later.value("dashboard_last_run_timestamp_seconds") == Self.nightSeconds)
        for name in MetricsContract.rowFamilies {
            for kind in MetricsContract.kinds {
                #expect(later.value(name, ["kind": kind]) == metrics.value(name, ["kind": kind]), "\(name)")
            }
        }
        #expect(later.value("dashboard_data_age_seconds") == 172_800)
        #expect(later.value("dashboard_oldest_held_batch_age_seconds") == 86_400)
        #expect(later.value("dashboard_last_successful_import_timestamp_seconds") == Self.dayBeforeSeconds)
    }

    @Test func aFailedNightIsWrittenAndSaysFailed() throws {
        let sandbox = try Self.school()
        try sandbox.write("drop/tasks.csv", "task_id,course_id,title\nt01,bio,Worksheet 1\n\u{0}")
        let result = try Self.nightly(sandbox)
        #expect(result.exitCode == 65, "\(result)")
        let text = try Self.metricsText(sandbox)
        GoldenFile.expectMatch(MetricsContract.masked(text), golden: "metrics/nightly-failed.prom")
        let metrics = try Self.parsed(text, sandbox, "failed")
        #expect(metrics.currentOutcomes == ["failed"])
        #expect(metrics.value("dashboard_data_age_seconds") == 86_400)
        #expect(metrics.value("dashboard_last_successful_import_timestamp_seconds") == Self.dayBeforeSeconds)
        #expect(try Consistency.batches(sandbox.path("db.sqlite")) == "1|committed\n2|failed\n")
    }

    @Test func aNightWithoutAnExportSaysSoAndReadNoRows() throws {
        let sandbox = try Self.school()
        let result = try Self.nightly(sandbox, imports: "missing")
        #expect(result.exitCode == 66, "\(result)")
        let text = try Self.metricsText(sandbox)
        GoldenFile.expectMatch(MetricsContract.masked(text), golden: "metrics/nightly-no-export.prom")
        let metrics = try Self.parsed(text, sandbox, "no export")
        #expect(metrics.currentOutcomes == ["no_export"])
        for name in MetricsContract.rowFamilies {
            for kind in MetricsContract.kinds { #expect(metrics.value(name, ["kind": kind]) == 0, "\(name) \(kind)") }
        }
        #expect(metrics.value("dashboard_data_age_seconds") == 86_400)
    }

    @Test func aNightWhoseReportsFailAfterTheImportIsIncompleteAndStillWritten() throws {
        let sandbox = try Self.school()
        // The reports folder on a full disk: every name passes the check before the night, and
        // the first page fails after the import committed. (A `latest` that is a folder was
        // this test's fault until it was refused before the night: issue 27, item 4.)
        let disk = try ScratchDisk(sandbox, name: "reports", megabytes: 1)
        defer { disk.unmount() }
        try disk.fill(leaving: 0)
        let result = try Self.nightly(sandbox)
        #expect(result.exitCode == 74, "\(result)")
        #expect(result.stderr.contains("the reports could not be written"), "\(result)")
        let metrics = try Self.parsed(try Self.metricsText(sandbox), sandbox, "incomplete")
        #expect(metrics.currentOutcomes == ["incomplete"])
        #expect(metrics.value("dashboard_last_run_rows_unchanged", ["kind": "tasks"]) == 20)
        #expect(metrics.value("dashboard_data_as_of_timestamp_seconds") == Self.nightSeconds)
    }

    @Test func statusOfADatabaseWithoutBatchesHasOnlyTheDatabasesFamilies() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "--dry-run", "courses.csv"]).exitCode == 0)
        let status = try sandbox.run(["--db", "db.sqlite", "status", "--format", "prometheus"])
        #expect(status.exitCode == 0, "\(status)")
        let metrics = try Self.parsed(status.stdout, sandbox, "empty")
        // No data yet: no as-of, no age; nothing is made up.
        #expect(
            metrics.names == ["dashboard_held_batches", "dashboard_database_size_bytes", "dashboard_courses_without_teacher"],
            "\(status.stdout)")
    }

    @Test func statusWithoutADatabasePrintsNothingAndExits66() throws {
        let sandbox = try Sandbox()
        let status = try sandbox.run(["--db", "none.sqlite", "status", "--format", "prometheus"])
        #expect(status.exitCode == 66)
        #expect(status.stdout == "")
        let what = StoreUnderTest.isPostgres ? "holds no data yet (an empty database)" : "does not exist"
        #expect(
            status.stderr == "dashboard: error: no data imported yet: none.sqlite \(what)\ndashboard: hint: dashboard import imports/\n",
            "\(status)")
    }
}
