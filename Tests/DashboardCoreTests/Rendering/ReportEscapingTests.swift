import Foundation
import Testing

@testable import DashboardCore

@Suite("Report escaping: HTML, CSV and Markdown with hostile values", .storeIndependent)
struct ReportEscapingTests {
    static let script = "<script>alert(1)</script>"
    static let quotes = "\"'&"

    /// One course whose every value is hostile, with two tasks.
    static let source = [
        ReportCourse(
            course: CourseRecord(
                courseID: "\"'&<x>", code: quotes, title: script, term: "<i>term</i>", teacher: "<b>Bold</b>", timezone: ""),
            tasks: [
                ReportSample.task("<T1>", "\"'&<x>", script, student: quotes, due: "2026-11-30", bucket: .upcoming),
                ReportSample.task("T2", "\"'&<x>", quotes + " | *bold*", student: "<s>", bucket: .undated),
            ])
    ]

    static func report(_ kind: Report.Kind, facts: ReportFacts = ReportSample.freshFacts, search: String = "") -> Report {
        ReportBuilder.build(
            kind, courses: source, facts: facts, query: ReportSample.query { $0.search = search }, asOf: ReportSample.asOf,
            defaultTimeZone: ReportSample.utc)
    }

    // MARK: - HTML

    @Test(
        "HTML escape covers the five special characters",
        arguments: [
            ("<a href=\"x\">Tom & Jerry's</a>", "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;"),
            (script, "&lt;script&gt;alert(1)&lt;/script&gt;"),
            (quotes, "&quot;&#39;&amp;"),
            ("&amp;", "&amp;amp;"),
            ("plain Übung 日本", "plain Übung 日本"),
        ])
    func htmlEscape(text: String, expected: String) {
        #expect(HTMLRenderer.escape(text) == expected)
    }

    /// A page without the one script it may have (the filters', issue 29): what is left must
    /// hold no script at all.
    static func withoutOwnScript(_ html: String) -> String {
        html.replacingOccurrences(of: "<script>\n" + PageScript.script(.english) + "\n</script>", with: "")
    }

    @Test("hostile values appear only escaped in HTML pages", arguments: [Report.Kind.grid, .list])
    func htmlPages(kind: Report.Kind) {
        let page = ReportFormat.html.render(Self.report(kind), width: 100, link: { _ in "course-\"x\".html" }, indexLink: "index.html")
        let html = Self.withoutOwnScript(page)
        #expect(html != page, "the page has its filters' script")
        #expect(!html.contains("<script"))
        #expect(!html.contains(Self.quotes))
        #expect(!html.contains("<b>") && !html.contains("<i>") && !html.contains("<x>") && !html.contains("<s>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("&quot;&#39;&amp;"))
        #expect(html.contains("&lt;b&gt;Bold&lt;/b&gt;"))
        if kind == .grid {
            #expect(html.contains("<a href=\"course-&quot;x&quot;.html\">&quot;&#39;&amp;</a>"))
        } else {
            #expect(html.contains("&quot;&#39;&amp; | *bold*"))
            #expect(html.contains("&lt;s&gt;"))
        }
    }

    @Test("the search, a failure reason and the page title are escaped too")
    func htmlBannerAndSearch() {
        let facts = ReportFacts(
            hasData: true, dataAsOf: ReportSample.asOf, lastFailure: (4, "2026-11-29T07:00:00Z", "<img src=x onerror=alert(1)>"))
        for search in ["<script>", "zzz <b>"] {
            let html = Self.withoutOwnScript(ReportFormat.html.render(Self.report(.list, facts: facts, search: search), width: 100))
            #expect(!html.contains("<img") && !html.contains("<script") && !html.contains("<b>"))
            #expect(html.contains("failed: &lt;img src=x onerror=alert(1)&gt;. Showing data"))
        }
        let matching = ReportFormat.html.render(Self.report(.list, facts: facts, search: "<script>"), width: 100)
        #expect(matching.contains("<code>--search &lt;script&gt;</code>"))
        #expect(matching.contains("<title>&quot;&#39;&amp; — &lt;script&gt;alert(1)&lt;/script&gt;</title>"))
        let none = ReportFormat.html.render(Self.report(.list, facts: facts, search: "zzz <b>"), width: 100)
        #expect(none.contains("<h2>No task matches --search &quot;zzz &lt;b&gt;&quot;.</h2>"))
    }

    // MARK: - CSV

    @Test(
        "CSV cells: formulas get a leading ', and commas, quotes and line breaks are quoted (RFC 4180, CRLF)",
        arguments: [
            (["=SUM(A1:A9)", "+1", "-2", "@cmd", "plain"], "'=SUM(A1:A9),'+1,'-2,'@cmd,plain\r\n"),
            (["a,b", "say \"hi\"", "line1\nline2", "cr\rx", "ok"], "\"a,b\",\"say \"\"hi\"\"\",\"line1\nline2\",\"cr\rx\",ok\r\n"),
            (["=1,2", "-\"x\""], "\"'=1,2\",\"'-\"\"x\"\"\"\r\n"),
            (["a=b", "x+y", "mail@x"], "a=b,x+y,mail@x\r\n"),
            (["", ""], ",\r\n"),
            (["Übung", "日本"], "Übung,日本\r\n"),
        ])
    func csvLine(fields: [String], expected: String) {
        #expect(CSVWriter.line(fields) == expected)
    }

