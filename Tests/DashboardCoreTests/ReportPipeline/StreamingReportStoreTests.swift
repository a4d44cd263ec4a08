import Foundation
import Testing

@testable import DashboardCore

/// The streaming shell on a real database, opened read-only as `dashboard report` opens it:
/// grids, list pages paged in SQL (keys in memory and keys in a TEMP table), whole lists
/// written course by course and `--out` sets give exactly what loading every task and running
/// the pipeline gives.
@Suite("Report streaming: SQL paging and course-by-course output match the pipeline")
struct StreamingReportStoreTests {
    static let utc = ReportSample.utc
    static let asOf = ReportSample.asOf
    static let facts = ReportSample.freshFacts

    /// A database holding `courses` (buckets follow from the dues and `completed`; some tasks
    /// carry an override; tasks of missing courses allowed), and the store opened again as
    /// `dashboard report` opens it (`TestStore.reader`: the SQLite file read-only).
    static func database(_ courses: [ReportCourse], random: inout StreamingReportRandomData) throws -> (ImporterFixture, Store) {
        let fixture = try ImporterFixture()
        let db = fixture.store.database
        try TestStore.allowMissingReferences(db)
        try db.inTransaction(.immediate) {
            for course in courses {
                let c = course.course
                try db.run(
                    "INSERT INTO courses (course_id, code, title, term, teacher, timezone) VALUES (?, ?, ?, ?, ?, ?)",
                    [c.courseID, c.code, c.title, c.term, c.teacher, c.timezone])
                for task in course.tasks {
                    let t = task.task
                    try db.run(
                        """
                        INSERT INTO tasks (task_id, course_id, title, student_id, due, priority, completed, status, submitted_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                        [
                            t.taskID, t.courseID, t.title, t.studentID, t.due, t.priority.rawValue, t.completed, t.state.rawValue,
                            t.submittedAt,
                        ])
                    if task.pinned {
                        let until = random.pick(["", "2026-11-28", "2026-12-31"])
                        try db.run(
                            "INSERT INTO overrides (task_id, entry_id, bucket, until, reason, actor) VALUES (?, 1, ?, ?, 'r', 'a')",
                            [t.taskID, task.bucket.rawValue, until])
                    }
                }
            }
            return .commit
        }
        return (fixture, try TestStore.reader(fixture.store))
    }

    /// What the pipeline gives on everything loaded (the reference).
    static func expected(_ kind: Report.Kind, _ store: Store, _ query: ReportQuery, onlyCourses: [String]) throws -> Report {
        let source = try ReportSource.load(store, asOf: asOf, defaultTimeZone: utc, onlyCourses: onlyCourses)
        var report = ReportBuilder.build(kind, courses: source, facts: facts, query: query, asOf: asOf, defaultTimeZone: utc)
        // The values that match nothing are looked for in the whole database, not only in the
        // courses the `--course` filter reads.
        if report.state == .noMatch, !onlyCourses.isEmpty {
            let whole = try ReportSource.load(store, asOf: asOf, defaultTimeZone: utc)
            report.unmatched = ReportSuggestions.unmatched(in: whole, query: query)
        }
        return report
    }

    @Test("grids, list pages and whole lists over 120 random databases, read-only")
    func randomized() throws {
        for seed in UInt64(1)...40 {
            var random = StreamingReportRandomData(seed: seed)
            let courses = random.courses()
            let (fixture, store) = try Self.database(courses, random: &random)
            for _ in 0..<4 {
                var query = random.query(courses: courses)
                let context = "seed \(seed) \(query)"
                let grid = try ReportStream.grid(store, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc)
                StreamingReportEquivalenceTests.expectSame(
                    grid, try Self.expected(.grid, store, query, onlyCourses: query.courses), "grid " + context)
                for format in ReportFormat.allCases {
                    var text = ""
                    try ReportGridStream.write(grid, format: format, width: 90, chunk: 2) { text += $0 }
                    #expect(text == format.render(grid, width: 90), "grid \(format) \(context)")
                }
                // The text grid is written row by row: every width gives the whole render's bytes.
                for width in [10, 45, 200] {
                    var text = ""
                    try ReportGridStream.write(grid, format: .text, width: width) { text += $0 }
                    #expect(text == ReportFormat.text.render(grid, width: width), "text grid width \(width) \(context)")
                }
                if query.limit == nil { query.limit = random.int(1...5) }
                for memory in [0, ReportStream.inMemoryKeyBytes] {
                    let page = try ReportStream.listPage(
                        store, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc, keyMemory: memory)
                    StreamingReportEquivalenceTests.expectSame(
                        page, try Self.expected(.list, store, query, onlyCourses: query.courses), "page \(memory) " + context)
                }
                query.limit = nil
                query.page = 1
                let whole = try Self.expected(.list, store, query, onlyCourses: query.courses)
                for format in ReportFormat.allCases {
                    var text = ""
                    try ReportListStream.write(
                        store, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc, format: format, width: 72
                    ) { text += $0 }
                    #expect(text == format.render(whole, width: 72), "whole \(format) \(context)")
                }
            }
            // No temp table is left behind, and the database was only read.
            #expect(try TestStore.temporaryObjects(store.database) == 0)
            _ = fixture
        }
    }

    @Test("an --out set written course by course is the set written from the whole report")
    func reportSets() throws {
        for seed in UInt64(1)...30 {
            var random = StreamingReportRandomData(seed: seed)
            let courses = random.courses()
            let (fixture, store) = try Self.database(courses, random: &random)
            var query = random.query(courses: courses)
            query.limit = nil
            query.page = 1
            let old = MemoryReportFiles()
            let new = MemoryReportFiles()
            let source = try ReportSource.load(store, asOf: Self.asOf, defaultTimeZone: Self.utc)
            let grid = ReportBuilder.build(
                .grid, courses: source, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc)
            let list = ReportBuilder.build(
                .list, courses: source, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc)
            var oldNames: [String] = []
            var oldIndexes: [String] = []
            for format in ReportFormat.allCases {
                let names = try ReportSet.write(grid: grid, list: list, format: format, width: 100, to: "out", fileSystem: old)
                oldNames += names
                oldIndexes += names.prefix(1)
            }
            let written = try ReportSetStream.write(
                store, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc, formats: ReportFormat.allCases,
                width: 100, to: "out", fileSystem: new)
            #expect(written.count == oldNames.count && written.indexes == oldIndexes && written.calendars == 0, "seed \(seed)")
            #expect(new.files == old.files, "seed \(seed)")
            _ = fixture
        }
    }
}

/// Report files kept in memory.
final class MemoryReportFiles: ReportFileSystem {
    var files: [String: String] = [:]
    func ensureDirectory(_ path: String) throws {}
    func write(_ contents: String, name: String, in directory: String) throws { files[directory + "/" + name] = contents }
}
