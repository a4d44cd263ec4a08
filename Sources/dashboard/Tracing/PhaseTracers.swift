import DashboardCore
import Foundation

/// `DASHBOARD_TRACE=1`: each phase on stderr as a line for people, as it ends
/// (`trace: read, normalize, stage        275.1 ms`; a step of a phase is indented by two
/// spaces per level). Not a format to parse: programs read `JSONLinesTracer`'s file.
struct StderrTracer: Tracer {
    func record(_ phase: TracePhase) {
        let name = String(repeating: "  ", count: phase.depth) + phase.phase
        let text = String(format: "trace: %-28@ %9.1f ms\n", name, Double(phase.nanoseconds) / 1_000_000)
        FileDescriptorWriter.writeAll(STDERR_FILENO, text)
    }
}

/// `DASHBOARD_TRACE_FILE=PATH`: each phase appended to PATH as one JSON object on one line, as
/// it ends: `{"depth":0,"nanoseconds":275100000,"phase":"read, normalize, stage"}`.
///
/// Each line is written with one `write(2)` to a file opened `O_APPEND`, so a process killed at
/// any moment leaves whole lines; the file is created 0600. Tests read it to learn which phase a
/// killed import had finished (docs/reliability.md).
final class JSONLinesTracer: Tracer {
    private let descriptor: Int32

    /// Opens (creates, appends to) `path`.
    /// - Throws: `TraceFileError` with the system's reason.
    init(path: String) throws(TraceFileError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw TraceFileError(path: path, reason: String(cString: strerror(errno))) }
        descriptor = fd
    }

    deinit { close(descriptor) }

    func record(_ phase: TracePhase) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(phase) else { return }
        line.append(0x0A)
        // A trace that cannot be written is lost; the run itself goes on unchanged.
        _ = line.withUnsafeBytes { FileDescriptorWriter.writeAll(descriptor, $0) }
    }
}

/// The trace file named by `DASHBOARD_TRACE_FILE` cannot be opened.
struct TraceFileError: Error, Equatable {
    let path: String
    let reason: String
}

/// Every phase to each of several tracers, in order.
struct FanOutTracer: Tracer {
    let tracers: [any Tracer]

    func record(_ phase: TracePhase) {
        for tracer in tracers { tracer.record(phase) }
    }
}
