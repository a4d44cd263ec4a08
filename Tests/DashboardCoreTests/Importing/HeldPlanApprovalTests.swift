import Foundation
import Testing

@testable import DashboardCore

/// `HeldBatchReading` on random data: what `readHeldPlan` lists for a held batch is exactly
/// what `approve` then does to the rows (every insert, restore, update with its changed fields,
/// and delete; nothing more), and its summary's counts are the approval's.
@Suite("Held plan: the listing equals the approval, on random data")
struct HeldPlanApprovalTests {

    private static let courseIDs = ["C1", "C2", "C3", "C4", "C5"]

    private static func coursesFile(_ ids: [String], _ g: inout SeededGenerator) -> String {
        "course_id,code,title,teacher,timezone,language\n"
            + ids.map { id in
                let teacher = ["Ada", "Grace", ""].randomElement(using: &g) ?? ""
                let zone = ["", "Europe/Berlin", "America/New_York"].randomElement(using: &g) ?? ""
                let language = ["", "de_at", "ja"].randomElement(using: &g) ?? ""
                return "\(id),\(id)0,Course \(id)\(Bool.random(using: &g) ? " I" : ""),\(teacher),\(zone),\(language)"
            }.joined(separator: "\n") + "\n"
    }

    private static func tasksFile(_ ids: [Int], courses: [String], _ g: inout SeededGenerator) -> String {
        "task_id,course_id,title,student_id,due,priority,completed,assessment_id,workflow_state,submitted_at\n"
            + ids.map { i in
                let course = courses.randomElement(using: &g) ?? "C1"
                let title = ["Essay", "Quiz", "Lab"].randomElement(using: &g) ?? ""
                let student = ["s1", "s2", ""].randomElement(using: &g) ?? ""
                let due = ["", "2026-12-01", "2026-12-02 09:00"].randomElement(using: &g) ?? ""
                let priority = ["low", "normal", "high"].randomElement(using: &g) ?? ""
                let assignment = ["", "A1", "A2"].randomElement(using: &g) ?? ""
                // A state said by the status word, by completed alone, or both (never in conflict).
                let (completed, state) =
                    [("no", ""), ("yes", ""), ("no", "open"), ("yes", "graded"), ("", "turned in"), ("", "excused")]
                    .randomElement(using: &g) ?? ("", "")
                let handedIn = state == "graded" || state == "turned in" ? ["", "2026-11-30 18:00"].randomElement(using: &g) ?? "" : ""
                return "T\(i),\(course),\(title),\(student),\(due),\(priority),\(completed),\(assignment),\(state),\(handedIn)"
            }.joined(separator: "\n") + "\n"
    }

    /// The data of every course and task row (live or tombstoned), by kind and id; the last
    /// value says whether the row is live.
    private static func rows(_ f: ImporterFixture) throws -> [FileKind: [String: [String]]] {
        let queries: [(FileKind, String)] = [
            (
                .courses,
                "SELECT course_id, code, title, term, teacher, timezone, teacher_email, language, deleted_batch IS NULL FROM courses"
            ),
            (
                .tasks,
                """
                SELECT task_id, course_id, title, student_id, due, priority,
                       CASE completed WHEN 1 THEN 'true' ELSE 'false' END, assignment_id, status, submitted_at,
                       deleted_batch IS NULL FROM tasks
                """
            ),
        ]
        var result: [FileKind: [String: [String]]] = [:]
        for (kind, sql) in queries {
            for row in try f.store.database.rows(sql) {
                let cells = row.map { $0.text ?? "" }
                result[kind, default: [:]][cells[0]] = Array(cells.dropFirst())
            }
        }
        return result
    }

    /// One change as text: `tasks update T3 due:2026-12-01>;priority:low>high`.
    private static func describe(_ kind: FileKind, _ action: String, _ id: String, _ fields: [(String, String?, String?)]) -> String {
        "\(kind.rawValue) \(action) \(id) " + fields.map { "\($0.0):\($0.1 ?? "∅")>\($0.2 ?? "∅")" }.joined(separator: ";")
    }

