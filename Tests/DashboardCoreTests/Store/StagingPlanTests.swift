import Foundation
import Testing

@testable import DashboardCore

/// The task plan (`StagingArea.plan`) against a plain reading of its policy, on random
/// databases and runs: a staged row absent from `tasks` is an insert, one whose stored row is a
/// tombstone a restore, one that differs in any stored column an update, an identical live row
/// nothing; a sync of tasks deletes every live task neither staged nor rejected, a sync of
/// courses the live tasks of each course it deletes. The plan is computed by merges of sorted
/// tables, which must stay merges (no temporary B-tree) to be fast.
@Suite("Staging: the task plan")
struct StagingPlanTests {
    private struct Stored {
        var task: TaskRecord
        var deleted: Bool
    }

    private static let courses = ["C1", "C2", "C3", "C4", "C5"]
    // Values that look alike: numbers as text, case, trailing space, NFC vs NFD, empty.
    private static let titles = ["Essay", "essay", "Essay ", "Caf\u{E9}", "Cafe\u{301}", "7", "007", ""]
    private static let students = ["", "S1", "s1", "S01"]
    private static let dues = ["", "2026-11-29", "2026-11-29T08:00", "2026-11-29T08:00:00Z", "2026-11-30"]
    private static let handIns = ["", "2026-11-28", "2026-11-28T09:00", "2026-11-28T09:00:00Z"]

    private func randomTask(_ id: String, _ rng: inout SeededGenerator) -> TaskRecord {
        TaskRecord(
            taskID: id, courseID: Self.courses.randomElement(using: &rng)!, title: Self.titles.randomElement(using: &rng)!,
            studentID: Self.students.randomElement(using: &rng)!, due: Self.dues.randomElement(using: &rng)!,
            priority: Priority.allCases.randomElement(using: &rng)!, state: SubmissionState.allCases.randomElement(using: &rng)!,
            submittedAt: Self.handIns.randomElement(using: &rng)!)
    }

    /// A copy of `task` with one stored column changed, or the same task.
    private func variant(of task: TaskRecord, _ rng: inout SeededGenerator) -> TaskRecord {
        var t = task
        switch Int.random(in: 0..<11, using: &rng) {
        case 0: t.courseID = Self.courses.randomElement(using: &rng)!
        case 1: t.title = Self.titles.randomElement(using: &rng)!
        case 2: t.studentID = Self.students.randomElement(using: &rng)!
        case 3: t.due = Self.dues.randomElement(using: &rng)!
        case 4: t.priority = Priority.allCases.randomElement(using: &rng)!
        case 5: t.completed.toggle()
        case 6: t.state = SubmissionState.allCases.randomElement(using: &rng)!
        case 7: t.submittedAt = Self.handIns.randomElement(using: &rng)!
        default: break
        }
        return t
    }

    /// Equal stored columns, byte for byte (Swift's `==` on strings is canonical equivalence:
    /// it calls "Café" and "Cafe\u{301}" equal, SQLite does not, and the database is right to
    /// update a title stored in another normal form).
    private func sameBytes(_ a: TaskRecord, _ b: TaskRecord) -> Bool {
        [a.courseID, a.title, a.studentID, a.due, a.submittedAt].map { Array($0.utf8) }
            == [b.courseID, b.title, b.studentID, b.due, b.submittedAt].map { Array($0.utf8) }
            && a.priority == b.priority && a.state == b.state
    }

    /// A new store (`TestStore.make`: SQLite, or PostgreSQL in its pass) with batch 1 and
    /// the courses.
    private func store() throws -> Store {
        let dir = TestFolders.path("dashboard-store")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let store = try TestStore.make(dir + "/db.sqlite")
        try store.database.execute(
            "INSERT INTO batches (batch_id, command, started_at, as_of, mode, status) VALUES (1, 'import', 't', 't', 'merge', 'committed')")
        for course in Self.courses {
            try store.database.run("INSERT INTO courses (course_id, code, title) VALUES (?, ?, 'Course')", [course, course])
        }
        return store
    }

    private func plan(_ database: Database) throws -> [String: String] {
        var plan: [String: String] = [:]
        try database.prepare("SELECT task_id, change FROM plan_tasks").forEachRow { plan[$0.string(0) ?? ""] = $0.string(1) ?? "" }
        return plan
    }

