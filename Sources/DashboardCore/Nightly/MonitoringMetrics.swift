import Foundation

/// How a run ended, as a monitor reads it: `dashboard_last_run_outcome{outcome="…"}` is 1 for
/// this one and 0 for every other, so an alert rule names the outcome it fears
/// (`dashboard_last_run_outcome{outcome="failed"} == 1`) and a missing series is never mistaken
/// for a good night.
package enum RunOutcome: String, CaseIterable, Sendable {
    /// The import committed; rows may have been rejected (`dashboard_last_run_rows_rejected`).
    case committed
    /// A sync the delete guard held for approval; nothing was imported.
    case held
    /// A held batch someone discarded since (`status`: the last batch).
    case discarded
    /// The import failed: a file-level error, `--strict`, the database or the disk; nothing
    /// was imported.
    case failed
    /// No export arrived: the drop folder was missing, empty or unreadable (`nightly` only).
    case noExport = "no_export"
    /// The run stopped before its end: categorize or the reports failed (the database or the
    /// disk), whatever the import did; `status`: a batch that never finished.
    case incomplete

    /// The outcome a batch's status stands for; nil for a dry run, which is no run of the job.
    package init?(batchStatus: BatchStatus) {
        switch batchStatus {
        // An approved batch was applied as a new one; a reverted one did commit, then a
        // later batch undid it.
        case .committed, .approved, .reverted: self = .committed
        case .held: self = .held
        case .discarded: self = .discarded
        case .failed: self = .failed
        case .running: self = .incomplete
        case .dryRun: return nil
        }
    }
}

/// How long each phase of a nightly run took, in seconds of the job's clock (never negative:
/// a clock set back during the run counts 0).
package struct NightlyPhases: Equatable, Sendable {
    package var importSeconds: Double
    package var categorizeSeconds: Double
    package var reportsSeconds: Double

    package init(importSeconds: Double = 0, categorizeSeconds: Double = 0, reportsSeconds: Double = 0) {
        self.importSeconds = importSeconds
        self.categorizeSeconds = categorizeSeconds
        self.reportsSeconds = reportsSeconds
    }

    /// The seconds from `start` to `end`, 0 when the clock went back.
    static func seconds(from start: Date, to end: Date) -> Double {
        max(0, end.timeIntervalSince(start))
    }
}

/// What the metrics say of one run: the night `nightly --metrics` has just run, or the last
/// batch the database recorded (`status --format prometheus`).
package struct RunFacts: Equatable, Sendable {
    /// The instant the run worked as of: its `--as-of`, else the moment it started.
    package var asOf: Date
    package var outcome: RunOutcome
    /// Rows per kind; a kind the run did not read counts 0.
    package var counts: [FileKind: ImportCounts]
    /// nil for a run this process did not make (`status`): no durations are made up.
    package var phases: NightlyPhases?
    /// The morning digests of a `nightly --digest` (nil: not asked for).
    package var digests: DigestFacts?

    package init(asOf: Date, outcome: RunOutcome, counts: [FileKind: ImportCounts], phases: NightlyPhases?) {
        self.asOf = asOf
        self.outcome = outcome
        self.counts = counts
        self.phases = phases
    }
}

/// What became of a night's morning digests, for its metrics.
package struct DigestFacts: Equatable, Sendable {
    package var written: Int
    /// nil without `--send`.
    package var sent: Int?
    package var failed: Int
    package var withoutAddress: Int
    package var senderSet: Bool

    package init(written: Int, sent: Int?, failed: Int, withoutAddress: Int, senderSet: Bool) {
        self.written = written
        self.sent = sent
        self.failed = failed
        self.withoutAddress = withoutAddress
        self.senderSet = senderSet
    }
}

