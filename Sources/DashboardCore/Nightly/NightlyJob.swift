import Foundation

/// What one nightly run did.
package struct NightlyResult: Sendable {
    /// The import's result, when it committed or was held.
    package var imported: ImportResult?
    /// Why the import did not commit anything, if it failed.
    package var importFailure: ImportFailure?
    package var categorized: CategorizeResult?
    /// The dated folder the reports went to, and how many files were written there.
    package var reportFolder: String
    package var reportFileCount: Int
    /// Live courses without a teacher: their pages are in `teachers/unassigned/` of the night.
    package var unassignedCourses = 0
    /// The morning digests of the night (`--digest`), written in the teachers' folders.
    package var digests = NightDigests()
    /// How long the import, categorize and reports took, by the job's clock (a phase that did
    /// not run, or was not reached, counts 0).
    package var phases = NightlyPhases()
}

/// `dashboard nightly`: import → categorize → every report into `<reports>/<as-of date>/`.
///
/// Policy: a failed or held import does not stop the rest: buckets still move on with the
/// clock and the reports are still written — from the data as it was, with the banner that
/// says the last import failed. Only a lock held by another writer stops the run at once (the
/// other run is doing the work).
package enum NightlyJob {
    /// What a night writes in its dated folder: every format, and a folder per teacher; the
    /// check before the night reads names with it (`NightFolders.check`).
    package static let layout = ReportSetLayout(formats: formats, byTeacher: true)

    /// The formats of a night's reports.
    static let formats = ReportFormat.allCases

    /// The dated folder of a night's reports: `<root>/<as-of date in the time zone>`.
    package static func reportFolder(root: String, asOf: Date, timeZone: TimeZone) -> String {
        PathText.join(root, LocalAsOf(asOf: asOf, timeZone: timeZone).date.isoText)
    }

    /// What a night does besides importing: where its reports go and how long they stay.
    package struct Reports {
        /// The reports folder (`--reports`): dated folders and `latest` inside it.
        package var root: String
        /// `--keep DAYS` (`ReportRetention`).
        package var keepDays: Int
        package var fileSystem: ReportFileSystem
        /// The words of the command line, for the text, JSON and CSV files; HTML and Markdown
        /// pages are written for teachers (`ReportWording.readers`).
        package var wording: ReportWording
        /// The zone the reports' own times are shown in (the job's `--timezone`).
        package var displayTimeZone: TimeZone?
        /// The modes of the folders made (the umask's, without any bit for others).
        package var modes: FileModes
        /// Whether the night writes each teacher's morning digest (`--digest`).
        package var digest = false
        /// `root` as an absolute path (the shell knows the working directory): the digest's
        /// links when there is no base URL.
        package var absoluteRoot: String?

        package init(
            root: String, keepDays: Int = ReportRetention.defaultKeep, fileSystem: ReportFileSystem, wording: ReportWording,
            displayTimeZone: TimeZone? = nil, modes: FileModes = .ownerOnly, digest: Bool = false
        ) {
            self.digest = digest
            self.root = root
            self.keepDays = keepDays
            self.fileSystem = fileSystem
            self.wording = wording
            self.displayTimeZone = displayTimeZone
            self.modes = modes
        }
    }

    /// One night: import `files` (none when no export arrived: `noExport`), categorize, write
    /// every report, point `latest` at them and remove expired nights.
    ///
    /// A stop requested meanwhile (`stop`: SIGTERM) interrupts the store's running statement
    /// (its transaction rolls back) and ends the night at the next point where nothing is half
    /// done: after the import, after categorize, at the next report file (the night's folder
    /// is then removed, unpublished); once the folder is published the night finishes.
    /// - Throws: `NightlyFailure.stopped` with what was done when a stop was requested.
    package static func run(
        store: any NightlyStore, files: [InputFile], noExport: Bool = false, options: ImportOptions, reports: Reports, clock: Clock,
        progress: ((ImportProgress) -> Void)? = nil, stop: StopRequest? = nil
    ) throws(NightlyFailure) -> NightlyResult {
        var result = NightlyResult(imported: nil, importFailure: nil, categorized: nil, reportFolder: "", reportFileCount: 0)
        stop?.onRequest(store.interrupter())
        /// The night stops here when a stop was requested.
        func stopIfRequested() throws(NightlyFailure) {
            if let reason = stop?.reason { throw .stopped(reason: reason, partial: result) }
        }
        var mark = clock.now()
        /// Closes the phase that began at `mark` and starts the next.
        func seconds() -> Double {
            let now = clock.now()
            defer { mark = now }
            return NightlyPhases.seconds(from: mark, to: now)
        }
        // A stop asked for while the database was being opened: nothing was begun.
        try stopIfRequested()
        if !noExport {
            do {
                result.imported = try store.importFiles(files, options: options, record: true, clock: clock, progress: progress)
            } catch {
                if case .strictRejected(let rejected) = error { result.imported = rejected }
                result.importFailure = error
                // A wait for the lock that a stop ended is the stop, not another writer.
                if stop?.reason == nil, case .store(.busy, _) = error { throw .busy(error) }
            }
        }
        result.phases.importSeconds = seconds()
        try stopIfRequested()
        do {
            result.categorized = try Categorizer(store: store, clock: clock).categorize(
                asOf: options.asOf, defaultTimeZone: options.timeZone, actor: options.actor)
            result.phases.categorizeSeconds = seconds()
        } catch {
            result.phases.categorizeSeconds = seconds()
            try stopIfRequested()
            throw .store(error, partial: result)
        }
        try stopIfRequested()
        do {
            let written = try writeReports(
                store, reports: reports, asOf: options.asOf, timeZone: options.timeZone, noExport: noExport, clock: clock, stop: stop)
            result.reportFolder = written.folder
            result.reportFileCount = written.count
            result.unassignedCourses = written.unassignedCourses
            result.digests = written.digests
            result.phases.reportsSeconds = seconds()
        } catch let error as StopRequest.Stopped {
            result.phases.reportsSeconds = seconds()
            throw .stopped(reason: error.reason, partial: result)
        } catch let error as ReportWriteError {
            result.reportFolder = reportFolder(root: reports.root, asOf: options.asOf, timeZone: options.timeZone)
            result.phases.reportsSeconds = seconds()
            throw .reports(error, partial: result)
        } catch {
            result.phases.reportsSeconds = seconds()
            try stopIfRequested()
            throw .store(store.storeError(for: error), partial: result)
        }
        return result
    }

    /// Writes the night's reports of the database as it is (every format at once, one course
    /// at a time: memory is bounded by the largest course), one folder per teacher inside
    /// (`ReportTeacherSets`), publishes them under the as-of's
    /// date, points `latest` at them and removes the nights `keepDays` lets go
    /// (`NightFolders`). `batches approve|discard --reports` call it too.
    /// - Returns: the dated folder, how many files it holds, how many live courses have no
    ///   teacher (their pages are in `teachers/unassigned/`), and the digests written.
    /// - Throws: `ReportWriteError` when a file or folder cannot be written; the store's errors;
    ///   `StopRequest.Stopped` when `stop` was requested before the folder was published (it is
    ///   then removed: a night is published whole or not at all).
    package static func writeReports(
        _ store: any NightlyStore, reports: Reports, asOf: Date, timeZone: TimeZone, noExport: Bool, clock: Clock,
        stop: StopRequest? = nil
    ) throws -> (folder: String, count: Int, unassignedCourses: Int, digests: NightDigests) {
        let date = LocalAsOf(asOf: asOf, timeZone: timeZone).date
        var facts = try ReportSource.facts(store)
        facts.noExport = noExport
        if facts.hasData { facts.overnight = try Overnight.read(store, asOf: asOf, noExport: noExport) }
        var query = ReportQuery()
        query.wording = reports.wording
        query.displayTimeZone = reports.displayTimeZone
        // Each course's pages in its language, else the database's (issue 29).
        query.speak(forced: nil, databaseDefault: try store.defaultLanguage())
        let folders: NightFolders
        let staging: String
        do {
            folders = try NightFolders(reports.root, modes: reports.modes)
            staging = try folders.makeStaging(for: date.isoText)
        } catch {
            throw ReportWriteError(error)
        }
        var count = 0
        var unassigned = 0
        var digests = NightDigests()
        // A stop ends the writing at the next file (each file is written whole or not at all).
        let fileSystem = stop.map { StoppingFileSystem(reports.fileSystem, stop: $0) } ?? reports.fileSystem
        do {
            // Calendar feeds for every course and teacher, carrying on from the last published
            // night's (`latest`).
            let calendar = CalendarSettings(
                baseURL: try store.setting(.baseURL), linksPages: formats.contains(.html),
                previous: FolderPreviousFeeds(root: PathText.join(reports.root, NightFolders.latest)))
            let school = try ReportSetStream.write(
                store, facts: facts, query: query, asOf: asOf, defaultTimeZone: timeZone, formats: formats,
                width: 100, to: staging, fileSystem: fileSystem, readerWording: .readers, calendar: calendar.folder("", name: nil))
            count += school.count + school.calendars
            // One folder per teacher, and one for the courses without a teacher, inside the
            // night's folder (published with it).
            // The morning digests: each teacher's message in their folder, sent once the night is
            // published (by the command: `NightlyCommand`), when the sender is set.
            var digest: DigestSettings?
            if reports.digest {
                if let sender = try store.setting(.mailFrom).flatMap(EmailAddress.init) {
                    digests.sender = sender.text
                    // Without a base URL the links are paths: absolute, as a message is read elsewhere.
                    let root = reports.absoluteRoot ?? reports.root
                    digest = DigestSettings(
                        from: sender, baseURL: calendar.baseURL, localRoot: PathText.join(root, NightFolders.latest),
                        displayTimeZone: reports.displayTimeZone, addresses: { try store.teacherAddresses(teacher: $0) })
                } else {
                    digests.noSender = true
                }
            }
            let teachers = try ReportTeacherSets.write(
                store, facts: facts, query: query, asOf: asOf, defaultTimeZone: timeZone, formats: formats,
                width: 100, to: staging, fileSystem: fileSystem, readerWording: .readers, calendar: calendar, digest: digest)
            count += teachers.files + teachers.calendars
            unassigned = teachers.unassignedCourses
            digests.written = teachers.digests
            digests.teachersWithoutAddress = teachers.teachersWithoutAddress
            try stop?.check()
        } catch {
            try? folders.removeTree(PathText.split(staging).1)
            // A statement the stop interrupted fails: the stop is what happened.
            if let reason = stop?.reason { throw StopRequest.Stopped(reason: reason) }
            throw error
        }
        do {
            try folders.publish(staging, as: date.isoText)
            try folders.pointLatest(at: date.isoText)
            try folders.removeExpired(tonight: date, keepDays: reports.keepDays, now: clock.now())
        } catch {
            throw ReportWriteError(error)
        }
        return (PathText.join(reports.root, date.isoText), count, unassigned, digests)
    }
}

