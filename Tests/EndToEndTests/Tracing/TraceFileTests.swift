import Foundation
import Testing

/// `DASHBOARD_TRACE_FILE=PATH` appends one JSON object per phase to PATH as the phase ends;
/// `DASHBOARD_TRACE=1` writes the same phases on stderr for people. Neither changes what the
/// command does (docs/reliability.md, "Tracing a run").
@Suite("Tracing a run: the structured trace file and the text on stderr")
struct TraceFileTests {
    static let importArguments = ["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]

    static func sandboxWithExport() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write("tasks.csv", Fixtures.tasks)
        return sandbox
    }

    @Test("the trace file holds one JSON object per line with exactly phase, depth and nanoseconds")
    func traceFileIsJSONLines() throws {
        let sandbox = try Self.sandboxWithExport()
        let plain = try Self.sandboxWithExport().run(Self.importArguments)
        let traced = try sandbox.run(Self.importArguments, environment: [TraceFile.variable: sandbox.path("trace.jsonl")])
        #expect(traced == plain, "the trace changes nothing the command prints")
        let text = String(decoding: try sandbox.read("trace.jsonl"), as: UTF8.self)
        #expect(text.hasSuffix("}\n"))
        let lines = text.split(separator: "\n")
        try #require(!lines.isEmpty)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(Set(object.keys) == ["phase", "depth", "nanoseconds"], "\(line)")
            #expect(line.hasPrefix("{\"depth\":"), "keys are sorted: \(line)")
        }
        let phases = try TraceFile.phases(sandbox.path("trace.jsonl"))
        #expect(phases.first?.phase == "read, normalize, stage")
        #expect(phases.last?.phase == "commit")
        #expect(phases.filter { $0.depth == 0 }.map(\.phase).contains("plan"))
        #expect(phases.contains { $0.phase == "tasks_by_course" && $0.depth == 1 }, "a first import writes its tasks directly")
        #expect(
            try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT \(DatabaseSnapshot.taskDataColumns) FROM tasks ORDER BY task_id")
                == Fixtures.storedTasks)
    }

    @Test("a second traced run appends its phases after the first's")
    func traceFileIsAppended() throws {
        let sandbox = try Self.sandboxWithExport()
        let environment = [TraceFile.variable: sandbox.path("trace.jsonl")]
        #expect(try sandbox.run(Self.importArguments, environment: environment).exitCode == 0)
        let first = try TraceFile.phases(sandbox.path("trace.jsonl"))
        #expect(try sandbox.run(Self.importArguments, environment: environment).exitCode == 0)
        let both = try TraceFile.phases(sandbox.path("trace.jsonl"))
        #expect(Array(both.prefix(first.count)) == first)
        // The same files into unchanged data: the second run proves it and reads no row.
        #expect(both.dropFirst(first.count).first?.phase == "prove unchanged since batch 1")
        #expect(both.last?.phase == "commit")
    }

    @Test("DASHBOARD_TRACE=1 writes the phases on stderr as text, indented by depth, and no file")
    func textTraceOnStderr() throws {
        let sandbox = try Self.sandboxWithExport()
        let result = try sandbox.run(Self.importArguments, environment: ["DASHBOARD_TRACE": "1"])
        #expect(result.exitCode == 0, "\(result)")
        let trace = result.stderr.split(separator: "\n").filter { $0.hasPrefix("trace: ") }
        #expect(trace.first?.hasPrefix("trace: read, normalize, stage      ") == true, "\(result)")
        #expect(trace.contains { $0.hasPrefix("trace:   births      ") && $0.hasSuffix(" ms") }, "\(result)")
        #expect(!trace.contains { $0.hasPrefix("trace:   entries ") || $0.hasPrefix("trace:   history rows ") }, "\(result)")
        #expect(trace.last?.hasPrefix("trace: commit      ") == true, "\(result)")
        // The writer keeps the -wal and -shm for readers (issue 13); no trace file.
        let database = StoreUnderTest.isPostgres ? [] : ["db.sqlite", "db.sqlite-shm", "db.sqlite-wal"]
        #expect(try sandbox.listing() == ["courses.csv"] + database + ["tasks.csv"])
    }

    @Test("a trace file that cannot be opened is an I/O error before anything runs")
    func unopenableTraceFile() throws {
        let sandbox = try Self.sandboxWithExport()
        let result = try sandbox.run(Self.importArguments, environment: [TraceFile.variable: "nothere/trace.jsonl"])
        #expect(
            result
                == CommandResult(
                    exitCode: 74, stdout: "",
                    stderr: """
                        dashboard: error: cannot open the trace file nothere/trace.jsonl ($DASHBOARD_TRACE_FILE): No such file or directory
                        dashboard: hint: set DASHBOARD_TRACE_FILE to a file in a folder you can write, or unset it

                        """))
        #expect(try sandbox.listing() == ["courses.csv", "tasks.csv"])
    }

    @Test("the binary the tests run is the one SwiftPM built beside them")
    func binaryIsBesideTheTests() throws {
        let folder = try #require(DashboardBinary.buildFolder)
        #expect(try DashboardBinary.url() == folder.appendingPathComponent("dashboard"))
        #expect(try Sandbox().run(["--version"]).stdout.hasPrefix("dashboard "))
    }
}
