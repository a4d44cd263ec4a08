import DashboardCore

/// Which tracer a run gets, from its environment (docs/reliability.md, "Tracing a run"):
/// `DASHBOARD_TRACE=1` writes the phases on stderr for people, `DASHBOARD_TRACE_FILE=PATH`
/// appends them to PATH as JSON lines for programs; both may be set; neither: no tracer, and
/// nothing is measured.
enum TraceSettings {
    static let textVariable = "DASHBOARD_TRACE"
    static let fileVariable = "DASHBOARD_TRACE_FILE"

    /// The tracer the environment asks for, nil for none.
    /// - Throws: `TraceFileError` when the trace file cannot be opened.
    static func tracer(environment: [String: String]) throws(TraceFileError) -> (any Tracer)? {
        var tracers: [any Tracer] = []
        if environment[textVariable] == "1" { tracers.append(StderrTracer()) }
        if let path = environment[fileVariable], !path.isEmpty { tracers.append(try JSONLinesTracer(path: path)) }
        switch tracers.count {
        case 0: return nil
        case 1: return tracers[0]
        default: return FanOutTracer(tracers: tracers)
        }
    }

    /// Runs `body` with the environment's tracer in force. A trace file that cannot be opened
    /// is an I/O error (74) before anything runs: a trace that was asked for is never silently
    /// missing.
    static func run(environment: [String: String], console: Console, _ body: () -> ExitCode) -> ExitCode {
        let tracer: (any Tracer)?
        do {
            tracer = try self.tracer(environment: environment)
        } catch {
            console.error(
                "cannot open the trace file \(error.path) ($\(fileVariable)): \(error.reason)",
                hint: "set \(fileVariable) to a file in a folder you can write, or unset it")
            return .ioError
        }
        guard let tracer else { return body() }
        return Tracing.$current.withValue(tracer) { body() }
    }
}
