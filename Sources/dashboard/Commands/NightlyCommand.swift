import DashboardCore
import Foundation

/// `dashboard nightly [--imports DIR] [--reports DIR] [--mode merge|sync]`
enum NightlyCommand: Command {
    static let spec = CommandSpec(
        name: "nightly",
        usage:
            "dashboard nightly [--imports DIR] [--reports DIR] [--keep DAYS] [--mode merge|sync] [--max-delete LIMIT] [--wait SECONDS] [--metrics FILE] [--digest [--send [--sendmail PATH]]]",
        abstract: "The cron job: import the drop folder, categorize, write every report into a dated folder.",
        discussion: """
            Imports every *.csv of --imports (default imports/), recomputes every bucket as of now
            (or --as-of), and writes every report in every format (index and one file per course:
            html, md, json, csv, txt) into --reports/<as-of date>/ (default reports/; the date is
            the as-of's in --timezone), then points --reports/latest at it and removes the dated
            folders older than --keep days. A failed or held import, or a drop folder that is
            missing or empty, does not stop the reports: they show the data as it was, with a
            banner saying why. One summary line on stderr; with --quiet, nothing at all when
            everything went well.
            --metrics FILE also writes the night's metrics in the Prometheus text format for
            node_exporter's textfile collector (name it *.prom), replaced whole at the end of
            every run, a failed or held one included, one that could not open the database too
            (docs/operations.md, "Monitoring").
            --digest also writes each teacher's morning message (digest.eml in their folder:
            what needs them today, what changed overnight, links to their pages) to the
            addresses of the courses file's teacher_email column, from the mail-from setting;
            --send hands each to sendmail -t -oi once the night is published (docs/operations.md,
            "Morning digests"). A digest never fails the import or the reports.
            Exit: 0 all well; 64 a usage error, or a name the reports would take is in the way
            (a folder or FIFO there, a `latest` that is not a link), found before any write;
            65 rows rejected, a file-level error or a sync held for approval;
            66 the drop folder is missing or holds no CSV (the reports are written all the same);
            74 the database, the reports or the metrics cannot be written, or (the night
            otherwise well) a digest could not be written or handed over; 75 another import or
            nightly holds the database (no metrics are written: the run holding it writes them),
            or SIGTERM, SIGINT or SIGHUP stopped the night at its next safe point (it says what
            it left; a second signal stops at once).
            """,
        examples: [
            "dashboard nightly",
            "dashboard --db /var/lib/dashboard/school.sqlite nightly --imports /srv/exports --reports /srv/reports --mode sync --quiet",
            "dashboard nightly --wait 600 --max-delete 5%",
            "dashboard nightly --mode sync --quiet --metrics /var/lib/dashboard-metrics/dashboard.prom",
            "dashboard nightly --mode sync --digest --send",
        ],
        options: [
            .value("imports", "DIR", "the drop folder to import", default: "imports"),
            .value("reports", "DIR", "where the dated report folders go", default: "reports"),
            .value(
                "keep", "DAYS", "keep the dated folders of the last DAYS days, tonight's included (default 30)",
                kind: .integer(ReportRetention.keepRange)),
            .value("mode", "merge|sync", "merge (default) or sync (also deletes rows missing from the files)", kind: ImportInputs.modeKind),
            .value("max-delete", "LIMIT", "most a sync may delete per kind: 10% (default) or a count", kind: .maxDelete),
            .value("wait", "SECONDS", "wait this long for another writer (default 0: exit 75 at once)", kind: .waitSeconds),
            .value("actor", "NAME", "who runs it, for the record (default: $USER, else the name of the user running it)"),
            .flag("override-manual", "let the import win over manual overrides of the tasks it changes"),
            .value("metrics", "FILE", "also write the night's Prometheus metrics to FILE (replaced whole, even after a failed night)"),
            .flag("digest", "also write each teacher's morning digest (digest.eml) in their folder"),
            .flag("send", "hand each digest to sendmail -t -oi once the night is published (with --digest)"),
            .value("sendmail", "PATH", "the sendmail program --send runs (default /usr/sbin/sendmail)"),
        ])

