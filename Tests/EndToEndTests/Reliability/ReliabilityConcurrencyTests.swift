import Foundation
import Testing

/// Concurrency: readers see the last committed state while an import runs, and writers take
/// turns — a second import or nightly exits 75 at once, or waits with `--wait` and then succeeds.
@Suite(.serialized) struct ReliabilityConcurrencyTests {
    static let busyMessage = """
        dashboard: error: another dashboard process is writing to db.sqlite
        dashboard: hint: try again later, or pass --wait SECONDS to wait for it

        """

    // MARK: - Readers during an import

    /// `total_tasks` of `report grid --format json`, after checking that the report parses, is
    /// schema 2, and that its course totals add up to it (a torn read would not).
    static func totalTasks(_ result: CommandResult, _ context: String) -> Int? {
        guard result.exitCode == 0, let json = try? JSON.object(result.stdout) else {
            Issue.record("\(context): the report did not succeed or does not parse:\n\(result)")
            return nil
        }
        #expect(json["schema"] as? Int == 2, "\(context)")
        guard let total = json["total_tasks"] as? Int else {
            Issue.record("\(context): no total_tasks in the report")
            return nil
        }
        let courseTotals = JSON.objects(json["courses"]).reduce(0) { $0 + ($1["total"] as? Int ?? 0) }
        #expect(courseTotals == total, "\(context): the courses add up to \(courseTotals), total_tasks says \(total)")
        return total
    }

    @Test func reportsDuringALargeImportShowTheCountBeforeOrAfterNeverBetween() throws {
        let fixture = try ReliabilityFixture.large.get()
        let sandbox = try Sandbox()
        try fixture.prepare(sandbox)
        try copyDatabase(fixture.sandbox.path("after.sqlite"), to: sandbox.path("after.sqlite"))
        let report = ["--db", "db.sqlite", "report", "grid", "--format", "json"]
        let before = Self.totalTasks(try sandbox.run(report), "the report before the import")
        let after = Self.totalTasks(try sandbox.run(["--db", "after.sqlite"] + report.dropFirst(2)), "the report of the after state")
        #expect(before != nil && after != nil && before != after)

        let importer = try sandbox.launch(ReliabilityFixture.syncArguments)
        var seen: [Int: Int] = [:]
        var duringImport = 0
        let started = Date()
        while importer.process.isRunning {
            let total = Self.totalTasks(try sandbox.run(report), "report \(duringImport + 1) during the import")
            duringImport += 1
            if let total {
                #expect(total == before || total == after, "report \(duringImport) during the import: \(total) tasks")
                seen[total, default: 0] += 1
            }
        }
        let imported = try importer.finish()
        let importSeconds = seconds(since: started)
        #expect(imported == fixture.syncImport)
        #expect(duringImport >= 2, "only \(duringImport) reports ran during the import: it was too quick to prove anything")
        #expect(Self.totalTasks(try sandbox.run(report), "the report after the import") == after)
        #expect(try DatabaseSnapshot.data(sandbox.path("db.sqlite")) == fixture.after)
        reportFigure(
            "readers: \(duringImport) grid reports during a \(formatted(importSeconds)) import, every one parsed; "
                + "\(seen[before ?? -1] ?? 0) saw \(before ?? 0) tasks (before), \(seen[after ?? -1] ?? 0) saw \(after ?? 0) (after), "
                + "\(seen.filter { $0.key != before && $0.key != after }.count) anything else")
    }

    // MARK: - Two imports at once

    @Test func twoImportsAtOnceOneExits75AndTheOtherCommits() throws {
        let fixture = try ReliabilityFixture.large.get()
        let sandbox = try Sandbox()
        try fixture.prepare(sandbox)
        let first = try sandbox.launch(ReliabilityFixture.syncArguments)
        let second = try sandbox.launch(ReliabilityFixture.syncArguments)
        let results = [try first.finish(), try second.finish()]
        let busy = results.filter { $0.exitCode == 75 }
        #expect(busy.count == 1, "exactly one of two imports at once must exit 75:\n\(results[0])\n\(results[1])")
        #expect(busy.allSatisfy { $0 == CommandResult(exitCode: 75, stdout: "", stderr: Self.busyMessage) })
        #expect(results.filter { $0 == fixture.syncImport }.count == 1, "the other import commits as batch 2")
        let db = sandbox.path("db.sqlite")
        #expect(try DatabaseSnapshot.data(db) == fixture.after)
        #expect(try Consistency.batches(db) == "1|committed\n2|committed\n", "the import that could not start records nothing")
        #expect(try Consistency.check(db) == "ok\n")
    }

