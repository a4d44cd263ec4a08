import Foundation
import Testing

@testable import DashboardCore

/// The statement that stores a pass's buckets walks the pass's changes and finds each task by
/// its key, whatever the number of tasks: as `UPDATE … FROM bucket_changes` SQLite scanned every
/// task (an empty pass over a million tasks took 1.6–2.4 s of every import and categorize).
@Suite("Storing a pass's buckets: the changes drive, each task found by its key")
struct BucketWriteQueryPlanTests {
    @Test("the plan searches tasks by primary key and never scans them, with many tasks or none")
    func plan() throws {
        let dir = TestFolders.path("dashboard-plan")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try Store(path: dir + "/db.sqlite")
        _ = try BucketChanges(database: store.database)
        try store.database.execute(
            "INSERT INTO batches (batch_id, command, started_at, as_of, mode, status) VALUES (1, 'import', 't', 't', 'merge', 'committed')")
        try store.database.run("INSERT INTO courses (course_id, code, title) VALUES ('C1', 'C1', 'Course')")
        for round in 0..<2 {
            let plan = try store.database.prepare("EXPLAIN QUERY PLAN " + LiveRows.setBucketsSQL(from: "temp.bucket_changes")).rows()
                .compactMap { $0[3].text }
            #expect(plan.contains("SEARCH tasks USING PRIMARY KEY (task_id=?)"), "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN tasks") }, "\(plan)")
            // Then with tasks in the table (and stale statistics never gathered).
            if round == 0 {
                try store.database.execute(
                    """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
                    INSERT INTO tasks (task_id, course_id, title, bucket) SELECT 'T' || i, 'C1', 'x', 'upcoming' FROM n
                    """)
            }
        }
        // And it stores what the changes say, skipping a deleted task's bucket and rows already right.
        try store.database.execute(
            """
            INSERT INTO temp.bucket_changes VALUES ('T1', 'C1', 'upcoming', 'overdue', 'time', '', 0, NULL, 0, 0);
            INSERT INTO temp.bucket_changes VALUES ('T2', 'C1', 'upcoming', 'deleted', 'delete', '', 0, NULL, 0, 0);
            INSERT INTO temp.bucket_changes VALUES ('T3', 'C1', 'upcoming', 'upcoming', 'time', '', 0, NULL, 0, 0);
            """)
        try LiveRows.setBuckets(from: "temp.bucket_changes", skipping: "deleted", in: store.database)
        let buckets = try store.database.prepare("SELECT task_id, bucket FROM tasks WHERE task_id IN ('T1', 'T2', 'T3') ORDER BY task_id")
            .rows().map { "\($0[0].text ?? "") \($0[1].text ?? "")" }
        #expect(buckets == ["T1 overdue", "T2 upcoming", "T3 upcoming"])
    }
}
