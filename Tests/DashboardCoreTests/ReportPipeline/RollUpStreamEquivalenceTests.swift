import Foundation
import Testing

@testable import DashboardCore

/// The roll-ups streamed from a store (`ReportRollUpStream.assignmentPage`, `studentPage`,
/// `forEachStudent`; `ReportListStream.write` and `writeStudents` for whole lists) give the
/// report `ReportBuilder.build` gives on the loaded data, byte for byte in every format, on
/// random databases with assignment ids, ties, undated, pinned and completed tasks, on the store
/// (SQLite opened read-only, as `dashboard report` opens it, or PostgreSQL in its pass) and on
/// the second store of the boundary (`MemoryReportReader`).
@Suite("Roll-ups streamed from the store: the same reports as the pipeline")
struct RollUpStreamEquivalenceTests {
    static let utc = ReportSample.utc
    static let asOf = ReportSample.asOf
    static let facts = ReportSample.freshFacts

    /// Assignment ids with ties of case, digits and accents; "" (keyed by title) most often.
    static let assignmentIDs = ["", "", "", "A1", "A2", "a1", "A01", "Ü1", "A10"]

    /// Random courses (`StreamingReportRandomData`), each task given an assignment id.
    static func courses(_ random: inout StreamingReportRandomData, count: ClosedRange<Int> = 0...5, tasks: ClosedRange<Int> = 0...30)
        -> [ReportCourse]
    {
        random.courses(count: count, tasks: tasks).map { course in
            var course = course
            for index in course.tasks.indices { course.tasks[index].task.assignmentID = random.pick(Self.assignmentIDs) }
            return course
        }
    }

