import Foundation
import Testing

/// Issue 11, class 10: a bad value names where it came from (the option or the environment
/// variable); `--db ""` is a usage error; an empty environment variable counts as unset.
@Suite("Hardening: messages name the environment variable a value came from")
struct HardeningEnvironmentMessageTests {
    static let asOfHint = "dashboard: hint: use 2026-11-29, 2026-11-29T08:00 (in --timezone) or 2026-11-29T08:00:00Z\n"
    static let zoneHint = "dashboard: hint: use an IANA name such as Europe/Berlin\n"

    @Test func aBadAsOfNamesTheOptionOrTheVariable() throws {
        let sandbox = try AuditSetup.imported()
        let before = try sandbox.auditLog()
        #expect(
            try sandbox.run(["--db", "db.sqlite", "categorize"], environment: ["DASHBOARD_AS_OF": "tomorrow"])
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr: "dashboard: error: DASHBOARD_AS_OF=\"tomorrow\" cannot be read as a time\n" + Self.asOfHint))
        #expect(
            try sandbox.run(["--db", "db.sqlite", "--as-of", "tomorrow", "categorize"])
                == CommandResult(
                    exitCode: 64, stdout: "", stderr: "dashboard: error: --as-of \"tomorrow\" cannot be read as a time\n" + Self.asOfHint))
        // The option wins over the variable: a good option hides a bad variable.
        #expect(
            try sandbox.run(
                ["--db", "db.sqlite", "--as-of", "2026-11-29T08:00:00Z", "status"], environment: ["DASHBOARD_AS_OF": "tomorrow"]
            ).exitCode == 0)
        #expect(try sandbox.auditLog() == before)
    }

    @Test func aBadTimeZoneNamesTheOptionOrTheVariable() throws {
        let sandbox = try AuditSetup.imported()
        #expect(
            try sandbox.run(["--db", "db.sqlite", "status"], environment: ["DASHBOARD_TZ": "Mars/Base"])
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr: "dashboard: error: DASHBOARD_TZ=\"Mars/Base\" is not a known time zone\n" + Self.zoneHint))
        #expect(
            try sandbox.run(["--db", "db.sqlite", "--timezone", "Mars/Base", "status"])
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr: "dashboard: error: --timezone \"Mars/Base\" is not a known time zone\n" + Self.zoneHint))
    }

    @Test(.sqliteFiles) func aDatabaseProblemNamesDASHBOARD_DBWhenItGaveThePath() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("folder"), withIntermediateDirectories: true)
        let hint = "dashboard: hint: point --db (or DASHBOARD_DB) at a database file\n"
        #expect(
            try sandbox.run(["categorize"], environment: ["DASHBOARD_DB": "folder"])
                == CommandResult(
                    exitCode: 74, stdout: "",
                    stderr: "dashboard: error: folder is a directory, not a database file (the path comes from DASHBOARD_DB)\n" + hint))
        #expect(
            try sandbox.run(["--db", "folder", "categorize"])
                == CommandResult(exitCode: 74, stdout: "", stderr: "dashboard: error: folder is a directory, not a database file\n" + hint))
        #expect(
            try sandbox.run(["audit"], environment: ["DASHBOARD_DB": "missing.sqlite"])
                == CommandResult(
                    exitCode: 66, stdout: "",
                    stderr:
                        "dashboard: error: no database at missing.sqlite yet (the path comes from DASHBOARD_DB)\ndashboard: hint: import data first: `dashboard import imports/`\n"
                ))
        #expect(
            try sandbox.run(["status"], environment: ["DASHBOARD_DB": "missing.sqlite"]).stdout
                == "No data imported yet: missing.sqlite does not exist (the path comes from DASHBOARD_DB).\nNext step: dashboard import imports/\n"
        )
        #expect(try sandbox.listing() == ["folder"])
    }

    @Test(arguments: [["--db", "", "status"], ["--db=", "report", "grid"], ["import", "--db", "", "x.csv"]])
    func anEmptyDbIsAUsageError(_ arguments: [String]) throws {
        let sandbox = try Sandbox()
        #expect(
            try sandbox.run(arguments)
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr:
                        "dashboard: error: --db needs a database file path, not an empty string\ndashboard: hint: see `dashboard --help`\n")
        )
        #expect(try sandbox.listing().isEmpty)
    }

    @Test(.sqliteFiles) func anEmptyVariableCountsAsUnset() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["status"], environment: ["DASHBOARD_DB": "", "DASHBOARD_TZ": "", "DASHBOARD_AS_OF": ""])
        // `status` without a database: 66, naming the default path.
        #expect(result.exitCode == 66, "\(result)")
        #expect(result.stdout.contains("dashboard.sqlite does not exist"), "\(result)")
    }
}
