import Foundation
import Testing

@testable import DashboardCore

/// The store's per-course results (`CourseResults`) and its course-by-course read
/// (`forEachLiveCourse`), on SQLite and on the memory store: what reports flat in courses rely on.
@Suite("Course results: kept by the store, read back in key order; courses read one at a time")
struct CourseResultsOrderTests {
    static func result(_ key: [UInt8], _ id: String, live: Int = 0) -> CourseResult {
        CourseResult(
            key: key, course: ReportSample.course(id), counts: [.overdue: live, .completed: 1], live: live, completed: live % 3,
            linked: live % 2 == 0)
    }

    static func readBack(_ results: any CourseResults, offset: Int = 0, count: Int? = nil) throws -> [String] {
        var ids: [String] = []
        try results.forEach(offset: offset, count: count) { ids.append($0.course.courseID) }
        return ids
    }

    @Test("results come back in key order, ties by course id, windows by offset and count; two sets are apart")
    func order() throws {
        let fixture = try ImporterFixture()
        let stores: [any ReportReading] = [fixture.store, MemoryReportReader(courses: [], tasks: [])]
        for store in stores {
            try store.read {
                let results = try store.courseResults()
                let other = try store.courseResults()
                #expect(try Self.readBack(results).isEmpty)
                let added = [
                    Self.result([2], "b", live: 5), Self.result([1, 0], "z", live: 1), Self.result([2], "a", live: 4),
                    Self.result([1], "y", live: 2), Self.result([], "x", live: 3), Self.result([2], "c", live: 6),
                ]
                for item in added { try results.add(item) }
                try other.add(Self.result([0], "other"))
                try results.prepareOrderedReading()
                #expect(try Self.readBack(results) == ["x", "y", "z", "a", "b", "c"])
                #expect(try Self.readBack(results, offset: 2, count: 3) == ["z", "a", "b"])
                #expect(try Self.readBack(results, offset: 5, count: 10) == ["c"])
                #expect(try Self.readBack(results, offset: 6, count: nil).isEmpty)
                #expect(try Self.readBack(results, offset: 0, count: 0).isEmpty)
                #expect(try Self.readBack(other) == ["other"])
                // Every value comes back as it went in.
                var back: [CourseResult] = []
                try results.forEach(offset: 0, count: nil) { back.append($0) }
                #expect(Set(back.map(\.course.courseID)) == Set(added.map(\.course.courseID)))
                for item in added { #expect(back.first { $0.course.courseID == item.course.courseID } == item) }
                results.drop()
                other.drop()
            }
        }
        #expect(try TestStore.temporaryObjects(fixture.store.database) == 0)
    }

    @Test("the course key orders courses as ReportPipeline.courseOrder: natural codes, then ids")
    func courseKeyOrder() {
        var random = StreamingReportRandomData(seed: 3)
        for _ in 0..<200 {
            let courses = random.courses(count: 2...12, tasks: 0...0).map(\.course)
            let byOrder = courses.sorted { ReportPipeline.courseOrder($0, $1) }.map(\.courseID)
            let byKey = courses.sorted { ReportSortKey.course($0).lexicographicallyPrecedes(ReportSortKey.course($1)) }.map(\.courseID)
            #expect(byKey == byOrder)
        }
        let codes = [("a", "MATH 10"), ("b", "MATH 2"), ("c", "MATH 2"), ("d", "")]
        let sorted = codes.map { ReportSample.course($0.0, code: $0.1) }.sorted {
            ReportSortKey.course($0).lexicographicallyPrecedes(ReportSortKey.course($1))
        }
        #expect(sorted.map(\.courseID) == ["d", "b", "c", "a"])
    }

    @Test("courses come one at a time by id, each followed by its own live tasks; a course without tasks too")
    func courseByCourse() throws {
        var random = StreamingReportRandomData(seed: 11)
        var courses = random.courses(count: 8...8, tasks: 0...4)
        courses[3].tasks = []
        let (fixture, store) = try StreamingReportStoreTests.database(courses, random: &random)
        let memory = MemoryReportReader(
            courses: courses.map(\.course), tasks: courses.flatMap(\.tasks).map { LiveTask(task: $0.task, override: nil) })
        for reader in [store as any ReportReading, memory] {
            var seen: [(course: String, tasks: [String])] = []
            try reader.read {
                try reader.forEachLiveCourse(only: [], countsOnly: false) {
                    seen.append(($0.courseID, []))
                } task: { live in
                    #expect(live.task.courseID == seen.last?.course)
                    seen[seen.count - 1].tasks.append(live.task.taskID)
                }
            }
            let expected = courses.sorted { $0.course.courseID.utf8.lexicographicallyPrecedes($1.course.courseID.utf8) }
            #expect(seen.map(\.course) == expected.map(\.course.courseID))
            #expect(seen.map { $0.tasks.sorted() } == expected.map { $0.tasks.map(\.task.taskID).sorted() })
            #expect(seen.contains { $0.course == courses[3].course.courseID && $0.tasks.isEmpty })
            // `only` names a course by id or by code.
            var only: [String] = []
            try reader.read {
                try reader.forEachLiveCourse(only: [courses[0].course.courseID], countsOnly: true) {
                    only.append($0.courseID)
                } task: {
                    #expect($0.task.title.isEmpty)
                }
            }
            #expect(only.contains(courses[0].course.courseID))
        }
        _ = fixture
    }

    @Test("tasks of a deleted course or of no course are not read, before, between and after the live courses")
    func tasksOfCoursesNotLive() throws {
        var random = StreamingReportRandomData(seed: 2)
        let courses = ["B", "D", "F"].map { id in
            ReportCourse(
                course: ReportSample.course(id),
                tasks: (0..<2).map {
                    ReportTask(
                        task: TaskRecord(
                            taskID: "\(id)\($0)", courseID: id, title: "t", studentID: "", due: "", priority: .normal, completed: false),
                        bucket: .undated, pinned: false)
                })
        }
        let (fixture, store) = try StreamingReportStoreTests.database(courses, random: &random)
        let db = fixture.store.database
        for (task, course) in [("a1", "A"), ("c1", "C"), ("z1", "Z")] {
            try db.run(
                "INSERT INTO tasks (task_id, course_id, title, student_id, due, priority, completed) VALUES (?, ?, 't', '', '', 'normal', 0)",
                [task, course])
        }
        try db.run("UPDATE courses SET deleted_batch = 1 WHERE course_id = 'D'")
        var seen: [(course: String, tasks: [String])] = []
        try store.read {
            try store.forEachLiveCourse(only: [], countsOnly: true) {
                seen.append(($0.courseID, []))
            } task: {
                seen[seen.count - 1].tasks.append($0.task.taskID)
            }
        }
        #expect(seen.map(\.course) == ["B", "F"])
        #expect(seen.map { $0.tasks.sorted() } == [["B0", "B1"], ["F0", "F1"]])
    }

    @Test("no report reads every course at once or every task in one pass")
    func noWholeReads() throws {
        var random = StreamingReportRandomData(seed: 5)
        let courses = random.courses(count: 30...30, tasks: 0...5)
        let reader = MemoryReportReader(
            courses: courses.map(\.course), tasks: courses.flatMap(\.tasks).map { LiveTask(task: $0.task, override: nil) })
        let facts = ReportSample.freshFacts
        var query = ReportQuery()
        try ReportCourseStream.grid(reader, facts: facts, query: query, asOf: ReportSample.asOf, defaultTimeZone: ReportSample.utc) {
            try ReportGridStream.write($0, format: .json, width: 80) { _ in }
        }
        try ReportListStream.write(
            reader, facts: facts, query: query, asOf: ReportSample.asOf, defaultTimeZone: ReportSample.utc, format: .text, width: 80
        ) { _ in }
        try ReportSetStream.write(
            reader, facts: facts, query: query, asOf: ReportSample.asOf, defaultTimeZone: ReportSample.utc, formats: [.html], width: 80,
            to: "out", fileSystem: MemoryReportFiles())
        query.limit = 4
        query.page = 3
        _ = try ReportStream.listPage(reader, facts: facts, query: query, asOf: ReportSample.asOf, defaultTimeZone: ReportSample.utc)
        #expect(reader.wholeReads == 0)
        #expect(reader.callsOutsideRead == 0)
    }
}
