import Foundation
import Testing

@testable import DashboardCore

@Suite("Report states: no data, no tasks, all completed, no match", .storeIndependent)
struct ReportStateTests {
    static func build(
        _ kind: Report.Kind, _ courses: [ReportCourse], facts: ReportFacts = ReportSample.freshFacts,
        _ change: (inout ReportQuery) -> Void = { _ in }
    ) -> Report {
        ReportBuilder.build(
            kind, courses: courses, facts: facts, query: ReportSample.query(change), asOf: ReportSample.asOf,
            defaultTimeZone: ReportSample.utc)
    }

    static let noFacts = ReportFacts(hasData: false, dataAsOf: nil, lastFailure: nil)

    @Test("no data imported yet: its own words and the import command, in every format")
    func noData() {
        let report = Self.build(.grid, [], facts: Self.noFacts)
        #expect(report.state == .noData)
        #expect(report.stale == nil)
        #expect(
            TextRenderer.render(report, width: 200) == """
                Courses as of 2026-11-29 08:00 UTC
                No data imported yet.
                Next step: import the course and task files with `dashboard import imports/`, then run this report again.

                """)
        #expect(
            MarkdownRenderer.render(report) == """
                # Courses as of 2026-11-29 08:00 UTC

                No data imported yet.

                Next step: import the course and task files with \\`dashboard import imports/\\`, then run this report again.

                """)
        #expect(
            HTMLRenderer.gridPage(report, link: { _ in nil }).contains(
                "<section class=\"state\" aria-label=\"Nothing to show\"><h2>No data imported yet.</h2>"
                    + "<p>Next step: import the course and task files with `dashboard import imports/`, then run this report again.</p>"
                    + "</section>\n"))
        #expect(
            JSONReportRenderer.render(report) == """
                {
                  "schema": 2,
                  "kind": "grid",
                  "as_of": "2026-11-29T08:00:00Z",
                  "state": "no_data",
                  "message": "No data imported yet. Next step: import the course and task files with `dashboard import imports/`, then run this report again.",
                  "stale": null,
                  "query": {
                    "search": "",
                    "course": [],
                    "teacher": [],
                    "student": [],
                    "bucket": [],
                    "priority": [],
                    "status": [],
                    "late": false,
                    "include_completed": false,
                    "sort": "due",
                    "due_within_days": [],
                    "due_before": [],
                    "due_after": [],
                    "sort_courses": "attention",
                    "group_by": "bucket"
                  },
                  "unmatched": [],
                  "total_tasks": 0,
                  "matching_tasks": 0,
                  "hidden_tasks": 0,
                  "scope_courses": 0,
                  "scope_tasks": 0,
                  "page": {
                    "page": 1,
                    "page_count": 1,
                    "limit": null,
                    "total_items": 0,
                    "first_item": 0,
                    "last_item": 0
                  },
                  "changes": null,
                  "totals": {
                    "courses": 0,
                    "needing_attention": 0,
                    "counts": {
                      "overdue": 0,
                      "today": 0,
                      "upcoming": 0,
                      "undated": 0,
                      "completed": 0,
                      "to_grade": 0,
                      "excused": 0
                    },
                    "total": 0,
                    "words": "0 courses, none needs attention: 0 overdue, 0 due today, 0 upcoming, 0 no due date; 0 of 0 completed"
                  },
                  "courses": []
                }

                """)
    }

    /// ENG-1 with one upcoming task, HIS-2 with no task, MAT-3 with two completed tasks and
    /// PHY-4 with one.
    static let mixed = [
        ReportCourse(
            course: ReportSample.course("C1", code: "ENG-1", title: "English", teacher: "Ada"),
            tasks: [ReportSample.task("T1", "C1", "Essay", student: "s1", due: "2026-11-30")]),
        ReportCourse(course: ReportSample.course("C2", code: "HIS-2", title: "History"), tasks: []),
        ReportCourse(
            course: ReportSample.course("C3", code: "MAT-3", title: "Maths"),
            tasks: ["T2", "T3"].map { ReportSample.task($0, "C3", $0, bucket: .completed) }),
        ReportCourse(
            course: ReportSample.course("C4", code: "PHY-4", title: "Physics"),
            tasks: [ReportSample.task("T4", "C4", "T4", bucket: .completed)]),
    ]

    @Test("a course with no tasks and a course with every task completed say so in words")
    func courseWithoutTasksAndAllCompleted() {
        let report = Self.build(.list, Self.mixed)
        #expect(report.state == .ok)
        #expect(ReportSample.summary(report.groups) == ["C1 upcoming: T1", "C2 -", "C3 -", "C4 -"])
        #expect(report.groups.map(\.liveTasks) == [1, 0, 2, 1])
        #expect(
            ReportMessages.courseWithoutTasks(Self.mixed[1].course)
                == "No tasks yet for this course. If you expected some, check that tasks.csv uses course_id C2.")
        #expect(
            ReportMessages.allCompleted(report.groups[2], wording: .commandLineCopy)
                == "All 2 tasks are completed. Add --include-completed to list them.")
        #expect(
            ReportMessages.allCompleted(report.groups[3], wording: .commandLineCopy)
                == "All 1 task is completed. Add --include-completed to list them.")
        #expect(
            TextRenderer.render(report, width: 100) == """
                Task lists as of 2026-11-29 08:00 UTC

                ENG-1 — English
                teacher Ada, times in UTC

                  Upcoming (1)
                    ID  TITLE  STUDENT  DUE         PRIORITY  STATUS
                    T1  Essay  s1       2026-11-30  normal    upcoming

                HIS-2 — History
                times in UTC
                  No tasks yet for this course. If you expected some, check that tasks.csv uses course_id C2.

                MAT-3 — Maths
                times in UTC
                  All 2 tasks are completed. Add --include-completed to list them.

                PHY-4 — Physics
                times in UTC
                  All 1 task is completed. Add --include-completed to list them.

                """)
    }

    @Test("with includeCompleted the completed tasks are listed instead of the message")
    func allCompletedListed() {
        let report = Self.build(.list, Self.mixed) { $0.includeCompleted = true }
        #expect(ReportSample.summary(report.groups) == ["C1 upcoming: T1", "C2 -", "C3 completed: T2 T3", "C4 completed: T4"])
    }

    @Test(
        "nothing matches: the search and filters as written, how many tasks they hide, and how to clear them",
        arguments: [
            (
                ReportSample.query {
                    $0.search = "Quiz"; $0.buckets = [.overdue]
                },
                "No task matches --search Quiz --bucket overdue.",
                "These filters hide 5 tasks. To see them, run the report without --search and --bucket."
            ),
            (
                ReportSample.query { $0.search = "  essay draft  " },
                "No task matches --search \"essay draft\".",
                "These filters hide 5 tasks. To see them, run the report without --search."
            ),
            (
                ReportSample.query { $0.search = "say \"hi\"" },
                "No task matches --search \"say \\\"hi\\\"\".",
                "These filters hide 5 tasks. To see them, run the report without --search."
            ),
            (
                ReportSample.query {
                    $0.teachers = ["Zoë Müller"]; $0.students = ["s9"]; $0.priorities = [.low]
                },
                // Issue 27: --teacher sets the scope; the words count its tasks and keep it.
                "No task in 1 course (--teacher \"Zoë Müller\") matches --student s9 --priority low.",
                "No task has the student id \"s9\" (the nearest: \"s1\", \"s2\" or \"s3\"). "
                    + "These filters hide all 2 tasks in 1 course (--teacher \"Zoë Müller\"). To see them, run the report without --student and --priority."
            ),
            (
                ReportSample.query {
                    $0.courses = ["C1", "MAT-10"]; $0.students = ["s3"]
                },
                "No task in 2 courses (--course C1 --course MAT-10) matches --student s3.",
                "These filters hide all 3 tasks in 2 courses (--course C1 --course MAT-10). To see them, run the report without --student."
            ),
            (
                ReportSample.query {
                    $0.search = "zzz"; $0.includeCompleted = true
                },
                "No task matches --search zzz.",
                "These filters hide 7 tasks. To see them, run the report without --search."
            ),
        ] as [(ReportQuery, String, String)])
    func noMatch(query: ReportQuery, message: String, next: String) {
        let report = ReportBuilder.build(
            .list, courses: PipelineFilterTests.courses, facts: ReportSample.freshFacts, query: query, asOf: ReportSample.asOf,
            defaultTimeZone: ReportSample.utc)
        #expect(report.state == .noMatch)
        #expect(report.groups.isEmpty)
        #expect(report.totalTasks == 7)
        #expect(report.matchingTasks == 0)
        #expect(ReportMessages.noMatch(report) == message)
        #expect(ReportMessages.noMatchNext(report) == next)
        #expect(TextRenderer.render(report, width: 200) == "Task lists as of 2026-11-29 08:00 UTC\n\(message)\n\(next)\n")
        let json = JSONValue.string(message + " " + next).rendered()
        #expect(JSONReportRenderer.render(report).contains("\n  \"state\": \"no_match\",\n  \"message\": \(json),\n"))
    }

    @Test("a list says how many completed tasks it leaves out of each course")
    func completedNotListed() {
        let report = Self.build(.list, PipelineFilterTests.courses)
        let note = "1 completed task is not listed (--include-completed lists them)."
        #expect(report.groups.map { ReportMessages.completedNotShown($0, report: report) } == [note, note, nil])
        let listed = Self.build(.list, PipelineFilterTests.courses) { $0.includeCompleted = true }
        #expect(listed.groups.map { ReportMessages.completedNotShown($0, report: listed) } == [nil, nil, nil])
    }

    @Test("one hidden task is counted in the singular")
    func noMatchOneTask() {
        let source = [ReportCourse(course: ReportSample.course("C1"), tasks: [ReportSample.task("T1", "C1", "Essay")])]
        let report = Self.build(.list, source) { $0.search = "zzz" }
        #expect(report.hiddenTasks == 1)
        #expect(ReportMessages.noMatchNext(report) == "These filters hide 1 task. To see them, run the report without --search.")
    }

    @Test("in a grid completed tasks are counted, so they are hidden too")
    func noMatchGrid() {
        let report = Self.build(.grid, PipelineFilterTests.courses) { $0.search = "zzz" }
        #expect(report.state == .noMatch)
        #expect(report.cards.isEmpty)
        #expect(ReportMessages.noMatchNext(report) == "These filters hide 7 tasks. To see them, run the report without --search.")
    }

    @Test("a narrowed report that matches says how many tasks it shows out of how many")
    func narrowedButMatching() {
        let report = Self.build(.list, PipelineFilterTests.courses) { $0.buckets = [.overdue] }
        #expect(report.state == .ok)
        #expect(report.matchingTasks == 2)
        #expect(report.hiddenTasks == 3)
        // HIS-200 has no overdue task: it is left out, not shown as "all completed".
        #expect(ReportSample.summary(report.groups) == ["C1 overdue: T1", "C3 overdue: T7"])
        #expect(
            TextRenderer.render(report, width: 100) == """
                Task lists as of 2026-11-29 08:00 UTC
                Showing 2 of 5 tasks: --bucket overdue

                GER-101 — German
                teacher Zoë Müller, times in UTC

                  Overdue (1)
                    ID  TITLE  STUDENT  DUE  PRIORITY  STATUS
                    T1  One    s1       -    high      overdue

                MAT-10 — Maths
                teacher Ana Núñez, times in UTC

                  Overdue (1)
                    ID  TITLE  STUDENT  DUE  PRIORITY  STATUS
                    T7  Seven  s1       -    normal    overdue

                """)
    }
}
