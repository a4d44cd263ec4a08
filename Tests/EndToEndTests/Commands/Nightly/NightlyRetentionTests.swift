import Foundation
import Testing

/// Issue 13, item 4: `latest` points at the newest whole night, and `--keep DAYS` removes only
/// dated folders older than DAYS days, never following a link and never touching other names.
/// About the report folders: the SQLite pass only (`.reportFoldersOnly`).
@Suite(.reportFoldersOnly) struct NightlyRetentionTests {
    static func night(_ sandbox: Sandbox, _ day: Int, keep: Int? = nil) throws -> CommandResult {
        let asOf = "2026-11-\(day < 10 ? "0" : "")\(day)T02:00:00Z"
        var arguments = ["--db", "db.sqlite", "--as-of", asOf, "nightly", "--imports", "drop", "--reports", "reports"]
        if let keep { arguments += ["--keep", String(keep)] }
        return try sandbox.run(arguments)
    }

    static func school() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("drop/courses.csv", Fixtures.courses)
        try sandbox.write("drop/tasks.csv", Fixtures.tasks)
        return sandbox
    }

    static func names(_ sandbox: Sandbox, _ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: sandbox.path(folder)).sorted()
    }

    @Test func keepRemovesOnlyDatedFoldersOlderThanItsDays() throws {
        let sandbox = try Self.school()
        for day in 20...24 { #expect(try Self.night(sandbox, day).exitCode == 0) }
        // Names that only look like nights, a link named like a date, and a night after tonight.
        let fm = FileManager.default
        try fm.createDirectory(atPath: sandbox.path("reports/2026-02-30"), withIntermediateDirectories: false)
        try fm.createDirectory(atPath: sandbox.path("reports/notes"), withIntermediateDirectories: false)
        try sandbox.write("reports/2026-11-01.txt", "a file named like a night")
        try sandbox.write("outside/2026-11-02/keep.txt", "outside the reports folder")
        try fm.createSymbolicLink(atPath: sandbox.path("reports/2026-11-02"), withDestinationPath: sandbox.path("outside/2026-11-02"))
        try fm.createDirectory(atPath: sandbox.path("reports/2026-12-31"), withIntermediateDirectories: false)

        let result = try Self.night(sandbox, 25, keep: 3)
        #expect(result.exitCode == 0, "\(result)")
        #expect(
            try Self.names(sandbox, "reports") == [
                "2026-02-30", "2026-11-01.txt", "2026-11-02", "2026-11-23", "2026-11-24", "2026-11-25", "2026-12-31", "latest", "notes",
            ])
        #expect(try sandbox.read("outside/2026-11-02/keep.txt") == Data("outside the reports folder".utf8))
        #expect(try fm.destinationOfSymbolicLink(atPath: sandbox.path("reports/latest")) == "2026-11-25")
        // 3 files per format (the grid, 2 courses), each course's calendar feed and the teachers'
        // folder: its index in every format and the folder of the courses without a teacher (no
        // course names one), which also holds its calendar.ics.
        #expect(try Self.names(sandbox, "reports/latest").count == 18)
        #expect(try Self.names(sandbox, "reports/latest/teachers").count == 6)
        #expect(try Self.names(sandbox, "reports/latest/teachers/unassigned").count == 18)
    }

    @Test func theDefaultKeepsThirtyDays() throws {
        let sandbox = try Self.school()
        try FileManager.default.createDirectory(atPath: sandbox.path("reports/2026-10-27"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: sandbox.path("reports/2026-10-26"), withIntermediateDirectories: true)
        #expect(try Self.night(sandbox, 25).exitCode == 0)
        #expect(try Self.names(sandbox, "reports") == ["2026-10-27", "2026-11-25", "latest"])
    }

    @Test func aSecondRunOfTheSameNightReplacesItsFolderWhole() throws {
        let sandbox = try Self.school()
        #expect(try Self.night(sandbox, 25).exitCode == 0)
        try sandbox.write("reports/2026-11-25/stray.txt", "left by hand")
        try sandbox.write("drop/tasks.csv", Fixtures.tasks.replacingOccurrences(of: "Lab report", with: "Lab report v2"))
        #expect(try Self.night(sandbox, 25).exitCode == 0)
        let names = try Self.names(sandbox, "reports/2026-11-25")
        #expect(names.count == 18 && !names.contains("stray.txt"), "\(names)")
        #expect(try String(decoding: sandbox.read("reports/latest/index.json"), as: UTF8.self).contains("\"schema\": 2"))
        let json = try Self.names(sandbox, "reports/latest").filter { $0.hasPrefix("course-bio") && $0.hasSuffix(".json") }
        #expect(try String(decoding: sandbox.read("reports/latest/" + (json.first ?? "")), as: UTF8.self).contains("Lab report v2"))
        #expect(try Self.names(sandbox, "reports") == ["2026-11-25", "latest"], "no hidden folder is left behind")
    }

    /// Issue 27, item 4: refused before the night imports or writes anything (64, a name in the
    /// way), no longer after its folder was published (74).
    @Test func aLatestThatIsNotALinkIsRefusedBeforeTheNight() throws {
        let sandbox = try Self.school()
        try FileManager.default.createDirectory(atPath: sandbox.path("reports/latest"), withIntermediateDirectories: true)
        let result = try Self.night(sandbox, 25)
        #expect(
            result
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr: """
                        dashboard: error: --reports reports would point latest at tonight's reports, but reports/latest is a folder, not a symbolic link
                        dashboard: hint: move reports/latest away (dashboard keeps a symbolic link there), or give another folder; nothing was read or written

                        """))
        #expect(try Self.names(sandbox, "reports") == ["latest"], "no night was written")
        #expect(try Self.names(sandbox, "reports/latest") == [], "the folder someone made is left as it was")
        #expect(!sandbox.exists("db.sqlite"), "nothing was imported")
    }

    @Test func keepOutsideItsRangeIsAUsageError() throws {
        let sandbox = try Self.school()
        let result = try sandbox.run(["nightly", "--keep", "0"])
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.stderr.contains("1 to 36500"), "\(result)")
    }
}

extension NightlyRetentionTests {
    @Test func writingAnEarlierNightAgainLeavesLatestAtTheNewest() throws {
        let sandbox = try Self.school()
        #expect(try Self.night(sandbox, 25).exitCode == 0)
        #expect(try Self.night(sandbox, 24).exitCode == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.path("reports/latest")) == "2026-11-25")
        #expect(try Self.names(sandbox, "reports") == ["2026-11-24", "2026-11-25", "latest"])
    }
}
