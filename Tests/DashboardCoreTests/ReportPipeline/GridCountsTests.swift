import Foundation
import Testing

@testable import DashboardCore

/// The grid counted from the stored buckets (`GridCounts`, issue 15) is the grid the pipeline
/// counts task by task, and the store only offers it while it can prove every stored value and
/// bucket is one the dashboard wrote (`DataMarks`): a hand edit of a value, a bucket or an
/// override turns it off until a sync of courses and tasks has compared every row again.
@Suite("Report: the grid from the stored buckets")
struct GridCountsTests {
    static let asOf = ReportSample.asOf  // 2026-11-29T08:00:00Z
    static let utc = ReportSample.utc
    static let day: TimeInterval = 86_400

    /// Dues far from the as-of (settled in every zone) as well as the near ones of the random
    /// data (decided by the course's zone).
    static let dues = [
        "", "2026-10-01", "2026-11-27", "2026-11-27T23:30:00", "2026-11-28", "2026-11-28T23:59:59Z", "2026-11-29", "2026-11-30",
        "2026-12-01", "2026-12-01T00:00:00Z", "2026-12-02", "2027-02-01T10:00:00", "2027-02-01T10:00:00Z", "2026-11-29T10:00:00Z",
    ]

    /// A read-only store holding `courses`, trusted as if the dashboard had written it, with
    /// its buckets stored by a categorization at `categorizedAt` (not necessarily the as-of).
    static func trustedStore(_ courses: [ReportCourse], random: inout StreamingReportRandomData, categorizedAt: Date) throws -> (
        ImporterFixture, Store
    ) {
        let (fixture, _) = try StreamingReportStoreTests.database(courses, random: &random)
        // The raw rows stand for rows an import wrote: the marks say so, then the buckets are
        // stored by the dashboard's own time pass.
        try fixture.store.database.execute("UPDATE data_marks SET trusted = writes, clean = 1")
        _ = try fixture.store.categorize(asOf: categorizedAt, defaultTimeZone: utc, actor: "cron", clock: FixedClock(categorizedAt))
        return (fixture, try TestStore.reader(fixture.store))
    }

    @Test("grids and list pages over 80 random databases categorized at another time: the same report as the pipeline")
    func randomized() throws {
        var settled = 0
        var unsettled = 0
        var searched = 0
        var searchedByBucket = 0
        for seed in UInt64(1)...80 {
            var random = StreamingReportRandomData(seed: seed)
            let courses = random.courses(count: 1...5, tasks: 0...40).map { course in
                var course = course
                course.tasks = course.tasks.map { task in
                    var task = task
                    task.task.due = random.pick(Self.dues)
                    return task
                }
                return course
            }
            let categorizedAt = Self.asOf.addingTimeInterval(Double(random.pick([-4, -1, 0, 2, 6])) * Self.day)
            let (fixture, store) = try Self.trustedStore(courses, random: &random, categorizedAt: categorizedAt)
            #expect(try store.storedBucketsHold(), "seed \(seed)")
            try store.read {
                var seen = 0
                try store.forEachUnsettledTask(settledIn: BucketPolicy.settledWindow(asOf: Self.asOf)) { _, _ in seen += 1 }
                unsettled += seen
                settled += try store.storedBucketCounts().values.reduce(0) { $0 + $1.values.reduce(0, +) } - seen
            }
            for _ in 0..<4 {
                var query = random.query(courses: courses)
                // Half the grids are ones the counts apply to; a quarter keep their search with no
                // filter but --bucket (`ReportSearchPass` counts found settled tasks from their
                // stored bucket, and reads a task only when the page may list it).
                if random.chance(75) {
                    query.students = []
                    query.priorities = []
                    query.due = DueWindow()
                    if random.chance(67) { query.search = "" }
                }
                if ReportSearchPass.applies(to: query), ReportMatcher(query).filtersOnlyBuckets { searchedByBucket += 1 }
                let context = "seed \(seed) categorized \(categorizedAt) \(query)"
                let grid = try ReportStream.grid(
                    store, facts: ReportSample.freshFacts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc)
                StreamingReportEquivalenceTests.expectSame(
                    grid, try StreamingReportStoreTests.expected(.grid, store, query, onlyCourses: query.courses), "grid " + context)
                // A searched list page from the counts and the search's candidates (`ReportSearchPass`).
                if ReportSearchPass.applies(to: query) { searched += 1 }
                if query.limit == nil { query.limit = random.int(1...5) }
                for memory in [0, ReportStream.inMemoryKeyBytes] {
                    let page = try ReportStream.listPage(
                        store, facts: ReportSample.freshFacts, query: query, asOf: Self.asOf, defaultTimeZone: Self.utc, keyMemory: memory)
                    StreamingReportEquivalenceTests.expectSame(
                        page, try StreamingReportStoreTests.expected(.list, store, query, onlyCourses: query.courses),
                        "page \(memory) " + context)
                }
            }
            _ = fixture
        }
        // Both kinds of task were met, many times.
        #expect(settled > 1000 && unsettled > 1000, "settled \(settled), unsettled \(unsettled)")
        #expect(searched > 30 && searchedByBucket > 30, "searched \(searched), by bucket only \(searchedByBucket)")
    }