    static func run(_ invocation: Invocation) throws -> ExitCode {
        _ = try positionals(invocation, count: 0, names: "")
        let args = invocation.arguments
        var options = try ImportInputs.options(invocation, command: spec.name)
        // Both have a declared default, so neither is ever nil.
        let importsDir = args.valueOrDefault("imports") ?? ""
        let reportsDir = args.valueOrDefault("reports") ?? ""
        let outputs = try checkReportFolders(invocation, imports: importsDir, reports: reportsDir)
        let metricsPath = args.value("metrics")
        let wantsDigest = args.has("digest")
        let sendmail = args.value("sendmail")
        if args.has("send"), !wantsDigest {
            throw CommandError.usage("--send hands over the morning digests: add --digest", command: spec.name)
        }
        if sendmail != nil, !args.has("send") {
            throw CommandError.usage("--sendmail names the program --send runs: add --digest --send", command: spec.name)
        }
        let wantsSend = args.has("send")
        if let metricsPath { try MetricsFile.prepare(metricsPath, inputs: [importsDir], invocation: invocation) }
        let console = invocation.console
        // The night the export did not arrive (a missing, empty or unreadable drop folder):
        // no import, but the reports are still written, with a banner that says so; exit 66.
        var files: [InputFile] = []
        var missingExport: CommandError?
        do {
            files = try InputPaths.files(
                [importsDir], command: spec.name, options: options, environment: invocation.environment, allowStreams: false)
        } catch let error as CommandError where error.code == .noInput {
            missingExport = error
        }
        // SIGTERM, SIGINT or SIGHUP end the night at its next safe point (`StopSignals`), from
        // before the database is opened (its page check, a migration): a stop asked for then is
        // said in words as any other, once the open is over.
        let stop = StopRequest()
        let signals = StopSignals(stop)
        defer { signals.restore() }
        let store: any WritableStore
        do {
            store = try openStore(invocation, wait: waitSeconds(invocation))
            // Courses without a zone use the database's; the first import records its --timezone.
            options.timeZone = try defaultZone(store, invocation)
        } catch let error as CommandError where error.code != .busy {
            // A database that cannot be opened is a failed night for the monitor too.
            if let metricsPath {
                let run = RunFacts(asOf: options.asOf, outcome: .failed, counts: [:], phases: nil)
                let failure = writeMetrics(
                    MonitoringMetrics.families(run: run, database: nil, asOf: options.asOf, wording: .commandLine), metricsPath, importsDir,
                    invocation)
                if let failure { console.error(failure.message, hint: failure.hint) }
            }
            throw error
        }
        var result: NightlyResult
        // Categorize or the reports failed: the night's metrics are written first, then this.
        var stopped: CommandError?
        do {
            var reports = NightlyJob.Reports(
                root: reportsDir, keepDays: args.integer("keep") ?? ReportRetention.defaultKeep,
                fileSystem: LocalReportFileSystem(protecting: outputs.protectedFiles, modes: invocation.fileModes),
                wording: .commandLine, displayTimeZone: invocation.global.timeZone, modes: invocation.fileModes, digest: wantsDigest)
            reports.absoluteRoot =
                reportsDir.hasPrefix("/") ? reportsDir : PathText.join(FileManager.default.currentDirectoryPath, reportsDir)
            result = try NightlyJob.run(
                store: store, files: files, noExport: missingExport != nil, options: options, reports: reports, clock: SystemClock(),
                stop: stop)
        } catch {
            switch error {
            // The run holding the lock does the night's work and writes its metrics.
            case .busy(let failure): throw try ImportInputs.failure(failure, invocation: invocation, format: "text")
            case .store(let storeError, let partial):
                result = partial
                stopped = CommandError.store(storeError)
            case .stopped(let reason, let partial):
                result = partial
                stopped = stoppedWords(reason, partial, reportsDir: reportsDir, noExport: missingExport != nil)
            case .reports(let writeError, let partial):
                result = partial
                stopped = CommandError(
                    .ioError, "the import and categorize committed, but the reports could not be written: \(writeError)",
                    hint: "check that \(reportsDir) can be written, then run `dashboard report grid --format html --out DIR`")
            }
        }
        // The night is published: each digest is handed over (a failure is a warning, below).
        var sending: DigestSending.Outcome?
        if wantsSend, stopped == nil {
            sending = DigestSending.send(
                result.digests.written, night: result.reportFolder, program: sendmail ?? DigestSending.defaultProgram,
                sender: result.digests.sender, stop: stop)
        }
        var metricsFailure: CommandError?
        if let metricsPath {
            var run = MonitoringMetrics.night(
                result, noExport: missingExport != nil, completed: stopped == nil, asOf: options.asOf, batches: store)
            if wantsDigest, stopped == nil {
                run.digests = DigestFacts(
                    written: result.digests.written.count, sent: sending?.sent, failed: sending?.failures.count ?? 0,
                    withoutAddress: result.digests.teachersWithoutAddress, senderSet: !result.digests.noSender)
            }
            // A stopped night stopped at a safe point: the status is one short read more, so
            // that its metrics keep the database's families (held batches, data age, size).
            if stopped != nil {
                stop.settled()
                store.resumeAfterStop()
            }
            // The database's own families are left out when it cannot be read any more.
            let families = MonitoringMetrics.families(
                run: run, database: try? store.status(), asOf: options.asOf, wording: .commandLine)
            metricsFailure = writeMetrics(families, metricsPath, importsDir, invocation)
        }
        if let stopped {
            if let metricsFailure { console.error(metricsFailure.message, hint: metricsFailure.hint) }
            throw stopped
        }
        var code = ExitCode.success
        var parts: [String] = []
        if let missingExport {
            console.error(missingExport.message, hint: missingExport.hint)
            code = .noInput
            parts.append("no export arrived (66)")
        } else if let failure = result.importFailure {
            var mapped = try ImportInputs.failure(failure, invocation: invocation, format: "text")
            if let (refusal, database) = mapped.refusal {
                // A teacher's role running the night: the words of the refusal, as every command's.
                mapped = RefusalWords.error(refusal, database: database, command: spec.name, arguments: invocation.arguments)
            }
            console.error(mapped.message, hint: mapped.hint)
            code = mapped.code
            parts.append("import failed (\(mapped.code.rawValue))")
        } else if let imported = result.imported {
            if imported.problemCount > 0 || imported.status == .held {
                for problem in try ImportInputs.spoolRead({ try imported.problemSpool.first(ImportInputs.textProblemLimit) }) {
                    console.err(ImportInputs.styledProblem(problem, console: console) + "\n")
                }
                if imported.problemCount > ImportInputs.textProblemLimit {
                    console.err(
                        "… and \(imported.problemCount - ImportInputs.textProblemLimit) more problems (all of them: dashboard batches show \(imported.batchID ?? 0))\n"
                    )
                }
            }
            if imported.status == .held || imported.total.rejected > 0 { code = .dataError }
            parts.append(ImportInputs.summary(imported, verb: "import"))
        }
        if let c = result.categorized {
            // The import's own pass and the categorize pass after it, together.
            let entries = c.entries + (result.imported?.categorized?.entries ?? 0)
            parts.append("\(entries) bucket change\(entries == 1 ? "" : "s") logged")
        }
        parts.append("reports: \(result.reportFileCount) files in \(result.reportFolder)")
        if result.unassignedCourses > 0 { parts.append(Self.unassignedWords(result.unassignedCourses, in: TeacherIndex.folder)) }
        if wantsDigest {
            parts.append(Self.digestWords(result.digests, sending: sending))
            if result.digests.noSender {
                console.warning(
                    "no morning digest was written: the database has no sender; set one with `dashboard settings mail-from ADDRESS`")
            }
            for failure in sending?.failures ?? [] {
                console.warning("the morning digest for \(VisibleText.of(failure.teacher)) was not sent: \(failure.reason)")
            }
            // A good night whose digests failed is 74, and says so in its summary even with --quiet.
            if result.digests.noSender || !(sending?.failures.isEmpty ?? true), code == .success { code = .ioError }
        }
        if code != .success || !console.quiet {
            // The parts name the reports folder and quote the import's reason: shown visible.
            let line = VisibleText.of(parts.joined(separator: "; "))
            console.err("dashboard: nightly \(Timestamp.text(invocation.global.asOf)): " + line + "\n")
        }
        // The night's own code when it has one; a good night whose metrics or digests failed is 74.
        if let metricsFailure {
            console.error(metricsFailure.message, hint: metricsFailure.hint)
            if code == .success { code = .ioError }
        }
        return code
    }

