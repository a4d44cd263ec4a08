import Foundation
import Testing

@testable import DashboardCore

/// The report pipeline reaches a store only through `ReportReading`: on a second store that
/// has no SQL (`MemoryReportReader`) it gives byte for byte the reports it gives on SQLite, and
/// every report reads in exactly one snapshot (`read`).
@Suite("Store boundary: reports run on a second store, one snapshot each")
struct ReportsOnASecondStoreTests {
    static let utc = ReportSample.utc
    static let asOf = ReportSample.asOf
    static let facts = ReportSample.freshFacts

    /// The SQLite store of random data, and the same live data in a memory store.
    static func stores(seed: UInt64) throws -> (ImporterFixture, Store, MemoryReportReader, [ReportCourse]) {
        var random = StreamingReportRandomData(seed: seed)
        let courses = random.courses()
        let (fixture, store) = try StreamingReportStoreTests.database(courses, random: &random)
        var tasks: [LiveTask] = []
        try store.forEachLiveTask(.all, countsOnly: false) { tasks.append($0) }
        return (fixture, store, MemoryReportReader(courses: try store.liveCourses(only: []), tasks: tasks), courses)
    }

    /// Runs `report` and checks that it began exactly one `read` and read nothing outside it.
    @discardableResult
    static func oneSnapshot<T>(_ memory: MemoryReportReader, _ context: String, _ report: () throws -> T) rethrows -> T {
        let before = memory.reads
        let result = try report()
        #expect(memory.reads == before + 1, "one read per report: \(context)")
        #expect(memory.callsOutsideRead == 0, "nothing read outside the snapshot: \(context)")
        return result
    }

    @Test("grids, list pages (keys in memory and in the store) and whole lists are the same on both stores")
    func sameReports() throws {
        for seed in UInt64(1)...30 {
            let (fixture, store, memory, courses) = try Self.stores(seed: seed)
            var random = StreamingReportRandomData(seed: seed &+ 1000)
            for _ in 0..<3 {
                var query = random.query(courses: courses)
                let context = "seed \(seed) \(query)"
                let grid = try Self.oneSnapshot(memory, "grid " + context) {
                    try ReportStream.grid(memory, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc)
                }
                let sqliteGrid = try ReportStream.grid(store, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc)
                StreamingReportEquivalenceTests.expectSame(grid, sqliteGrid, "grid " + context)
                #expect(ReportFormat.json.render(grid, width: 80) == ReportFormat.json.render(sqliteGrid, width: 80), "grid \(context)")
                if query.limit == nil { query.limit = random.int(1...5) }
                for keyMemory in [0, ReportStream.inMemoryKeyBytes] {
                    let page = try Self.oneSnapshot(memory, "page " + context) {
                        try ReportStream.listPage(
                            memory, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc, keyMemory: keyMemory)
                    }
                    let sqlitePage = try ReportStream.listPage(
                        store, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc, keyMemory: keyMemory)
                    StreamingReportEquivalenceTests.expectSame(page, sqlitePage, "page \(keyMemory) " + context)
                    // The report let the store's page keys go.
                    #expect(memory.keysLeft?.isEmpty ?? true, "page keys dropped: \(context)")
                }
                query.limit = nil
                query.page = 1
                for format in ReportFormat.allCases {
                    var fromMemory = ""
                    var fromSQLite = ""
                    try Self.oneSnapshot(memory, "whole \(format) " + context) {
                        try ReportListStream.write(
                            memory, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc, format: format,
                            width: 72
                        ) { fromMemory += $0 }
                    }
                    try ReportListStream.write(
                        store, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc, format: format, width: 72
                    ) { fromSQLite += $0 }
                    #expect(fromMemory == fromSQLite, "whole \(format) \(context)")
                }
            }
            _ = fixture
        }
    }

    @Test("an --out set is the same on both stores, read in one snapshot")
    func sameReportSets() throws {
        for seed in UInt64(1)...20 {
            let (fixture, store, memory, courses) = try Self.stores(seed: seed)
            var random = StreamingReportRandomData(seed: seed &+ 2000)
            var query = random.query(courses: courses)
            query.limit = nil
            query.page = 1
            let (fromMemory, fromSQLite) = (MemoryReportFiles(), MemoryReportFiles())
            let written = try Self.oneSnapshot(memory, "set seed \(seed)") {
                try ReportSetStream.write(
                    memory, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc,
                    formats: ReportFormat.allCases, width: 100, to: "out", fileSystem: fromMemory)
            }
            let sqliteWritten = try ReportSetStream.write(
                store, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc, formats: ReportFormat.allCases,
                width: 100, to: "out", fileSystem: fromSQLite)
            #expect(written == sqliteWritten, "seed \(seed)")
            #expect(fromMemory.files == fromSQLite.files, "seed \(seed)")
            _ = fixture
        }
    }

    @Test("a long list's page keys go to the store and are read back in key order")
    func spilledPage() throws {
        // 3 courses of 40 tasks; no key fits in memory, so every listed key goes to the store.
        let courses = (1...3).map { CourseRecord(courseID: "C\($0)", code: "C\($0)", title: "Course \($0)") }
        let tasks = courses.flatMap { course in
            (1...40).map { n in
                LiveTask(
                    task: TaskRecord(
                        taskID: "\(course.courseID)-\(String(format: "%02d", n))", courseID: course.courseID, title: "Task \(41 - n)",
                        due: "2026-12-\(String(format: "%02d", n % 28 + 1))"), override: nil)
            }
        }
        let memory = MemoryReportReader(courses: courses, tasks: tasks)
        let loaded = try ReportSource.load(memory, asOf: Self.asOf, defaultTimeZone: Self.utc)
        var query = ReportQuery()
        query.limit = 7
        for page in [1, 3, 17, 18] {
            query.page = page
            let streamed = try Self.oneSnapshot(memory, "page \(page)") {
                try ReportStream.listPage(memory, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc, keyMemory: 0)
            }
            let expected = ReportBuilder.build(
                .list, courses: loaded, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc)
            StreamingReportEquivalenceTests.expectSame(streamed, expected, "page \(page)")
            #expect(memory.keysAdded == 120, "every listed key went to the store: page \(page)")
            #expect(memory.keysLeft?.isEmpty == true, "and was dropped: page \(page)")
            #expect(streamed.groups.reduce(0) { $0 + $1.taskCount } == (page == 18 ? 1 : page > 18 ? 0 : 7), "page \(page)")
        }
    }
}