    @Test("random databases and runs: the plan is exactly the policy's", arguments: 0..<24)
    func randomRuns(seed: Int) throws {
        var rng = SeededGenerator(state: UInt64(seed) &* 7919 &+ 17)
        let store = try store()
        let db = store.database
        // The database: up to 400 tasks, some of them tombstones.
        var stored: [String: Stored] = [:]
        for n in 0..<Int.random(in: 0...400, using: &rng) {
            let id = "T\(n)"
            let task = randomTask(id, &rng)
            let deleted = Int.random(in: 0..<6, using: &rng) == 0
            stored[id] = Stored(task: task, deleted: deleted)
            try db.run(
                """
                INSERT INTO tasks (task_id, course_id, title, student_id, due, priority, completed, status, submitted_at,
                                   deleted_batch, changed_batch)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
                """,
                [
                    id, task.courseID, task.title, task.studentID, task.due, task.priority.rawValue, task.completed ? 1 : 0,
                    task.state.rawValue, task.submittedAt, deleted ? 1 : nil,
                ])
        }
        // The run: known ids (same or changed), new ids, in shuffled order; some ids rejected.
        let staging = try StagingArea(database: db)
        var staged: [String: TaskRecord] = [:]
        var rejected = Set<String>()
        var ids = (0..<500).map { "T\($0)" }.filter { _ in Bool.random(using: &rng) }
        ids.shuffle(using: &rng)
        for (line, id) in ids.enumerated() {
            if Int.random(in: 0..<10, using: &rng) == 0 {
                rejected.insert(id)
                try staging.markRejected(.tasks, id: id)
                continue
            }
            let task = stored[id].map { variant(of: $0.task, &rng) } ?? randomTask(id, &rng)
            staged[id] = task
            #expect(try staging.stage(.init(task: task, bucket: "", file: "tasks.csv", line: line + 2, row: line + 1)).isEmpty)
        }
        #expect(try staging.flushTasks().isEmpty)

        for syncTasks in [false, true] {
            try staging.plan(syncCourses: false, syncTasks: syncTasks)
            var expected: [String: String] = [:]
            for (id, task) in staged {
                guard let old = stored[id] else {
                    expected[id] = "insert"
                    continue
                }
                if old.deleted {
                    expected[id] = "restore"
                } else if !sameBytes(old.task, task) {
                    expected[id] = "update"
                }
            }
            if syncTasks {
                for (id, old) in stored where !old.deleted && staged[id] == nil && !rejected.contains(id) {
                    expected[id] = "delete"
                }
            }
            let actual = try plan(db)
            let differences = Set(actual.keys).union(expected.keys).filter { actual[$0] != expected[$0] }.sorted().map {
                "\($0): planned \(actual[$0] ?? "-"), expected \(expected[$0] ?? "-"), stored \(stored[$0].map { "\($0)" } ?? "-"), staged \(staged[$0].map { "\($0)" } ?? "-")"
            }
            #expect(differences.isEmpty, "seed \(seed), sync \(syncTasks): \(differences.prefix(3))")
        }
    }

    @Test("a sync of courses deletes the live tasks of the courses it deletes, and a staged change of such a task stays a change")
    func orphans() throws {
        let store = try store()
        let db = store.database
        let tasks = [("T1", "C1"), ("T2", "C4"), ("T3", "C5"), ("T4", "C5")]
        for (id, course) in tasks {
            try db.run("INSERT INTO tasks (task_id, course_id, title, changed_batch) VALUES (?, ?, 'x', 1)", [id, course])
        }
        try db.run("UPDATE tasks SET deleted_batch = 1 WHERE task_id = 'T4'")
        let staging = try StagingArea(database: db)
        for course in ["C1", "C2", "C3"] {
            #expect(
                try staging.stage(CourseRecord(courseID: course, code: course, title: "Course"), file: "courses.csv", line: 2) == .staged)
        }
        // T2's course goes, but the run moves it to C1: an update, not a delete.
        _ = try staging.stage(.init(task: TaskRecord(taskID: "T2", courseID: "C1", title: "x"), bucket: "", file: "t.csv", line: 2, row: 1))
        _ = try staging.flushTasks()
        try staging.plan(syncCourses: true, syncTasks: false)
        #expect(try plan(db) == ["T2": "update", "T3": "delete"])
    }

    @Test("a staged row keeps its file's path when another staging area is opened on the same connection meanwhile")
    func fileNumbersOutliveOtherStagingAreas() throws {
        let store = try store()
        let db = store.database
        let staging = try StagingArea(database: db)
        _ = try staging.stage(
            .init(task: TaskRecord(taskID: "T1", courseID: "C1", title: "x"), bucket: "", file: "/data/a.csv", line: 2, row: 1))
        _ = try staging.flushTasks()
        // A second area (as `categorize` or a preview makes) empties the staged rows...
        _ = try StagingArea(database: db)
        // ...and the first one stages again from the same file, and from another.
        _ = try staging.stage(
            .init(task: TaskRecord(taskID: "T2", courseID: "C1", title: "y"), bucket: "", file: "/data/a.csv", line: 3, row: 2))
        _ = try staging.stage(
            .init(task: TaskRecord(taskID: "T3", courseID: "C1", title: "z"), bucket: "", file: "/data/b.csv", line: 2, row: 1))
        _ = try staging.flushTasks()
        try staging.hold(batchID: 1)
        let held = try db.prepare("SELECT task_id, file, line FROM held_tasks WHERE batch_id = 1 ORDER BY task_id").rows().map {
            "\($0[0].text ?? "") \($0[1].text ?? "") \($0[2].integer ?? 0)"
        }
        #expect(held == ["T2 /data/a.csv 3", "T3 /data/b.csv 2"])
        // A repeat names the first row's file.
        let repeats = try staging.stage(
            .init(task: TaskRecord(taskID: "T2", courseID: "C1", title: "y"), bucket: "", file: "/data/b.csv", line: 9, row: 8))
        #expect(repeats.isEmpty)
        #expect(try staging.flushTasks().map(\.1) == [.repeatOf(file: "/data/a.csv", line: 3)])
    }

    @Test(
        "the plan reads stage_tasks and tasks by merges, without a temporary B-tree",
        .sqliteOnly("SQLite's query plan: runs in the SQLite pass (PostgreSQL plans by its statistics)"))
    func mergePlans() throws {
        let store = try store()
        _ = try StagingArea(database: store.database)
        for sql in [StagingArea.taskChangesSQL, StagingArea.assignmentChangesSQL, StagingArea.absentTasksSQL] {
            let plan = try store.database.prepare("EXPLAIN QUERY PLAN " + sql).rows().compactMap { $0[3].text }
            #expect(plan.contains("MERGE (EXCEPT)"), "\(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        }
    }
}
