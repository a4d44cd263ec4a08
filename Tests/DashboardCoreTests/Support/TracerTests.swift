import Foundation
import Synchronization
import Testing

@testable import DashboardCore

/// Phases reach the tracer bound with `Tracing.$current.withValue`, and only that one: the
/// library never prints a trace, the executable chooses where phases go.
@Suite("Tracer: the phases of a run go to the injected tracer")
struct TracerTests {
    /// Keeps every phase it is given, in order.
    final class Recorder: Tracer {
        private let recorded = Mutex<[TracePhase]>([])
        func record(_ phase: TracePhase) { recorded.withLock { $0.append(phase) } }
        var phases: [TracePhase] { recorded.withLock { $0 } }
        var names: [String] { phases.map(\.phase) }
    }

    @Test("a timer reports each mark's name without its indent, the indent as depth, and notes at depth 1")
    func timerNamesAndDepths() {
        let recorder = Recorder()
        var timer = PhaseTimer(tracer: recorder)
        timer.mark("read")
        timer.note("waiting", nanoseconds: 42)
        timer.mark("  entries")
        timer.mark("    deeper")
        #expect(recorder.phases.map { "\($0.depth) \($0.phase)" } == ["0 read", "1 waiting", "1 entries", "2 deeper"])
        #expect(recorder.phases[1].nanoseconds == 42)
    }

    @Test("without a tracer in force a timer reports nothing, and the binding ends with its scope")
    func noTracerOutsideTheScope() throws {
        #expect(Tracing.current == nil)
        let recorder = Recorder()
        Tracing.$current.withValue(recorder) {
            var timer = PhaseTimer()
            timer.mark("inside")
        }
        var outside = PhaseTimer()
        outside.mark("outside")
        #expect(Tracing.current == nil)
        #expect(recorder.names == ["inside"])
    }

    @Test("a first import reports the phases the crash tests rely on, in order, at their depths")
    func firstImportPhases() throws {
        let fixture = try ImporterFixture()
        let recorder = Recorder()
        try Tracing.$current.withValue(recorder) {
            try fixture.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", ImporterFixture.tasks(1...20))])
        }
        let contract = [("read, normalize, stage", 0), ("births", 1), ("tasks_by_course", 1), ("commit", 0)]
        let seen = recorder.phases.filter { phase in contract.contains { $0.0 == phase.phase } }
        #expect(seen.map(\.phase) == contract.map(\.0))
        #expect(seen.map(\.depth) == contract.map(\.1))
        // The per-task entries and history rows of births are gone, and so are their phases.
        #expect(!recorder.names.contains("entries") && !recorder.names.contains("history rows"))
        #expect(recorder.names.last == "commit")

        // The next import stages its tasks: no direct writer, so no tasks_by_course phase.
        let second = Recorder()
        try Tracing.$current.withValue(second) {
            try fixture.run([("tasks.csv", ImporterFixture.tasks(1...21))])
        }
        #expect(second.names.first == "read, normalize, stage")
        #expect(second.names.last == "commit")
        #expect(!second.names.contains("tasks_by_course"))
    }
}
