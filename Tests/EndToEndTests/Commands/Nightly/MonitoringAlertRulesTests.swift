import Foundation
import Testing

/// Issue 17, item 4: the alert rules docs/operations.md shows are the file
/// docs/examples/prometheus-dashboard-rules.yml, read by a YAML parser, one for each thing a
/// night can go wrong with, and every metric they name is one `dashboard` writes; Prometheus's
/// own promtool accepts them and fires each on the made-up series of
/// docs/examples/prometheus-dashboard-rules-test.yml as that file expects.
@Suite(.storeIndependent) struct MonitoringAlertRulesTests {
    static let root = DashboardBinary.packageRoot

    @Test func promtoolAcceptsTheRulesAndEachFiresWhenItsTestSaysItShould() throws {
        let sandbox = try Sandbox()
        for name in ["prometheus-dashboard-rules.yml", "prometheus-dashboard-rules-test.yml"] {
            let text = try String(contentsOf: Self.root.appendingPathComponent("docs/examples/\(name)"), encoding: .utf8)
            _ = try sandbox.write(name, text)
        }
        let checked = try Promtool.run(["check", "rules", "prometheus-dashboard-rules.yml"], in: sandbox)
        #expect(checked.exitCode == 0, "\(checked)")
        #expect(checked.stdout.contains("SUCCESS: 8 rules found"), "\(checked)")
        let tested = try Promtool.run(["test", "rules", "prometheus-dashboard-rules-test.yml"], in: sandbox)
        #expect(tested.exitCode == 0, "\(tested)")
        #expect(tested.stdout == "Unit Testing:  prometheus-dashboard-rules-test.yml\n  SUCCESS\n\n", "\(tested)")
        // Every rule has a case that fires it.
        let tests = try String(
            contentsOf: Self.root.appendingPathComponent("docs/examples/prometheus-dashboard-rules-test.yml"), encoding: .utf8)
        let rules = try String(
            contentsOf: Self.root.appendingPathComponent("docs/examples/prometheus-dashboard-rules.yml"), encoding: .utf8)
        let alerts = rules.matches(of: /- alert: (\w+)/).map { String($0.output.1) }
        #expect(alerts.count == 8)
        for alert in alerts {
            #expect(tests.contains("alertname: \(alert)\n        exp_alerts:\n          - exp_labels"), "no case fires \(alert)")
        }
    }

    @Test func theDocumentedAlertRulesReadAndNameOnlyMetricsThatExist() throws {
        let sandbox = try Sandbox()
        let result = try PythonTools.run(
            [
                Self.root.appendingPathComponent("Tests/Fixtures/Prometheus/alert_rules.py").path,
                Self.root.appendingPathComponent("docs/examples/prometheus-dashboard-rules.yml").path,
                Self.root.appendingPathComponent("docs/operations.md").path,
            ], in: sandbox)
        #expect(result.exitCode == 0, "\(result)")
        let parsed = try JSON.object(result.stdout)
        #expect(parsed["same"] as? Bool == true, "docs/operations.md shows another text than docs/examples/prometheus-dashboard-rules.yml")
        let rules = JSON.objects(parsed["rules"])
        #expect(
            rules.compactMap { $0["alert"] as? String } == [
                "DashboardNoSuccessfulImport", "DashboardNoImportRecorded", "DashboardHeldBatchWaiting", "DashboardRejectedRows",
                "DashboardLastRunFailed",
                "DashboardNoExport", "DashboardMetricsStale", "DashboardMetricsMissing",
            ])
        var named: Set<String> = []
        for rule in rules {
            let expr = rule["expr"] as? String ?? ""
            for match in expr.matches(of: /\b(dashboard|node)_[a-z_]+/) { named.insert(String(match.output.0)) }
        }
        let written = Set(MetricsContract.all)
        #expect(named.filter { $0.hasPrefix("dashboard_") }.subtracting(written).isEmpty, "\(named)")
        #expect(named.filter { $0.hasPrefix("node_") } == ["node_textfile_mtime_seconds"])
        // The thresholds the docs give: 36 hours, a day, 5 %, and the outcomes that exist.
        var exprs: [String: String] = [:]
        for rule in rules { exprs[rule["alert"] as? String ?? ""] = rule["expr"] as? String }
        #expect(exprs["DashboardNoSuccessfulImport"] == "time() - dashboard_last_successful_import_timestamp_seconds > 36 * 3600")
        #expect(exprs["DashboardHeldBatchWaiting"] == "time() - dashboard_oldest_held_batch_timestamp_seconds > 24 * 3600")
        #expect(exprs["DashboardRejectedRows"] == "dashboard_last_run_rows_rejected / dashboard_last_run_rows_read > 0.05")
        for outcome in (exprs["DashboardLastRunFailed"] ?? "").matches(of: /[a-z_]+/).map({ String($0.output) })
        where !["dashboard_last_run_outcome", "outcome"].contains(outcome) {
            #expect(MetricsContract.outcomes.contains(outcome), "\(outcome)")
        }
    }
}
