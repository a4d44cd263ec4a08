import Foundation

/// The dashboard as a library, for a data-quality suite's own tests (docs/library.md): a
/// database, the import and its check, the time pass and the report model, the same code the
/// command line runs, with no command line, no terminal and no process of its own.
///
/// ```swift
/// let database = try DashboardDatabase.temporary()
/// let checked = try database.check([.onDisk("exports/tasks.csv")])
/// #expect(checked.total.rejected == 0)
/// ```
///
/// Policy: the same rules as the commands (SPEC §3–§7): `check` writes nothing at all;
/// `importFiles` is one all-or-nothing batch; `categorize` records each move; `report` is one
/// snapshot. The instant every call works as of is given (`asOf`), never the wall clock, so a
/// suite's results do not depend on the day it runs; recorded times (`recorded_at` of audit
/// entries, a batch's start and end) are the wall clock's.
/// A database belongs to one thread at a time.
public final class DashboardDatabase {
    private let store: Store
    /// The folder of a temporary database, removed with it.
    private let temporaryFolder: String?

    /// Opens (and creates when missing) the SQLite database at `path`.
    /// - Throws: `StoreError` (another application's file, a newer schema, a damaged file, …).
    public init(path: String) throws(StoreError) {
        store = try Store(path: path)
        temporaryFolder = nil
    }

    /// Opens the PostgreSQL database at `uri` (`postgresql://user@host/database`), its schema
    /// made in an empty database; the password from libpq's usual places (docs/postgresql.md).
    public init(postgres uri: String) throws(StoreError) {
        store = try Store(postgres: uri, create: true)
        temporaryFolder = nil
    }

    /// A new, empty database in a temporary folder of its own, removed when the database is
    /// released: one per test, nothing left behind.
    public static func temporary() throws -> DashboardDatabase {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dashboard-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        do {
            return try DashboardDatabase(store: Store(path: folder + "/dashboard.sqlite"), temporaryFolder: folder)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    private init(store: Store, temporaryFolder: String?) {
        self.store = store
        self.temporaryFolder = temporaryFolder
    }

    deinit {
        if let temporaryFolder { try? FileManager.default.removeItem(atPath: temporaryFolder) }
    }

    /// Validates `files` as `dashboard check` does: every row read, normalized and compared with
    /// this database (an empty one: every valid row would be new), and nothing written at all.
    /// - Returns: the counts, every rejected row and warning (`ImportResult.forEachProblem`).
    /// - Throws: `ImportFailure` when a file cannot be read at all (its `problem`: the file-level
    ///   code, as `check` reports it).
    public func check(_ files: [InputFile], options: ImportOptions = ImportOptions()) throws(ImportFailure) -> ImportResult {
        try store.importFiles(files, options: try withDatabaseZone(options), record: false, clock: SystemClock(), progress: nil)
    }

    /// Imports `files` as one batch, as `dashboard import` does (rejected rows reported, valid
    /// rows committed, unless `options.strict`); the batch's categorize pass runs at
    /// `options.asOf`.
    /// - Throws: `ImportFailure` when nothing could be committed (a held sync is not a failure:
    ///   its result says `held`).
    public func importFiles(_ files: [InputFile], options: ImportOptions = ImportOptions()) throws(ImportFailure) -> ImportResult {
        try store.importFiles(files, options: try withDatabaseZone(options), record: true, clock: SystemClock(), progress: nil)
    }

    /// `options` with the zone of courses without one that the commands use: the database's
    /// default once recorded (SPEC §4), else `options.timeZone` (what `--timezone` is to a
    /// command; the first import records it).
    private func withDatabaseZone(_ options: ImportOptions) throws(ImportFailure) -> ImportOptions {
        var options = options
        do {
            options.timeZone = try store.defaultTimeZone(else: options.timeZone)
        } catch {
            throw .store(store.storeError(for: error), batchID: nil)
        }
        return options
    }

    /// Sorts every open task into its bucket as of `asOf`, as `dashboard categorize` does (each
    /// move an audit entry by `actor`); courses without a zone use the database's default.
    public func categorize(asOf: Date, actor: String = "library") throws(StoreError) -> CategorizeResult {
        let zone: TimeZone
        do {
            zone = try store.defaultTimeZone(else: Self.utc)
        } catch {
            throw store.storeError(for: error)
        }
        return try store.categorize(asOf: asOf, defaultTimeZone: zone, actor: actor, clock: SystemClock())
    }

    /// The report model (`Report`) of a grid or a list as of `asOf`, through the pipeline every
    /// format is rendered from: search, filters, sort, grouping and page as `query` says. One
    /// snapshot; the courses and tasks it shows are held in memory (a suite's data, not a
    /// district's: the command line streams instead).
    public func report(_ kind: Report.Kind, query: ReportQuery = ReportQuery(), asOf: Date) throws -> Report {
        try store.read {
            let zone = try store.defaultTimeZone(else: Self.utc)
            let facts = try ReportSource.facts(store)
            let courses = try ReportSource.load(store, asOf: asOf, defaultTimeZone: zone, onlyCourses: query.courses)
            return ReportBuilder.build(kind, courses: courses, facts: facts, query: query, asOf: asOf, defaultTimeZone: zone)
        }
    }

    private static let utc = TimeZone(identifier: "UTC") ?? TimeZone.current
}
