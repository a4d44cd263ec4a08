import Foundation

/// Wall-clock time per phase of a run, handed to the tracer in force (`Tracing.current`): how
/// performance work finds where the time goes without a profiler, and how the crash tests see
/// which phase a killed import was in. Without a tracer it does nothing.
///
/// A name indented by two spaces per level (`"  entries"`) is a step of the phase around it:
/// the indent becomes the phase's `depth`, the name is passed without it.
struct PhaseTimer {
    private let tracer: (any Tracer)?
    private var last: UInt64

    init(tracer: (any Tracer)? = Tracing.current) {
        self.tracer = tracer
        last = tracer == nil ? 0 : DispatchTime.now().uptimeNanoseconds
    }

    /// Reports the time since the previous mark under `name`.
    mutating func mark(_ name: String) {
        guard let tracer else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let indent = name.prefix { $0 == " " }.count
        tracer.record(TracePhase(phase: String(name.dropFirst(indent)), depth: indent / 2, nanoseconds: now - last))
        last = now
    }

    /// Reports a duration measured elsewhere, as a step of the phase it is part of (depth 1).
    func note(_ name: String, nanoseconds: UInt64) {
        tracer?.record(TracePhase(phase: name, depth: 1, nanoseconds: nanoseconds))
    }
}
