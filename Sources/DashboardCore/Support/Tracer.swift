/// One timed phase of a run, as a `Tracer` receives it when the phase ends.
///
/// The names are a contract: the crash tests (ReliabilityFirstImportCrashTests) tell where a
/// killed import was by the last phase it reported (docs/reliability.md lists the names).
package struct TracePhase: Sendable, Equatable, Codable {
    /// What ended: `read, normalize, stage`, `plan`, `entries`, `commit` …
    package var phase: String
    /// 0 for a phase of the run, 1 for a step inside the phase around it (the direct writer's
    /// `entries`, the categorizer's passes, the reader's waiting time).
    package var depth: Int
    /// Wall-clock time since the previous phase ended (or, for a figure measured elsewhere such
    /// as the reading thread's CPU time, that figure).
    package var nanoseconds: UInt64

    package init(phase: String, depth: Int, nanoseconds: UInt64) {
        self.phase = phase
        self.depth = depth
        self.nanoseconds = nanoseconds
    }
}

/// Receives the phases of a run as they end: how performance work and the crash tests see
/// what an import is doing. The library never prints; the executable installs a tracer
/// (`Tracing.$current.withValue`) that writes the phases where it was asked to.
///
/// Called on the thread that runs the phase, synchronously: a tracer that writes to a file
/// should write each phase with one call, so that a killed process leaves whole lines.
package protocol Tracer: Sendable {
    func record(_ phase: TracePhase)
}

/// The tracer in force, bound for the duration of a call:
/// `Tracing.$current.withValue(tracer) { … }`. Nil (the default): nothing is measured.
package enum Tracing {
    @TaskLocal package static var current: (any Tracer)?
}
