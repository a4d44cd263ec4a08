import Foundation

/// The owner of the temporary table `bucket_changes`: the changes one categorize pass decided
/// (`BucketChange`, by `Categorizer.decide`), kept until the pass writes them all at once. It
/// is the only code that creates, writes, reads or clears it.
final class BucketChanges {
    private let database: Database
    private let insert: Statement

    /// Creates the table if needed and empties it.
    init(database: Database) throws {
        self.database = database
        try database.execute(database.sql.bucketChangesTable)
        insert = try database.cached(
            """
            INSERT INTO bucket_changes (task_id, course_id, from_bucket, to_bucket, cause, reason, conflict, override_before,
                                        clear_override, with_batch)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
    }

    /// Keeps one change.
    func record(_ change: BucketChange) throws {
        try insert.run([
            change.taskID, change.courseID, change.from, change.to, change.cause.rawValue, change.reason, change.conflict,
            change.overrideBefore, change.clearOverride, change.withBatch,
        ])
    }

    /// Writes every change kept: the stored buckets (`LiveRows`; a deleted task keeps its last
    /// bucket), the overrides lifted and the audit entries, one per change by task id
    /// (`AuditLog`); entries in the plan name `batchID`.
    func write(recordedAt: Date, asOf: Date, actor: String, batchID: Int?) throws {
        try LiveRows.setBuckets(from: "bucket_changes", skipping: deletedBucketName, in: database)
        try AuditLog.liftOverrides(selecting: "SELECT task_id FROM bucket_changes WHERE clear_override = 1", in: database)
        try AuditLog.appendAll(
            selecting: """
                SELECT ?1, ?2, task_id, course_id, from_bucket, to_bucket, cause, ?3, reason,
                       CASE WHEN with_batch = 1 THEN CAST(?4 AS INTEGER) END, NULL, conflict, '', override_before
                FROM bucket_changes ORDER BY task_id
                """,
            [Timestamp.text(recordedAt), Timestamp.text(asOf), actor, batchID], in: database)
    }

    /// The changes kept, per cause.
    func countsByCause() throws -> [AuditCause: Int] {
        var counts: [AuditCause: Int] = [:]
        let byCause = try database.cached("SELECT cause, count(*) AS n FROM bucket_changes GROUP BY cause")
        let (causeColumn, n) = (try byCause.columnPositions.position("cause"), try byCause.columnPositions.position("n"))
        try byCause.forEachRow { row in
            if let cause = AuditCause(rawValue: row.string(causeColumn) ?? "") { counts[cause] = row.int(n) }
        }
        return counts
    }

    /// Empties the table (the pass is written).
    func clear() throws {
        try database.execute("DELETE FROM bucket_changes")
    }
}