    @Test("the counts per stored bucket are kept; only the tasks not settled are read and put in their bucket in their course's zone")
    func splitsSettledFromOthers() throws {
        let fixture = try AuditFixture()
        try fixture.importFiles(
            """
            task_id,course_id,title,due,completed
            A,C1,Far past,2026-10-01,no
            B,C1,Far future,2027-01-10,no
            C,C1,Undated,,no
            D,C1,Done,2026-11-01,yes
            E,C1,Near,2026-11-29,no
            F,C2,Near instant,2026-11-29T22:30:00Z,no
            """)
        var unsettled: [String] = []
        try fixture.store.read {
            try fixture.store.forEachUnsettledTask(settledIn: BucketPolicy.settledWindow(asOf: fixture.asOf)) { live, stored in
                unsettled.append("\(live.task.taskID) \(live.task.due) \(stored)")
            }
            #expect(
                try fixture.store.storedBucketCounts() == [
                    "C1": ["overdue": 1, "upcoming": 1, "undated": 1, "completed": 1, "today": 1], "C2": ["today": 1],
                ])
        }
        #expect(unsettled.sorted() == ["E 2026-11-29 today", "F 2026-11-29T22:30:00Z today"])
        // F is due at 23:30 in Berlin: today there, with E today in New York.
        let grid = try Self.grid(fixture.store)
        #expect(
            grid.cards.map { "\($0.course.courseID) \($0.counts)" } == [
                "C1 \(Self.counts(1, 1, 1, 1, 1))", "C2 \(Self.counts(0, 1, 0, 0, 0))",
            ])
    }

    /// Overdue, today, upcoming, undated, completed.
    static func counts(_ overdue: Int, _ today: Int, _ upcoming: Int, _ undated: Int, _ completed: Int) -> BucketCounts {
        var counts = BucketCounts()
        counts[.overdue] = overdue
        counts[.today] = today
        counts[.upcoming] = upcoming
        counts[.undated] = undated
        counts[.completed] = completed
        return counts
    }

    static func grid(_ store: Store, _ query: ReportQuery = ReportQuery()) throws -> Report {
        var query = query
        query.includeCompleted = true
        return try ReportStream.grid(store, facts: ReportSample.freshFacts, query: query, asOf: asOf, defaultTimeZone: utc)
    }

    static func holds(_ fixture: AuditFixture) throws -> Bool { try fixture.store.storedBucketsHold() }

    @Test("a new database and every dashboard writer keep the proof: imports, categorize, overrides, reverts, approvals")
    func dashboardWritesKeepIt() throws {
        let fixture = try AuditFixture()
        #expect(try fixture.store.database.rows("SELECT clean FROM data_marks") == [[.integer(1)]])
        try fixture.importFiles()
        #expect(try Self.holds(fixture))
        _ = try fixture.categorize(at: fixture.asOf.addingTimeInterval(3 * Self.day))
        #expect(try Self.holds(fixture))
        let entry = try fixture.reclassify("T3", to: .today)
        #expect(try Self.holds(fixture))
        _ = try fixture.revert(entry.id)
        #expect(try Self.holds(fixture))
        let changed = try fixture.importFiles(AuditFixture.tasks.replacingOccurrences(of: "2026-12-05", with: "2026-12-06"))
        _ = try fixture.revert(batch: changed.batchID ?? 0)
        #expect(try Self.holds(fixture))
        // A held batch approved.
        var options = ImporterFixture.options(.sync, maxDelete: .count(0))
        options.asOf = fixture.asOf
        let held = try fixture.base.importer.run(
            files: [.inMemory("courses.csv", ImporterFixture.courses), .inMemory("tasks.csv", "task_id,course_id,title\nT1,C1,One\n")],
            options: options)
        #expect(held.status == .held)
        _ = try fixture.base.importer.approve(batchID: held.batchID ?? 0, asOf: fixture.asOf, actor: "adams")
        #expect(try Self.holds(fixture))
        #expect(try fixture.store.database.rows("SELECT writes = trusted, clean FROM data_marks") == [[.integer(1), .integer(1)]])
    }

    /// A second connection to the same database, as the sqlite3 shell (or psql) would be.
    static func handEdit(_ fixture: AuditFixture, _ sql: String) throws {
        let other = try TestStore.shell(fixture.store)
        try other.execute(sql)
    }

    @Test(
        "a hand edit of a value, a bucket or an override turns the proof off; categorize, merge imports and overrides leave it off",
        arguments: [
            "UPDATE tasks SET due = 'zzz' WHERE task_id = 'T3'",
            "UPDATE tasks SET bucket = 'today' WHERE task_id = 'T1'",
            "UPDATE courses SET timezone = 'Asia/Tokyo' WHERE course_id = 'C1'",
            "INSERT INTO overrides (task_id, entry_id, bucket, until, reason, actor) VALUES ('T1', 1, 'today', '', 'r', 'a')",
            "INSERT INTO tasks (task_id, course_id, title, bucket) VALUES ('T9', 'C1', 'Nine', 'upcoming')",
            "DELETE FROM tasks WHERE task_id = 'T4'",
        ])
    func handEditTurnsItOff(edit: String) throws {
        let fixture = try AuditFixture()
        try fixture.importFiles()
        try fixture.reclassify("T2", to: .upcoming)
        try Self.handEdit(fixture, edit)
        #expect(try !Self.holds(fixture))
        // The triggers kept the counts through the hand edit too.
        #expect(try Self.countsMismatches(fixture) == [])
        _ = try fixture.categorize()
        #expect(try !Self.holds(fixture))
        try fixture.reclassify("T5", to: .today)
        #expect(try !Self.holds(fixture))
        try fixture.importFiles(AuditFixture.tasks + "T6,C1,Six,2027-01-01,no\n")
        #expect(try !Self.holds(fixture))
        // A sync of courses and tasks compares every row again and rewrites what differs.
        try fixture.importFiles(mode: .sync)
        #expect(try Self.holds(fixture))
        #expect(try fixture.store.database.rows("SELECT due FROM tasks WHERE task_id = 'T3'") == [[.text("2026-12-05")]])
    }

    /// What `verify` finds wrong in `course_buckets`.
    static func countsMismatches(_ fixture: AuditFixture) throws -> [VerificationProblem] {
        var problems: [VerificationProblem] = []
        try Verifier.counts(fixture.store.database) { problems.append($0) }
        return problems
    }

    @Test("counts a writer without triggers left wrong are found by verify, and counted afresh by the sync that makes the data clean")
    func wrongCountsAreFoundAndRebuilt() throws {
        let fixture = try AuditFixture()
        try fixture.importFiles()
        #expect(try Self.countsMismatches(fixture) == [])
        let other = try TestStore.shell(fixture.store)
        other.setTriggersEnabled(false)
        try other.execute("UPDATE tasks SET bucket = 'today' WHERE task_id = 'T1'")
        // No trigger saw it: the marks still hold, the counts are wrong, verify says so.
        #expect(try Self.holds(fixture))
        #expect(
            try Self.countsMismatches(fixture) == [
                VerificationProblem(
                    table: "course_buckets", key: "C1/overdue", column: "tasks", value: "1",
                    rule: "must be the course's live tasks in that bucket (0); written by a writer no trigger saw"),
                VerificationProblem(
                    table: "course_buckets", key: "C1/today", column: "tasks", value: "1",
                    rule: "must be the course's live tasks in that bucket (2); written by a writer no trigger saw"),
            ])
        // What docs/operations.md tells: mark the data not clean, and the next full sync counts afresh.
        try other.execute("UPDATE data_marks SET clean = 0")
        #expect(try !Self.holds(fixture))
        try fixture.importFiles(mode: .sync)
        #expect(try Self.holds(fixture))
        #expect(try Self.countsMismatches(fixture) == [])
        #expect(try Self.grid(fixture.store).cards.map(\.counts) == [Self.counts(1, 1, 0, 0, 0), Self.counts(0, 0, 1, 1, 1)])
    }

    @Test("counts that do not add up make a grid and a searched list count task by task")
    func countsThatDoNotAddUp() throws {
        let fixture = try AuditFixture()
        try fixture.importFiles()
        let other = try TestStore.shell(fixture.store)
        other.setTriggersEnabled(false)
        try other.execute("UPDATE course_buckets SET tasks = tasks - 5 WHERE course_id = 'C2' AND bucket = 'completed'")
        #expect(try Self.holds(fixture))
        #expect(try Self.grid(fixture.store).cards.map(\.counts) == [Self.counts(1, 1, 0, 0, 0), Self.counts(0, 0, 1, 1, 1)])
        let query = ReportSample.query {
            $0.search = "o"
            $0.includeCompleted = true
        }
        let page = try ReportStream.listPage(
            fixture.store, facts: ReportSample.freshFacts, query: query, asOf: fixture.asOf, defaultTimeZone: fixture.utc)
        // "o" is in One, Two and Four, and in every C2 task's course text (BIO Biology).
        #expect(
            ReportSample.summary(page.groups) == [
                "C2 upcoming: T3", "C2 undated: T4", "C2 completed: T5", "C1 overdue: T1", "C1 today: T2",
            ])
        #expect(page.matchingTasks == 5 && page.totalTasks == 5)
        #expect(page.groups.map(\.liveTasks) == [3, 2])
    }

    @Test("a sync that rejected a row, or of tasks alone, does not make the data clean again")
    func partialSyncsDoNot() throws {
        let fixture = try AuditFixture()
        try fixture.importFiles()
        try Self.handEdit(fixture, "UPDATE tasks SET due = 'zzz' WHERE task_id = 'T3'")
        try fixture.importFiles(AuditFixture.tasks + "T7,C9,Unknown course,,no\n", mode: .sync)
        #expect(try !Self.holds(fixture))
        var options = ImporterFixture.options(.sync, maxDelete: .percent(100))
        options.asOf = fixture.asOf
        try fixture.base.importer.run(files: [.inMemory("tasks.csv", AuditFixture.tasks)], options: options)
        #expect(try !Self.holds(fixture))
        try fixture.importFiles(mode: .sync)
        #expect(try Self.holds(fixture))
    }

    @Test("the grid after a hand edit counts the edited values, not the stored buckets")
    func handEditedGridIsRight() throws {
        let fixture = try AuditFixture()
        try fixture.importFiles(
            """
            task_id,course_id,title,due,completed
            A,C1,Far past,2026-10-01,no
            B,C1,Far future,2027-01-10,no
            """)
        #expect(try Self.grid(fixture.store).cards.map(\.counts) == [Self.counts(1, 0, 1, 0, 0), Self.counts(0, 0, 0, 0, 0)])
        // The stored buckets stay overdue and upcoming: a pin by hand on A, an unreadable due on B.
        // The pin names entry 1, which no one wrote (a first import logs no entry): the sqlite3
        // shell checks no reference unless asked, and PostgreSQL is told not to.
        try TestStore.allowMissingReferences(try TestStore.shell(fixture.store))
        try Self.handEdit(
            fixture,
            """
            INSERT INTO overrides (task_id, entry_id, bucket, until, reason, actor) VALUES ('A', 1, 'today', '', 'r', 'a');
            UPDATE tasks SET due = 'zzz' WHERE task_id = 'B';
            """)
        #expect(try fixture.store.database.rows("SELECT bucket FROM tasks ORDER BY task_id") == [[.text("overdue")], [.text("upcoming")]])
        #expect(try Self.grid(fixture.store).cards.map(\.counts) == [Self.counts(0, 1, 0, 1, 0), Self.counts(0, 0, 0, 0, 0)])
    }

    @Test("the counts apply to grids no search or task-level filter narrows")
    func otherGridsCountTaskByTask() {
        #expect(
            GridCounts.applies(
                to: ReportSample.query {
                    $0.buckets = [.overdue]; $0.courses = ["C1"]; $0.teachers = ["Ann"]
                }))
        #expect(!GridCounts.applies(to: ReportSample.query { $0.search = "essay" }))
        #expect(GridCounts.applies(to: ReportSample.query { $0.search = "  " }))
        #expect(!GridCounts.applies(to: ReportSample.query { $0.students = ["s1"] }))
        #expect(!GridCounts.applies(to: ReportSample.query { $0.priorities = [.high] }))
        #expect(!GridCounts.applies(to: ReportSample.query { $0.due.within = [3] }))
    }
}
