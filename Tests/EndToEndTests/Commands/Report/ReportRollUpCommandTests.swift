import Foundation
import Testing

/// `report list --group-by assignment|student` on the real binary (issue 14, roll-ups): one row
/// per assignment of a course (its `assignment_id`, else its title) with its due, students and
/// a count per bucket, and each student's tasks across courses, in every format, whole and
/// paged; and the refusals (a grid, `--out`, an unknown grouping). Goldens in Goldens/rollups/.
@Suite struct ReportRollUpCommandTests {
    /// Monday 2026-11-30 15:00 UTC: 10:00 in New York, 16:00 in Berlin.
    static let asOf = "2026-11-30T15:00:00Z"

    static let courses = """
        Course ID,Code,Title,Term,Teacher,Time Zone
        bio,BIO 101,Biology,Fall 2026,Dr. Maria Alvarez,America/New_York
        ger,GER 200,German,Fall 2026,Prof. Jürgen Müller,Europe/Berlin
        his,HIS 300,History,Fall 2026,Ms. Olivia Nguyen,Europe/Berlin
        art,ART 150,Art,Fall 2026,,America/New_York

        """

    /// BIO (New York): LAB-1 of four students (B01 completed, B02 5 days late, B03 pinned to
    /// upcoming below, B04 due later: 3 days late; B03's title differs, the row takes B01's),
    /// QUIZ-4 due today, PROJ upcoming on two days, and "Field trip form" without an id.
    /// GER (Berlin): ESSAY-1 (G01 and G02 due 00:30 Berlin time today, an instant: late today;
    /// G03 2 days late), VOK-3, and "Klassenbuch" without a student. HIS (Berlin): tasks without
    /// ids, one completed. ART has no task: a roll-up by assignment shows it, with its words, when
    /// nothing narrows the list (on page 1). The id column is read under its alias "Assessment ID".
    static let tasks = """
        Task ID,Course,Title,Student,Due Date,Priority,Done,Assessment ID
        B01,bio,Lab report 1,s1,2026-11-25,high,yes,LAB-1
        B02,bio,Lab report 1,s2,2026-11-25,high,no,LAB-1
        B03,bio,Lab report 1 (resubmission),s3,2026-11-25,high,no,LAB-1
        B04,bio,Lab report 1,s4,2026-11-27T17:00,high,no,LAB-1
        B05,bio,Reading quiz,s1,2026-11-30T23:00,normal,no,QUIZ-4
        B06,bio,Reading quiz,s2,2026-11-30T23:00,normal,no,QUIZ-4
        B07,bio,Reading quiz,s3,2026-11-30T23:00,normal,yes,QUIZ-4
        B08,bio,Final project,s1,2026-12-10,low,no,PROJ
        B09,bio,Final project,s2,2026-12-10,low,no,PROJ
        B10,bio,Final project,s3,2026-12-12,low,no,PROJ
        B11,bio,Field trip form,s1,,normal,no,
        B12,bio,Field trip form,s2,,normal,yes,
        G01,ger,Aufsatz 1,s1,2026-11-29T23:30:00Z,normal,no,ESSAY-1
        G02,ger,Aufsatz 1,s5,2026-11-29T23:30:00Z,normal,no,ESSAY-1
        G03,ger,Aufsatz 1,s6,2026-11-28,normal,no,ESSAY-1
        G04,ger,Vokabeltest 3,s1,2026-12-01T08:00,high,no,VOK-3
        G05,ger,Vokabeltest 3,s5,2026-12-01T08:00,high,no,VOK-3
        G06,ger,Vokabeltest 3,s6,2026-12-01T08:00,high,yes,VOK-3
        G07,ger,Klassenbuch,,2026-12-02,low,no,
        H01,his,Source analysis,s2,2026-12-03,normal,no,
        H02,his,Source analysis,s5,2026-12-03,normal,no,
        H03,his,Timeline,s2,2026-11-20,normal,yes,

        """

    /// A sandbox holding `db.sqlite` with the fixture imported and B03 pinned.
    static func prepared() throws -> Sandbox {
        let sandbox = try Sandbox()
        _ = try sandbox.write("in/courses.csv", courses)
        _ = try sandbox.write("in/tasks.csv", tasks)
        let steps: [[String]] = [
            ["import", "in"],
            ["reclassify", "B03", "--to", "upcoming", "--reason", "extension granted", "--until", "2026-12-06", "--actor", "adams"],
        ]
        for arguments in steps {
            let result = try sandbox.run(["--db", "db.sqlite", "--as-of", asOf] + arguments)
            guard result.exitCode == 0 else { throw HarnessError("step \(arguments) failed\n\(result)") }
        }
        return sandbox
    }

