import Foundation
import Testing

/// Issue 31 (SPEC §11) in categorization and the reports' places: only open tasks get a bucket,
/// submitted work waits in **To grade** (oldest hand-in first, late ones said in words), excused
/// work is counted apart and never overdue, and a move between a bucket and a state is an audit
/// entry of the import that made it, reverted with its batch. The data is
/// `SubmissionReportTests`' table; the expected places are written from §11, not from our code.
@Suite struct SubmissionCategorizeTests {
    static let asOf = SubmissionReportTests.asOf

    func run(_ sandbox: Sandbox, _ arguments: [String]) throws -> CommandResult {
        try sandbox.run(["--db", "db.sqlite", "--as-of", Self.asOf] + arguments)
    }

    @Test func theGridCountsEachStateInItsPlaceAndOnlyOpenWorkInABucket() throws {
        let sandbox = try SubmissionReportTests.imported()
        let result = try run(sandbox, ["report", "grid", "--format", "json"])
        #expect(result.exitCode == 0, "\(result)")
        let grid = try JSON.object(result.stdout)
        #expect(grid["schema"] as? Int == 2)
        var counts: [String: [String: Int]] = [:]
        for card in JSON.objects(grid["courses"]) {
            counts[card["course_id"] as? String ?? "?"] = (card["counts"] as? [String: Any] ?? [:]).compactMapValues { $0 as? Int }
        }
        // bio: a1 a3 a4 a5 a6 submitted, a2 completed, a7 excused, a8 open and due 2026-12-10.
        #expect(
            counts["bio"] == ["overdue": 0, "today": 0, "upcoming": 1, "undated": 0, "completed": 1, "to_grade": 5, "excused": 1])
        // his: h1 and h3 completed, h2 submitted.
        #expect(
            counts["his"] == ["overdue": 0, "today": 0, "upcoming": 0, "undated": 0, "completed": 2, "to_grade": 1, "excused": 0])
        // The grid's CSV keeps the first version's columns where they were; the new ones end it.
        let csv = try run(sandbox, ["report", "grid", "--format", "csv"]).stdout.components(separatedBy: "\r\n")
        #expect(csv.first?.hasSuffix(",deleted_since,to_grade,excused,handed_in_since,excused_since") == true, "\(csv.first ?? "")")
        #expect(
            csv.contains { $0.hasPrefix("bio,BIO 101,Biology,,,America/New_York,0,0,1,0,1,8,false,") && $0.hasSuffix(",5,1,,") }, "\(csv)")
    }

    @Test func theTextCardSaysToGradeBesideTheOpenCountsAndExcusedInItsTotals() throws {
        let sandbox = try SubmissionReportTests.imported()
        let text = try run(sandbox, ["report", "grid", "--course", "bio", "--width", "100"]).stdout
        // A card is 42 columns wide: the counts wrap after to grade.
        #expect(text.contains("| ! 0 overdue  * 0 today  ~ 5 to grade     |\n| + 1 upcoming  ? 0 no date                |"), "\(text)")
        #expect(text.contains(". 1 of 8 completed, 1 excused"), "\(text)")
        #expect(text.contains("~ to grade") && text.contains("/ excused"), "the legend names the new marks: \(text)")
        // At 80 columns the legend takes two even lines, no mark alone on the second; excused
        // has its own mark, not the `-` of the tasks a --bucket filter leaves out.
        let narrow = try run(sandbox, ["report", "grid", "--course", "bio", "--width", "80"]).stdout
        #expect(
            narrow.contains(
                "\nBar:  ! overdue  * due today  + upcoming\n? no due date  . completed  ~ to grade  / excused\n"), "\(narrow)")
        let filtered = try run(sandbox, ["report", "grid", "--course", "bio", "--bucket", "excused", "--width", "100"]).stdout
        #expect(filtered.contains("/ excused  - other tasks"), "\(filtered)")
        #expect(filtered.contains("| /////-----"), "the bar draws excused work with its mark: \(filtered)")
    }

    @Test func theListHasAToGradeSectionOldestHandInFirstWithLateOnesInWords() throws {
        let sandbox = try SubmissionReportTests.imported()
        let json = try JSON.object(try run(sandbox, ["report", "list", "--course", "bio", "--format", "json"]).stdout)
        let sections = JSON.objects(JSON.objects(json["courses"]).first?["sections"])
        #expect(sections.map { $0["bucket"] as? String ?? "?" } == ["to_grade", "upcoming", "excused"])
        // Hand-ins in New York: a5 16:30, a3 and a6 17:30 (then by title: Lab, Quiz), a4 23:59,
        // a1 on 2026-11-20 with no time (the end of that day).
        let toGrade = JSON.objects(sections.first?["tasks"]).map { $0["task_id"] as? String ?? "?" }
        #expect(toGrade == ["a5", "a3", "a6", "a4", "a1"])
        let text = try run(sandbox, ["report", "list", "--course", "bio", "--include-completed", "--width", "160"]).stdout
        #expect(text.contains("To grade (5)"), "\(text)")
        #expect(text.contains("Excused (1)"), "\(text)")
        // a3 and a6 half an hour after a timed due: the same day; a2 a day after a date.
        let lines = text.split(separator: "\n").map(String.init)
        for (id, words) in [("a3", "handed in late"), ("a6", "handed in late"), ("a2", "handed in 1 day late")] {
            #expect(lines.contains { $0.contains(id) && $0.contains(words) }, "\(id): \(text)")
        }
        for id in ["a1", "a4", "a5", "a7", "a8"] {
            #expect(!lines.contains { $0.contains(" \(id) ") && $0.contains("handed in") }, "\(id): \(text)")
        }
    }

    @Test func theRollUpByAssignmentCountsHandInsLateAndExcusedOfEveryTask() throws {
        let sandbox = try SubmissionReportTests.imported()
        let result = try run(sandbox, ["report", "list", "--group-by", "assignment", "--format", "json"])
        #expect(result.exitCode == 0, "\(result)")
        var rows: [String: [String: Any]] = [:]
        for course in JSON.objects(try JSON.object(result.stdout)["courses"]) {
            for row in JSON.objects(course["assignments"]) {
                rows["\(course["course_id"] as? String ?? "?") \(row["title"] as? String ?? "?")"] = row
            }
        }
        // From the table's why column: bio Essay a1 on time, a2 graded a day late, a7 excused,
        // a8 open; Lab a3 late, a4 on time; Quiz a5 on time, a6 late; his Essay h1 a second late,
        // h2 and h3 never late. (A roll-up's buckets count completed work too; its excused are
        // said once, in the hand-ins.)
        let expected: [String: (live: Int, handedIn: Int, late: Int, excused: Int, status: String)] = [
            "bio Essay": (4, 2, 1, 1, "1 of 4 to grade, 1 upcoming, 1 completed; 2 of 4 handed in, 1 late, 1 excused"),
            "bio Lab": (2, 2, 1, 0, "2 of 2 to grade; 2 of 2 handed in, 1 late"),
            "bio Quiz": (2, 2, 1, 0, "2 of 2 to grade; 2 of 2 handed in, 1 late"),
            "his Essay": (3, 3, 1, 0, "1 of 3 to grade, 2 completed; 3 of 3 handed in, 1 late"),
        ]
        #expect(Set(rows.keys) == Set(expected.keys), "\(rows.keys.sorted())")
        for (key, want) in expected {
            let row = rows[key] ?? [:]
            let handIns = row["hand_ins"] as? [String: Any] ?? [:]
            #expect(row["live_tasks"] as? Int == want.live, "\(key)")
            #expect(handIns["handed_in"] as? Int == want.handedIn, "\(key): \(handIns)")
            #expect(handIns["late"] as? Int == want.late, "\(key): \(handIns)")
            #expect(handIns["excused"] as? Int == want.excused, "\(key): \(handIns)")
            #expect(row["status"] as? String == want.status, "\(key)")
        }
        // A file without §11's columns says nothing of hand-ins: null, and the words of before.
        let plain = try Sandbox()
        try plain.write("courses.csv", SubmissionReportTests.courses)
        try plain.write("tasks.csv", "task_id,course_id,title,due,completed\nz1,his,Essay,2026-11-20,true\nz2,his,Essay,2026-11-30,\n")
        #expect(try run(plain, ["import", "courses.csv", "tasks.csv"]).exitCode == 0)
        let json = try JSON.object(try run(plain, ["report", "list", "--group-by", "assignment", "--format", "json"]).stdout)
        let his = JSON.objects(json["courses"]).first { $0["course_id"] as? String == "his" }
        let row = JSON.objects(his?["assignments"]).first ?? [:]
        #expect(row["hand_ins"] is NSNull, "\(row)")
        #expect(row["status"] as? String == "1 of 2 upcoming, 1 completed", "\(row)")
        let csv = try run(plain, ["report", "list", "--group-by", "assignment", "--format", "csv"]).stdout
        #expect(csv.hasSuffix(",\"1 of 2 upcoming, 1 completed\",0,0,,\r\n"), "\(csv)")
    }

    @Test func theListPagesChipsOfferToGradeAndExcusedWhereThePageListsThem() throws {
        let sandbox = try SubmissionReportTests.imported()
        let page = try run(sandbox, ["report", "list", "--format", "html"]).stdout
        #expect(
            page.contains(
                "for (const bucket of [\"overdue\", \"today\", \"to_grade\", \"upcoming\", \"undated\", \"completed\", \"excused\"])"))
        #expect(page.contains("\"to_grade\":\"To grade\"") && page.contains("\"excused\":\"Excused\""), "the chips' words")
        #expect(page.contains("data-b=\"to_grade\"") && page.contains("data-b=\"excused\""), "rows the chips filter")
        // Their words are plain text in the page's colour: the badge's light text has no
        // background for these places in the pages' style.
        #expect(page.contains("<span class=\"state\">to grade</span>") && page.contains("<span class=\"state\">excused</span>"))
        #expect(!page.contains("status b-to_grade") && !page.contains("status b-excused"))
        // A page without such work keeps the script of before (its hash, the goldens').
        let plain = try Sandbox()
        try plain.write("courses.csv", SubmissionReportTests.courses)
        try plain.write("tasks.csv", "task_id,course_id,title,due\nz1,his,Essay,2026-11-20\n")
        #expect(try run(plain, ["import", "courses.csv", "tasks.csv"]).exitCode == 0)
        let before = try run(plain, ["report", "list", "--format", "html"]).stdout
        #expect(before.contains("for (const bucket of [\"overdue\", \"today\", \"upcoming\", \"undated\", \"completed\"])"))
        #expect(!before.contains("to_grade"))
    }

    /// The grid's HTML card counts work to grade as the text card does (a row after due today),
    /// its bar draws to grade and excused work in colours of their own, the Markdown table gains a
    /// To grade column, and the pages' policy allows exactly the style that holds those colours.
    /// A grid without such work keeps its style and table (the goldens check their bytes).
    @Test func theGridPagesCountToGradeAndDrawBothPlacesWithThePolicyOfTheirStyle() throws {
        let sandbox = try SubmissionReportTests.imported()
        let html = try run(sandbox, ["report", "grid", "--course", "bio", "--format", "html"]).stdout
        #expect(
            html.contains(
                "<tr><th scope=\"row\" class=\"k-today\">Due today</th><td>0</td></tr>\n<tr><th scope=\"row\" class=\"k-to_grade\">To grade</th><td>5</td></tr>\n"
            ), "\(html)")
        #expect(html.contains("<div class=\"b-to_grade w63\"></div>") && html.contains("<div class=\"b-excused w13\"></div>"), "\(html)")
        #expect(html.contains(".b-to_grade, .k-to_grade::before { background: var(--to-grade); }"))
        #expect(html.contains(".b-excused, .k-excused::before { background: repeating-linear-gradient("))
        let markdown = try run(sandbox, ["report", "grid", "--course", "bio", "--format", "md"]).stdout
        #expect(markdown.contains("| Overdue | Due today | To grade | Upcoming | No due date | Summary |"), "\(markdown)")
        #expect(markdown.contains("| 0 | 0 | 5 | 1 | 0 | 1 of 8 completed, 1 excused |"), "\(markdown)")
        let list = try run(sandbox, ["report", "list", "--format", "html"]).stdout
        try sandbox.write("grid.html", html)
        try sandbox.write("list.html", list)
        let script = """
            import base64, hashlib, re, sys
            for path in sys.argv[1:]:
                page = open(path, encoding="utf-8").read()
                policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page).group(1)
                def digest(tag):
                    texts = re.findall(r"<%s>(.*?)</%s>" % (tag, tag), page, re.S)
                    return " ".join("'sha256-" + base64.b64encode(hashlib.sha256(t.encode()).digest()).decode() + "'" for t in texts)
                want = "default-src 'none'; script-src %s; style-src %s; base-uri 'none'; form-action 'none'" % (digest("script"), digest("style"))
                print(path, policy == want)
            """
        try sandbox.write("csp.py", script)
        let result = try sandbox.runTool("python3", ["csp.py", sandbox.path("grid.html"), sandbox.path("list.html")])
        #expect(result.stdout == "\(sandbox.path("grid.html")) True\n\(sandbox.path("list.html")) True\n", "\(result)")
    }

    @Test func aHandInByImportIsAnAuditEntryOfThatBatchAndItsRevertPutsTheTaskBack() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", SubmissionReportTests.courses)
        try sandbox.write("tasks.csv", "task_id,course_id,title,student_id,due\nx1,his,Essay,s1,2026-11-20\n")
        #expect(try run(sandbox, ["import", "courses.csv", "tasks.csv"]).exitCode == 0)
        try sandbox.write(
            "tasks.csv", "task_id,course_id,title,student_id,due,status,submitted_at\nx1,his,Essay,s1,2026-11-20,turned in,2026-11-24\n")
        let second = try run(sandbox, ["import", "tasks.csv", "--format", "json"])
        #expect(second.exitCode == 0, "\(second)")
        let batch = try #require(try JSON.object(second.stdout)["batch_id"] as? Int)
        let audit = JSON.objects(try JSON.object(try run(sandbox, ["audit", "--task", "x1", "--format", "json"]).stdout)["entries"])
        let moves = audit.filter { ($0["derived"] as? Bool) != true }.map {
            "\($0["from"] as? String ?? "?")→\($0["to"] as? String ?? "?") \($0["cause"] as? String ?? "?") \($0["batch_id"] as? Int ?? 0)"
        }
        #expect(moves.last == "overdue→to_grade import \(batch)", "\(moves)")
        #expect(try run(sandbox, ["revert", "--batch", String(batch)]).exitCode == 0)
        let list = try JSON.object(try run(sandbox, ["report", "list", "--format", "json"]).stdout)
        let his = JSON.objects(list["courses"]).first { $0["course_id"] as? String == "his" }
        let task = JSON.objects(JSON.objects(his?["sections"]).first?["tasks"]).first
        #expect(task?["bucket"] as? String == "overdue")
        #expect(task?["status"] as? String == "open")
        let verify = try run(sandbox, ["verify"])
        #expect(verify.exitCode == 0, "\(verify)")
        // A categorize after the revert finds every stored bucket right: no new entry.
        let before = audit.count
        #expect(try run(sandbox, ["categorize"]).exitCode == 0)
        let after = JSON.objects(try JSON.object(try run(sandbox, ["audit", "--task", "x1", "--format", "json"]).stdout)["entries"])
        #expect(after.count == before + 1, "only the revert's entry is new: \(after)")
    }
}