    @Test("a CSV list report quotes and protects every hostile value")
    func csvList() {
        let source = [
            ReportCourse(
                course: ReportSample.course("C1", code: "=cmd", title: "Course"),
                tasks: [
                    ReportSample.task("T1", "C1", "=HYPERLINK(\"http://x\")", student: "+1", due: "2026-11-30"),
                    ReportSample.task("T2", "C1", "Essay, part 1", student: "@me"),
                    ReportSample.task("T3", "C1", "Line one\nline two", student: "-5"),
                    ReportSample.task("T4", "C1", "say \"hi\""),
                ])
        ]
        let report = ReportBuilder.build(
            .list, courses: source, facts: ReportSample.freshFacts, query: ReportQuery(), asOf: ReportSample.asOf,
            defaultTimeZone: ReportSample.utc)
        #expect(
            CSVReportRenderer.render(report)
                == "course_id,course_code,task_id,title,student_id,due,priority,completed,bucket,status,"
                + "days_late,late,override_until,override_reason,override_actor,submission_status,submitted_at,submitted_late\r\n"
                + "C1,'=cmd,T1,\"'=HYPERLINK(\"\"http://x\"\")\",'+1,2026-11-30,normal,false,upcoming,upcoming,,,,,,open,,false\r\n"
                + "C1,'=cmd,T2,\"Essay, part 1\",'@me,,normal,false,upcoming,upcoming,,,,,,open,,false\r\n"
                + "C1,'=cmd,T3,\"Line one\nline two\",'-5,,normal,false,upcoming,upcoming,,,,,,open,,false\r\n"
                + "C1,'=cmd,T4,\"say \"\"hi\"\"\",,,normal,false,upcoming,upcoming,,,,,,open,,false\r\n")
    }

    @Test("a CSV grid report quotes and protects every hostile value")
    func csvGrid() {
        #expect(
            CSVReportRenderer.render(Self.report(.grid))
                == "course_id,code,title,teacher,term,timezone,overdue,today,upcoming,undated,completed,total,needs_attention,"
                + "new_since,now_overdue_since,completed_since,pinned_since,unpinned_since,deleted_since,to_grade,excused,"
                + "handed_in_since,excused_since\r\n"
                + "\"\"\"'&<x>\",\"\"\"'&\",<script>alert(1)</script>,<b>Bold</b>,<i>term</i>,,0,0,1,1,0,2,false,,,,,,,0,0,,\r\n")
    }

    // MARK: - Markdown

    @Test(
        "Markdown escape: markup characters and table pipes get a backslash (parentheses need none)",
        arguments: [
            ("a|b", "a\\|b"),
            ("*bold* _it_", "\\*bold\\* \\_it\\_"),
            ("`code`", "\\`code\\`"),
            ("[link](http://x)", "\\[link\\](http://x)"),
            ("<b>", "\\<b\\>"),
            ("# h", "\\# h"),
            ("back\\slash", "back\\\\slash"),
            ("~~x~~ !img {x} a+b", "\\~\\~x\\~\\~ \\!img \\{x\\} a\\+b"),
            ("1. plain - text.", "1. plain - text."),
        ])
    func markdownEscape(text: String, expected: String) {
        #expect(MarkdownRenderer.escape(text) == expected)
    }

    @Test("a Markdown list escapes the heading and every cell")
    func markdownList() {
        let markdown = MarkdownRenderer.render(Self.report(.list))
        #expect(markdown.contains("\n## \"'\\& — \\<script\\>alert(1)\\</script\\>\n"))
        #expect(
            markdown.contains(
                "\n| \\<T1\\> | \\<script\\>alert(1)\\</script\\> | \"'\\& | 2026-11-30 | normal | upcoming |\n"))
        #expect(markdown.contains("\n| T2 | \"'\\& \\| \\*bold\\* | \\<s\\> | — | normal | no due date |\n"))
        #expect(markdown.contains("\nTeacher: \\<b\\>Bold\\</b\\> · Term: \\<i\\>term\\</i\\> · Times in UTC.\n"))
        #expect(!markdown.replacingOccurrences(of: "\\<", with: "").contains("<"))
    }

    @Test("a Markdown grid escapes codes and titles")
    func markdownGrid() {
        let markdown = MarkdownRenderer.render(Self.report(.grid))
        #expect(markdown.contains("\n| \"'\\& | \\<script\\>alert(1)\\</script\\> | — | 0 | 0 | 1 | 1 | 0 of 2 completed |\n"))
        // A course page's link: our file names need no escaping; anything else is percent-encoded.
        let linked = MarkdownRenderer.render(Self.report(.grid), link: { _ in "course-x-1a2b3c4d.md" })
        #expect(linked.contains("\n| [\"'\\&](course-x-1a2b3c4d.md) | "))
        #expect(MarkdownRenderer.linkTarget("a b)(<>.md") == "a%20b%29%28%3C%3E.md")
    }

    @Test("JSON strings escape quotes, backslashes, control characters and < > &")
    func jsonStrings() {
        #expect(JSONValue.string("\"'&<x>\\\n\t\u{1}").rendered() == "\"\\\"'\\u0026\\u003cx\\u003e\\\\\\n\\t\\u0001\"")
        let json = JSONReportRenderer.render(Self.report(.list))
        #expect(json.contains("\"title\": \"\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\""))
        #expect(!json.contains("<"))
    }
}