    /// A database holding `courses` with their assignment ids (the helper of
    /// `StreamingReportStoreTests` writes no `assignment_id`), and the store opened again as
    /// `dashboard report` opens it (`TestStore.reader`).
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
                        INSERT INTO tasks (task_id, course_id, title, student_id, due, priority, completed, assignment_id)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                        [t.taskID, t.courseID, t.title, t.studentID, t.due, t.priority.rawValue, t.completed, t.assignmentID])
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

    /// The same live data in the memory store.
    static func memory(_ store: Store) throws -> MemoryReportReader {
        var tasks: [LiveTask] = []
        try store.forEachLiveTask(.all, countsOnly: false) { tasks.append($0) }
        return MemoryReportReader(courses: try store.liveCourses(only: []), tasks: tasks)
    }

    /// Every field a roll-up shows, and its bytes in every format (text also in the narrow
    /// layout).
    static func expectSame(_ a: Report, _ b: Report, _ context: String) {
        #expect(a.state == b.state, "\(context)")
        #expect(a.groups == b.groups, "\(context)")
        #expect(a.students == b.students, "\(context)")
        #expect(a.page == b.page, "\(context)")
        #expect(a.totalTasks == b.totalTasks, "\(context)")
        #expect(a.matchingTasks == b.matchingTasks, "\(context)")
        #expect(a.hiddenTasks == b.hiddenTasks, "\(context)")
        #expect(a.completedByCourse == b.completedByCourse, "\(context)")
        #expect(a.completedMatchingTasks == b.completedMatchingTasks, "\(context)")
        #expect(a.unmatched == b.unmatched, "\(context)")
        for format in ReportFormat.allCases {
            #expect(format.render(a, width: 72) == format.render(b, width: 72), "\(format) \(context)")
        }
        #expect(TextRenderer.render(a, width: 30) == TextRenderer.render(b, width: 30), "narrow text \(context)")
    }

    /// What the compared reports held, so that a run that compared only empty reports fails.
    struct Seen {
        var idRows = 0
        var titleRows = 0
        var partialCourses = 0
        var partialStudents = 0
        var wholeStudents = 0

        mutating func add(_ report: Report) {
            for group in report.groups {
                idRows += group.assignments.filter { !$0.assignmentID.isEmpty }.count
                titleRows += group.assignments.filter(\.assignmentID.isEmpty).count
                if !group.assignments.isEmpty, group.assignmentFirst > 1 || group.assignments.count < group.assignmentTotal {
                    partialCourses += 1
                }
            }
            for student in report.students {
                if student.isWhole { wholeStudents += 1 } else if student.first > 1 { partialStudents += 1 }
            }
        }
    }

    /// One paged roll-up and the whole one of `query` on `reader`, each against the pipeline's
    /// report on the loaded data.
    static func check(
        _ reader: any ReportReading, _ store: Store, query: ReportQuery, memory: MemoryReportReader?, seen: inout Seen, _ context: String
    ) throws {
        func snapshot<T>(_ what: String, _ body: () throws -> T) throws -> T {
            guard let memory else { return try body() }
            return try ReportsOnASecondStoreTests.oneSnapshot(memory, what + " " + context, body)
        }
        let paged = query
        var whole = query
        (whole.limit, whole.page) = (nil, 1)
        let expectedPage = try StreamingReportStoreTests.expected(.list, store, paged, onlyCourses: paged.courses)
        if query.groupBy == .assignment {
            let page = try snapshot("assignment page") {
                try ReportRollUpStream.assignmentPage(reader, facts: facts, query: paged, asOf: asOf, defaultTimeZone: utc)
            }
            expectSame(page, expectedPage, "assignment page " + context)
            seen.add(page)
        } else {
            for keyMemory in [0, ReportStream.inMemoryKeyBytes] {
                let page = try snapshot("student page") {
                    try ReportRollUpStream.studentPage(
                        reader, facts: facts, query: paged, asOf: asOf, defaultTimeZone: utc, keyMemory: keyMemory)
                }
                expectSame(page, expectedPage, "student page, key memory \(keyMemory) " + context)
                seen.add(page)
                #expect(memory?.keysLeft?.isEmpty ?? true, "page keys dropped: \(context)")
            }
        }
        let expected = try StreamingReportStoreTests.expected(.list, store, whole, onlyCourses: whole.courses)
        // The whole list's values, as the stream hands them over.
        var streamed: Report
        if query.groupBy == .assignment {
            var groups: [CourseGroup] = []
            var completed: [String: Int] = [:]
            let plan = try snapshot("assignment groups") {
                try ReportCourseStream.forEachGroup(
                    reader, facts: facts, query: whole, asOf: asOf, defaultTimeZone: utc, onlyCourses: whole.courses
                ) { plan, group in
                    groups.append(group)
                    completed.merge(plan.list.completedByCourse) { $1 }
                }
            }
            streamed = plan.list
            (streamed.groups, streamed.completedByCourse) = (groups, completed)
        } else {
            var students: [StudentGroup] = []
            streamed = try snapshot("student groups") {
                try ReportRollUpStream.forEachStudent(reader, facts: facts, query: whole, asOf: asOf, defaultTimeZone: utc) {
                    students.append($1)
                }
            }
            streamed.students = students
            #expect(memory?.keysLeft?.isEmpty ?? true, "page keys dropped: \(context)")
        }
        expectSame(streamed, expected, "whole " + context)
        seen.add(streamed)
        // The bytes written piece by piece are those of the whole render.
        for format in ReportFormat.allCases {
            for width in format == .text ? [72, 30] : [72] {
                var text = ""
                try snapshot("whole \(format)") {
                    if whole.groupBy == .assignment {
                        try ReportListStream.write(
                            reader, facts: facts, query: whole, asOf: asOf, defaultTimeZone: utc, format: format, width: width
                        ) { text += $0 }
                    } else {
                        try ReportListStream.writeStudents(
                            reader, facts: facts, query: whole, asOf: asOf, defaultTimeZone: utc, format: format, width: width
                        ) { text += $0 }
                    }
                }
                #expect(text == format.render(expected, width: width), "whole \(format) width \(width) \(context)")
            }
        }
    }

    @Test("by assignment and by student, paged and whole, over 40 random databases, on SQLite and on the memory store")
    func randomized() throws {
        var seen = Seen()
        for seed in UInt64(1)...40 {
            var random = StreamingReportRandomData(seed: seed &+ 5000)
            let courses = Self.courses(&random)
            let (fixture, store) = try Self.database(courses, random: &random)
            let memory = try Self.memory(store)
            for round in 0..<4 {
                var query = random.query(courses: courses)
                query.groupBy = round % 2 == 0 ? .assignment : .student
                if query.limit == nil { query.limit = random.int(1...6) }
                let context = "seed \(seed) \(query)"
                try Self.check(store, store, query: query, memory: nil, seen: &seen, "SQLite " + context)
                try Self.check(memory, store, query: query, memory: memory, seen: &seen, "memory " + context)
            }
            #expect(try TestStore.temporaryObjects(store.database) == 0, "no temp table left: seed \(seed)")
            _ = fixture
        }
        // The random data reached every case compared: rows keyed by id and by title, a course's
        // rows cut by a page, a student begun on an earlier page, students shown whole.
        #expect(seen.idRows > 100 && seen.titleRows > 100, "\(seen)")
        #expect(seen.partialCourses > 10 && seen.partialStudents > 10 && seen.wholeStudents > 100, "\(seen)")
    }

    @Test("every page of each roll-up, one after the other, holds every row or task once, in order")
    func everyPage() throws {
        for seed in UInt64(1)...12 {
            var random = StreamingReportRandomData(seed: seed &+ 7000)
            let courses = Self.courses(&random, count: 2...6, tasks: 5...25)
            let (fixture, store) = try Self.database(courses, random: &random)
            for grouping in [ReportGrouping.assignment, .student] {
                var unpaged = ReportQuery()
                (unpaged.groupBy, unpaged.includeCompleted) = (grouping, random.chance(50))
                var query = unpaged
                query.limit = random.int(1...4)
                let whole = ReportBuilder.build(
                    .list, courses: try ReportSource.load(store, asOf: Self.asOf, defaultTimeZone: Self.utc), facts: Self.facts,
                    query: unpaged, asOf: Self.asOf, defaultTimeZone: Self.utc)
                var rows: [String] = []
                var tasks: [String] = []
                var page = 1
                while true {
                    query.page = page
                    let report =
                        grouping == .assignment
                        ? try ReportRollUpStream.assignmentPage(
                            store, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc)
                        : try ReportRollUpStream.studentPage(
                            store, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc, keyMemory: 0)
                    let shown = report.groups.flatMap { g in
                        g.assignments.map { g.course.courseID + "/" + $0.assignmentID + "/" + $0.title }
                    }
                    let shownTasks = report.students.flatMap { $0.tasks.map(\.task.task.taskID) }
                    if shown.isEmpty, shownTasks.isEmpty {
                        #expect(report.page.firstItem == 0, "seed \(seed) \(grouping) page \(page)")
                        break
                    }
                    #expect(shown.count + shownTasks.count <= query.limit ?? 0, "seed \(seed) \(grouping) page \(page)")
                    #expect(report.page.totalItems == (grouping == .assignment ? whole.page.totalItems : whole.matchingTasks))
                    rows += shown
                    tasks += shownTasks
                    page += 1
                }
                #expect(
                    page - 1 == (whole.page.totalItems == 0 ? 0 : (whole.page.totalItems + (query.limit ?? 1) - 1) / (query.limit ?? 1)))
                #expect(
                    rows == whole.groups.flatMap { g in g.assignments.map { g.course.courseID + "/" + $0.assignmentID + "/" + $0.title } })
                #expect(tasks == whole.students.flatMap { $0.tasks.map(\.task.task.taskID) })
            }
            _ = fixture
        }
    }

    @Test("a whole roll-up by student longer than a chunk of keys: students cut by a chunk come out whole, once, in order")
    func longerThanAChunk() throws {
        // 3 students of 1,400 tasks: the second chunk of 4,096 keys starts inside s3's tasks.
        let course = ReportSample.course("C1", code: "BIO 1", timezone: "Europe/Berlin")
        let other = ReportSample.course("C2", code: "GER 1", timezone: "America/New_York")
        let dues = ["", "2026-11-20", "2026-11-29T10:00:00", "2026-12-03", "2026-12-01T04:30:00Z"]
        var lists: [String: [ReportTask]] = [:]
        for n in 0..<4_200 {
            let courseID = n % 3 == 0 ? "C2" : "C1"
            let task = TaskRecord(
                taskID: String(format: "T%05d", n), courseID: courseID, title: "Task \(n % 17)", studentID: ["s1", "s2", "s3"][n % 3],
                due: dues[n % dues.count], priority: Priority.allCases[n % 3], completed: n % 11 == 0, assignmentID: "")
            lists[courseID, default: []].append(ReportTask(task: task, bucket: .upcoming, pinned: false))
        }
        var random = StreamingReportRandomData(seed: 1)
        let (fixture, store) = try Self.database(
            [ReportCourse(course: course, tasks: lists["C1"] ?? []), ReportCourse(course: other, tasks: lists["C2"] ?? [])],
            random: &random)
        let memory = try Self.memory(store)
        var query = ReportQuery()
        query.groupBy = .student
        query.includeCompleted = true
        let expected = try StreamingReportStoreTests.expected(.list, store, query, onlyCourses: [])
        #expect(expected.students.map(\.studentID) == ["s1", "s2", "s3"])
        #expect(expected.students.map(\.total) == [1_400, 1_400, 1_400])
        let rendered = [ReportFormat.csv, .json].map { ($0, $0.render(expected, width: 100)) }
        for reader in [store, memory] as [any ReportReading] {
            var students: [StudentGroup] = []
            let frame = try ReportRollUpStream.forEachStudent(
                reader, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc
            ) { students.append($1) }
            #expect(students.map(\.studentID) == ["s1", "s2", "s3"], "\(type(of: reader))")
            #expect(students == expected.students, "\(type(of: reader))")
            #expect(frame.page == expected.page && frame.matchingTasks == 4_200, "\(type(of: reader))")
            // The bytes written piece by piece, on SQLite (the memory store sorts its keys at each read).
            guard reader is Store else { continue }
            for (format, whole) in rendered {
                var text = ""
                try ReportListStream.writeStudents(
                    reader, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc, format: format, width: 100
                ) { text += $0 }
                #expect(text == whole, "\(format) \(type(of: reader))")
            }
        }
        _ = fixture
    }
}

