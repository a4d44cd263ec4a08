import Foundation
import Testing

/// The reasons an import's entries store for the overrides it meets: plain words now, the
/// command line's flag in databases written before (issue 32). `dashboard audit` shows both
/// the same way, in each format, as it always showed them.
@Suite struct AuditStoredReasonTests {
    static let keptShown =
        "the import changed this task while override #1 pins it to today; the override was kept (import --override-manual lets the import win)"
    static let keptStored =
        "the import changed this task while override #1 pins it to today; the override was kept (an import told to override manual pins lets the import win)"
    static let clearedShown = "the import cleared override #1 (pinned to today); --override-manual"
    static let clearedStored = "the import cleared override #1 (pinned to today); the import was told to override manual pins"

    /// A pin of t1 (entry 1), then an import of a renamed t1 with `extra` arguments (entry 2),
    /// then a copy of entry 2 as an older dashboard stored it, with `oldReason` (entry 3).
    static func pinnedAndImported(_ extra: [String], oldReason: String) throws -> Sandbox {
        let sandbox = try AuditSetup.imported()
        let pin = try sandbox.dashboard(["reclassify", "t1", "--to", "today", "--reason", "extension granted", "--actor", "adams"])
        guard pin.exitCode == 0 else { throw HarnessError("reclassify failed\n\(pin)") }
        try sandbox.write("renamed.csv", Fixtures.tasks.replacingOccurrences(of: "Lab report,", with: "Lab report v2,"))
        let imported = try sandbox.dashboard(["import", "renamed.csv", "--actor", "cron"] + extra)
        guard imported.exitCode == 0 else { throw HarnessError("import failed\n\(imported)") }
        let copy = try sandbox.sqlShell(
            "db.sqlite",
            """
            INSERT INTO audit (recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor, reason, batch_id,
                               conflict, override_before)
            SELECT recorded_at, as_of, task_id, course_id, from_bucket, to_bucket, cause, actor, '\(oldReason)', batch_id,
                   conflict, override_before
            FROM audit WHERE entry_id = 2
            """)
        guard copy.exitCode == 0 else { throw HarnessError("the copy of entry 2 failed\n\(copy)") }
        return sandbox
    }

    /// The reasons of entries 2 and 3 in the JSON and CSV of `audit ARGS`, and whether each of
    /// their lines in its text ends with `shown`.
    static func shownReasons(_ sandbox: Sandbox, _ arguments: [String], shown: String) throws -> [[String]] {
        let json = try sandbox.dashboard(["audit", "--format", "json"] + arguments)
        let csv = try sandbox.dashboard(["audit", "--format", "csv"] + arguments)
        let text = try sandbox.dashboard(["audit"] + arguments)
        #expect([json.exitCode, csv.exitCode, text.exitCode] == [0, 0, 0])
        let entries = JSON.objects(try JSON.object(json.stdout)["entries"]).filter { ($0["entry_id"] as? Int ?? 0) >= 2 }
        let rows = csv.stdout.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let lines = text.stdout.split(separator: "\n").filter { $0.hasPrefix(" 2 ") || $0.hasPrefix(" 3 ") }
        return [
            entries.map { $0["reason"] as? String ?? "?" },
            rows.filter { Int($0[0]) ?? 0 >= 2 }.map { String($0[10]) },
            lines.map { $0.hasSuffix(shown) ? shown : String($0) },
        ]
    }

    @Test func aKeptOverrideReadsTheSameStoredInPlainWordsOrWithTheOldFlag() throws {
        let sandbox = try Self.pinnedAndImported([], oldReason: Self.keptShown)
        #expect(
            try DatabaseSnapshot.lines(sandbox.db, "SELECT entry_id, reason FROM audit WHERE entry_id >= 2 ORDER BY entry_id")
                == "2|\(Self.keptStored)\n3|\(Self.keptShown)\n")
        #expect(
            try Self.shownReasons(sandbox, ["--conflicts"], shown: Self.keptShown)
                == Array(repeating: [Self.keptShown, Self.keptShown], count: 3))
    }

    @Test func aClearedOverrideReadsTheSameStoredInPlainWordsOrWithTheOldFlag() throws {
        let sandbox = try Self.pinnedAndImported(["--override-manual"], oldReason: Self.clearedShown)
        #expect(
            try DatabaseSnapshot.lines(sandbox.db, "SELECT entry_id, reason FROM audit WHERE entry_id >= 2 ORDER BY entry_id")
                == "2|\(Self.clearedStored)\n3|\(Self.clearedShown)\n")
        #expect(
            try Self.shownReasons(sandbox, ["--cause", "import"], shown: Self.clearedShown)
                == Array(repeating: [Self.clearedShown, Self.clearedShown], count: 3))
    }
}
