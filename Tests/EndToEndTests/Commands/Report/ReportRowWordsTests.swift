import Foundation
import Testing

/// What a list row and a section heading say (issue 14): the task id in every format, how late
/// an overdue task is (whole days in its course's zone, across a change of daylight saving
/// time), the override of a pinned task with its end and reason, the whole count of a section
/// on a page that shows part of it, and the HTML anchor of every row. Goldens in Goldens/rows/.
@Suite struct ReportRowWordsTests {
    /// Tuesday 2026-11-03 09:00 UTC: 10:00 in Berlin (summer time ended Oct 25), 04:00 in New
    /// York (ended Nov 1), 20:00 in Sydney (summer time since Oct 4).
    static let asOf = "2026-11-03T09:00:00Z"

    static let courses = """
        Course ID,Code,Title,Term,Teacher,Time Zone
        ber,DST 100,Berlin course,Fall 2026,Prof. Jürgen Müller,Europe/Berlin
        nyc,NYC 200,New York course,Fall 2026,Dr. Maria Alvarez,America/New_York
        syd,SYD 300,Sydney course,Semester 2 2026,Ms. Olivia Nguyen,Australia/Sydney

        """

    /// Overdue tasks of every lateness, ids that need encoding in an anchor, two tasks pinned
    /// by hand (one with an end, one without, with a long reason).
    static let tasks = """
        Task ID,Course,Title,Student,Due Date,Priority,Done
        a b,ber,Before the change: a date,s1,2026-10-20,high,
        x#y,ber,On the night of the change,s2,2026-10-25T02:30,normal,
        ü,ber,Yesterday,s3,2026-11-02,low,
        a_20b,ber,This morning,s4,2026-11-03T08:00,normal,
        B5,ber,Upcoming,s5,2026-11-20,normal,
        B6,ber,Pinned with an end,s6,2026-10-30,high,
        N0,nyc,A month ago,s4,2026-10-01,low,
        N1,nyc,Evening before the change,s1,2026-10-31T23:30,normal,
        N2,nyc,Instant on a UTC day after the local one,s2,2026-11-02T04:30:00Z,high,
        N3,nyc,Due today,s3,2026-11-03,normal,
        S1,syd,Yesterday in Sydney,s1,2026-11-02,normal,
        S2,syd,Instant that is today in Sydney,s2,2026-11-02T14:00:00Z,normal,
        S3,syd,Pinned without an end,s3,2026-11-01,low,

        """

    static let longReason =
        "talked to the parents on Monday; the student was ill for two weeks and hands the work in after the school trip, as agreed with the head of year"

    /// A sandbox holding `db.sqlite` with the fixture imported and two tasks pinned.
    static func prepared() throws -> Sandbox {
        let sandbox = try Sandbox()
        _ = try sandbox.write("in/courses.csv", courses)
        _ = try sandbox.write("in/tasks.csv", tasks)
        let steps: [[String]] = [
            ["import", "in"],
            ["reclassify", "B6", "--to", "upcoming", "--reason", "extension granted", "--until", "2026-12-06", "--actor", "adams"],
            ["reclassify", "S3", "--to", "today", "--reason", longReason, "--actor", "nguyen"],
        ]
        for arguments in steps {
            let result = try sandbox.run(["--db", "db.sqlite", "--as-of", asOf] + arguments)
            guard result.exitCode == 0 else { throw HarnessError("step \(arguments) failed\n\(result)") }
        }
        return sandbox
    }

    /// `dashboard report list ARGS` on the fixture; expects exit 0 and nothing on stderr.
    static func list(_ arguments: [String], in sandbox: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> String
    {
        let result = try sandbox.run(["--db", "db.sqlite", "--as-of", asOf, "report", "list"] + arguments)
        #expect(result.exitCode == 0, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr == "", sourceLocation: sourceLocation)
        return result.stdout
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let golden: String
        let arguments: [String]
        var testDescription: String { golden }
    }

    /// Page 2 of 4-task pages: the Berlin course's upcoming section whole (places 5–6 of the
    /// list), then the first 2 of the New York course's 3 overdue tasks (places 7–8).
    static let paged = ["--limit", "4", "--page", "2"]

    static let cases: [Case] = [
        Case(golden: "rows/list-width-100.txt", arguments: ["--format", "text", "--width", "100"]),
        Case(golden: "rows/list-width-40.txt", arguments: ["--format", "text", "--width", "40"]),
        Case(golden: "rows/list.md", arguments: ["--format", "markdown"]),
        Case(golden: "rows/list.json", arguments: ["--format", "json"]),
        Case(golden: "rows/list.csv", arguments: ["--format", "csv"]),
        Case(golden: "rows/list.html", arguments: ["--format", "html"]),
        Case(golden: "rows/list-page-2.txt", arguments: ["--format", "text", "--width", "100"] + paged),
        Case(golden: "rows/list-page-2.md", arguments: ["--format", "markdown"] + paged),
        Case(golden: "rows/list-page-2.json", arguments: ["--format", "json"] + paged),
        Case(golden: "rows/list-page-2.csv", arguments: ["--format", "csv"] + paged),
        Case(golden: "rows/list-page-2.html", arguments: ["--format", "html"] + paged),
    ]

    @Test(arguments: cases) func listMatchesItsGolden(_ testCase: Case) throws {
        let sandbox = try Self.prepared()
        GoldenFile.expectMatch(try Self.list(testCase.arguments, in: sandbox), golden: testCase.golden)
    }

    /// The course files `--out` writes (and `nightly`, with the same renderers), in each format.
    @Test(arguments: ["html", "markdown", "csv", "json"]) func theCourseFilesOfOutMatchTheirGoldens(format: String) throws {
        let sandbox = try Self.prepared()
        let result = try sandbox.run(["--db", "db.sqlite", "--as-of", Self.asOf, "report", "list", "--format", format, "--out", "out"])
        #expect(result.exitCode == 0, "\(result)")
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("out")).sorted().filter { $0.hasPrefix("course-") }
        #expect(names.count == 3)
        for name in names { GoldenFile.expectMatch(try sandbox.read("out/" + name), golden: "rows/out/" + name) }
    }

