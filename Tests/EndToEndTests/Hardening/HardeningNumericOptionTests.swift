import Foundation
import Testing

/// Issue 11, class 3 (no arithmetic trap) and class 10 (clear words): every numeric option of
/// every command, and every numeric positional, has a range checked while parsing; a value
/// outside it exits 64 with the range and the value in the message, and changes nothing.
@Suite("Hardening: numeric options and ids are range-checked")
struct HardeningNumericOptionTests {
    static let idRange = "a whole number from 1 to 9007199254740991"
    static let waitRange = "a number of seconds from 0 to 86400"
    static let deleteRange = "a percentage from 0% to 100% (like 10%) or a count from 0 to 1000000000 (like 500)"

    /// (arguments after `--db db.sqlite`, the error line without `dashboard: error: `).
    static let refused: [([String], String)] = [
        // The examples of the issue.
        (
            ["report", "list", "--limit", "1000000", "--page", "10000000000000"],
            #"--limit must be a whole number from 1 to 100000, not "1000000""#
        ),
        (
            ["report", "list", "--limit", "9223372036854775807"],
            #"--limit must be a whole number from 1 to 100000, not "9223372036854775807""#
        ),
        (
            ["report", "list", "--width", "9223372036854775806"],
            #"--width must be a whole number from 20 to 1000, not "9223372036854775806""#
        ),
        (["import", "--wait", "inf", "courses.csv"], #"--wait must be \#(waitRange), not "inf""#),
        (["import", "--wait", "1e300", "courses.csv"], #"--wait must be \#(waitRange), not "1e300""#),
        // Other instances: every command that takes a number, every way to write a bad one.
        (
            ["report", "list", "--limit", "9223372036854775808"],
            #"--limit must be a whole number from 1 to 100000, not "9223372036854775808""#
        ),
        (["report", "list", "--limit", "-0"], #"--limit must be a whole number from 1 to 100000, not "-0""#),
        (["report", "list", "--limit", "0"], #"--limit must be a whole number from 1 to 100000, not "0""#),
        (["report", "list", "--limit", "+5"], #"--limit must be a whole number from 1 to 100000, not "+5""#),
        (["report", "list", "--limit", " 5"], #"--limit must be a whole number from 1 to 100000, not " 5""#),
        (["report", "list", "--limit", "0x10"], #"--limit must be a whole number from 1 to 100000, not "0x10""#),
        (["report", "grid", "--limit=5e2"], #"--limit must be a whole number from 1 to 100000, not "5e2""#),
        (
            ["report", "list", "--limit", "10", "--page", "10000000000000"],
            #"--page must be a whole number from 1 to 1000000000, not "10000000000000""#
        ),
        (["report", "list", "--limit", "1", "--page", "-1"], #"--page must be a whole number from 1 to 1000000000, not "-1""#),
        (["report", "grid", "--width", "19"], #"--width must be a whole number from 20 to 1000, not "19""#),
        (["report", "grid", "--width", ""], #"--width must be a whole number from 20 to 1000, not """#),
        (["import", "--wait", "1e309", "courses.csv"], #"--wait must be \#(waitRange), not "1e309""#),
        (["import", "--wait", "nan", "courses.csv"], #"--wait must be \#(waitRange), not "nan""#),
        (["import", "--wait", "-1", "courses.csv"], #"--wait must be \#(waitRange), not "-1""#),
        (["import", "--wait", "86401", "courses.csv"], #"--wait must be \#(waitRange), not "86401""#),
        (["import", "--wait", ".5", "courses.csv"], #"--wait must be \#(waitRange), not ".5""#),
        (["check", "--max-delete", "101%", "courses.csv"], #"--max-delete must be \#(deleteRange), not "101%""#),
        (["import", "--max-delete", "nan%", "courses.csv"], #"--max-delete must be \#(deleteRange), not "nan%""#),
        (["import", "--max-delete", "-1", "courses.csv"], #"--max-delete must be \#(deleteRange), not "-1""#),
        (["import", "--max-delete", "1000000001", "courses.csv"], #"--max-delete must be \#(deleteRange), not "1000000001""#),
        (["nightly", "--max-delete", "1e3"], #"--max-delete must be \#(deleteRange), not "1e3""#),
        (["nightly", "--wait", "Infinity"], #"--wait must be \#(waitRange), not "Infinity""#),
        (["categorize", "--wait", "-0.5"], #"--wait must be \#(waitRange), not "-0.5""#),
        (["reclassify", "t1", "--to", "today", "--reason", "r", "--wait", "NaN"], #"--wait must be \#(waitRange), not "NaN""#),
        (["revert", "1", "--wait", "1e300"], #"--wait must be \#(waitRange), not "1e300""#),
        (["batches", "approve", "1", "--wait", "inf"], #"--wait must be \#(waitRange), not "inf""#),
        (
            ["batches", "list", "--limit", "9223372036854775807"],
            #"--limit must be a whole number from 1 to 1000000, not "9223372036854775807""#
        ),
        (["batches", "list", "--limit", "0"], #"--limit must be a whole number from 1 to 1000000, not "0""#),
        // Ids: negative, zero and too large are refused, also when they look like options.
        (["revert", "-5"], #"ENTRY must be \#(idRange), not "-5""#),
        (["revert", "--", "-5"], #"ENTRY must be \#(idRange), not "-5""#),
        (["revert", "0"], #"ENTRY must be \#(idRange), not "0""#),
        (["revert", "9007199254740992"], #"ENTRY must be \#(idRange), not "9007199254740992""#),
        (["revert", "--batch", "-5"], #"--batch must be \#(idRange), not "-5""#),
        (["revert", "--batch=0"], #"--batch must be \#(idRange), not "0""#),
        (["audit", "--batch", "-1"], #"--batch must be \#(idRange), not "-1""#),
        (["batches", "show", "-1"], #"batch ID must be \#(idRange), not "-1""#),
        (["batches", "approve", "0"], #"batch ID must be \#(idRange), not "0""#),
        (["batches", "discard", "99999999999999999999999999999"], #"batch ID must be \#(idRange), not "99999999999999999999999999999""#),
        // --reason: required, not blank, at most 1,000 characters.
        (["reclassify", "t1", "--to", "today", "--reason", ""], "--reason must say why the task is reclassified"),
        (["reclassify", "t1", "--to", "today", "--reason", " \t "], "--reason must say why the task is reclassified"),
        (
            ["reclassify", "t1", "--to", "today", "--reason", String(repeating: "é", count: 1_001)],
            "--reason must be at most 1000 characters, not 1001"
        ),
    ]

    @Test(arguments: refused)
    func anOutOfRangeValueIsAUsageErrorThatNamesTheRangeAndChangesNothing(_ arguments: [String], _ message: String) throws {
        let sandbox = try AuditSetup.imported()
        let before = try Self.files(sandbox)
        let result = try sandbox.run(["--db", "db.sqlite"] + arguments)
        let command = arguments[0]
        #expect(
            result
                == CommandResult(
                    exitCode: 64, stdout: "", stderr: "dashboard: error: \(message)\ndashboard: hint: see `dashboard \(command) --help`\n"))
        #expect(try Self.files(sandbox) == before, "\(arguments) changed a file")
    }

    @Test func aHugeValueIsQuotedShortly() throws {
        let sandbox = try Sandbox()
        let value = String(repeating: "9", count: 100_000)
        let result = try sandbox.run(["report", "list", "--limit", value])
        #expect(result.exitCode == 64)
        #expect(
            result.stderr.hasPrefix(
                "dashboard: error: --limit must be a whole number from 1 to 100000, not \"\(String(repeating: "9", count: 40))…\" (100000 characters)\n"
            ))
    }

    @Test(arguments: [
        ["report", "list", "--limit", "100000", "--page", "1000000000"], ["report", "grid", "--limit", "1", "--page", "1000000000"],
        ["report", "list", "--format", "text", "--width", "1000"], ["report", "grid", "--format", "text", "--width", "20"],
        ["categorize", "--wait", "86400"], ["categorize", "--wait", "0.25"], ["batches", "list", "--limit", "1000000"],
        ["audit", "--batch", "9007199254740991"], ["import", "--max-delete", "100%", "--dry-run", "courses.csv"],
        ["import", "--max-delete", "0.5%", "--dry-run", "courses.csv"],
        ["import", "--max-delete", "1000000000", "--dry-run", "courses.csv"],
        ["reclassify", "t1", "--to", "today", "--reason", String(repeating: "é", count: 1_000)],
    ])
    func theBoundsOfEachRangeAreAccepted(_ arguments: [String]) throws {
        let sandbox = try AuditSetup.imported()
        let result = try sandbox.dashboard(arguments)
        #expect(result.exitCode == 0, "\(arguments): \(result)")
    }

    @Test func aHugeCOLUMNSIsClampedNotTrapped() throws {
        let sandbox = try AuditSetup.imported()
        for columns in ["9223372036854775807", "99999999999999999999", "-3", "abc", "5"] {
            let result = try sandbox.dashboard(["report", "grid", "--format", "text"], environment: ["COLUMNS": columns])
            #expect(result.exitCode == 0, "COLUMNS=\(columns): \(result)")
        }
    }

    @Test func helpShowsEveryRangeFromTheDeclaration() throws {
        let sandbox = try Sandbox()
        let expected: [(String, String)] = [
            ("report", "--limit N            N tasks (list) or courses (grid) per page [1 to 100000]"),
            ("report", "--page K             the page to show (default 1) [1 to 1000000000]"),
            ("report", "[20 to 1000]"), ("batches", "[1 to 1000000]"), ("revert", "revert a whole import batch [1 to 9007199254740991]"),
            ("audit", "[1 to 9007199254740991]"), ("reclassify", "[at most 1000 characters]"),
            ("import", "[0% to 100%, or a count from 0 to 1000000000]"),
            ("revert", "ENTRY, ID and G are whole numbers from 1 to 9007199254740991."),
            ("batches", "ID is a whole number from 1 to 9007199254740991."),
        ]
        for (command, line) in expected {
            #expect(try sandbox.run([command, "--help"]).stdout.contains(line), "\(command) --help lacks \(line)")
        }
        for command in ["import", "categorize", "reclassify", "revert", "batches", "nightly"] {
            let help = try sandbox.run([command, "--help"]).stdout
            let wait = help.split(separator: "\n").first { $0.hasPrefix("  --wait SECONDS") } ?? ""
            #expect(wait.hasSuffix("[0 to 86400 seconds]"), "\(command): \(wait)")
        }
    }

    /// Every file of the sandbox, byte for byte.
    /// Every file's bytes; the `-shm` (SQLite's shared-memory index, which the writer keeps
    /// beside the database since issue 13 and any connection rewrites) only by name.
    static func files(_ sandbox: Sandbox) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try sandbox.listing() { files[name] = name.hasSuffix("-shm") ? Data() : try sandbox.read(name) }
        return files
    }
}
