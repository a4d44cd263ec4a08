import Foundation
import Testing

/// Issue 28, item 3: "what changed overnight" in every report, from the batches and the audit
/// log: two nights of a small school with every kind of change, and the nights whose import
/// failed, was held or brought nothing, which say so instead of counting the night before again.
@Suite struct OvernightChangesTests {
    static let courses = """
        course_id,title,code,teacher
        bio,Biology,BIO 1,Amaka Okafor
        his,History,HIS 2,Amaka Okafor

        """
    /// Night 1 (as of 2026-11-28 02:00 UTC): b1 due on the 28th (passes at the day's end), b2 open,
    /// b3 open, b4 to be deleted, h1 open.
    static let night1 = """
        task_id,course_id,title,due,completed
        b1,bio,Essay,2026-11-28,
        b2,bio,Lab,2026-12-10,
        b3,bio,Poster,2026-12-12,
        b4,bio,Quiz,2026-12-14,
        h1,his,Map,2026-12-01,

        """
    /// Night 2: b2 completed, b4 gone, b5 and h2 new; b1 now overdue by time.
    static let night2 = """
        task_id,course_id,title,due,completed
        b1,bio,Essay,2026-11-28,
        b2,bio,Lab,2026-12-10,yes
        b3,bio,Poster,2026-12-12,
        b5,bio,Report,2026-12-20,
        h1,his,Map,2026-12-01,
        h2,his,Timeline,,

        """

    static func run(_ sandbox: Sandbox, _ arguments: [String], as asOf: String) throws -> CommandResult {
        try sandbox.run(["--db", "db.sqlite", "--as-of", asOf] + arguments)
    }

    static func night(_ sandbox: Sandbox, _ tasks: String, _ asOf: String, expect code: Int32 = 0) throws {
        try sandbox.write("drop/courses.csv", courses)
        try sandbox.write("drop/tasks.csv", tasks)
        let result = try run(
            sandbox, ["nightly", "--imports", "drop", "--reports", "reports", "--mode", "sync", "--max-delete", "100%"], as: asOf)
        guard result.exitCode == code else { throw HarnessError("nightly exited \(result.exitCode), not \(code):\n\(result)") }
    }

    static func grid(_ sandbox: Sandbox, _ asOf: String) throws -> [String: Any] {
        let result = try run(sandbox, ["report", "grid", "--format", "json"], as: asOf)
        guard result.exitCode == 0 else { throw HarnessError("report failed:\n\(result)") }
        return try JSON.object(result.stdout)
    }

    static func changes(_ grid: [String: Any]) -> [String: [String: Int]] {
        var result: [String: [String: Int]] = [:]
        for card in JSON.objects(grid["courses"]) {
            result[card["course_id"] as? String ?? ""] = (card["changes"] as? [String: Int]) ?? [:]
        }
        return result
    }

    static func counts(
        new: Int = 0, nowOverdue: Int = 0, completed: Int = 0, pinned: Int = 0, unpinned: Int = 0, deleted: Int = 0,
        handedIn: Int = 0, excused: Int = 0
    ) -> [String: Int] {
        [
            "new": new, "now_overdue": nowOverdue, "completed": completed, "pinned": pinned, "unpinned": unpinned, "deleted": deleted,
            "handed_in": handedIn, "excused": excused,
        ]
    }