    /// The changes between two states, worded by `describe`, found without `PlannedChange`.
    private static func changes(_ before: [FileKind: [String: [String]]], _ after: [FileKind: [String: [String]]]) -> [String] {
        var lines: [String] = []
        for kind in FileKind.allCases {
            let names = PlannedChange.fieldNames(kind)
            let old = before[kind] ?? [:]
            let new = after[kind] ?? [:]
            for id in Set(old.keys).union(new.keys) {
                let o = old[id]
                let n = new[id]
                let wasLive = o?.last == "1"
                let isLive = n?.last == "1"
                let action: String
                if o == nil, isLive {
                    action = "insert"
                } else if o != nil, !wasLive, isLive {
                    action = "restore"
                } else if wasLive, !isLive {
                    action = "delete"
                } else if wasLive, isLive, o != n {
                    action = "update"
                } else {
                    continue
                }
                let completed = names.firstIndex(of: "completed")
                let fields = names.enumerated().compactMap { i, name -> (String, String?, String?)? in
                    let before = action == "insert" ? nil : o?[i]
                    let after = action == "delete" ? nil : n?[i]
                    if action == "update" || action == "restore", before == after { return nil }
                    // docs/formats.md: a state shows only where completed does not say it on
                    // both sides; an empty hand-in time only on an update or a restore.
                    if name == "status", let completed {
                        let saidBefore = before == nil || before == (o?[completed] == "true" ? "completed" : "open")
                        let saidAfter = after == nil || after == (n?[completed] == "true" ? "completed" : "open")
                        if saidBefore && saidAfter { return nil }
                    }
                    if name == "submitted_at", action == "insert" || action == "delete", (before ?? after ?? "").isEmpty { return nil }
                    return (name, before, after)
                }
                lines.append(describe(kind, action, id, fields))
            }
        }
        return lines.sorted()
    }

    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func theListingIsWhatTheApprovalDoes(seed: UInt64) throws {
        var g = SeededGenerator(state: seed)
        let f = try ImporterFixture()
        let first = Array(Self.courseIDs.prefix(4))
        try f.run([("c.csv", Self.coursesFile(first, &g)), ("t.csv", Self.tasksFile(Array(1...30), courses: first, &g))])
        // Some tombstones to restore.
        try f.run(
            [("t.csv", Self.tasksFile(Array(1...24), courses: first, &g))], ImporterFixture.options(.sync, maxDelete: .percent(100)))
        // The held sync: some courses gone, one new, tasks changed, gone and new (a task of an
        // unknown course is rejected).
        let heldCourses = Array(Self.courseIDs.shuffled(using: &g).prefix(3))
        let heldTasks = Array((1...36).shuffled(using: &g).prefix(22))
        let files =
            seed % 3 == 0
            ? [("t.csv", Self.tasksFile(heldTasks, courses: first, &g))]
            : [("c.csv", Self.coursesFile(heldCourses, &g)), ("t.csv", Self.tasksFile(heldTasks, courses: heldCourses, &g))]
        let held = try f.run(files, ImporterFixture.options(.sync, maxDelete: .count(0)))
        try #require(held.status == .held)
        let heldID = try #require(held.batchID)
        // Every third held tasks-only batch sees a course deleted after the hold.
        if seed % 3 == 0 {
            try f.run([("c.csv", Self.coursesFile(["C1", "C2"], &g))], ImporterFixture.options(.sync, maxDelete: .percent(100)))
        }

        var listed: [String] = []
        var summary: HeldPlanSummary?
        try f.store.readHeldPlan(batchID: heldID) { plan in
            summary = plan.summary
            for kind in FileKind.allCases {
                for action in PlannedChange.Action.allCases {
                    var count = 0
                    try plan.forEachChange(kind, action, limit: 0) { change in
                        count += 1
                        listed.append(Self.describe(kind, action.rawValue, change.id, change.fields.map { ($0.name, $0.old, $0.new) }))
                    }
                    #expect(count == plan.summary.total(kind, action))
                }
            }
        }
        let before = try Self.rows(f)
        let approved = try f.importer.approve(batchID: heldID, asOf: ImporterFixture.asOf, actor: "tester", force: true)
        let after = try Self.rows(f)
        #expect(listed.sorted() == Self.changes(before, after))
        #expect(summary?.counts == approved.counts)
        #expect(!listed.isEmpty)
    }
}