    /// `dashboard report list ARGS`; expects exit 0 and nothing on stderr.
    static func list(_ arguments: [String], in sandbox: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
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

    /// Page 2 of 3-item pages: rows 4–6 of 9 (BIO's last, GER's first two), tasks 4–6 of 17
    /// (s1's last two of five, s2's first of four).
    static let paged = ["--limit", "3", "--page", "2"]

    static let cases: [Case] = ["assignment", "student"].flatMap { grouping -> [Case] in
        let by = ["--group-by", grouping]
        let wide = grouping == "assignment" ? "140" : "100"
        return [
            Case(golden: "rollups/\(grouping)-width-\(wide).txt", arguments: by + ["--format", "text", "--width", wide]),
            Case(golden: "rollups/\(grouping)-width-40.txt", arguments: by + ["--format", "text", "--width", "40"]),
            Case(golden: "rollups/\(grouping).md", arguments: by + ["--format", "markdown"]),
            Case(golden: "rollups/\(grouping).html", arguments: by + ["--format", "html"]),
            Case(golden: "rollups/\(grouping).json", arguments: by + ["--format", "json"]),
            Case(golden: "rollups/\(grouping).csv", arguments: by + ["--format", "csv"]),
            Case(golden: "rollups/\(grouping)-page-2.txt", arguments: by + ["--format", "text", "--width", wide] + paged),
            Case(golden: "rollups/\(grouping)-page-2-width-40.txt", arguments: by + ["--format", "text", "--width", "40"] + paged),
            Case(golden: "rollups/\(grouping)-page-2.md", arguments: by + ["--format", "markdown"] + paged),
            Case(golden: "rollups/\(grouping)-page-2.html", arguments: by + ["--format", "html"] + paged),
            Case(golden: "rollups/\(grouping)-page-2.json", arguments: by + ["--format", "json"] + paged),
            Case(golden: "rollups/\(grouping)-page-2.csv", arguments: by + ["--format", "csv"] + paged),
        ]
    }

    @Test(arguments: cases) func rollUpMatchesItsGolden(_ testCase: Case) throws {
        let sandbox = try Self.prepared()
        GoldenFile.expectMatch(try Self.list(testCase.arguments, in: sandbox), golden: testCase.golden)
    }

    @Test func theGoldenFolderHoldsExactlyTheCases() {
        let names = Self.cases.map { String($0.golden.dropFirst("rollups/".count)) }
        GoldenFile.pruneWhenUpdating("rollups", keep: names)
        #expect(!names.isEmpty)
        if !GoldenFile.updating { #expect(GoldenFile.listing("rollups") == names.sorted()) }
    }

    // MARK: - What the roll-ups say

    /// Each row of the JSON roll-up by assignment: `CODE id "title" due_first..due_last students
    /// o/t/u/n/c tasks of live, late`.
    static func rows(_ json: [String: Any]) -> [String] {
        JSON.objects(json["courses"]).flatMap { course in
            JSON.objects(course["assignments"]).map { row in
                let counts = row["counts"] as? [String: Any] ?? [:]
                let buckets = ["overdue", "today", "upcoming", "undated", "completed"].map { "\(counts[$0] ?? "?")" }.joined(separator: "/")
                return "\(course["code"] ?? "?") \(row["assignment_id"] ?? "?") \"\(row["title"] ?? "?")\" "
                    + "\(row["due_first"] ?? "?")..\(row["due_last"] ?? "?") \(row["students"] ?? "?") \(buckets) "
                    + "\(row["tasks"] ?? "?") of \(row["live_tasks"] ?? "?"), \(row["days_late"] ?? "?")"
            }
        }
    }

    @Test func byAssignmentEachRowCountsItsTasksPerBucketWithItsDuesStudentsAndLateness() throws {
        let sandbox = try Self.prepared()
        let json = try JSON.object(try Self.list(["--group-by", "assignment", "--format", "json"], in: sandbox))
        #expect(
            Self.rows(json) == [
                // B03 is pinned to upcoming: counted there, and not late; B02 is 5 days late.
                "BIO 101 LAB-1 \"Lab report 1\" 2026-11-25..2026-11-27T17:00:00-05:00 4 2/0/1/0/1 4 of 4, 5",
                "BIO 101 QUIZ-4 \"Reading quiz\" 2026-11-30T23:00:00-05:00..2026-11-30T23:00:00-05:00 3 0/2/0/0/1 3 of 3, <null>",
                "BIO 101 PROJ \"Final project\" 2026-12-10..2026-12-12 3 0/0/3/0/0 3 of 3, <null>",
                "BIO 101  \"Field trip form\" <null>..<null> 2 0/0/0/1/1 2 of 2, <null>",
                // G01 and G02 (00:30 today in Berlin) are late today; G03 is 2 days late.
                "GER 200 ESSAY-1 \"Aufsatz 1\" 2026-11-28..2026-11-30T00:30:00+01:00 3 3/0/0/0/0 3 of 3, 2",
                "GER 200 VOK-3 \"Vokabeltest 3\" 2026-12-01T08:00:00+01:00..2026-12-01T08:00:00+01:00 3 0/0/2/0/1 3 of 3, <null>",
                "GER 200  \"Klassenbuch\" 2026-12-02..2026-12-02 0 0/0/1/0/0 1 of 1, <null>",
                "HIS 300  \"Timeline\" 2026-11-20..2026-11-20 1 0/0/0/0/1 1 of 1, <null>",
                "HIS 300  \"Source analysis\" 2026-12-03..2026-12-03 2 0/0/2/0/0 2 of 2, <null>",
            ])
        // --group-by assignment counts completed tasks too: every task of the fixture is in a row.
        #expect((json["query"] as? [String: Any])?["include_completed"] as? Bool == true)
        #expect(json["matching_tasks"] as? Int == 22)
        #expect((json["page"] as? [String: Any])?["total_items"] as? Int == 9)
        #expect(
            JSON.objects(json["courses"]).map { "\($0["code"] ?? "?") \($0["assignment_count"] ?? "?")" } == [
                "ART 150 0", "BIO 101 4", "GER 200 3", "HIS 300 2",
            ])
        #expect(JSON.duplicateKeys(try Self.list(["--group-by", "assignment", "--format", "json"], in: sandbox)) == [])
    }

