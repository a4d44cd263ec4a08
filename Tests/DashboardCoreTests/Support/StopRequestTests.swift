import Foundation
import Synchronization
import Testing

@testable import DashboardCore

/// `StopRequest`: the first reason counts, interrupters run once, and `settled` waits for a
/// request's interrupters (a stopped night's last read must not meet a cancel still on its way).
@Suite(.storeIndependent) struct StopRequestTests {
    @Test func theFirstReasonCountsAndEveryInterrupterRunsOnce() throws {
        let stop = StopRequest()
        let calls = Atomic<Int>(0)
        stop.onRequest { calls.add(1, ordering: .relaxed) }
        #expect(stop.reason == nil)
        #expect(throws: Never.self) { try stop.check() }
        stop.request("SIGTERM")
        stop.request("SIGINT")
        #expect(stop.reason == "SIGTERM")
        let once = calls.load(ordering: .relaxed)
        #expect(once == 1)
        #expect(throws: StopRequest.Stopped(reason: "SIGTERM")) { try stop.check() }
        // Registered after the request: called at once.
        stop.onRequest { calls.add(1, ordering: .relaxed) }
        let twice = calls.load(ordering: .relaxed)
        #expect(twice == 2)
    }

    @Test func settledWaitsForTheInterruptersOfARequestOnAnotherThread() {
        let stop = StopRequest()
        let finished = Atomic<Bool>(false)
        stop.onRequest {
            // A slow interrupter: PostgreSQL's cancel request on a loaded machine.
            usleep(300_000)
            finished.store(true, ordering: .relaxed)
        }
        let thread = Thread { stop.request("SIGTERM") }
        thread.start()
        // The run sees the reason before the interrupter has returned.
        while stop.reason == nil { usleep(100) }
        let before = finished.load(ordering: .relaxed)
        #expect(!before)
        stop.settled()
        let after = finished.load(ordering: .relaxed)
        #expect(after)
    }
}
