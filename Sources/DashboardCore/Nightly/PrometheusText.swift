import Foundation

/// One metric family of the Prometheus text exposition format: a name, its `# HELP` and
/// `# TYPE` lines, and its samples.
package struct MetricFamily: Equatable, Sendable {
    /// The family's `# TYPE`. Only counters end in `_total` (Prometheus' naming rule); every
    /// family `dashboard` writes is a gauge: each value is the state after the last run, never
    /// a running count.
    package enum Kind: String, Sendable {
        case gauge, counter
    }

    package var name: String
    package var help: String
    package var kind: Kind
    package var samples: [MetricSample]

    package init(name: String, help: String, kind: Kind = .gauge, samples: [MetricSample]) {
        self.name = name
        self.help = help
        self.kind = kind
        self.samples = samples
    }
}

/// One sample of a family: its labels, in the order written, and its value.
package struct MetricSample: Equatable, Sendable {
    package var labels: [MetricLabel]
    package var value: MetricValue

    package init(labels: [MetricLabel] = [], _ value: MetricValue) {
        self.labels = labels
        self.value = value
    }
}

/// A label of a sample: `kind="tasks"`.
package struct MetricLabel: Equatable, Sendable {
    package var name: String
    package var value: String

    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A sample's value: a whole number (counts, bytes, unix seconds), written with every digit, or
/// a real number (durations).
package enum MetricValue: Equatable, Sendable {
    case integer(Int)
    case real(Double)
}

/// The Prometheus text exposition format, version 0.0.4: what node_exporter's textfile
/// collector and Prometheus' own scrapes read.
///
/// Policy: every family with at least one sample is written as `# HELP`, `# TYPE`, then its
/// samples, one a line, in the order given (a family without samples is left out: a value
/// that does not exist, such as the age of the oldest held batch when none waits, is absent,
/// never 0). No sample carries a timestamp (the textfile collector refuses a file that has one).
/// HELP text escapes `\` and the line feed, label values also `"`; whole numbers are written
/// with every digit, reals in Swift's shortest round-trip form (`0.25`, `1.5e-05`), `NaN` and
/// `±Inf` as the format spells them. Every line ends in a line feed, the last one included.
package enum PrometheusText {
    /// The media type of the format, for a web server that serves the file.
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The families as exposition text.
    package static func render(_ families: [MetricFamily]) -> String {
        var out = ""
        for family in families where !family.samples.isEmpty {
            out += "# HELP \(family.name) \(escapeHelp(family.help))\n"
            out += "# TYPE \(family.name) \(family.kind.rawValue)\n"
            for sample in family.samples {
                out += family.name
                if !sample.labels.isEmpty {
                    out += "{" + sample.labels.map { "\($0.name)=\"\(escapeLabel($0.value))\"" }.joined(separator: ",") + "}"
                }
                out += " " + text(sample.value) + "\n"
            }
        }
        return out
    }

    /// A value as the format writes it.
    package static func text(_ value: MetricValue) -> String {
        switch value {
        case .integer(let number): return String(number)
        case .real(let number):
            if number.isNaN { return "NaN" }
            if number.isInfinite { return number > 0 ? "+Inf" : "-Inf" }
            return "\(number)"
        }
    }

    static func escapeHelp(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    static func escapeLabel(_ text: String) -> String {
        escapeHelp(text).replacingOccurrences(of: "\"", with: "\\\"")
    }
}