    @Test func theSecondNightCountsEachKindOfChangeInEveryFormat() throws {
        let sandbox = try Sandbox()
        try Self.night(sandbox, Self.night1, "2026-11-28T02:00:00Z")
        // One import: nothing to compare with, and the grid reads as it always did.
        let first = try Self.grid(sandbox, "2026-11-28T03:00:00Z")
        #expect((first["changes"] as? [String: Any])?["state"] as? String == "first_import")
        #expect(JSON.objects(first["courses"]).allSatisfy { $0["changes"] is NSNull })
        #expect(!(try Self.run(sandbox, ["report", "grid"], as: "2026-11-28T03:00:00Z").stdout.contains("since")))
        // During the day a teacher pins h1 and pins then unpins b3.
        for (task, to) in [("h1", "today"), ("b3", "today")] {
            let pinned = try Self.run(
                sandbox, ["reclassify", task, "--to", to, "--reason", "talked to the class"], as: "2026-11-28T10:00:00Z")
            #expect(pinned.exitCode == 0, "\(pinned)")
        }
        let entries = try JSON.objects(
            JSON.object(try Self.run(sandbox, ["audit", "--task", "b3", "--format", "json"], as: "2026-11-28T10:00:00Z").stdout)["entries"])
        let pin = entries.last?["entry_id"] as? Int ?? 0
        #expect(try Self.run(sandbox, ["revert", String(pin)], as: "2026-11-28T11:00:00Z").exitCode == 0)
        try Self.night(sandbox, Self.night2, "2026-11-29T02:00:00Z")
        let grid = try Self.grid(sandbox, "2026-11-29T03:00:00Z")
        let overnight = grid["changes"] as? [String: Any]
        #expect(overnight?["state"] as? String == "changes")
        #expect(overnight?["since"] as? String == "2026-11-28T02:00:00Z")
        #expect(
            overnight?["words"] as? String
                == "Since yesterday: 2 new, 1 now overdue, 1 completed, 2 pinned by hand, 1 unpinned by hand, 1 deleted.")
        #expect(
            Self.changes(grid) == [
                "bio": Self.counts(new: 1, nowOverdue: 1, completed: 1, pinned: 1, unpinned: 1, deleted: 1),
                "his": Self.counts(new: 1, pinned: 1),
            ])
        // Text: a line on each card and the grid's line; the list says it per course.
        let text = try Self.run(sandbox, ["report", "grid", "--width", "100"], as: "2026-11-29T03:00:00Z").stdout
        #expect(
            text.contains("Since yesterday: 2 new, 1 now overdue, 1 completed, 2 pinned by hand, 1 unpinned by hand, 1 deleted.\n"),
            "\(text)")
        #expect(text.contains("since yesterday: 1 new, 1 pinned by"), "\(text)")
        let list = try Self.run(sandbox, ["report", "list", "--course", "his"], as: "2026-11-29T03:00:00Z").stdout
        #expect(list.contains("\nSince yesterday: 1 new, 1 pinned by hand.\n"), "\(list)")
        let html = try Self.run(sandbox, ["report", "grid", "--format", "html"], as: "2026-11-29T03:00:00Z").stdout
        #expect(html.contains("<p class=\"changes\">since yesterday: 1 new, 1 pinned by hand</p>"), "\(html)")
        let csv = try Self.run(sandbox, ["report", "grid", "--format", "csv"], as: "2026-11-29T03:00:00Z").stdout
        #expect(
            csv.contains(",1,0,0,1,0,0,0,0,0,0\r\n"),
            "his's changes, its 0 to grade and 0 excused, then 0 handed in and 0 excused overnight, end its row: \(csv)")
        let markdown = try Self.run(sandbox, ["report", "grid", "--format", "md"], as: "2026-11-29T03:00:00Z").stdout
        #expect(markdown.contains("| since yesterday: 1 new, 1 pinned by hand |"), "\(markdown)")
        // Later the same day, the window is still the night's; two days on it names the date.
        let later = try Self.grid(sandbox, "2026-11-30T20:00:00Z")
        #expect((later["changes"] as? [String: Any])?["words"] as? String != nil)
        #expect(((later["changes"] as? [String: Any])?["words"] as? String)?.hasPrefix("Since 2026-11-28:") == true)
    }

    /// SPEC §11 (issue 31): a night whose export turns work in or excuses it, and a teacher who
    /// excuses a task by hand, say so ("2 handed in, 2 excused"); a task handed in and graded the
    /// same night is completed, not handed in; a new task born submitted is new only.
    @Test func handInsAndExcusesOfTheNightAreCounted() throws {
        let sandbox = try Sandbox()
        let night1 = """
            task_id,course_id,title,due,status,submitted_at
            b1,bio,Essay,2026-11-27,open,
            b2,bio,Lab,2026-12-10,open,
            b3,bio,Poster,2026-12-12,open,
            b4,bio,Quiz,2026-12-14,open,
            b5,bio,Report,2026-12-16,open,
            h1,his,Map,2026-12-01,open,

            """
        // b1 (overdue) and b2 turned in, b3 excused by the export, b5 handed in and graded, h2 new
        // and already turned in; h1 excused by the teacher during the day.
        let night2 = """
            task_id,course_id,title,due,status,submitted_at
            b1,bio,Essay,2026-11-27,submitted,2026-11-28T20:00:00Z
            b2,bio,Lab,2026-12-10,TURNED_IN,2026-11-28T21:00:00Z
            b3,bio,Poster,2026-12-12,excused,
            b4,bio,Quiz,2026-12-14,open,
            b5,bio,Report,2026-12-16,graded,2026-11-28T22:00:00Z
            h1,his,Map,2026-12-01,open,
            h2,his,Timeline,2026-12-03,submitted,2026-11-28T23:00:00Z

            """
        try Self.night(sandbox, night1, "2026-11-28T02:00:00Z")
        let excused = try Self.run(
            sandbox, ["reclassify", "h1", "--to", "excused", "--reason", "school trip"], as: "2026-11-28T10:00:00Z")
        #expect(excused.exitCode == 0, "\(excused)")
        try Self.night(sandbox, night2, "2026-11-29T02:00:00Z")
        let grid = try Self.grid(sandbox, "2026-11-29T03:00:00Z")
        #expect(
            (grid["changes"] as? [String: Any])?["words"] as? String
                == "Since yesterday: 1 new, 2 handed in, 1 completed, 2 excused, 1 pinned by hand.")
        #expect(
            Self.changes(grid) == [
                "bio": Self.counts(completed: 1, handedIn: 2, excused: 1),
                "his": Self.counts(new: 1, pinned: 1, excused: 1),
            ])
        let csv = try Self.run(sandbox, ["report", "grid", "--format", "csv"], as: "2026-11-29T03:00:00Z").stdout
        let rows = csv.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.first?.suffix(4) == ["to_grade", "excused", "handed_in_since", "excused_since"])
        let bio = rows.first { $0.first == "bio" }
        #expect(bio?.suffix(4) == ["2", "1", "2", "1"], "bio: 2 to grade, 1 excused; overnight 2 handed in, 1 excused: \(csv)")
        let list = try Self.run(sandbox, ["report", "list", "--course", "bio", "--language", "de"], as: "2026-11-29T03:00:00Z")
        #expect(list.stdout.contains("Seit gestern: 2 abgegeben, 1 erledigt, 1 befreit."), "\(list)")
    }

    @Test func aFailedHeldOrMissingImportSaysSoAndDoesNotCountTheNightBefore() throws {
        let sandbox = try Sandbox()
        try Self.night(sandbox, Self.night1, "2026-11-28T02:00:00Z")
        try Self.night(sandbox, Self.night2, "2026-11-29T02:00:00Z")
        // Night 3: the export is broken (a file-level error): nothing imported.
        try sandbox.write("drop/tasks.csv", "task_id,course_id,title\n\"unterminated\n")
        let failed = try Self.run(sandbox, ["nightly", "--imports", "drop", "--reports", "reports"], as: "2026-11-30T02:00:00Z")
        #expect(failed.exitCode == 65, "\(failed)")
        let grid = try Self.grid(sandbox, "2026-11-30T03:00:00Z")
        let overnight = grid["changes"] as? [String: Any]
        #expect(overnight?["state"] as? String == "import_failed")
        #expect(overnight?["since"] as? String == "2026-11-29T02:00:00Z", "from the last committed import, not the one before")
        #expect(overnight?["batch"] as? Int == 3)
        // h1 (due 2026-12-01) is not overdue yet; nothing of night 2 is counted again.
        #expect(Self.changes(grid) == ["bio": Self.counts(), "his": Self.counts()])
        #expect(
            overnight?["words"] as? String == "Since yesterday: no change (the newest import failed: nothing was imported since)."
        )
        // The night's own pages say it too.
        let page = String(decoding: try sandbox.read("reports/latest/index.txt"), as: UTF8.self)
        #expect(page.contains("Since yesterday: no change (the newest import failed"), "\(page)")
        // Night 4: no export at all.
        try FileManager.default.removeItem(atPath: sandbox.path("drop"))
        try FileManager.default.createDirectory(atPath: sandbox.path("drop"), withIntermediateDirectories: true)
        let none = try Self.run(sandbox, ["nightly", "--imports", "drop", "--reports", "reports"], as: "2026-12-02T02:00:00Z")
        #expect(none.exitCode == 66, "\(none)")
        let missing = String(decoding: try sandbox.read("reports/latest/index.json"), as: UTF8.self)
        let json = try JSON.object(missing)["changes"] as? [String: Any]
        #expect(json?["state"] as? String == "import_failed", "the failed batch is still the newest attempt")
        // A held sync: its deletes are not counted.
        try sandbox.write("drop/courses.csv", Self.courses)
        try sandbox.write("drop/tasks.csv", "task_id,course_id,title,due\nb1,bio,Essay,2026-11-28\n")
        let held = try Self.run(
            sandbox, ["nightly", "--imports", "drop", "--reports", "reports", "--mode", "sync"], as: "2026-12-03T02:00:00Z")
        #expect(held.exitCode == 65, "\(held)")
        let heldGrid = try Self.grid(sandbox, "2026-12-03T03:00:00Z")
        #expect((heldGrid["changes"] as? [String: Any])?["state"] as? String == "import_held")
        #expect(Self.changes(heldGrid)["bio"]?["deleted"] == 0)
        // h1 passed its due on 2026-12-01 (by time): counted since the last committed import.
        #expect(Self.changes(heldGrid)["his"]?["now_overdue"] == 1)
    }
}
