import CPostgreSQL
import CSQLite
import Foundation
import Synchronization

/// What another thread may do to a connection: interrupt it (`StopRequest`, `Interruptible`).
///
/// SQLite: `sqlite3_interrupt` makes the running statement fail (SQLITE_INTERRUPT: its
/// transaction rolls back), and the busy handler (`wait`) stops waiting for another writer's
/// lock, which `sqlite3_interrupt` alone does not end. PostgreSQL: libpq's cancel request
/// (`PQcancel`, made for other threads and signal handlers) ends the running statement, the
/// wait for the writers' advisory lock included. Calls after the connection closed do nothing.
///
/// `sqlite3_interrupt` does nothing to a connection with no statement running (an import's
/// writer waiting for rows), and a cancel request nothing to a session between statements: the
/// request is also kept (`wasRequested`), and every statement checks it before it runs
/// (`Statement`), and SQLite's progress handler while it runs (`Database`).
final class ConnectionInterrupt: @unchecked Sendable {
    private let lock = NSLock()
    private var sqlite: OpaquePointer?
    private var postgres: OpaquePointer?
    private let requested = Atomic<Bool>(false)
    /// How long a writer waits for another's lock (milliseconds).
    private var busyMilliseconds = 0

    init(sqlite handle: OpaquePointer) {
        sqlite = handle
        sqlite3_busy_handler(
            handle,
            { context, count in
                guard let context else { return 0 }
                return Unmanaged<ConnectionInterrupt>.fromOpaque(context).takeUnretainedValue().wait(count)
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    init(postgres connection: OpaquePointer) {
        postgres = PQgetCancel(connection)
    }

    /// True once the connection was interrupted.
    var wasRequested: Bool { requested.load(ordering: .relaxed) }

    /// Interrupts the running statement and every later wait for a lock.
    func interrupt() {
        requested.store(true, ordering: .relaxed)
        lock.withLock {
            if let sqlite { sqlite3_interrupt(sqlite) }
            if let postgres {
                var message = [CChar](repeating: 0, count: 256)
                _ = PQcancel(postgres, &message, Int32(message.count))
            }
        }
    }

    /// Lets statements run again after a stop was handled: the run stopped at a safe point and
    /// only its last short reads remain (the night's metrics read the database's status).
    func resume() {
        requested.store(false, ordering: .relaxed)
    }

    /// Sets how long a writer waits for another writer's lock.
    func setBusyTimeout(milliseconds: Int) {
        lock.withLock { busyMilliseconds = max(0, milliseconds) }
    }

    /// Called before the connection closes: later interrupts do nothing.
    func closing() {
        lock.withLock {
            if let postgres { PQfreeCancel(postgres) }
            sqlite = nil
            postgres = nil
        }
    }

    /// The delays between tries, as SQLite's own busy timeout sleeps (milliseconds).
    private static let delays = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100]

    /// SQLite's busy handler: 1 to try again after a sleep, 0 to give up (the lock is busy).
    private func wait(_ count: Int32) -> Int32 {
        let limit = lock.withLock { busyMilliseconds }
        guard !wasRequested else { return 0 }
        let tries = Int(count)
        let delays = Self.delays
        let slept =
            tries < delays.count
            ? delays[..<tries].reduce(0, +) : delays.reduce(0, +) + (tries - delays.count) * delays[delays.count - 1]
        let delay = min(tries < delays.count ? delays[tries] : delays[delays.count - 1], limit - slept)
        guard delay > 0 else { return 0 }
        // Slept in steps of 10 ms at most, so that an interrupt ends the wait at once.
        var left = delay
        while left > 0 {
            let step = min(left, 10)
            usleep(useconds_t(step * 1000))
            left -= step
            if wasRequested { return 0 }
        }
        return 1
    }
}
