import DashboardCore
import Dispatch
import Foundation

/// SIGTERM, SIGINT and SIGHUP, while `nightly` runs, as a request to stop (`StopRequest`): the
/// first one asks the night to stop at its next safe point and say what it left (exit 75); the
/// signals' earlier dispositions are back at once, so a second one ends the process as before
/// (systemd's SIGKILL after its stop timeout needs none of this). A signal that was ignored
/// when the command started (`nohup`) stays ignored.
final class StopSignals {
    /// The signals, and the names the messages give them.
    static let handled: [(number: Int32, name: String)] = [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGHUP, "SIGHUP")]

    private var sources: [DispatchSourceSignal] = []
    /// The dispositions the signals had, to put back.
    private let earlier: [(number: Int32, action: sigaction)]

    init(_ stop: StopRequest) {
        var kept: [(number: Int32, action: sigaction)] = []
        for (number, _) in Self.handled {
            var action = sigaction()
            guard sigaction(number, nil, &action) == 0 else { continue }
            // Ignored when the command started: left ignored.
            if unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            kept.append((number, action))
        }
        earlier = kept
        let queue = DispatchQueue(label: "dashboard.stop-signals")
        for (number, _) in kept {
            let name = Self.handled.first { $0.number == number }?.name ?? "a signal"
            // Ignored so that only libdispatch sees it (it then calls the handler below).
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                for (other, action) in kept {
                    var previous = action
                    sigaction(other, &previous, nil)
                }
                stop.request(name)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Puts the signals' dispositions back (the night is over).
    func restore() {
        for source in sources { source.cancel() }
        for (number, action) in earlier {
            var previous = action
            sigaction(number, &previous, nil)
        }
    }
}
