import Foundation

/// What a bulk `dashboard reclassify` selects and pins: the report's search and filters (a
/// `ReportQuery`), the bucket and the optional end.
package struct BulkSelection: Sendable {
    /// The report's search and filters; its sort orders the preview.
    package var query: ReportQuery
    package var bucket: Bucket
    /// The end as given (`--until`), nil for none.
    package var until: String?
    /// The buckets are those of this instant, in each course's zone (the report's as-of).
    package var asOf: Date
    package var defaultTimeZone: TimeZone

    package init(query: ReportQuery, bucket: Bucket, until: String?, asOf: Date, defaultTimeZone: TimeZone) {
        self.query = query
        self.bucket = bucket
        self.until = until
        self.asOf = asOf
        self.defaultTimeZone = defaultTimeZone
    }
}

/// One task a bulk reclassification selects.
package struct BulkTask: Sendable, Equatable {
    package var taskID: String
    package var courseID: String
    package var courseCode: String
    package var title: String
    /// Its bucket as the report shows it as of the selection's as-of (an override in force wins).
    package var from: Bucket
    /// An override in force already pins it to the target bucket with the same end: pinning
    /// it again would change nothing, so it is listed and skipped.
    package var skipped: Bool
    /// The `override` entry that pinned it (after `--yes`); nil in a preview and when skipped.
    package var entryID: Int?
}

/// The tasks a bulk reclassification selects, in the report's order, and its fingerprint.
package struct BulkPlan: Sendable, Equatable {
    package var tasks: [BulkTask]
    package var bucket: Bucket
    /// The end as stored (`DueDate.storageText`), "" for none.
    package var until: String
    /// The selection's fingerprint (`BulkReclassify.token`) and, after a dot, the store's
    /// change marks when it was read (`lastEntry.lastBatch`): `--confirm` compares the
    /// fingerprint, and names the tasks changed after the marks when it differs.
    package var token: String
    /// The group the entries were recorded under (after `--yes`), nil otherwise.
    package var groupID: Int?

    /// The tasks that are pinned (not skipped).
    package var pinned: [BulkTask] { tasks.filter { !$0.skipped } }
    package var skippedCount: Int { tasks.count - pinned.count }
}

