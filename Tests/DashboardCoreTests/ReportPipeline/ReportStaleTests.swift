import Foundation
import Testing

@testable import DashboardCore

@Suite("Report states: stale data and a failed last import", .storeIndependent)
struct ReportStaleTests {
    static func facts(hoursOld: Double, failure: (id: Int, at: String, reason: String)? = nil) -> ReportFacts {
        ReportFacts(hasData: true, dataAsOf: ReportSample.asOf.addingTimeInterval(-hoursOld * 3600), lastFailure: failure)
    }

    static let fix = "Run the nightly import (dashboard import), then report again."

    @Test(
        "data more than 36 hours older than the report is stale; exactly 36 hours is not",
        arguments: [
            (1.0, nil),
            (36.0, nil),
            (36.0 + 1.0 / 3600, "Showing data as of 2026-11-27T19:59:59Z (36 hours old)."),
            (36.5, "Showing data as of 2026-11-27T19:30:00Z (36 hours old)."),
            (37.0, "Showing data as of 2026-11-27T19:00:00Z (37 hours old)."),
            (47.0, "Showing data as of 2026-11-27T09:00:00Z (47 hours old)."),
            (48.0, "Showing data as of 2026-11-27T08:00:00Z (2 days old)."),
            (24.0 * 10 + 5, "Showing data as of 2026-11-19T03:00:00Z (10 days old)."),
        ] as [(Double, String?)])
    func stale(hoursOld: Double, message: String?) {
        let notice = Self.facts(hoursOld: hoursOld).staleNotice(asOf: ReportSample.asOf)
        #expect(notice?.message == message)
        #expect(notice?.nextStep(.commandLineCopy) == (message == nil ? nil : Self.fix))
        #expect(notice?.failedBatch == nil)
    }

    @Test(
        "a failed last import shows its batch, time and reason, however fresh the data",
        arguments: [
            (1.0, "Showing data as of 2026-11-29T07:00:00Z (1 hour old)."),
            (6.0, "Showing data as of 2026-11-29T02:00:00Z (6 hours old)."),
            (50.0, "Showing data as of 2026-11-27T06:00:00Z (2 days old)."),
            (-2.0, "Showing data as of 2026-11-29T10:00:00Z (0 hours old)."),  // the report's as-of before the data
        ])
    func failedImport(hoursOld: Double, message: String) {
        let notice = Self.facts(hoursOld: hoursOld, failure: (7, "2026-11-29T07:30:00Z", "3 rows rejected")).staleNotice(
            asOf: ReportSample.asOf)
        #expect(notice?.message == "The last import (batch 7, 2026-11-29T07:30:00Z) failed: 3 rows rejected. " + message)
        #expect(notice?.nextStep(.commandLineCopy) == "Fix the import (dashboard batches show 7) and run it again.")
        #expect(notice?.failedBatch == 7)
        #expect(notice?.failedAt == "2026-11-29T07:30:00Z")
        #expect(notice?.failureReason == "3 rows rejected")
    }

    @Test("without committed data a failed import still gets its banner; with no failure there is none")
    func noDataBanner() {
        let facts = ReportFacts(hasData: false, dataAsOf: nil, lastFailure: (3, "2026-11-29T07:30:00Z", "file missing"))
        #expect(
            facts.staleNotice(asOf: ReportSample.asOf)?.message
                == "The last import (batch 3, 2026-11-29T07:30:00Z) failed: file missing. No data has been imported yet.")
        #expect(ReportFacts(hasData: false, dataAsOf: nil, lastFailure: nil).staleNotice(asOf: ReportSample.asOf) == nil)
    }

    static let source = [
        ReportCourse(course: ReportSample.course("C1", code: "ENG-1", title: "English"), tasks: [ReportSample.task("T1", "C1", "Essay")])
    ]

    static func report(_ kind: Report.Kind, _ facts: ReportFacts) -> Report {
        ReportBuilder.build(
            kind, courses: source, facts: facts, query: ReportSample.query { _ in }, asOf: ReportSample.asOf,
            defaultTimeZone: ReportSample.utc)
    }

    @Test("the stale banner is in the text, HTML, Markdown and JSON outputs")
    func staleBannerInOutputs() {
        let banner = "Showing data as of 2026-11-27T06:00:00Z (2 days old)."
        for kind in [Report.Kind.grid, .list] {
            let report = Self.report(kind, Self.facts(hoursOld: 50))
            #expect(report.state == .ok)
            let text = TextRenderer.render(report, width: 300).split(separator: "\n", omittingEmptySubsequences: false)
            #expect(text[1] == "! \(banner) \(Self.fix)")
            #expect(
                ReportFormat.html.render(report, width: 100).contains(
                    "<div class=\"banner\" role=\"status\"><p><strong>Warning:</strong> \(banner)</p><p>\(Self.fix)</p></div>\n"))
            #expect(
                MarkdownRenderer.render(report).contains(
                    "\n\n> **Warning:** \(banner) \(Self.fix)\n\n"))
            #expect(
                JSONReportRenderer.render(report).contains(
                    """
                      "stale": {
                        "data_as_of": "2026-11-27T06:00:00Z",
                        "age_hours": 50,
                        "failed_batch": null,
                        "failed_at": null,
                        "failure_reason": null,
                        "held_batch": null,
                        "held_since": null,
                        "held_changes": null,
                        "no_export": false,
                        "message": "\(banner) \(Self.fix)"
                      },
                    """))
        }
    }

    @Test("the failed-import banner is in the text, HTML and JSON outputs")
    func failureBannerInOutputs() {
        let report = Self.report(.list, Self.facts(hoursOld: 6, failure: (12, "2026-11-29T02:00:11Z", "tasks.csv is missing")))
        let banner =
            "The last import (batch 12, 2026-11-29T02:00:11Z) failed: tasks.csv is missing. "
            + "Showing data as of 2026-11-29T02:00:00Z (6 hours old)."
        let next = "Fix the import (dashboard batches show 12) and run it again."
        let text = TextRenderer.render(report, width: 300).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(text[1] == "! \(banner) \(next)")
        #expect(
            ReportFormat.html.render(report, width: 100).contains(
                "<div class=\"banner\" role=\"status\"><p><strong>Warning:</strong> \(banner)</p><p>\(next)</p></div>\n"))
        #expect(
            JSONReportRenderer.render(report).contains(
                """
                  "stale": {
                    "data_as_of": "2026-11-29T02:00:00Z",
                    "age_hours": 6,
                    "failed_batch": 12,
                    "failed_at": "2026-11-29T02:00:11Z",
                    "failure_reason": "tasks.csv is missing",
                    "held_batch": null,
                    "held_since": null,
                    "held_changes": null,
                    "no_export": false,
                    "message": "\(banner) \(next)"
                  },
                """))
    }

    @Test("fresh data without a failure: no banner anywhere")
    func noBanner() {
        let report = Self.report(.list, Self.facts(hoursOld: 36))
        #expect(report.stale == nil)
        #expect(!TextRenderer.render(report, width: 100).contains("Showing data as of"))
        #expect(!ReportFormat.html.render(report, width: 100).contains("class=\"banner\""))
        #expect(JSONReportRenderer.render(report).contains("\n  \"stale\": null,\n"))
    }
}