    @Test func twoImportsAtOnceWithWaitBothSucceedOneAfterTheOther() throws {
        let fixture = try ReliabilityFixture.large.get()
        let sandbox = try Sandbox()
        try fixture.prepare(sandbox)
        let arguments = ReliabilityFixture.syncArguments + ["--wait", "120"]
        let first = try sandbox.launch(arguments, timeout: 180)
        let second = try sandbox.launch(arguments, timeout: 180)
        let results = [try first.finish(), try second.finish()]
        #expect(results.filter { $0 == fixture.syncImport }.count == 1, "one import commits the changes as batch 2:\n\(results)")
        let rest = results.first { $0 != fixture.syncImport }
        let summary = rest?.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(rest?.exitCode == 65)
        #expect(
            summary.hasPrefix("dashboard: import batch 3 committed (sync): ") && summary.contains(" 0 inserted, 0 updated, ")
                && summary.contains(" 0 deleted, "),
            "the other waits, then finds nothing left to change:\n\(rest.map { "\($0)" } ?? "")")
        let db = sandbox.path("db.sqlite")
        #expect(try DatabaseSnapshot.data(db) == fixture.after)
        #expect(try Consistency.batches(db) == "1|committed\n2|committed\n3|committed\n")
        #expect(try Consistency.check(db) == "ok\n")
    }

    @Test func twoFirstImportsIntoANewDatabaseAtOnce() throws {
        let fixture = try ReliabilityFixture.large.get()
        let sandbox = try Sandbox()
        try fixture.prepare(sandbox, database: "unused.sqlite")
        let arguments = ["--db", "db.sqlite", "import", "base/"]
        let first = try sandbox.launch(arguments)
        let second = try sandbox.launch(arguments)
        let results = [try first.finish(), try second.finish()]
        #expect(results.map(\.exitCode).sorted() == [0, 75], "two first imports at once:\n\(results[0])\n\(results[1])")
        #expect(results.filter { $0.exitCode == 75 }.allSatisfy { $0 == CommandResult(exitCode: 75, stdout: "", stderr: Self.busyMessage) })
        let db = sandbox.path("db.sqlite")
        #expect(try DatabaseSnapshot.data(db) == fixture.before)
        #expect(try Consistency.batches(db) == "1|committed\n")
        #expect(try Consistency.check(db) == "ok\n")
    }

    // MARK: - Two nightly runs at once

    @Test func nightlyTwiceAtOnceOneRunsTheOtherExits75() throws {
        let fixture = try NightlyFixture.shared.get()
        let sandbox = try Sandbox()
        try fixture.prepare(sandbox)
        let first = try sandbox.launch(NightlyFixture.arguments, timeout: 180)
        let second = try sandbox.launch(NightlyFixture.arguments, timeout: 180)
        let results = [try first.finish(), try second.finish()]
        #expect(results.map(\.exitCode).sorted() == [0, 75], "two nightly runs at once:\n\(results[0])\n\(results[1])")
        #expect(results.filter { $0.exitCode == 75 }.allSatisfy { $0 == CommandResult(exitCode: 75, stdout: "", stderr: Self.busyMessage) })
        #expect(results.filter { $0.exitCode == 0 }.allSatisfy { $0 == fixture.run }, "the nightly that ran:\n\(results)")
        try fixture.expectConsistent(sandbox, batches: "1|committed\n2|committed\n")
    }

    @Test func nightlyTwiceAtOnceWithWaitBothSucceed() throws {
        let fixture = try NightlyFixture.shared.get()
        let sandbox = try Sandbox()
        try fixture.prepare(sandbox)
        let arguments = NightlyFixture.arguments + ["--wait", "120"]
        let first = try sandbox.launch(arguments, timeout: 240)
        let second = try sandbox.launch(arguments, timeout: 240)
        let results = [try first.finish(), try second.finish()]
        #expect(results.map(\.exitCode) == [0, 0], "two nightly runs at once with --wait:\n\(results[0])\n\(results[1])")
        #expect(results.filter { $0 == fixture.run }.count == 1, "one of them imports the changes as batch 2:\n\(results)")
        #expect(
            results.contains {
                $0.stderr.contains(": import batch 3 committed (sync): ") && $0.stderr.contains(" 0 inserted, 0 updated, ")
            },
            "the other waits, then finds nothing left to change:\n\(results)")
        try fixture.expectConsistent(sandbox, batches: "1|committed\n2|committed\n3|committed\n")
    }
}