/// The decisions of a bulk `dashboard reclassify`, pure over values and a `ReportReading`.
///
/// Policy:
/// - the tasks selected are exactly those `dashboard report list` with the same search and
///   filters lists, as of the same instant: the same pass (`ReportCoursePass`, `ReportMatcher`,
///   `BucketPolicy.effective`) over the same store read (completed tasks only with
///   `--include-completed` or `--bucket completed`), in the report's order;
/// - a task an override in force already pins to the target bucket with the same end is
///   skipped (pinning it again would change nothing); any other task is pinned, even one
///   whose computed bucket is the target already (so it stays there until the end);
/// - the end must lie ahead in every selected task's course zone, else nothing is pinned;
/// - at most `taskLimit` tasks: a larger selection is refused whole (narrow it).
package enum BulkReclassify {
    /// The most tasks one bulk change pins: the preview, the transaction and the audit group
    /// stay reviewable (a class's snow day is tens of tasks, a school's a few thousand).
    package static let taskLimit = 10_000

    /// The selection as of `selection.asOf`, read in one snapshot of `reader` (inside a write
    /// transaction, that transaction's).
    /// - Throws: `AuditError`: a bucket no override may name, an end that is no date or that
    ///   has passed in a selected task's course zone, a selection over `taskLimit`; the store's
    ///   errors as they are.
    package static func plan(_ reader: any ReportReading & ChangeMarksReading, _ selection: BulkSelection) throws -> BulkPlan {
        var query = selection.query
        (query.limit, query.page) = (nil, 1)
        guard Bucket.pinnable.contains(selection.bucket) else { throw AuditError.notPinnable(selection.bucket) }
        let until = try storedEnd(selection.until)
        var found: [(key: [UInt8], task: BulkTask)] = []
        var count = 0
        var checkedCourses: Set<String> = []
        var marks = ChangeMarks(lastEntry: 0, lastBatch: 0)
        try reader.read {
            marks = try reader.changeMarks()
            var (courseKey, keyOf): ([UInt8], String?) = ([], nil)
            try ReportCoursePass.forEachCourse(
                reader, query: query, kinds: [.list], asOf: selection.asOf, defaultTimeZone: selection.defaultTimeZone,
                onlyCourses: query.courses, { _ in }
            ) { course, local, task, override in
                count += 1
                guard count <= taskLimit else { return }
                // The end must lie ahead in each course's zone (`ManualOverride.expiry`'s rule).
                if let given = selection.until, checkedCourses.insert(course.courseID).inserted,
                    BucketPolicy.hasExpired(until: until, at: local)
                {
                    throw AuditError.expiryPassed(until: given, asOf: Timestamp.text(selection.asOf))
                }
                if keyOf != course.courseID { (courseKey, keyOf) = (ReportSortKey.course(course), course.courseID) }
                let due = ReportPipeline.sortInstant(task, local.timeZone)
                let skipped = task.pinned && task.bucket == selection.bucket && override?.until == until
                found.append(
                    (
                        ReportSortKey.key(course: courseKey, task: task, due: due, sort: query.sort),
                        BulkTask(
                            taskID: task.task.taskID, courseID: course.courseID, courseCode: course.code, title: task.task.title,
                            from: task.bucket, skipped: skipped, entryID: nil)
                    ))
            }
        }
        if count > taskLimit { throw AuditError.bulkTooLarge(count: count, limit: taskLimit) }
        let tasks = found.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.task)
        let token = token(tasks, selection.bucket, until) + ".\(marks.lastEntry).\(marks.lastBatch)"
        return BulkPlan(tasks: tasks, bucket: selection.bucket, until: until, token: token, groupID: nil)
    }

    /// The most changed tasks a refused `--confirm` names.
    package static let changedLimit = 1_000

    /// Refuses to apply when `confirm` (the preview's token) does not carry the selection's
    /// fingerprint now (the marks after it do not count).
    /// - Parameter changedSince: the tasks changed after the marks (`ChangeMarksReading`).
    /// - Throws: `AuditError.selectionChanged` with the selection as it is now and the tasks
    ///   changed since the preview.
    package static func check(_ plan: BulkPlan, confirm: String?, changedSince: (ChangeMarks) throws -> [String]) throws {
        guard let confirm else { return }
        let parts = confirm.lowercased().split(separator: ".", omittingEmptySubsequences: false)
        let current = plan.token.split(separator: ".").first.map(String.init) ?? plan.token
        guard parts.first.map(String.init) != current else { return }
        var changed: [String]?
        if parts.count == 3, let entry = Int(parts[1]), let batch = Int(parts[2]), entry >= 0, batch >= 0 {
            changed = try changedSince(ChangeMarks(lastEntry: entry, lastBatch: batch))
        }
        throw AuditError.selectionChanged(confirm: confirm, now: plan, changed: changed)
    }

    /// The selection's fingerprint (a token's first part): the first 12 hexadecimal digits of
    /// the SHA-256 of the target and end, then every task's id, bucket and whether it is
    /// skipped, by id. Two selections have the same fingerprint exactly when applying them
    /// would pin the same tasks from the same buckets to the same bucket and end (titles and
    /// order do not count).
    package static func token(_ tasks: [BulkTask], _ bucket: Bucket, _ until: String) -> String {
        let digest = SHA256()
        digest.update(Array("\(bucket.rawValue)\t\(until)\n".utf8))
        for task in tasks.sorted(by: { $0.taskID.utf8.lexicographicallyPrecedes($1.taskID.utf8) }) {
            digest.update(Array("\(task.taskID)\t\(task.from.rawValue)\t\(task.skipped ? 1 : 0)\n".utf8))
        }
        return String(digest.finalizeHex().prefix(12))
    }

    /// The end as stored, "" for none.
    /// - Throws: `AuditError.invalidExpiry` when it is no date, local time or instant.
    static func storedEnd(_ until: String?) throws(AuditError) -> String {
        guard let until else { return "" }
        guard let parsed = try? DueDateParser.parse(until, dateOrder: nil) else { throw .invalidExpiry(until) }
        return parsed.storageText
    }
}
