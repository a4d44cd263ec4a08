import Foundation
import Testing

@testable import DashboardCore

@Suite("Report edge cases: nothing open, completed matches, students, hostile cells", .storeIndependent)
struct ReportEdgeCaseTests {
    static let done = [
        ReportCourse(
            course: ReportSample.course("C1", title: "English"),
            tasks: [ReportSample.task("T1", "C1", "Essay", bucket: .completed), ReportSample.task("T2", "C1", "Quiz", bucket: .completed)])
    ]

    @Test("a search over a course whose tasks are all completed is 'nothing matches', and says completed tasks match")
    func onlyCompletedMatch() {
        let query = ReportSample.query { $0.search = "essay" }
        let report = ReportBuilder.build(
            .list, courses: Self.done, facts: ReportSample.freshFacts, query: query, asOf: ReportSample.asOf,
            defaultTimeZone: ReportSample.utc)
        #expect(report.state == .noMatch)
        #expect(ReportMessages.noMatch(report) == "No task matches --search essay.")
        #expect(
            ReportMessages.noMatchNext(report)
                == "There is no open task to search. 1 completed task matches: add --include-completed to list it.")
    }

    @Test("tasks without a student go last when sorting by student")
    func emptyStudentLast() {
        let course = ReportCourse(
            course: ReportSample.course("C1"),
            tasks: [
                ReportSample.task("T1", "C1", "A"), ReportSample.task("T2", "C1", "B", student: "s2"),
                ReportSample.task("T3", "C1", "C", student: "s10"),
            ])
        let sorted = ReportPipeline.sort([course], by: .student, defaultTimeZone: ReportSample.utc)
        #expect(sorted[0].tasks.map(\.task.taskID) == ["T2", "T3", "T1"])
    }

    @Test("CSV cells starting with a tab or a carriage return are protected too")
    func csvTabAndCR() {
        #expect(CSVWriter.line(["\tcmd", "\rx", "ok"]) == "'\tcmd,\"'\rx\",ok\r\n")
    }

    @Test("Markdown cells never break a table row, and & cannot start an entity")
    func markdownLineBreaksAndAmpersand() {
        #expect(MarkdownRenderer.escape("a\nb\r\nc") == "a␊b␍␊c")
        #expect(MarkdownRenderer.escape("AT&amp;T") == "AT\\&amp;T")
    }

    @Test("control characters from the data never reach the reader raw: they show as control pictures")
    func controlCharacters() {
        #expect(ReportWords.visible("\u{1B}[31mred\u{07}\u{7F}\u{85}") == "␛[31mred␇␡<U+0085>")
        #expect(ReportWords.visible("plain é") == "plain é")
        let course = ReportCourse(
            course: ReportSample.course("C1", title: "T\u{1B}[2J"), tasks: [ReportSample.task("T1", "C1", "Evil\u{1B}]0;title\u{07}")])
        let report = ReportBuilder.build(
            .list, courses: [course], facts: ReportSample.freshFacts, query: ReportQuery(), asOf: ReportSample.asOf,
            defaultTimeZone: ReportSample.utc)
        for text in [
            TextRenderer.render(report, width: 100), MarkdownRenderer.render(report),
            HTMLRenderer.listPage(report, title: "x", indexLink: nil),
        ] {
            #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
            #expect(text.contains("Evil␛"))
            #expect(text.contains("title␇"))
        }
    }
}