/// The morning digests of a night (`nightly --digest`).
package struct NightDigests: Sendable, Equatable {
    /// The messages written, one per teacher with an address.
    package var written: [WrittenDigest] = []
    /// Teachers with a live course and no address: no message.
    package var teachersWithoutAddress = 0
    /// `--digest` was asked for and the `mail_from` setting is not set: no message was written.
    package var noSender = false
    /// The `mail_from` setting: the envelope sender of the messages.
    package var sender = ""

    package init() {}
}

/// Why a nightly run stopped.
package enum NightlyFailure: Error {
    /// Another process holds the write lock; nothing was done.
    case busy(ImportFailure)
    /// The database failed during categorize or while reading for reports; what the run did
    /// until then (the import's outcome, the phases' durations) is in `partial`.
    case store(StoreError, partial: NightlyResult)
    /// The reports could not be written (the import and categorize did commit).
    case reports(ReportWriteError, partial: NightlyResult)
    /// A stop was requested (`reason`: "SIGTERM"); `partial` says what the night did before:
    /// the import committed or not (`imported`, `importFailure`), categorize committed or not
    /// (`categorized`); the night's reports were not published.
    case stopped(reason: String, partial: NightlyResult)
}

/// A report file system that refuses to begin a file once a stop was requested
/// (`StopRequest`): a night's writing ends at a file boundary.
struct StoppingFileSystem: ReportFileSystem {
    let base: ReportFileSystem
    let stop: StopRequest

    init(_ base: ReportFileSystem, stop: StopRequest) {
        self.base = base
        self.stop = stop
    }

    func ensureDirectory(_ path: String) throws {
        try stop.check()
        try base.ensureDirectory(path)
    }

    func write(_ contents: String, name: String, in directory: String) throws {
        try stop.check()
        try base.write(contents, name: name, in: directory)
    }

    func write(name: String, in directory: String, pieces body: ((String) -> Void) throws -> Void) throws {
        try stop.check()
        try base.write(name: name, in: directory, pieces: body)
    }
}
