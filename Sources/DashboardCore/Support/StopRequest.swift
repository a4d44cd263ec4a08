import Foundation

/// A request to stop a long run at its next safe point: what `nightly` makes of SIGTERM
/// (systemd's stop, a timer's timeout), SIGINT and SIGHUP.
///
/// Policy (docs/operations.md, "Stopping a run"): a stop never cuts a write in half. The
/// store's running statement is interrupted (`Interruptible`), so a transaction in progress
/// rolls back whole, and a wait for another writer's lock ends; the run then stops at the next
/// point where nothing is half done (between the import, categorize and the reports; a report
/// file is written whole or not at all; the night's folder is published whole or not at all)
/// and says what it left. Any thread may request the stop; the run checks it (`check`).
package final class StopRequest: @unchecked Sendable {
    private let lock = NSLock()
    /// Held while a request sets its reason and calls the interrupters (`settled`).
    private let delivering = NSLock()
    private var why: String?
    private var interrupters: [@Sendable () -> Void] = []

    package init() {}

    /// What asked the run to stop ("SIGTERM"), or nil while nothing did.
    package var reason: String? { lock.withLock { why } }

    /// Asks the run to stop, naming why; the first request counts. Calls every interrupter.
    package func request(_ reason: String) {
        delivering.withLock {
            let interrupt: [@Sendable () -> Void] = lock.withLock {
                guard why == nil else { return [] }
                why = reason
                return interrupters
            }
            for call in interrupt { call() }
        }
    }

    /// Waits until a request's interrupters have returned. A run that saw the stop (its
    /// reason is set before they are called) and wants a last short read (a stopped night's
    /// metrics) calls this first: PostgreSQL's cancel request is sent by an interrupter on the
    /// signals' thread, and one still on its way would cancel that read instead.
    package func settled() {
        delivering.withLock {}
    }

    /// Calls `interrupt` when a stop is requested (at once when it already was).
    package func onRequest(_ interrupt: @escaping @Sendable () -> Void) {
        let already: Bool = lock.withLock {
            interrupters.append(interrupt)
            return why != nil
        }
        if already { interrupt() }
    }

    /// The error of a run that stopped because it was asked to.
    package struct Stopped: Error, Equatable {
        package var reason: String
    }

    /// - Throws: `Stopped` when a stop was requested.
    package func check() throws(Stopped) {
        if let reason { throw Stopped(reason: reason) }
    }
}

/// A store whose running work another thread can interrupt (`StopRequest`): the running
/// statement fails (its transaction rolls back) and a wait for another writer's lock ends.
package protocol Interruptible: AnyObject {
    /// A function any thread may call, as long as it likes, even after the store closed.
    func interrupter() -> @Sendable () -> Void
    /// Lets the store's statements run again once the run has stopped at its safe point and
    /// handled the stop (the last short reads of a stopped night: its metrics).
    func resumeAfterStop()
}
