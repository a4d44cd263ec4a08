import Foundation
import Testing

/// Prometheus text read back by its real consumer: prometheus_client's parser
/// (`Tests/Fixtures/Prometheus/parse_metrics.py` through `PythonTools`), as families in order.
struct PrometheusMetrics {
    struct Sample: Equatable {
        var labels: [String: String]
        var value: Double
        var hasTimestamp: Bool
    }

    struct Family {
        var name: String
        var type: String
        var help: String
        var samples: [Sample]
    }

    var families: [Family]

    static let script = DashboardBinary.packageRoot.appendingPathComponent("Tests/Fixtures/Prometheus/parse_metrics.py").path

    /// Parses `text` with prometheus_client's parser.
    /// - Throws: `HarnessError` with the parser's words when it refuses the text.
    static func parse(_ text: String, in sandbox: Sandbox) throws -> PrometheusMetrics {
        let result = try PythonTools.run([script, "-"], in: sandbox, stdin: text)
        guard result.exitCode == 0 else { throw HarnessError("prometheus_client refused the text: \(result)\n\(text)") }
        guard let array = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] else {
            throw HarnessError("parse_metrics.py printed no array: \(result.stdout)")
        }
        return PrometheusMetrics(
            families: array.map { family in
                Family(
                    name: family["name"] as? String ?? "", type: family["type"] as? String ?? "", help: family["help"] as? String ?? "",
                    samples: JSON.objects(family["samples"]).map { sample in
                        Sample(
                            labels: sample["labels"] as? [String: String] ?? [:],
                            value: (sample["value"] as? NSNumber)?.doubleValue ?? .nan,
                            hasTimestamp: !(sample["timestamp"] is NSNull))
                    })
            })
    }

    var names: [String] { families.map(\.name) }

    func family(_ name: String) -> Family? { families.first { $0.name == name } }

    /// The value of the sample of `name` with exactly `labels`, or nil.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        family(name)?.samples.first { $0.labels == labels }?.value
    }

    /// The outcomes whose series is 1.
    var currentOutcomes: [String] {
        (family("dashboard_last_run_outcome")?.samples ?? []).filter { $0.value == 1 }.compactMap { $0.labels["outcome"] }
    }
}

/// The families `dashboard` writes, in their order, and what the shape of each is.
enum MetricsContract {
    static let outcomes = ["committed", "held", "discarded", "failed", "no_export", "incomplete"]
    static let kinds = ["courses", "tasks"]
    static let phases = ["import", "categorize", "reports"]
    static let rowFamilies = [
        "dashboard_last_run_rows_read", "dashboard_last_run_rows_inserted", "dashboard_last_run_rows_updated",
        "dashboard_last_run_rows_unchanged", "dashboard_last_run_rows_deleted", "dashboard_last_run_rows_rejected",
        "dashboard_last_run_warnings",
    ]
    static let run = ["dashboard_last_run_timestamp_seconds", "dashboard_last_run_outcome"] + rowFamilies
    static let database = [
        "dashboard_data_as_of_timestamp_seconds", "dashboard_data_age_seconds", "dashboard_last_successful_import_timestamp_seconds",
        "dashboard_held_batches", "dashboard_oldest_held_batch_timestamp_seconds", "dashboard_oldest_held_batch_age_seconds",
        "dashboard_database_size_bytes", "dashboard_courses_without_teacher",
    ]
    /// Every family, in the order they are written.
    static let all = run + ["dashboard_last_run_phase_duration_seconds"] + database

    /// Checks what holds for every output: gauges with help, Prometheus' naming (prefix, base
    /// units, `_total` only for counters), no timestamps, the labels of each family, exactly
    /// one outcome, counts that are whole numbers, durations and sizes that are not negative.
    static func expectWellFormed(_ metrics: PrometheusMetrics, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let order = metrics.names.compactMap { all.firstIndex(of: $0) }
        #expect(order.count == metrics.names.count, "\(what): unknown families \(metrics.names)", sourceLocation: sourceLocation)
        #expect(order == order.sorted(), "\(what): families out of order \(metrics.names)", sourceLocation: sourceLocation)
        for family in metrics.families {
            #expect(family.type == "gauge", "\(what): \(family.name) is \(family.type)", sourceLocation: sourceLocation)
            #expect(family.help.count > 20, "\(what): \(family.name) has no help", sourceLocation: sourceLocation)
            #expect(family.name.hasPrefix("dashboard_") && !family.name.hasSuffix("_total"), sourceLocation: sourceLocation)
            #expect(!family.samples.isEmpty, "\(what): \(family.name) has no sample", sourceLocation: sourceLocation)
            #expect(
                family.samples.allSatisfy { !$0.hasTimestamp }, "\(what): \(family.name) has a timestamp", sourceLocation: sourceLocation)
            let labels = family.samples.map { $0.labels }
            switch family.name {
            case "dashboard_last_run_outcome":
                #expect(labels == outcomes.map { ["outcome": $0] }, "\(what)", sourceLocation: sourceLocation)
                #expect(family.samples.allSatisfy { $0.value == 0 || $0.value == 1 }, sourceLocation: sourceLocation)
                #expect(metrics.currentOutcomes.count == 1, "\(what): \(metrics.currentOutcomes)", sourceLocation: sourceLocation)
            case _ where rowFamilies.contains(family.name):
                #expect(labels == kinds.map { ["kind": $0] }, "\(what): \(family.name)", sourceLocation: sourceLocation)
            case "dashboard_last_run_phase_duration_seconds":
                #expect(labels == phases.map { ["phase": $0] }, "\(what)", sourceLocation: sourceLocation)
            default:
                #expect(labels == [[:]], "\(what): \(family.name) \(labels)", sourceLocation: sourceLocation)
            }
            let whole = family.name != "dashboard_last_run_phase_duration_seconds"
            for sample in family.samples {
                if whole { #expect(sample.value == sample.value.rounded(), "\(what): \(family.name)", sourceLocation: sourceLocation) }
                if family.name.hasSuffix("_duration_seconds") || family.name.hasSuffix("_bytes") {
                    #expect(sample.value >= 0, "\(what): \(family.name)", sourceLocation: sourceLocation)
                }
            }
        }
    }

    /// The text with what depends on the machine replaced: each phase's duration
    /// (`<seconds>`) and the database's size (`<bytes>`, another on each engine).
    static func masked(_ text: String) -> String {
        text.replacingOccurrences(
            of: #"(?m)^(dashboard_last_run_phase_duration_seconds\{phase="[a-z]+"\}) [0-9.e+-]+$"#, with: "$1 <seconds>",
            options: .regularExpression
        ).replacingOccurrences(
            of: #"(?m)^dashboard_database_size_bytes [0-9]+$"#, with: "dashboard_database_size_bytes <bytes>", options: .regularExpression)
    }
}
