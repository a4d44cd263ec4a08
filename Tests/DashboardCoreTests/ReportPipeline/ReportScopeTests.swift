import Foundation
import Testing

@testable import DashboardCore

/// Issue 27, item 10: the counts a narrowed report gives are in the reader's scope. `--course`
/// and `--teacher` choose the courses (the scope); the search and the filters of tasks narrow
/// inside it. "Showing k of N" counts N in the scope, never in the whole database.
@Suite("Report scope: the denominators of a narrowed report", .storeIndependent)
struct ReportScopeTests {
    /// `PipelineFilterTests.courses`: C1 GER-101 (Zoë Müller): T1 overdue, T2 today, T3
    /// completed; C2 HIS-200 (Ian Wright): T4 upcoming, T5 undated, T6 completed; C3 MAT-10 (Ana
    /// Núñez): T7 overdue.
    static func build(_ kind: Report.Kind, _ change: (inout ReportQuery) -> Void) -> Report {
        ReportBuilder.build(
            kind, courses: PipelineFilterTests.courses, facts: ReportSample.freshFacts, query: ReportSample.query(change),
            asOf: ReportSample.asOf, defaultTimeZone: ReportSample.utc)
    }

    static func json(_ report: Report) throws -> [String: Any] {
        let data = Data(JSONReportRenderer.render(report).utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("--teacher alone: the line counts the teacher's courses' tasks, not the database's")
    func teacherAlone() throws {
        let report = Self.build(.list) { $0.teachers = ["Zoë Müller"] }
        #expect(report.scopeCourses == 1)
        #expect(report.scopeTasks == 2)
        #expect(ReportMessages.showing(report) == "Showing 2 tasks in 1 course (--teacher \"Zoë Müller\")")
        let text = TextRenderer.render(report, width: 100)
        #expect(text.hasPrefix("Task lists as of 2026-11-29 08:00 UTC\nShowing 2 tasks in 1 course (--teacher \"Zoë Müller\")\n\n"))
        // JSON: the old keys keep their meaning (every course read); the scope has keys of its own.
        let json = try Self.json(report)
        #expect(json["total_tasks"] as? Int == 7)
        #expect(json["matching_tasks"] as? Int == 2)
        #expect(json["hidden_tasks"] as? Int == 3)
        #expect(json["scope_courses"] as? Int == 1)
        #expect(json["scope_tasks"] as? Int == 2)
    }

    @Test("--teacher with a filter of tasks: k of the scope's tasks, the scope and the filters named apart, in every format")
    func teacherAndBucket() throws {
        let report = Self.build(.grid) {
            $0.teachers = ["Zoë Müller"]
            $0.buckets = [.overdue]
        }
        let line = "Showing 1 of 3 tasks in 1 course (--teacher \"Zoë Müller\"), filtered by --bucket overdue"
        #expect(ReportMessages.showing(report) == line)
        #expect(TextRenderer.render(report, width: 120).split(separator: "\n")[1] == Substring(line))
        #expect(
            MarkdownRenderer.render(report).contains(
                "\nShowing 1 of 3 tasks in 1 course (--teacher \"Zoë Müller\"), filtered by --bucket overdue\n\n"))
        #expect(
            HTMLRenderer.gridPage(report, link: { _ in nil }).contains(
                "<p class=\"narrowed\">Showing 1 of 3 tasks in 1 course (<code>--teacher &quot;Zoë Müller&quot;</code>), "
                    + "filtered by <code>--bucket overdue</code></p>\n"))
        let json = try Self.json(report)
        #expect(json["scope_courses"] as? Int == 1)
        #expect(json["scope_tasks"] as? Int == 3)
        #expect(json["total_tasks"] as? Int == 7)
        #expect(json["hidden_tasks"] as? Int == 6)
    }

    @Test("two --course values: the scope is both courses, counted in the plural")
    func twoCourses() {
        let report = Self.build(.list) {
            $0.courses = ["C1", "MAT-10"]
            $0.priorities = [.high]
        }
        #expect(
            ReportMessages.showing(report)
                == "Showing 1 of 3 tasks in 2 courses (--course C1 --course MAT-10), filtered by --priority high")
        let one = Self.build(.list) { $0.courses = ["MAT-10"] }
        #expect(ReportMessages.showing(one) == "Showing 1 task in 1 course (--course MAT-10)")
    }

    @Test("without --course or --teacher the scope is every course read: the line is as before")
    func unscoped() throws {
        let report = Self.build(.list) { $0.buckets = [.overdue] }
        #expect(ReportMessages.showing(report) == "Showing 2 of 5 tasks: --bucket overdue")
        let json = try Self.json(report)
        #expect(json["scope_courses"] as? Int == 3)
        #expect(json["scope_tasks"] as? Int == 5)
        #expect(json["hidden_tasks"] as? Int == 3)
        #expect(ReportMessages.showing(Self.build(.list) { _ in }) == nil)
    }

    @Test("nothing matches inside a scope: the scope's tasks are what the filters hide, and the scope is kept")
    func noMatchInScope() {
        let report = Self.build(.list) {
            $0.teachers = ["Zoë Müller"]
            $0.search = "zzz"
        }
        #expect(report.state == .noMatch)
        #expect(ReportMessages.noMatch(report) == "No task in 1 course (--teacher \"Zoë Müller\") matches --search zzz.")
        #expect(
            ReportMessages.noMatchNext(report)
                == "These filters hide all 2 tasks in 1 course (--teacher \"Zoë Müller\"). To see them, run the report without --search.")
    }

    @Test("a scope whose courses have no open task says so, and names the completed ones")
    func scopeWithoutOpenTasks() {
        let report = ReportBuilder.build(
            .list, courses: ReportStateTests.mixed, facts: ReportSample.freshFacts, query: ReportSample.query { $0.courses = ["MAT-3"] },
            asOf: ReportSample.asOf, defaultTimeZone: ReportSample.utc)
        #expect(report.state == .noMatch)
        #expect(ReportMessages.noMatch(report) == "No task matches --course MAT-3.")
        #expect(
            ReportMessages.noMatchNext(report)
                == "There is no open task in 1 course (--course MAT-3). 2 completed tasks match: add --include-completed to list them.")
    }

    @Test("a scope that holds no course: what every filter hides, and every flag, as before")
    func emptyScope() {
        let report = Self.build(.list) {
            $0.teachers = ["Ian Wright"]
            $0.courses = ["C1"]
        }
        #expect(report.scopeCourses == 0)
        #expect(ReportMessages.noMatch(report) == "No task matches --course C1 --teacher \"Ian Wright\".")
        #expect(
            ReportMessages.noMatchNext(report) == "These filters hide 5 tasks. To see them, run the report without --course and --teacher.")
    }

    @Test("pages written for teachers name the scope and the filters in words, without a flag")
    func readersWords() {
        var report = Self.build(.grid) {
            $0.teachers = ["Zoë Müller"]
            $0.buckets = [.overdue]
            $0.priorities = [.high]
        }
        report.query.wording = .readers
        #expect(
            ReportMessages.showing(report)
                == "Showing 1 of 3 tasks in 1 course (teacher \"Zoë Müller\"), filtered by bucket overdue, priority high")
    }
}