    @Test func jsonGivesHowLateTheOverrideAndWholeSectionCounts() throws {
        let sandbox = try Self.prepared()
        let json = try JSON.object(try Self.list(["--format", "json"], in: sandbox))
        var tasks: [String: [String: Any]] = [:]
        for course in JSON.objects(json["courses"]) {
            for section in JSON.objects(course["sections"]) {
                #expect(section["count"] as? Int == (section["tasks"] as? [Any])?.count)
                for task in JSON.objects(section["tasks"]) { tasks[task["task_id"] as? String ?? "?"] = task }
            }
        }
        // Whole days in each course's zone, whatever the daylight saving time did in between.
        let late: [String: Int] = ["a b": 14, "x#y": 9, "ü": 1, "a_20b": 0, "N0": 33, "N1": 3, "N2": 2, "S1": 1, "S2": 0]
        for (id, days) in late {
            #expect(tasks[id]?["days_late"] as? Int == days, "\(id)")
            #expect(tasks[id]?["late"] as? String == (days == 0 ? "late today" : days == 1 ? "1 day late" : "\(days) days late"), "\(id)")
        }
        for id in ["B5", "B6", "N3", "S3"] { #expect(tasks[id]?["days_late"] is NSNull, "\(id)") }
        let pinned = tasks["B6"]?["override"] as? [String: Any]
        #expect(pinned?["until"] as? String == "2026-12-06")
        #expect(pinned?["reason"] as? String == "extension granted")
        #expect(pinned?["actor"] as? String == "adams")
        #expect(pinned?["words"] as? String == "set by hand until 2026-12-06: extension granted")
        let open = tasks["S3"]?["override"] as? [String: Any]
        #expect(open?["until"] is NSNull)
        #expect(open?["words"] as? String == "set by hand: " + Self.longReason)
        #expect(tasks["N1"]?["override"] is NSNull)
    }

    /// Each section of a page as "CODE/bucket count shown first–last" (JSON).
    static func pagedSections(_ page: Int, in sandbox: Sandbox) throws -> [String] {
        let json = try JSON.object(try list(["--format", "json", "--limit", "4", "--page", "\(page)"], in: sandbox))
        return JSON.objects(json["courses"]).flatMap { course in
            JSON.objects(course["sections"]).map { section in
                "\(course["code"] ?? "")/\(section["bucket"] ?? "") \(section["count"] ?? "") \(section["shown"] ?? "") "
                    + "\(section["first"] ?? "")–\(section["last"] ?? "")"
            }
        }
    }

    @Test func aPagedSectionGivesItsWholeCountAndThePlacesShown() throws {
        let sandbox = try Self.prepared()
        #expect(try Self.pagedSections(1, in: sandbox) == ["DST 100/overdue 4 4 1–4"])
        #expect(try Self.pagedSections(2, in: sandbox) == ["DST 100/upcoming 2 2 1–2", "NYC 200/overdue 3 2 1–2"])
        // A section begun on an earlier page: its places are counted from the whole list.
        #expect(
            try Self.pagedSections(3, in: sandbox) == ["NYC 200/overdue 3 1 3–3", "NYC 200/today 1 1 1–1", "SYD 300/overdue 2 2 1–2"])
        #expect(try Self.pagedSections(4, in: sandbox) == ["SYD 300/today 1 1 1–1"])
        let text = try Self.list(["--format", "text", "--width", "100", "--limit", "4", "--page", "3"], in: sandbox)
        #expect(text.contains("\n  Overdue (3) — showing 3 of 3\n"))
        #expect(text.contains("\n  Due today (1)\n"))
        let second = try Self.list(["--format", "text", "--width", "100"] + Self.paged, in: sandbox)
        #expect(second.contains("\n  Overdue (3) — showing 1–2 of 3\n"))
    }

    @Test func everyIdOfAnHTMLPageIsUniqueAndValidAndEveryRowHasItsAnchor() throws {
        let sandbox = try Self.prepared()
        let page = try Self.list(["--format", "html"], in: sandbox)
        let ids = page.matches(of: /\sid="([^"]*)"/).map { String($0.output.1) }
        #expect(Set(ids).count == ids.count, "duplicate ids: \(ids)")
        for id in ids { #expect(id.wholeMatch(of: /[A-Za-z][A-Za-z0-9._-]*/) != nil, "\(id) is not a plain id") }
        let anchors = ids.filter { $0.hasPrefix("task-") }
        #expect(anchors.count == 13)
        for anchor in ["task-a_20b", "task-x_23y", "task-_C3_BC", "task-a_5F20b", "task-B6", "task-S3"] {
            #expect(anchors.contains(anchor), "\(anchor) missing from \(anchors)")
        }
    }

    @Test func textRowsNeverCutTheOverrideAndFitTheWidth() throws {
        let sandbox = try Self.prepared()
        for width in [40, 60, 100] {
            let text = try Self.list(["--format", "text", "--width", "\(width)"], in: sandbox)
            for line in text.split(separator: "\n") { #expect(TerminalColumns.of(line) <= width, "\(width): \(line)") }
            let joined = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            #expect(joined.contains("set by hand until 2026-12-06: extension granted"), "\(width)")
            #expect(joined.contains("set by hand: " + Self.longReason), "\(width)")
        }
    }
}