    /// "digests: 3 written, 2 sent, 1 not sent; 1 teacher has no address", or why none was
    /// written.
    static func digestWords(_ digests: NightDigests, sending: DigestSending.Outcome?) -> String {
        if digests.noSender { return "digests: none written (no sender set)" }
        var words = "digests: \(digests.written.count) written"
        if let sending {
            words += ", \(sending.sent) sent"
            if !sending.failures.isEmpty { words += ", \(sending.failures.count) not sent" }
        }
        let without = digests.teachersWithoutAddress
        if without > 0 { words += "; \(without) teacher\(without == 1 ? " has" : "s have") no address" }
        return words
    }

    /// What a night stopped by a signal left, in words: whether the import committed, whether
    /// buckets moved, that the night's reports were not published and where `latest` points;
    /// exit 75 (the night is to be run again; docs/operations.md, "Stopping a run").
    static func stoppedWords(_ reason: String, _ night: NightlyResult, reportsDir: String, noExport: Bool) -> CommandError {
        var left: [String] = []
        if noExport {
            left.append("no export had arrived")
        } else if let imported = night.imported, imported.status == .committed || imported.status == .held {
            let id = imported.batchID.map { "batch \($0)" } ?? "the batch"
            left.append(imported.status == .held ? "the import was held (\(id))" : "the import committed (\(id))")
        } else if case .store(let error, _)? = night.importFailure, error.isInterruption {
            // Interrupted while it wrote (rolled back) or while it waited for another writer.
            left.append("the import was stopped before it committed: nothing was imported")
        } else if let failure = night.importFailure {
            left.append("the import had failed: \(failure)")
        } else {
            // Asked for while the database was being opened.
            left.append("the import had not begun: nothing was imported")
        }
        if night.categorized != nil {
            left.append("buckets were recomputed")
        } else if night.imported != nil || night.importFailure != nil || noExport {
            left.append("buckets were not recomputed")
        }
        let latest = PathText.join(reportsDir, NightFolders.latest)
        var target = [CChar](repeating: 0, count: 4096)
        let length = readlink(latest, &target, target.count - 1)
        let pointsAt = length > 0 ? String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        left.append(
            "the night's reports were not published; "
                + (pointsAt.map { "\(latest) still points at \($0)" } ?? "\(reportsDir) has no published night yet"))
        return CommandError(
            .busy, "stopped by \(reason): " + left.joined(separator: "; "),
            hint: "run `dashboard nightly` again to finish the night (a second \(reason) stops at once)")
    }