    @Test func byStudentEachStudentsTasksAcrossCoursesInBucketOrderWithWholeCounts() throws {
        let sandbox = try Self.prepared()
        let text = try Self.list(["--group-by", "student", "--format", "json"], in: sandbox)
        #expect(JSON.duplicateKeys(text) == [])
        let json = try JSON.object(text)
        let students = JSON.objects(json["students"]).map { student in
            "\(student["student_id"] ?? "?") \(student["count"] ?? "?"): "
                + JSON.objects(student["tasks"]).map { "\($0["task_id"] ?? "?")/\($0["bucket"] ?? "?")" }.joined(separator: " ")
        }
        // Completed tasks are left out unless asked; tasks without a student come last.
        #expect(
            students == [
                "s1 5: G01/overdue B05/today G04/upcoming B08/upcoming B11/undated",
                "s2 4: B02/overdue B06/today H01/upcoming B09/upcoming",
                "s3 2: B03/upcoming B10/upcoming",
                "s4 1: B04/overdue",
                "s5 3: G02/overdue G05/upcoming H02/upcoming",
                "s6 1: G03/overdue",
                " 1: G07/upcoming",
            ])
        #expect(json["matching_tasks"] as? Int == 17)
        let all = try JSON.object(try Self.list(["--group-by", "student", "--format", "json", "--include-completed"], in: sandbox))
        #expect(JSON.objects(all["students"]).map { $0["count"] as? Int ?? -1 } == [6, 6, 3, 1, 3, 2, 1])
    }

    @Test func everyPageOfARollUpTogetherIsTheWholeRollUp() throws {
        let sandbox = try Self.prepared()
        for (grouping, key, pages) in [("assignment", "courses", 3), ("student", "students", 6)] {
            func items(_ json: [String: Any]) -> [String] {
                JSON.objects(json[key]).flatMap { group in
                    JSON.objects(group[grouping == "assignment" ? "assignments" : "tasks"]).map {
                        "\(group["course_id"] ?? group["student_id"] ?? "?") \($0["title"] ?? "?") \($0["task_id"] ?? "")"
                    }
                }
            }
            let whole = items(try JSON.object(try Self.list(["--group-by", grouping, "--format", "json"], in: sandbox)))
            var joined: [String] = []
            for page in 1...(pages + 1) {
                let json = try JSON.object(
                    try Self.list(["--group-by", grouping, "--format", "json", "--limit", "3", "--page", "\(page)"], in: sandbox))
                #expect((json["page"] as? [String: Any])?["page_count"] as? Int == pages, "\(grouping) page \(page)")
                joined += items(json)
            }
            #expect(joined == whole, "\(grouping)")
            #expect(whole.count == (grouping == "assignment" ? 9 : 17))
        }
    }

    @Test(arguments: [40, 100, 140]) func textFitsTheWidth(width: Int) throws {
        let sandbox = try Self.prepared()
        for grouping in ["assignment", "student"] {
            for extra in [[], Self.paged] {
                let text = try Self.list(["--group-by", grouping, "--width", "\(width)"] + extra, in: sandbox)
                for line in text.split(separator: "\n") {
                    #expect(TerminalColumns.of(line) <= width, "\(grouping) \(width): \(line)")
                }
                let joined = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                if grouping == "student", extra.isEmpty {
                    #expect(joined.contains("set by hand until 2026-12-06: extension granted"), "\(width)")
                }
            }
        }
    }

    @Test func everyHTMLRollUpPassesTidyWithNoErrorOrWarningAndHasUniqueIDs() throws {
        let tidy = "/usr/bin/tidy"
        guard FileManager.default.isExecutableFile(atPath: tidy) else {
            Issue.record("tidy is not installed (\(tidy)): `make test` installs it (Debian package tidy)")
            return
        }
        let sandbox = try Self.prepared()
        for grouping in ["assignment", "student"] {
            for extra in [[], Self.paged] {
                let page = try Self.list(["--group-by", grouping, "--format", "html"] + extra, in: sandbox)
                let name = "\(grouping)\(extra.isEmpty ? "" : "-page-2").html"
                try sandbox.write(name, page)
                let result = try sandbox.runTool("tidy", ["-q", "-e", name])
                #expect(result.exitCode == 0 && result.stderr == "" && result.stdout == "", "tidy on \(name):\n\(result)")
                let ids = page.matches(of: /\sid="([^"]*)"/).map { String($0.output.1) }
                #expect(Set(ids).count == ids.count, "duplicate ids in \(name): \(ids)")
                #expect(page.matches(of: /<h1>/).count == 1, "\(name)")
            }
        }
    }

    // MARK: - Refusals

    @Test(
        arguments: [
            (
                ["report", "grid", "--group-by", "student"],
                "dashboard: error: --group-by shapes a list: `dashboard report list --group-by student`\n"
            ),
            (
                ["report", "--group-by", "assignment"],
                "dashboard: error: --group-by shapes a list: `dashboard report list --group-by assignment`\n"
            ),
            (
                ["report", "list", "--group-by", "assignment", "--out", "d"],
                "dashboard: error: --out writes one page per course, grouped by bucket: --group-by assignment goes to standard output\n"
            ),
            (
                ["report", "list", "--group-by", "student", "--format", "html", "--out", "d"],
                "dashboard: error: --out writes one page per course, grouped by bucket: --group-by student goes to standard output\n"
            ),
            (
                ["report", "list", "--group-by", "size"],
                "dashboard: error: --group-by must be bucket, assignment or student, not \"size\"\n"
            ),
        ])
    func aRollUpOfAGridOrIntoFilesOrOfAnUnknownKindIsAUsageError(arguments: [String], error: String) throws {
        let sandbox = try Self.prepared()
        let before = try sandbox.listing()
        let data = try DatabaseSnapshot.data(sandbox.path("db.sqlite"))
        let result = try sandbox.run(["--db", "db.sqlite", "--as-of", Self.asOf] + arguments)
        #expect(
            result == CommandResult(exitCode: 64, stdout: "", stderr: error + "dashboard: hint: see `dashboard report --help`\n"))
        #expect(try sandbox.listing() == before, "nothing written")
        #expect(try DatabaseSnapshot.data(sandbox.path("db.sqlite")) == data)
    }

    @Test func groupingByBucketIsTheListItself() throws {
        let sandbox = try Self.prepared()
        for format in ["text", "json", "csv"] {
            #expect(
                try Self.list(["--group-by", "bucket", "--format", format], in: sandbox)
                    == (try Self.list(["--format", format], in: sandbox)),
                "\(format)")
        }
    }
}
