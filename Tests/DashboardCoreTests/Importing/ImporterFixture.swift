import Foundation
import Testing

@testable import DashboardCore

/// A fresh store in a temporary directory and helpers to import text files into it.
final class ImporterFixture {
    let directory: String
    let store: Store
    let importer: Importer
    static let asOf = Date(timeIntervalSince1970: 1_795_939_200)  // 2026-11-29T08:00:00Z

    /// A new SQLite file, or in the PostgreSQL pass (`DASHBOARD_TEST_STORE=postgresql`) a new
    /// database on the test process's throwaway server: the store suites run against both.
    /// - Parameter sqlite: an SQLite file in both passes (`path`), for the tests that move a
    ///   database between the stores (`StoreCopy`) and need an SQLite source.
    init(sqlite: Bool = false) throws {
        directory = TestFolders.path("dashboard-tests")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        store = sqlite ? try Store(path: directory + "/test.sqlite") : try TestStore.make(directory + "/test.sqlite")
        importer = Importer(store: store, clock: FixedClock(Self.asOf))
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// The SQLite file of the store (in the PostgreSQL pass, a path no file is at unless the
    /// fixture was made with `sqlite: true`; `TestStore.reader` and `shell` open either store).
    var path: String { directory + "/test.sqlite" }

    static func options(_ mode: ImportMode = .merge, maxDelete: DeleteLimit = .percent(10), strict: Bool = false, dryRun: Bool = false)
        -> ImportOptions
    {
        var options = ImportOptions()
        options.mode = mode
        options.maxDelete = maxDelete
        options.strict = strict
        options.dryRun = dryRun
        options.asOf = asOf
        options.actor = "tester"
        return options
    }

    @discardableResult
    func run(_ files: [(String, String)], _ options: ImportOptions = ImporterFixture.options(), record: Bool = true) throws(ImportFailure)
        -> ImportResult
    {
        try importer.run(files: files.map { InputFile.inMemory($0.0, $0.1) }, options: options, record: record)
    }

    /// Every row of a table as text, ordered by its first column: the whole state to compare.
    func dump(_ table: String) throws -> [[SQLValue]] {
        try store.database.rows("SELECT \(TestStore.dataColumns(table)) FROM \(table) ORDER BY 1, 2")
    }

    func dumpData() throws -> [[[SQLValue]]] {
        [try dump("courses"), try dump("tasks")]
    }

    static let courses = """
        course_id,code,title,timezone
        C1,MATH,Algebra,America/New_York
        C2,BIO,Biology,Europe/Berlin
        """

    /// `n` tasks T1…Tn in C1, titled "Task i".
    static func tasks(_ range: ClosedRange<Int>, course: String = "C1", title: (Int) -> String = { "Task \($0)" }) -> String {
        "task_id,course_id,title,due\n" + range.map { "T\($0),\(course),\(title($0)),2026-12-0\($0 % 9 + 1)" }.joined(separator: "\n")
            + "\n"
    }
}