    /// "12 courses have no teacher: their pages are in teachers/unassigned/" (`teachers` is the
    /// folder of the teachers' folders as the line names it).
    static func unassignedWords(_ count: Int, in teachers: String) -> String {
        TeacherIndex.unassignedWords(count) + ": \(count == 1 ? "its" : "their") pages are in "
            + PathText.join(teachers, TeacherIndex.unassignedFolder) + "/"
    }

    /// Writes the night's metrics to `path` (`MetricsFile`).
    /// - Returns: why they could not be written, or nil.
    static func writeMetrics(_ families: [MetricFamily], _ path: String, _ importsDir: String, _ invocation: Invocation) -> CommandError? {
        do {
            try MetricsFile.write(PrometheusText.render(families), to: path, inputs: [importsDir], invocation: invocation)
            return nil
        } catch let error as CommandError {
            return error
        } catch {
            return MetricsFile.cannotWrite(path, "\(error)")
        }
    }

    /// Before anything is read: refuses a reports folder that is the database, an input or the
    /// drop folder (64, `OutputPathGuard`), then checks the reports folder and every name the
    /// night will write there (`NightFolders.check`, creating nothing): a folder on the way or
    /// written into that is a link (one on the way only when another user's), a file or another
    /// user's folder is 74, a name in the way (a folder, FIFO … at a report's name, a `latest`
    /// that is not a symbolic link) 64, so that nothing is imported for reports that could not
    /// be written.
    /// - Returns: the guard, whose protected files the writer checks again.
    static func checkReportFolders(_ invocation: Invocation, imports: String?, reports: String) throws -> OutputPathGuard {
        let global = invocation.global
        let dated = NightlyJob.reportFolder(root: reports, asOf: global.asOf, timeZone: global.timeZone)
        let outputs = OutputPathGuard(database: global.databasePath, inputs: imports.map { [$0] } ?? [])
        try outputs.checkReportFolder("--reports", reports, writing: reports, extensions: [])
        try outputs.checkReportFolder(
            "--reports", reports, writing: dated, extensions: NightlyJob.layout.allExtensions,
            names: [CalendarFolder.setFeed, DigestSettings.fileName])
        do {
            try NightFolders.check(reports, date: PathText.name(dated), layout: NightlyJob.layout, protecting: outputs.protectedFiles)
        } catch let error as SafeFileError {
            throw CommandError(.ioError, "cannot write reports to \(error.path): \(error.reason); nothing was imported", hint: error.hint)
        } catch let obstacle as ReportSetObstacle {
            throw OutputPathGuard.refusal("--reports", reports, obstacle)
        }
        return outputs
    }
}
