import Foundation

/// Wall-clock time per phase of a run, printed to stderr when `DASHBOARD_TRACE=1`: how
/// performance work finds where the time goes without a profiler.
struct PhaseTimer {
    private let enabled = ProcessInfo.processInfo.environment["DASHBOARD_TRACE"] == "1"
    private var last = DispatchTime.now().uptimeNanoseconds

    /// Reports the time since the previous mark under `name`.
    mutating func mark(_ name: String) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let ms = Double(now - last) / 1_000_000
        FileHandle.standardError.write(Data(String(format: "trace: %-28@ %9.1f ms\n", name, ms).utf8))
        last = now
    }

    /// Reports a duration measured elsewhere (`name` is indented under the phase it is part of).
    func note(_ name: String, nanoseconds: UInt64) {
        guard enabled else { return }
        FileHandle.standardError.write(Data(String(format: "trace:   %-26@ %9.1f ms\n", name, Double(nanoseconds) / 1_000_000).utf8))
    }
}
