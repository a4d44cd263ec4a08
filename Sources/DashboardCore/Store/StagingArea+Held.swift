/// A held batch planned again: the one plan `batches approve` applies and `batches show` lists.
extension StagingArea {
    /// A staged task dropped because its course is gone since the batch was held.
    typealias DroppedTask = (taskID: String, courseID: String, file: String, line: Int)

    /// Stages held batch `held` again and plans it against the database as it is now.
    ///
    /// Policy: the held tasks whose course no longer exists (a course deleted after the batch
    /// was held) are dropped and marked rejected before planning; a sync deletes only the kinds
    /// the batch's files held. The approval applies this plan and `batches show` lists it, so
    /// the listing is what the approval does.
    /// - Returns: the dropped tasks, by file and line.
    func planHeld(_ held: BatchRecord) throws -> [DroppedTask] {
        try restage(heldBatchID: held.id)
        let kinds = Set(held.files.compactMap(\.kind))
        let syncCourses = held.mode == .sync && kinds.contains(.courses)
        let dropped = try dropTasks(outside: try validCourseIDs(syncingCourses: syncCourses))
        try plan(syncCourses: syncCourses, syncTasks: held.mode == .sync && kinds.contains(.tasks))
        return dropped
    }

    /// The counts an approval of `held` records for the current plan: the held counts, one more
    /// task rejected for each of `dropped` tasks, the planned inserts, updates and deletes.
    func heldCounts(_ held: BatchRecord, dropped: Int) throws -> [FileKind: ImportCounts] {
        var counts = held.counts
        if dropped > 0 { counts[.tasks, default: ImportCounts()].rejected += dropped }
        try fillPlannedCounts(&counts, kinds: Set(held.files.compactMap(\.kind)))
        return counts
    }

    /// The number of planned changes of `kind`, per action.
    func plannedTotals(_ kind: FileKind) throws -> [PlannedChange.Action: Int] {
        let statement = try database.cached(
            "SELECT change, count(*) AS n FROM \(Self.planTable(kind)) GROUP BY change")
        let c = try statement.columnPositions
        let (change, n) = (try c.position("change"), try c.position("n"))
        var totals: [PlannedChange.Action: Int] = [:]
        try statement.forEachRow { row in
            guard let action = PlannedChange.Action(rawValue: row.string(change) ?? "") else { return }
            totals[action] = row.int(n)
        }
        return totals
    }

    /// Calls `body` with the first `limit` (0: all) planned changes of `kind` and `action`, in
    /// id order, each with the live row as it is now and the staged row (SQL pages them).
    func forEachPlannedChange(
        _ kind: FileKind, _ action: PlannedChange.Action, limit: Int, _ body: (PlannedChange) throws -> Void
    ) throws {
        let names = PlannedChange.fieldNames(kind)
        let statement = try database.cached(Self.plannedChangesSQL(kind))
        let c = try statement.columnPositions
        let id = try c.position("id")
        let (hasOld, hasNew) = (try c.position("has_old"), try c.position("has_new"))
        let old = try names.map { try c.position("old_\($0)") }
        let new = try names.map { try c.position("new_\($0)") }
        func values(_ row: Row, _ positions: [Int]) -> [String] {
            zip(names, positions).map { name, position in
                let text = row.string(position) ?? ""
                guard name == "completed" else { return text }
                return text == "1" ? "true" : text == "0" ? "false" : text
            }
        }
        try statement.forEachRow([action.rawValue, limit > 0 ? limit : -1]) { row in
            try body(
                PlannedChange(
                    kind: kind, action: action, id: row.string(id) ?? "",
                    old: row.int(hasOld) == 1 ? values(row, old) : nil,
                    new: row.int(hasNew) == 1 ? values(row, new) : nil))
        }
    }

    private static func planTable(_ kind: FileKind) -> String {
        kind == .courses ? "plan_courses" : "plan_tasks"
    }

    /// One section of the plan joined with the live row (`o`) and the staged row (`n`), by id
    /// (the plan's primary key: no sort), `LIMIT ?2` rows (-1: all).
    static func plannedChangesSQL(_ kind: FileKind) -> String {
        let (live, stage, key) = kind == .courses ? ("courses", "stage_courses", "course_id") : ("tasks", "stage_tasks", "task_id")
        let names = PlannedChange.fieldNames(kind)
        let columns = names.map { "o.\($0) AS old_\($0)" } + names.map { "n.\($0) AS new_\($0)" }
        return """
            SELECT p.\(key) AS id, o.\(key) IS NOT NULL AS has_old, n.\(key) IS NOT NULL AS has_new, \(columns.joined(separator: ", "))
            FROM \(planTable(kind)) p LEFT JOIN \(live) o ON o.\(key) = p.\(key) LEFT JOIN \(stage) n ON n.\(key) = p.\(key)
            WHERE p.change = ?1 ORDER BY p.\(key) LIMIT ?2
            """
    }
}