/// The metrics `dashboard` writes for Prometheus (docs/operations.md, "Monitoring"): the last
/// run's families (`dashboard_last_run_…`) and the database's (data age, held batches, size).
///
/// Policy: every value is as of an instant the program knows, never the wall clock of the
/// moment the file is read: a run's time is its as-of (the moment it started, unless `--as-of`
/// was given), a batch's its as-of, and the ages are the run's as-of minus those (negative when
/// a run worked as of a time before the data's). The timestamps are for alert rules
/// (`time() - dashboard_last_successful_import_timestamp_seconds`, which keeps growing when the
/// job stops running); the ages say what the night's reports said. All families are gauges.
package enum MonitoringMetrics {
    /// The kinds, in the order their samples are written.
    static let kinds: [FileKind] = [.courses, .tasks]

    /// The facts of a night.
    /// - Parameters:
    ///   - completed: false when categorize or the reports failed (`NightlyFailure`).
    ///   - batches: read for the counts a failed import recorded (its batch), when it has no
    ///     result of its own; an unreadable batch counts 0.
    package static func night(
        _ result: NightlyResult, noExport: Bool, completed: Bool, asOf: Date, batches: any BatchReading
    ) -> RunFacts {
        let outcome: RunOutcome
        if !completed {
            outcome = .incomplete
        } else if noExport {
            outcome = .noExport
        } else if result.importFailure != nil {
            outcome = .failed
        } else if result.imported?.status == .held {
            outcome = .held
        } else {
            outcome = .committed
        }
        var counts = result.imported?.counts ?? [:]
        if result.imported == nil, let id = result.importFailure.flatMap(recordedBatch), let batch = try? batches.batch(id: id) {
            counts = batch.counts
        }
        return RunFacts(asOf: asOf, outcome: outcome, counts: counts, phases: result.phases)
    }

    /// The facts of the database's last batch (not a dry run), or nil when there is none.
    package static func lastBatch(_ status: StoreStatus) -> RunFacts? {
        guard let batch = status.lastBatch, let outcome = RunOutcome(batchStatus: batch.status),
            let asOf = Timestamp.parse(batch.asOf, timeZone: utc)
        else { return nil }
        return RunFacts(asOf: asOf, outcome: outcome, counts: batch.counts, phases: nil)
    }

    /// Every family, in the documented order: the run's (when there is one), then the
    /// database's (when it could be read).
    /// - Parameter asOf: the instant the ages are measured at (the run's or `status`'s as-of).
    /// - Parameter wording: how the HELP texts name the shell's options (`MetricHint`).
    package static func families(
        run: RunFacts?, database: StoreStatus?, asOf: Date, wording: MetricWording = .plain
    ) -> [MetricFamily] {
        var families: [MetricFamily] = []
        if let run { families += runFamilies(run, wording: wording) }
        if let database { families += databaseFamilies(database, asOf: asOf) }
        return families
    }

    // MARK: - The run

    static func runFamilies(_ run: RunFacts, wording: MetricWording) -> [MetricFamily] {
        var families = [
            gauge(
                "dashboard_last_run_timestamp_seconds",
                "When the last run worked as of (\(wording(.asOf)), else the moment it started), in unix seconds.",
                [MetricSample(.integer(unixSeconds(run.asOf)))]),
            gauge(
                "dashboard_last_run_outcome",
                "How the last run ended: 1 for its outcome, 0 for the others (committed, held, discarded, failed, no_export, incomplete).",
                RunOutcome.allCases.map { MetricSample(labels: [MetricLabel("outcome", $0.rawValue)], .integer($0 == run.outcome ? 1 : 0)) }
            ),
        ]
        let counts: [(String, String, KeyPath<ImportCounts, Int>)] = [
            ("rows_read", "Rows the last run read, per kind of file.", \.read),
            ("rows_inserted", "Rows the last run inserted (held or failed: would have inserted), per kind.", \.inserted),
            ("rows_updated", "Rows the last run updated (held or failed: would have updated), per kind.", \.updated),
            ("rows_unchanged", "Rows the last run found unchanged, per kind.", \.unchanged),
            ("rows_deleted", "Rows the last run deleted (held or failed: would have deleted), per kind.", \.deleted),
            ("rows_rejected", "Rows the last run rejected, per kind.", \.rejected),
            ("warnings", "Warnings of the last run (duplicate rows, unknown columns, blank rows), per kind.", \.warnings),
        ]
        for (suffix, help, path) in counts {
            families.append(
                gauge(
                    "dashboard_last_run_" + suffix, help,
                    kinds.map { kind in
                        MetricSample(
                            labels: [MetricLabel("kind", kind.rawValue)], .integer((run.counts[kind] ?? ImportCounts())[keyPath: path]))
                    }))
        }
        if let digests = run.digests {
            var samples = [
                ("written", digests.written), ("failed", digests.failed), ("no_address", digests.withoutAddress),
            ]
            if let sent = digests.sent { samples.insert(("sent", sent), at: 1) }
            families.append(
                gauge(
                    "dashboard_last_run_digests",
                    "Morning digests of the last \(wording(.digestRun)): written, sent (\(wording(.send))), failed to hand over, and "
                        + "teachers with no address.",
                    samples.map { MetricSample(labels: [MetricLabel("outcome", $0.0)], .integer($0.1)) }))
            families.append(
                gauge(
                    "dashboard_digest_sender_set", "1 when the database has a sender for the digests (settings mail-from), else 0.",
                    [MetricSample(.integer(digests.senderSet ? 1 : 0))]))
        }
        if let phases = run.phases {
            let durations = [
                ("import", phases.importSeconds), ("categorize", phases.categorizeSeconds), ("reports", phases.reportsSeconds),
            ]
            families.append(
                gauge(
                    "dashboard_last_run_phase_duration_seconds", "How long each phase of the last nightly run took, in seconds.",
                    // To the microsecond: finer digits are the clock's noise.
                    durations.map { MetricSample(labels: [MetricLabel("phase", $0.0)], .real(($0.1 * 1e6).rounded() / 1e6)) }))
        }
        return families
    }

    // MARK: - The database

    static func databaseFamilies(_ status: StoreStatus, asOf: Date) -> [MetricFamily] {
        let now = unixSeconds(asOf)
        let dataAsOf = status.lastCommitted.flatMap { Timestamp.parse($0.asOf, timeZone: utc) }.map(unixSeconds)
        let lastImport = status.lastImport.flatMap { Timestamp.parse($0.asOf, timeZone: utc) }.map(unixSeconds)
        // The oldest held batch is the one with the smallest id (batches are numbered in order).
        let oldestHeld = status.held.min { $0.id < $1.id }.flatMap { Timestamp.parse($0.asOf, timeZone: utc) }.map(unixSeconds)
        return [
            gauge(
                "dashboard_data_as_of_timestamp_seconds",
                "The as-of of the last batch that committed data (the time the reports show), in unix seconds.",
                dataAsOf.map { [MetricSample(.integer($0))] } ?? []),
            gauge(
                "dashboard_data_age_seconds", "Seconds from the data's as-of to the as-of of the run that wrote these metrics.",
                dataAsOf.map { [MetricSample(.integer(difference(now, $0)))] } ?? []),
            gauge(
                "dashboard_last_successful_import_timestamp_seconds",
                "The as-of of the last import (or approval of a held one) that committed, in unix seconds.",
                lastImport.map { [MetricSample(.integer($0))] } ?? []),
            gauge(
                "dashboard_held_batches", "Batches held by the delete guard that wait for approve or discard.",
                [MetricSample(.integer(status.held.count))]),
            gauge(
                "dashboard_oldest_held_batch_timestamp_seconds",
                "The as-of of the oldest batch that waits for approval, in unix seconds (absent when none waits).",
                oldestHeld.map { [MetricSample(.integer($0))] } ?? []),
            gauge(
                "dashboard_oldest_held_batch_age_seconds",
                "Seconds from the oldest held batch's as-of to the as-of of the run that wrote these metrics (absent when none waits).",
                oldestHeld.map { [MetricSample(.integer(difference(now, $0)))] } ?? []),
            gauge(
                "dashboard_database_size_bytes",
                "The database's size: the SQLite file and its -wal, or PostgreSQL's pg_database_size, in bytes.",
                status.databaseBytes.map { [MetricSample(.integer($0))] } ?? []),
            gauge(
                "dashboard_courses_without_teacher",
                "Live courses whose teacher is empty: the reports put their pages in teachers/unassigned/.",
                [MetricSample(.integer(status.coursesWithoutTeacher))]),
        ]
    }

    // MARK: - Helpers

    static let utc = TimeZone(identifier: "UTC") ?? TimeZone.current

    static func gauge(_ name: String, _ help: String, _ samples: [MetricSample]) -> MetricFamily {
        MetricFamily(name: name, help: help, kind: .gauge, samples: samples)
    }

    /// Whole unix seconds (the as-ofs are stored to the second; `--as-of` is checked to lie in
    /// the years 1900–2200, so the value always fits).
    static func unixSeconds(_ date: Date) -> Int {
        Int(date.timeIntervalSince1970.rounded(.down))
    }

    static func difference(_ a: Int, _ b: Int) -> Int {
        let (value, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? (b > 0 ? Int.min : Int.max) : value
    }

    /// The batch a failed import recorded, if any.
    static func recordedBatch(_ failure: ImportFailure) -> Int? {
        switch failure {
        case .fileProblem(_, let id), .inputUnreadable(_, _, let id), .store(_, let id): return id
        case .strictRejected(let result): return result.batchID
        case .inputMissing, .notHeld, .staleHeld: return nil
        }
    }
}
