import DashboardCore
import Foundation

/// The structured trace of a run: `DASHBOARD_TRACE_FILE=PATH` makes `dashboard` append one JSON
/// object per phase to PATH as the phase ends (docs/reliability.md, "Tracing a run"). Tests
/// read phases from there, never from the text `DASHBOARD_TRACE=1` writes for people.
enum TraceFile {
    static let variable = "DASHBOARD_TRACE_FILE"

    /// The phases written to `path`, in order; none when the file is not there (a run killed
    /// before it opened the file). Only whole lines count: each phase is one `write(2)`, so a
    /// kill cannot cut one, but a line without its newline would not be a phase that ended.
    /// - Throws: `HarnessError` for a whole line that is not a phase.
    static func phases(_ path: String) throws -> [TracePhase] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeLast()  // after the last newline: empty, or a line that never ended
        return try lines.map { line in
            do {
                return try JSONDecoder().decode(TracePhase.self, from: Data(line.utf8))
            } catch {
                throw HarnessError("\(path): not a trace phase: \(line.debugDescription) (\(error))")
            }
        }
    }
}

extension TracePhase {
    var milliseconds: Double { Double(nanoseconds) / 1_000_000 }
}