extension RollUpStreamEquivalenceTests {
    @Test(
        "a page far past the end (or whose offset does not fit in 64 bits) is an empty page of either roll-up, never a trap",
        arguments: [(3, 50), (100_000, 10_000_000_000_000), (Int.max, 2), (2, Int.max)])
    func pagesFarPastTheEnd(limit: Int, page: Int) throws {
        var random = StreamingReportRandomData(seed: 3)
        let (fixture, store) = try Self.database(Self.courses(&random, count: 2...3, tasks: 5...9), random: &random)
        for grouping in [ReportGrouping.assignment, .student] {
            var query = ReportQuery()
            (query.groupBy, query.limit, query.page) = (grouping, limit, page)
            let expected = try StreamingReportStoreTests.expected(.list, store, query, onlyCourses: [])
            let streamed =
                grouping == .assignment
                ? try ReportRollUpStream.assignmentPage(store, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc)
                : try ReportRollUpStream.studentPage(store, facts: Self.facts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc)
            Self.expectSame(streamed, expected, "\(grouping) limit \(limit) page \(page)")
            #expect(streamed.groups.isEmpty && streamed.students.isEmpty, "\(grouping)")
            #expect(streamed.page.firstItem == 0 && streamed.page.lastItem == 0 && streamed.page.page == page, "\(grouping)")
        }
        _ = fixture
    }
}
