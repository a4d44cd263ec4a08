import Foundation
import Testing

/// Instances of issue 11's classes that a hostile review of the first fixes found: stdout that
/// cannot be written (class 10: an I/O error is 74, never a silent 0), a FIFO given as the
/// nightly drop folder (class 8: never hang), a time outside the years the product reads
/// (class 10: the message says so), and invisible format characters (class 6).
@Suite("Hardening: instances found by the hostile review")
struct HardeningReviewFindingsTests {
    /// Runs `dashboard ARGS` through `sh -c` with `redirection` applied to it.
    static func runRedirected(_ sandbox: Sandbox, _ arguments: [String], redirection: String) throws -> CommandResult {
        let binary = try DashboardBinary.url().path
        let mapped = try StoreUnderTest.prepare(arguments, environment: [:], directory: sandbox.directory).arguments
        let quoted = ([binary] + mapped).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return try sandbox.runTool("sh", ["-c", "exec " + quoted.joined(separator: " ") + " " + redirection])
    }

    static let stdoutHint =
        "dashboard: hint: check the disk or the file that standard output goes to; the output is incomplete\n"

    @Test func dataThatCannotBeWrittenToStdoutIsAnIOErrorNotASuccess() throws {
        let sandbox = try AuditSetup.imported()
        let before = try sandbox.read("db.sqlite")
        for arguments in [
            ["--db", "db.sqlite", "report", "grid", "--format", "json"], ["--db", "db.sqlite", "status"],
            ["--db", "db.sqlite", "audit", "--format", "csv"], ["--db", "db.sqlite", "batches", "list"],
        ] {
            let full = try Self.runRedirected(sandbox, arguments, redirection: ">/dev/full")
            #expect(
                full
                    == CommandResult(
                        exitCode: 74, stdout: "",
                        stderr: "dashboard: error: cannot write standard output: No space left on device\n" + Self.stdoutHint),
                "\(arguments)")
            let closed = try Self.runRedirected(sandbox, arguments, redirection: ">&-")
            #expect(
                closed
                    == CommandResult(
                        exitCode: 74, stdout: "",
                        stderr: "dashboard: error: cannot write standard output: Bad file descriptor\n" + Self.stdoutHint),
                "\(arguments)")
        }
        #expect(try sandbox.read("db.sqlite") == before)
    }

    @Test(arguments: ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"])
    func standardInputNamedTwiceIsRefusedEvenWhenItIsARegularFile(alias: String) throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let result = try Self.runRedirected(sandbox, ["--db", "db.sqlite", "check", "-", alias], redirection: "< tasks.csv")
        #expect(
            result
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr: "dashboard: error: standard input was named twice (- and \(alias)); it can be read only once\n"
                        + "dashboard: hint: see `dashboard check --help`\n"))
        #expect(!sandbox.exists("db.sqlite"))
    }

    @Test func aFIFOGivenAsTheNightlyDropFolderIsRefusedWithoutWaiting() throws {
        let sandbox = try AuditSetup.imported()
        #expect(mkfifo(sandbox.path("drop"), 0o600) == 0)
        let started = Date()
        let result = try sandbox.launch(["--db", "db.sqlite", "nightly", "--imports", "drop", "--reports", "out"], timeout: 20).finish()
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(result.exitCode == 66 && result.stdout == "", "\(result)")
        #expect(
            result.stderr.hasPrefix(
                "dashboard: error: drop is a FIFO, not a folder of exports\n"
                    + "dashboard: hint: give the drop folder the exports are written to\n"
                    + "dashboard: nightly "), "\(result)")
        // Nothing was imported from it; the night's reports say that no export arrived.
        #expect(result.stderr.contains(": no export arrived (66); "), "\(result)")
        #expect(try String(decoding: sandbox.read("out/latest/index.json"), as: UTF8.self).contains("\"no_export\": true"))
    }

    @Test(
        arguments: [
            (["--as-of", "1899-12-31"], [:], "--as-of \"1899-12-31\" is outside the years 1900 to 2200"),
            (["--as-of", "2201-01-01T00:00:00Z"], [:], "--as-of \"2201-01-01T00:00:00Z\" is outside the years 1900 to 2200"),
            ([], ["DASHBOARD_AS_OF": "1899-01-01"], "DASHBOARD_AS_OF=\"1899-01-01\" is outside the years 1900 to 2200"),
        ] as [([String], [String: String], String)])
    func aTimeOutsideTheReadYearsSaysSo(options: [String], environment: [String: String], message: String) throws {
        let sandbox = try AuditSetup.imported()
        let result = try sandbox.run(["--db", "db.sqlite"] + options + ["status"], environment: environment)
        #expect(result.exitCode == 64)
        #expect(result.stderr.hasPrefix("dashboard: error: \(message)\n"))
    }

    @Test func invisibleFormatCharactersOfTheDataAreShownInTextReports() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", "course_id,title\nC1,Soft\u{AD}hyphen and tag\u{E0041}\u{E0042} smuggling\n")
        try sandbox.write("tasks.csv", "task_id,course_id,title\nT1,C1,Fill\u{3164}er\u{FFF9}note\n")
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        let list = try sandbox.run(["--db", "db.sqlite", "report", "list", "--format", "text", "--width", "200"])
        #expect(list.exitCode == 0)
        #expect(list.stdout.contains("Soft<U+00AD>hyphen and tag<U+E0041><U+E0042> smuggling"))
        #expect(list.stdout.contains("Fill<U+3164>er<U+FFF9>note"))
        for scalar in ["\u{AD}", "\u{E0041}", "\u{3164}", "\u{FFF9}"] {
            #expect(!list.stdout.contains(scalar))
        }
        // JSON keeps the exact value.
        let json = try sandbox.run(["--db", "db.sqlite", "report", "list", "--format", "json"])
        #expect(json.stdout.contains("\"title\": \"Fill\\u3164er\\ufff9note\""))
    }
}
