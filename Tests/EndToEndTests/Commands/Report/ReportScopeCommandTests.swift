import Foundation
import Testing

/// Issue 27, item 10: a narrowed report counts in the reader's scope. On the sample (98 live
/// tasks in 5 courses, 54 of them open; Mr. David Okafor's ENG 105 has 21, 11 open), `--teacher`
/// and `--course` choose the courses and "of N" counts their tasks, never the school's; the
/// search and the filters of tasks narrow inside. Runs on both stores.
@Suite struct ReportScopeCommandTests {
    static func report(_ arguments: [String], in sandbox: Sandbox) throws -> String {
        try ReportGoldenTests.report(arguments, in: sandbox)
    }

    @Test func aTeachersGridCountsTheTasksOfTheirCourses() throws {
        let sandbox = try ReportGoldenTests.imported()
        let lines = try Self.report(["--teacher", "okafor", "--width", "100"], in: sandbox).split(separator: "\n")
        #expect(
            Array(lines.prefix(3)) == [
                "Courses as of 2026-11-29 08:00 UTC",
                "Showing 21 tasks in 1 course (--teacher okafor)",
                "1 course, 1 needs attention: 2 overdue, 0 due today, 9 upcoming, 0 no due date; 10 of 21 completed",
            ])
    }

    @Test func aTeachersListFilteredByBucketCountsTheirOpenTasks() throws {
        let sandbox = try ReportGoldenTests.imported()
        let output = try Self.report(
            ["list", "--teacher", "okafor", "--bucket", "overdue", "--bucket", "today", "--width", "100"], in: sandbox)
        #expect(
            output == """
                Task lists as of 2026-11-29 08:00 UTC
                Showing 2 of 11 tasks in 1 course (--teacher okafor), filtered by --bucket overdue --bucket today

                ENG 105 — Academic Writing
                teacher Mr. David Okafor, term Fall 2026, times in UTC

                  Overdue (2)
                    ID     TITLE                   STUDENT  DUE               PRIORITY  STATUS
                    T1069  Conference sign-up      s2006    2026-11-24        high      5 days late
                    T1067  Citation practice quiz  s2030    2026-11-28 23:00  normal    1 day late

                """)
    }

    @Test func nothingMatchingInsideTheScopeCountsTheScopeAndKeepsIt() throws {
        let sandbox = try ReportGoldenTests.imported()
        let output = try Self.report(["list", "--teacher", "okafor", "--search", "zzz", "--width", "200"], in: sandbox)
        #expect(
            output == """
                Task lists as of 2026-11-29 08:00 UTC
                No task in 1 course (--teacher okafor) matches --search zzz.
                These filters hide all 11 tasks in 1 course (--teacher okafor). To see them, run the report without --search.

                """)
    }

    @Test func aCourseAndASearchNameTheScopeAndTheFilterApart() throws {
        let sandbox = try ReportGoldenTests.imported()
        let lines = try Self.report(["--course", "BIO 101", "--search", "lab", "--width", "100"], in: sandbox).split(separator: "\n")
        #expect(lines[1] == "Showing 6 of 20 tasks in 1 course (--course \"BIO 101\"), filtered by --search lab")
        let unscoped = try Self.report(["list", "--bucket", "overdue", "--width", "100"], in: sandbox).split(separator: "\n")
        #expect(unscoped[1] == "Showing 10 of 54 tasks: --bucket overdue", "no scope: every course read, as before")
    }

    @Test func markdownAndHTMLSayTheSameWords() throws {
        let sandbox = try ReportGoldenTests.imported()
        let markdown = try Self.report(["--teacher", "okafor", "--bucket", "overdue", "--format", "md"], in: sandbox)
        #expect(
            markdown.hasPrefix(
                "# Courses as of 2026-11-29 08:00 UTC\n\nShowing 2 of 21 tasks in 1 course (--teacher okafor), filtered by --bucket overdue\n\n"
            ), "\(markdown)")
        let html = try Self.report(["--teacher", "okafor", "--bucket", "overdue", "--format", "html"], in: sandbox)
        #expect(
            html.contains(
                "<p class=\"narrowed\">Showing 2 of 21 tasks in 1 course (<code>--teacher okafor</code>), filtered by <code>--bucket overdue</code></p>\n"
            ), "\(html)")
    }

    @Test func jsonKeepsItsKeysAndAddsTheScope() throws {
        let sandbox = try ReportGoldenTests.imported()
        let json = try JSON.object(try Self.report(["--teacher", "okafor", "--format", "json"], in: sandbox))
        #expect(json["total_tasks"] as? Int == 98)
        #expect(json["matching_tasks"] as? Int == 21)
        #expect(json["hidden_tasks"] as? Int == 77)
        #expect(json["scope_courses"] as? Int == 1)
        #expect(json["scope_tasks"] as? Int == 21)
        let list = try JSON.object(
            try Self.report(["list", "--teacher", "okafor", "--bucket", "overdue", "--format", "json"], in: sandbox))
        #expect(list["matching_tasks"] as? Int == 2)
        #expect(list["scope_tasks"] as? Int == 11)
    }

    @Test func aTeachersPageWrittenForThemNamesTheScopeInWords() throws {
        let sandbox = try ReportGoldenTests.imported()
        let result = try sandbox.run([
            "--db", "db.sqlite", "--as-of", ReportGoldenTests.asOf, "report", "--format", "html", "--out", "out", "--by-teacher",
            "--teacher", "okafor", "--bucket", "overdue",
        ])
        #expect(result.exitCode == 0, "\(result)")
        let page = String(decoding: try sandbox.read("out/teachers/mr-david-okafor-7cb87508/index.html"), as: UTF8.self)
        #expect(
            page.contains(
                "<p class=\"narrowed\">Showing 2 of 21 tasks in 1 course (<code>teacher okafor</code>), filtered by <code>bucket overdue</code></p>\n"
            ), "\(page)")
        let school = String(decoding: try sandbox.read("out/index.html"), as: UTF8.self)
        #expect(
            school.contains(
                "<p class=\"narrowed\">Showing 2 of 21 tasks in 1 course (<code>--teacher okafor</code>), filtered by <code>--bucket overdue</code></p>\n"
            ))
    }
}
