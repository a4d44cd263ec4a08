/// A place where a metric's HELP text points its reader at the shell that ran the job: the
/// as-of it was given, the run that wrote digests, the option that sends them. The library
/// names the place; the shell words it (`MetricWording`; the command line's is
/// `MetricWording.commandLine` in the executable, which `nightly --metrics` and `status
/// --format prometheus` write with).
package enum MetricHint: Sendable, Equatable {
    /// The as-of the run was given.
    case asOf
    /// The nightly run that writes the morning digests.
    case digestRun
    /// Sending the digests (rather than only writing them).
    case send
}

/// How the metrics' HELP texts word their hints.
package typealias MetricWording = Wording<MetricHint>

extension Wording where Hint == MetricHint {
    /// Plain words, no flag and no command.
    package static let plain = MetricWording(name: "plain") { hint in
        switch hint {
        case .asOf: return "the as-of it was given"
        case .digestRun: return "nightly run with digests"
        case .send: return "when sending"
        }
    }
}
