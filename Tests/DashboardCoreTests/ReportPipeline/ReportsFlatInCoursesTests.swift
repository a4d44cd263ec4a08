import Foundation
import Testing

@testable import DashboardCore

/// Reports flat in courses (docs/architecture.md, "Reports flat in courses"): with many
/// courses, every report read one course at a time and read back from the store's per-course
/// results gives what loading everything and running the pipeline gives, byte for byte.
@Suite("Reports flat in courses: many courses, read one at a time, the same reports")
struct ReportsFlatInCoursesTests {
    static let utc = ReportSample.utc
    static let asOf = ReportSample.asOf
    static let facts = ReportSample.freshFacts

    @Test("grids (whole and paged), list pages, whole lists and --out sets over many courses")
    func manyCourses() throws {
        for seed in UInt64(1)...12 {
            var random = StreamingReportRandomData(seed: seed)
            let courses = random.courses(count: 20...60, tasks: 0...6)
            let (fixture, store) = try StreamingReportStoreTests.database(courses, random: &random)
            for round in 0..<3 {
                var query = random.query(courses: courses)
                if round == 0 { query = ReportQuery() }
                let context = "seed \(seed) \(query)"
                let grid = try StreamingReportStoreTests.expected(.grid, store, query, onlyCourses: query.courses)
                StreamingReportEquivalenceTests.expectSame(
                    try ReportStream.grid(store, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc), grid,
                    "grid " + context)
                for format in ReportFormat.allCases {
                    var text = ""
                    try ReportCourseStream.grid(store, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc) {
                        try ReportGridStream.write($0, format: format, width: 90, chunk: 3) { text += $0 }
                    }
                    #expect(text == format.render(grid, width: 90), "grid \(format) \(context)")
                }
                var paged = query
                paged.limit = random.int(1...9)
                paged.page = random.int(1...4)
                for memory in [0, ReportStream.inMemoryKeyBytes] {
                    let page = try ReportStream.listPage(
                        store, facts: Self.facts, query: paged, asOf: Self.asOf, defaultTimeZone: Self.utc, keyMemory: memory)
                    StreamingReportEquivalenceTests.expectSame(
                        page, try StreamingReportStoreTests.expected(.list, store, paged, onlyCourses: paged.courses),
                        "page \(memory) " + context)
                }
                query.limit = nil
                query.page = 1
                let whole = try StreamingReportStoreTests.expected(.list, store, query, onlyCourses: query.courses)
                for format in ReportFormat.allCases {
                    var text = ""
                    try ReportListStream.write(
                        store, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc, format: format, width: 72
                    ) { text += $0 }
                    #expect(text == format.render(whole, width: 72), "whole \(format) \(context)")
                }
                try Self.expectSameSet(store, query: query, context)
            }
            #expect(try TestStore.temporaryObjects(store.database) == 0)
            _ = fixture
        }
    }

    /// An --out set read one course at a time is the set written from the whole report.
    static func expectSameSet(_ store: Store, query: ReportQuery, _ context: String) throws {
        let old = MemoryReportFiles()
        let new = MemoryReportFiles()
        let source = try ReportSource.load(store, asOf: asOf, defaultTimeZone: utc)
        let grid = ReportBuilder.build(.grid, courses: source, facts: facts, query: query, asOf: asOf, defaultTimeZone: utc)
        let list = ReportBuilder.build(.list, courses: source, facts: facts, query: query, asOf: asOf, defaultTimeZone: utc)
        var count = 0
        for format in ReportFormat.allCases {
            count += try ReportSet.write(grid: grid, list: list, format: format, width: 100, to: "out", fileSystem: old).count
        }
        let written = try ReportSetStream.write(
            store, facts: facts, query: query, asOf: asOf, defaultTimeZone: utc, formats: ReportFormat.allCases, width: 100, to: "out",
            fileSystem: new)
        #expect(written.count == count, "set \(context)")
        #expect(new.files == old.files, "set \(context)")
    }

    @Test("a paged list whose page spans several courses, and page 1 with courses that have nothing to list")
    func pageAcrossCourses() throws {
        var random = StreamingReportRandomData(seed: 7)
        let names = ["K1", "K2", "K3", "K4", "K5", "K6"]
        let courses = names.enumerated().map { number, id in
            let tasks = (0..<(number == 2 ? 0 : 3)).map { index in
                ReportTask(
                    task: TaskRecord(
                        taskID: "\(id)-\(index)", courseID: id, title: "Task \(index)", studentID: "", due: "2026-11-30",
                        priority: .normal, completed: false),
                    bucket: .upcoming, pinned: false)
            }
            return ReportCourse(course: ReportSample.course(id), tasks: tasks)
        }
        let (fixture, store) = try StreamingReportStoreTests.database(courses, random: &random)
        for (page, expected) in [
            (1, ["K1 upcoming: K1-0 K1-1 K1-2", "K2 upcoming: K2-0 K2-1 K2-2", "K3 -", "K4 upcoming: K4-0"]),
            (2, ["K4 upcoming: K4-1 K4-2", "K5 upcoming: K5-0 K5-1 K5-2", "K6 upcoming: K6-0 K6-1"]),
        ] {
            var query = ReportQuery()
            query.limit = 7
            query.page = page
            let report = try ReportStream.listPage(store, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc)
            #expect(ReportSample.summary(report.groups) == expected, "page \(page)")
            #expect(report.groups.map(\.liveTasks) == (page == 1 ? [3, 3, 0, 3] : [3, 3, 3]), "page \(page)")
            StreamingReportEquivalenceTests.expectSame(
                report, try StreamingReportStoreTests.expected(.list, store, query, onlyCourses: []), "page \(page)")
        }
        _ = fixture
    }
}
