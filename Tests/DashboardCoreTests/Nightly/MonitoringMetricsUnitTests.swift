import Foundation
import Testing

@testable import DashboardCore

/// `PrometheusText` (the exposition format's bytes) and `MonitoringMetrics` (which families a
/// run gives, and from what).
@Suite(.storeIndependent) struct MonitoringMetricsUnitTests {
    @Test func familiesAreWrittenInOrderWithHelpTypeAndEscapedLabelsAndEmptyOnesLeftOut() {
        let families = [
            MetricFamily(name: "a_seconds", help: "Back\\slash and\nnew line.", samples: [MetricSample(.real(0.25))]),
            MetricFamily(name: "b_nothing", help: "Absent.", samples: []),
            MetricFamily(
                name: "c_total", help: "A counter.", kind: .counter,
                samples: [
                    MetricSample(labels: [MetricLabel("kind", "tasks"), MetricLabel("note", "say \"hi\"\\\n")], .integer(3))
                ]),
        ]
        #expect(
            PrometheusText.render(families) == """
                # HELP a_seconds Back\\\\slash and\\nnew line.
                # TYPE a_seconds gauge
                a_seconds 0.25
                # HELP c_total A counter.
                # TYPE c_total counter
                c_total{kind="tasks",note="say \\"hi\\"\\\\\\n"} 3

                """)
        #expect(PrometheusText.render([]) == "")
    }

    @Test(
        "values are written as the format spells them",
        arguments: [
            (MetricValue.integer(0), "0"), (.integer(Int.max), "9223372036854775807"), (.integer(Int.min), "-9223372036854775808"),
            (.real(0.25), "0.25"), (.real(1.5e-05), "1.5e-05"), (.real(12), "12.0"), (.real(.nan), "NaN"), (.real(.infinity), "+Inf"),
            (.real(-.infinity), "-Inf"),
        ] as [(MetricValue, String)])
    func values(value: MetricValue, text: String) {
        #expect(PrometheusText.text(value) == text)
    }

    @Test(
        "a batch's status is the outcome of the run it stands for",
        arguments: [
            (BatchStatus.committed, RunOutcome.committed), (.approved, .committed), (.reverted, .committed), (.held, .held),
            (.discarded, .discarded), (.failed, .failed), (.running, .incomplete), (.dryRun, nil),
        ] as [(BatchStatus, RunOutcome?)])
    func outcomeOfABatch(status: BatchStatus, outcome: RunOutcome?) {
        #expect(RunOutcome(batchStatus: status) == outcome)
    }

    @Test func aRunGivesEveryOutcomeEveryKindAndItsPhasesAndNothingElse() throws {
        let asOf = try #require(Timestamp.parse("2026-11-29T02:00:00Z", timeZone: MonitoringMetrics.utc))
        let run = RunFacts(
            asOf: asOf, outcome: .held, counts: [.tasks: ImportCounts(read: 5, unchanged: 5, deleted: 15)],
            phases: NightlyPhases(importSeconds: 0.123_456_789, categorizeSeconds: 0, reportsSeconds: 2))
        let families = MonitoringMetrics.families(run: run, database: nil, asOf: asOf)
        #expect(
            families.map(\.name) == [
                "dashboard_last_run_timestamp_seconds", "dashboard_last_run_outcome", "dashboard_last_run_rows_read",
                "dashboard_last_run_rows_inserted", "dashboard_last_run_rows_updated", "dashboard_last_run_rows_unchanged",
                "dashboard_last_run_rows_deleted", "dashboard_last_run_rows_rejected", "dashboard_last_run_warnings",
                "dashboard_last_run_phase_duration_seconds",
            ])
        #expect(families.allSatisfy { $0.kind == .gauge })
        #expect(families[0].samples == [MetricSample(.integer(1_795_917_600))])
        #expect(
            families[1].samples.map { "\($0.labels[0].value)=\(PrometheusText.text($0.value))" } == [
                "committed=0", "held=1", "discarded=0", "failed=0", "no_export=0", "incomplete=0",
            ])
        #expect(
            families[6].samples == [
                MetricSample(labels: [MetricLabel("kind", "courses")], .integer(0)),
                MetricSample(labels: [MetricLabel("kind", "tasks")], .integer(15)),
            ])
        #expect(families[9].samples.map { PrometheusText.text($0.value) } == ["0.123457", "0.0", "2.0"])
        // A run this process did not make has no durations.
        var status = run
        status.phases = nil
        #expect(MonitoringMetrics.families(run: status, database: nil, asOf: asOf).count == 9)
    }

    @Test func phasesNeverLastLessThanNothing() {
        let start = Date(timeIntervalSince1970: 100)
        #expect(NightlyPhases.seconds(from: start, to: Date(timeIntervalSince1970: 99)) == 0)
        #expect(NightlyPhases.seconds(from: start, to: Date(timeIntervalSince1970: 101.5)) == 1.5)
    }

    @Test func agesSaturateInsteadOfTrapping() {
        #expect(MonitoringMetrics.difference(10, 4) == 6)
        #expect(MonitoringMetrics.difference(Int.min, 1) == Int.min)
        #expect(MonitoringMetrics.difference(Int.max, -1) == Int.max)
    }
}
