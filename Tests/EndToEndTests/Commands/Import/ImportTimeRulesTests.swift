import Foundation
import Testing

/// Issue 27, item 6: offsets from -14:00 to +14:00 and no further, fractions of a second of any
/// length, every zone name tzdata ships (docs/formats.md, "Due dates" and "Normalization").
@Suite struct ImportTimeRulesTests {
    static let forms = "use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] (course time) or add Z / ±HH:MM for an exact instant"

    @Test func offsetsBeyondFourteenHoursAreRejectedSayingTheRuleAndTheEdgesImport() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write(
            "tasks.csv",
            "task_id,course_id,title,due\n" + "o1,bio,Plus 14:59,2026-11-29T10:00+14:59\n" + "o2,bio,Minus 14:30,2026-11-29T10:00-14:30\n"
                + "o3,bio,Plus 14:00,2026-11-29T10:00+14:00\n" + "o4,bio,Minus 14:00,2026-11-29T10:00-1400\n"
                + "o5,bio,Twelve digits,2026-11-29T10:00:15.123456789012Z\n" + "o6,bio,Sixty minutes,2026-11-29T10:00+05:60\n")
        let result = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"])
        let rule = "offsets run from -14:00 to +14:00"
        #expect(
            result
                == CommandResult(
                    exitCode: 65, stdout: "",
                    stderr: """
                        tasks.csv:2: error: due: "2026-11-29T10:00+14:59" is not a date: the offset +14:59 is out of range: \(rule) [invalid_date]
                            hint: \(Self.forms)
                        tasks.csv:3: error: due: "2026-11-29T10:00-14:30" is not a date: the offset -14:30 is out of range: \(rule) [invalid_date]
                            hint: \(Self.forms)
                        tasks.csv:7: error: due: "2026-11-29T10:00+05:60" is not a date: the offset +05:60 has more than 59 minutes [invalid_date]
                            hint: \(Self.forms)
                        dashboard: import batch 1 committed (merge): 8 rows read, 5 inserted, 0 updated, 0 unchanged, 0 deleted, 3 rejected, 0 warnings

                        """))
        #expect(
            try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT task_id, due FROM tasks ORDER BY task_id")
                == "o3|2026-11-28T20:00:00Z\no4|2026-11-30T00:00:00Z\no5|2026-11-29T10:00:15Z\n")
        let json = try JSON.object(
            try sandbox.run(["--db", "fresh.sqlite", "check", "--format", "json", "courses.csv", "tasks.csv"]).stdout)
        let rejects = JSON.objects(json["rejects"])
        #expect(
            rejects.map { "\($0["code"] ?? "")@\($0["line"] ?? "") \($0["type"] ?? "") \($0["column"] ?? "")" } == [
                "invalid_date@2 type-error due", "invalid_date@3 type-error due", "invalid_date@7 type-error due",
            ])
    }

    @Test func aStoredDueWrittenBackIsTheSameDueSoAReimportWithLongerFractionsChangesNothing() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write("tasks.csv", "task_id,course_id,title,due\nf1,bio,Fraction,2026-11-29T10:00:15Z\n")
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        let before = try DatabaseSnapshot.data(sandbox.path("db.sqlite"))
        try sandbox.write("tasks.csv", "task_id,course_id,title,due\nf1,bio,Fraction,2026-11-29T11:00:15.9999999999+01:00\n")
        let result = try sandbox.run(["--db", "db.sqlite", "import", "tasks.csv"])
        #expect(
            result.stderr
                == "dashboard: import batch 2 committed (merge): 1 rows read, 0 inserted, 0 updated, 1 unchanged, 0 deleted, 0 rejected, 0 warnings\n"
        )
        #expect(try DatabaseSnapshot.data(sandbox.path("db.sqlite")) == before)
    }

    @Test func asOfFollowsTheSameOffsetRule() throws {
        let sandbox = try Sandbox()
        let hint = "dashboard: hint: use 2026-11-29, 2026-11-29T08:00 (in --timezone) or 2026-11-29T08:00:00Z\n"
        #expect(
            try sandbox.run(["--as-of", "2026-11-29T08:00+14:30", "status"])
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr:
                        "dashboard: error: --as-of \"2026-11-29T08:00+14:30\" has an offset out of range: offsets run from -14:00 to +14:00\n"
                        + hint))
        let edge = try sandbox.run([
            "--as-of", "2026-11-29T08:00:00.123456789012-14:00", "--db", "none.sqlite", "status", "--format", "json",
        ])
        #expect(edge.exitCode == 66 && edge.stderr == "", "\(edge)")
    }

    @Test func everyTzdataNameIsAZoneStoredInTzdataSpellingAndAbbreviationsAreNot() throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "courses.csv",
            "course_id,title,timezone\n" + "c1,One,EST5EDT\n" + "c2,Two,est5edt\n" + "c3,Three,US/Eastern\n" + "c4,Four,Etc/GMT+5\n"
                + "c5,Five,HST\n" + "c6,Six,PST\n" + "c7,Seven,Factory\n")
        let result = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv"])
        #expect(
            result
                == CommandResult(
                    exitCode: 65, stdout: "",
                    stderr: """
                        courses.csv:7: error: timezone: "PST" is not an IANA time zone name [invalid_timezone]
                            hint: use a name such as Europe/Berlin or America/New_York (not an abbreviation like PST)
                        courses.csv:8: error: timezone: "Factory" is tzdata's placeholder for a zone that is not set, not a time zone [invalid_timezone]
                            hint: name the course's zone (such as Europe/Berlin), or leave the cell empty for the database's default zone
                        dashboard: import batch 1 committed (merge): 7 rows read, 5 inserted, 0 updated, 0 unchanged, 0 deleted, 2 rejected, 0 warnings

                        """))
        #expect(
            try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT course_id, timezone FROM courses ORDER BY course_id")
                == "c1|EST5EDT\nc2|EST5EDT\nc3|US/Eastern\nc4|Etc/GMT+5\nc5|HST\n")
        let zone = try sandbox.run(["--db", "db.sqlite", "--timezone", "cst6cdt", "settings", "timezone", "mst7mdt"])
        #expect(zone.exitCode == 0, "\(zone)")
        #expect(try sandbox.run(["--db", "db.sqlite", "settings", "show"]).stdout.hasPrefix("default time zone: MST7MDT\n"))
    }
}
