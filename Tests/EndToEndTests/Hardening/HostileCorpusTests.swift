import Foundation
import Testing

/// The hostile-input corpus: every file in Tests/Corpus/hostile (written by
/// Tests/Corpus/make_hostile.py) imported as a tasks file over a known-good database.
///
/// Policy: the expectations live in Tests/Corpus/hostile/MANIFEST.tsv and come from SPEC.md and
/// docs/formats.md (exit code, problem codes and lines, the data an import may change). A run
/// must never crash (exit 70 or a signal), must leave a sound database and must finish within
/// 60 s. A file the manifest marks `generated at test time` is not checked in (too big); the
/// test writes it with the script.
@Suite struct HostileCorpusTests {
    // MARK: - The corpus itself

    @Test func manifestListsEveryFileOfTheCorpusAndNothingElse() throws {
        let entries = try Self.manifest.get()
        #expect(entries.count >= 45)
        let names = entries.map(\.file)
        #expect(names == names.sorted(), "MANIFEST.tsv is sorted by file name")
        #expect(Set(names).count == names.count, "no file is listed twice")
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: Self.hostileDirectory.path).filter { $0 != "MANIFEST.tsv" }
        let checkedIn = entries.filter { !$0.generatedAtTestTime }.map(\.file)
        #expect(onDisk.sorted() == checkedIn.sorted())
        for entry in entries {
            #expect(entry.codes == entry.codes.sorted(), "\(entry.file): codes are sorted")
            if let lines = entry.lines {
                #expect(lines == Entry.sortedByCodeAndLine(lines), "\(entry.file): lines are sorted by code, then line")
                #expect(lines.map { String($0.prefix { $0 != "@" }) } == entry.codes, "\(entry.file): one code@line per code")
            }
            #expect([0, 65].contains(entry.exitCode), "\(entry.file): an import of one file exits 0 or 65")
        }
    }

    @Test func checkedInCorpusIsWhatTheScriptWrites() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.runTool("python3", [Self.generator.path, "--check"])
        #expect(result.exitCode == 0, "regenerate with `python3 Tests/Corpus/make_hostile.py`:\n\(result)")
    }

    // MARK: - Every file

    @Test(arguments: entries)
    func hostileFileIsHandledAsDocumented(_ entry: Entry) throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let db = sandbox.path("db.sqlite")
        let baseline = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"])
        try #require(baseline.exitCode == 0, "the baseline import: \(baseline)")
        let coursesBefore = try DatabaseSnapshot.dump(db, table: "courses")
        let tasksBefore = try DatabaseSnapshot.dump(db, table: "tasks")

        let name = "hostile-tasks.csv"  // the name says tasks: a hint when the header is unclear
        try place(entry, as: name, in: sandbox)
        let started = Date()
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--format", "json", name])
        let seconds = Date().timeIntervalSince(started)

        #expect(result.exitCode != 70, "internal error:\n\(result.stderr)")
        #expect(result.exitCode == entry.exitCode, "stderr:\n\(result.stderr.prefix(2000))")
        #expect(seconds < 60, "the import took \(Int(seconds)) s")

        let output = try JSON.object(result.stdout)
        let fileError = output["file_error"] as? [String: Any]
        let problems = fileError.map { [$0] } ?? (JSON.objects(output["rejects"]) + JSON.objects(output["warnings"]))
        let codes = problems.map { $0["code"] as? String ?? "?" }.sorted()
        #expect(codes.count == entry.codes.count, "problem count")
        #expect(codes == entry.codes, "problems: \(codes.prefix(20))")
        if let lines = entry.lines {
            let actual = Entry.sortedByCodeAndLine(problems.map { "\($0["code"] as? String ?? "?")@\($0["line"] as? Int ?? -1)" })
            #expect(actual == lines, "problem lines: \(actual.prefix(20))")
        }
        #expect(problems.allSatisfy { $0["file"] as? String == name }, "every problem names the file")
        #expect(output["status"] as? String == (fileError == nil ? "committed" : "failed"))

        let coursesAfter = try DatabaseSnapshot.dump(db, table: "courses")
        let tasksAfter = try DatabaseSnapshot.dump(db, table: "tasks")
        expectOnlyNewRows(before: coursesBefore, after: coursesAfter, added: entry.change.courses, table: "courses")
        expectOnlyNewRows(before: tasksBefore, after: tasksAfter, added: entry.change.tasks, table: "tasks")
        #expect(try StoreUnderTest.integrityHolds(db))
    }

    /// Puts the corpus file into the sandbox under `name`, writing it with the script when it is
    /// not checked in.
    private func place(_ entry: Entry, as name: String, in sandbox: Sandbox) throws {
        let target = URL(fileURLWithPath: sandbox.path(name))
        if entry.generatedAtTestTime {
            let made = try sandbox.runTool("python3", [Self.generator.path, "--generate", entry.file, sandbox.directory.path])
            try #require(made.exitCode == 0, "make_hostile.py --generate \(entry.file): \(made)")
            try FileManager.default.moveItem(at: sandbox.directory.appendingPathComponent(entry.file), to: target)
        } else {
            try FileManager.default.copyItem(at: Self.hostileDirectory.appendingPathComponent(entry.file), to: target)
        }
    }

    /// Expects `after` to hold every row of `before` unchanged (compared as bytes: String
    /// equality would hide an NFC/NFD difference) and exactly `added` rows more.
    private func expectOnlyNewRows(
        before: String, after: String, added: Int, table: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        func rows(_ dump: String) -> [[UInt8]] { Array(dump.utf8).split(separator: 0x0A).map(Array.init) }
        let old = rows(before)
        let new = rows(after)
        if added == 0 {
            #expect(Array(before.utf8) == Array(after.utf8), "\(table) changed:\n\(after.prefix(3000))", sourceLocation: sourceLocation)
            return
        }
        #expect(new.count == old.count + added, "\(table): \(new.count - old.count) new rows", sourceLocation: sourceLocation)
        let kept = Set(new)
        let lost = old.filter { !kept.contains($0) }.map { String(decoding: $0, as: UTF8.self) }
        #expect(lost.isEmpty, "\(table) rows changed or gone: \(lost)", sourceLocation: sourceLocation)
    }
}
