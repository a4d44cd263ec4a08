import Foundation

/// What one nightly run did.
public struct NightlyResult: Sendable {
    /// The import's result, when it committed or was held.
    public var imported: ImportResult?
    /// Why the import did not commit anything, if it failed.
    public var importFailure: ImportFailure?
    public var categorized: CategorizeResult?
    /// The dated folder the reports went to, and how many files were written there.
    public var reportFolder: String
    public var reportFileCount: Int
}

/// `dashboard nightly`: import → categorize → every report into `<reports>/<as-of date>/`.
///
/// Policy: a failed or held import does not stop the rest: buckets still move on with the
/// clock and the reports are still written — from the data as it was, with the banner that
/// says the last import failed. Only a lock held by another writer stops the run at once (the
/// other run is doing the work).
public enum NightlyJob {
    /// The dated folder of a night's reports: `<root>/<as-of date in the time zone>`.
    public static func reportFolder(root: String, asOf: Date, timeZone: TimeZone) -> String {
        PathText.join(root, LocalAsOf(asOf: asOf, timeZone: timeZone).date.isoText)
    }

    public static func run(
        store: any NightlyStore, files: [InputFile], options: ImportOptions, reportsRoot: String, fileSystem: ReportFileSystem,
        clock: Clock,
        reportWording: ReportWording, progress: ((ImportProgress) -> Void)? = nil
    ) throws(NightlyFailure) -> NightlyResult {
        var result = NightlyResult(imported: nil, importFailure: nil, categorized: nil, reportFolder: "", reportFileCount: 0)
        do {
            result.imported = try store.importFiles(files, options: options, record: true, clock: clock, progress: progress)
        } catch {
            if case .store(.busy, _) = error { throw .busy(error) }
            if case .strictRejected(let rejected) = error { result.imported = rejected }
            result.importFailure = error
        }
        do {
            result.categorized = try Categorizer(store: store, clock: clock).categorize(
                asOf: options.asOf, defaultTimeZone: options.timeZone, actor: options.actor)
        } catch {
            throw .store(error)
        }
        let folder = reportFolder(root: reportsRoot, asOf: options.asOf, timeZone: options.timeZone)
        result.reportFolder = folder
        do {
            // Every format at once, one course at a time: memory is bounded by the largest
            // course (docs/reports.md, "Memory").
            let facts = try ReportSource.facts(store)
            var query = ReportQuery()
            query.wording = reportWording
            result.reportFileCount = try ReportSetStream.write(
                store, facts: facts, query: query, asOf: options.asOf, defaultTimeZone: options.timeZone,
                formats: ReportFormat.allCases, width: 100, to: folder, fileSystem: fileSystem
            ).count
        } catch let error as ReportWriteError {
            throw .reports(error, partial: result)
        } catch {
            throw .store(store.storeError(for: error))
        }
        return result
    }
}

/// Why a nightly run stopped.
public enum NightlyFailure: Error {
    /// Another process holds the write lock; nothing was done.
    case busy(ImportFailure)
    /// The database failed during categorize or while reading for reports.
    case store(StoreError)
    /// The reports could not be written (the import and categorize did commit).
    case reports(ReportWriteError, partial: NightlyResult)
}