/// A smaller school for the nightly tests (a nightly writes five formats of every report):
/// its baseline database, a drop folder with the changed export (no rejected rows: a good
/// night exits 0), and one nightly run alone on a copy, to compare against.
final class NightlyFixture: @unchecked Sendable {
    let sandbox: Sandbox
    let workload = Workload(courseCount: 25, taskCount: 6_000)
    /// The nightly run alone, its data afterwards, and the files it wrote.
    let run: CommandResult
    let after: String
    let reportNames: [String]
    static let arguments = ["--db", "db.sqlite", "nightly", "--imports", "drop", "--reports", "reports", "--mode", "sync"]
    static let folder = "reports/2026-11-29"

    static let shared: Result<NightlyFixture, HarnessError> = {
        do {
            let fixture = try NightlyFixture()
            FixtureCleanup.removeAtExit(fixture.sandbox.directory.deletingLastPathComponent().path)
            return .success(fixture)
        } catch {
            return .failure(HarnessError("making the nightly fixture failed: \(error)"))
        }
    }()

    private init() throws {
        sandbox = try Sandbox()
        try workload.write(into: sandbox, change: "drop")
        let baseline = try sandbox.run(["--db", "baseline.sqlite", "import", "base/"])
        guard baseline.exitCode == 0 else { throw HarnessError("the nightly baseline import failed:\n\(baseline)") }
        try copyDatabase(sandbox.path("baseline.sqlite"), to: sandbox.path("db.sqlite"))
        run = try sandbox.run(Self.arguments)
        guard run.exitCode == 0 else { throw HarnessError("the reference nightly failed:\n\(run)") }
        after = try DatabaseSnapshot.data(sandbox.path("db.sqlite"))
        // The files of the whole set; the teachers' folders are checked by their own tests.
        reportNames = try FileManager.default.contentsOfDirectory(atPath: sandbox.path(Self.folder)).filter { $0 != "teachers" }.sorted()
        reportFigure("nightly fixture: \(workload.taskCount) tasks in \(workload.courseCount) courses: \(run.stderr)")
    }

    func prepare(_ sandbox: Sandbox) throws {
        for file in ["courses.csv", "tasks.csv"] {
            try sandbox.write("drop/" + file, bytes: try self.sandbox.read("drop/" + file))
        }
        try copyDatabase(self.sandbox.path("baseline.sqlite"), to: sandbox.path("db.sqlite"))
    }

    /// The database as one nightly leaves it, and a complete report folder: the same files as
    /// a nightly alone writes, no temporary file left, every HTML page whole (ends with
    /// `</html>`, tidy finds no error), every JSON file parses, every CSV ends its last line.
    func expectConsistent(_ sandbox: Sandbox, batches: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let db = sandbox.path("db.sqlite")
        #expect(try Consistency.check(db) == "ok\n", sourceLocation: sourceLocation)
        #expect(try Consistency.batches(db) == batches, sourceLocation: sourceLocation)
        #expect(try DatabaseSnapshot.data(db) == after, sourceLocation: sourceLocation)
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.path(Self.folder)).filter { $0 != "teachers" }.sorted()
        #expect(sandbox.exists(Self.folder + "/teachers/index.html"), sourceLocation: sourceLocation)
        #expect(names == reportNames, "the report folder holds other files than a nightly alone writes", sourceLocation: sourceLocation)
        // The changed export drops one course: five formats of the index and of every course
        // left, and each of those courses' calendar feed.
        let courses = workload.courseCount - 1
        #expect(names.count == (courses + 1) * 5 + courses, sourceLocation: sourceLocation)
        for name in names {
            let bytes = try sandbox.read(Self.folder + "/" + name)
            let text = String(decoding: bytes, as: UTF8.self)
            if name.hasSuffix(".html") {
                #expect(text.hasSuffix("</html>\n"), "\(name) is cut short", sourceLocation: sourceLocation)
                let tidy = try sandbox.runTool("tidy", ["-q", "-e", Self.folder + "/" + name])
                #expect(tidy.exitCode < 2, "tidy finds errors in \(name):\n\(tidy)", sourceLocation: sourceLocation)
            } else if name.hasSuffix(".json") {
                #expect((try? JSONSerialization.jsonObject(with: bytes)) != nil, "\(name) does not parse", sourceLocation: sourceLocation)
            } else if name.hasSuffix(".csv") {
                #expect(text.hasSuffix("\r\n"), "\(name) is cut short", sourceLocation: sourceLocation)
            } else if name.hasSuffix(".ics") {
                #expect(text.hasSuffix("END:VCALENDAR\r\n"), "\(name) is cut short", sourceLocation: sourceLocation)
            } else {
                #expect(text.hasSuffix("\n"), "\(name) is cut short", sourceLocation: sourceLocation)
            }
        }
    }
}
