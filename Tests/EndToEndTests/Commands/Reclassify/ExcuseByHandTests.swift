import Foundation
import Testing

/// Issue 31 (SPEC §11), item 2: a teacher excuses a task by hand with `reclassify TASK --to
/// excused --reason TEXT [--until DATE]` (or a selection, previewed), an override like the
/// others: kept across imports with conflicts recorded, except that an import saying `excused`
/// agrees with it; reverted by `revert` like any override. `to_grade` is never pinned by hand.
@Suite struct ExcuseByHandTests {
    static let asOf = "2026-11-25T12:00:00Z"
    static let courses = "course_id,title,code,timezone\nbio,Biology,BIO 101,America/New_York\n"
    static let tasks = """
        task_id,course_id,title,student_id,due,status
        e1,bio,Essay,s1,2026-11-20,
        e2,bio,Essay,s2,2026-11-20,
        e3,bio,Essay,s3,2026-11-20,
        q1,bio,Quiz,s1,2026-12-10,

        """

    func run(_ sandbox: Sandbox, _ arguments: [String]) throws -> CommandResult {
        try sandbox.run(["--db", "db.sqlite", "--as-of", Self.asOf] + arguments)
    }

    func imported() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Self.courses)
        try sandbox.write("tasks.csv", Self.tasks)
        let result = try run(sandbox, ["import", "courses.csv", "tasks.csv"])
        #expect(result.exitCode == 0, "\(result)")
        return sandbox
    }

    /// Each listed task's bucket, by id (completed included).
    func buckets(_ sandbox: Sandbox) throws -> [String: String] {
        let result = try run(sandbox, ["report", "list", "--include-completed", "--format", "json"])
        #expect(result.exitCode == 0, "\(result)")
        var found: [String: String] = [:]
        for course in JSON.objects(try JSON.object(result.stdout)["courses"]) {
            for section in JSON.objects(course["sections"]) {
                for task in JSON.objects(section["tasks"]) { found[task["task_id"] as? String ?? "?"] = task["bucket"] as? String }
            }
        }
        return found
    }

    func gridCounts(_ sandbox: Sandbox) throws -> [String: Int] {
        let grid = try JSON.object(try run(sandbox, ["report", "grid", "--format", "json"]).stdout)
        return (JSON.objects(grid["courses"]).first?["counts"] as? [String: Any] ?? [:]).compactMapValues { $0 as? Int }
    }

    func entries(_ sandbox: Sandbox, _ arguments: [String] = []) throws -> [[String: Any]] {
        let result = try run(sandbox, ["audit", "--format", "json"] + arguments)
        #expect(result.exitCode == 0, "\(result)")
        return JSON.objects(try JSON.object(result.stdout)["entries"])
    }

    @Test func anExcusedTaskLeavesOverdueForExcusedAndItsRevertPutsItBack() throws {
        let sandbox = try imported()
        #expect(try gridCounts(sandbox)["overdue"] == 3)
        let pinned = try run(sandbox, ["reclassify", "e1", "--to", "excused", "--reason", "medical note", "--actor", "adams"])
        #expect(pinned.exitCode == 0, "\(pinned)")
        let entry = try #require(try entries(sandbox, ["--cause", "override"]).last)
        let id = try #require(entry["entry_id"] as? Int)
        #expect(
            pinned.stderr.contains("entry \(id): task e1 pinned to excused (was overdue); undo with `dashboard revert \(id)`\n"),
            "\(pinned)")
        #expect(entry["to"] as? String == "excused" && entry["reason"] as? String == "medical note")
        #expect(try buckets(sandbox) == ["e1": "excused", "e2": "overdue", "e3": "overdue", "q1": "upcoming"])
        let counts = try gridCounts(sandbox)
        #expect(counts["overdue"] == 2 && counts["excused"] == 1 && counts["to_grade"] == 0, "\(counts)")
        // The list says who excused it and why, as for any pin.
        let text = try run(sandbox, ["report", "list", "--width", "160"]).stdout
        #expect(text.contains("Excused (1)"), "\(text)")
        #expect(try run(sandbox, ["verify"]).exitCode == 0)
        // A categorize keeps it excused: no new entry.
        let before = try entries(sandbox).count
        #expect(try run(sandbox, ["categorize"]).exitCode == 0)
        #expect(try entries(sandbox).count == before)
        let reverted = try run(sandbox, ["revert", String(id)])
        #expect(reverted.exitCode == 0, "\(reverted)")
        #expect(try buckets(sandbox)["e1"] == "overdue")
        #expect(try gridCounts(sandbox)["excused"] == 0)
    }

    @Test func anImportThatSaysExcusedAgreesWithTheTeacherAndAnyOtherChangeIsAConflict() throws {
        let sandbox = try imported()
        for task in ["e1", "e2"] {
            #expect(try run(sandbox, ["reclassify", task, "--to", "excused", "--reason", "trip"]).exitCode == 0)
        }
        // The LMS now says e1 is excused too; e2 gains a new title, still open.
        try sandbox.write(
            "tasks.csv",
            Self.tasks.replacingOccurrences(of: "e1,bio,Essay,s1,2026-11-20,", with: "e1,bio,Essay,s1,2026-11-20,exempt")
                .replacingOccurrences(of: "e2,bio,Essay,s2,", with: "e2,bio,Essay (v2),s2,"))
        let second = try run(sandbox, ["import", "tasks.csv"])
        #expect(second.exitCode == 0, "\(second)")
        let conflicts = try entries(sandbox, ["--conflicts"]).map { $0["task_id"] as? String ?? "?" }
        #expect(conflicts == ["e2"], "only the change the teacher's pin disagrees with: \(conflicts)")
        // Both stay excused; e1's pin stays in force (the teacher's word, should the LMS change).
        #expect(try buckets(sandbox) == ["e1": "excused", "e2": "excused", "e3": "overdue", "q1": "upcoming"])
        let list = try JSON.object(try run(sandbox, ["report", "list", "--format", "json"]).stdout)
        let excused = JSON.objects(JSON.objects(list["courses"]).first?["sections"]).first { $0["bucket"] as? String == "excused" }
        let rows = JSON.objects(excused?["tasks"])
        #expect(rows.map { $0["task_id"] as? String ?? "?" } == ["e1", "e2"])
        #expect(rows.map { $0["status"] as? String ?? "?" } == ["excused", "open"])
        #expect(rows.allSatisfy { ($0["override"] as? [String: Any])?["reason"] as? String == "trip" }, "\(rows)")
    }

    @Test func aSelectionIsExcusedAsOneGroupAfterItsPreviewAndRevertedAsOne() throws {
        let sandbox = try imported()
        let selection = ["--course", "bio", "--bucket", "overdue", "--to", "excused", "--reason", "school trip"]
        let preview = try run(sandbox, ["reclassify"] + selection)
        #expect(preview.exitCode == 0, "\(preview)")
        for task in ["e1", "e2", "e3"] { #expect(preview.stdout.contains(task), "\(preview)") }
        #expect(try buckets(sandbox)["e1"] == "overdue", "a preview writes nothing")
        let applied = try run(sandbox, ["reclassify"] + selection + ["--yes"])
        #expect(applied.exitCode == 0, "\(applied)")
        #expect(try buckets(sandbox) == ["e1": "excused", "e2": "excused", "e3": "excused", "q1": "upcoming"])
        let group = try #require(try entries(sandbox, ["--cause", "override"]).last?["group"] as? Int)
        let reverted = try run(sandbox, ["revert", "--group", String(group)])
        #expect(reverted.exitCode == 0, "\(reverted)")
        #expect(try buckets(sandbox) == ["e1": "overdue", "e2": "overdue", "e3": "overdue", "q1": "upcoming"])
    }

    @Test func anExcuseUntilADateEndsThenAndTheTaskIsOverdueAgain() throws {
        let sandbox = try imported()
        #expect(try run(sandbox, ["reclassify", "e3", "--to", "excused", "--reason", "ill", "--until", "2026-11-27"]).exitCode == 0)
        #expect(try buckets(sandbox)["e3"] == "excused")
        let later = try sandbox.run(["--db", "db.sqlite", "--as-of", "2026-11-28T12:00:00Z", "categorize"])
        #expect(later.exitCode == 0, "\(later)")
        let list = try sandbox.run(["--db", "db.sqlite", "--as-of", "2026-11-28T12:00:00Z", "report", "list", "--format", "json"])
        let sections = JSON.objects(JSON.objects(try JSON.object(list.stdout)["courses"]).first?["sections"])
        #expect(sections.map { $0["bucket"] as? String ?? "?" } == ["overdue", "upcoming"])
    }

    @Test func toGradeIsNeverPinnedByHand() throws {
        let sandbox = try imported()
        let single = try run(sandbox, ["reclassify", "e1", "--to", "to_grade", "--reason", "x"])
        #expect(single.exitCode == 64, "\(single)")
        #expect(
            single.stderr.hasPrefix(
                "dashboard: error: --to must be one of overdue, today, upcoming, undated, completed, excused, not \"to_grade\"\n"),
            "\(single)")
        let bulk = try run(sandbox, ["reclassify", "--course", "bio", "--to", "to_grade", "--reason", "x", "--yes"])
        #expect(bulk.exitCode == 64, "\(bulk)")
        #expect(try buckets(sandbox)["e1"] == "overdue")
        #expect(try entries(sandbox, ["--cause", "override"]).isEmpty)
    }
}
