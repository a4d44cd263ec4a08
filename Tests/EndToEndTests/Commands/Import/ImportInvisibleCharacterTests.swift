import Foundation
import Testing

/// Issue 27, item 5: an invisible format character (Unicode Cf) in an id is an
/// `invisible_character` row error, shown with visible escapes on stderr, exact in JSON and
/// `--rejects`; never a second id that looks like the first (docs/formats.md, "Normalization").
@Suite struct ImportInvisibleCharacterTests {
    static let tasks =
        "task_id,course_id,title,student_id,assignment_id\n" + "t1,bio,Lab report,s1,a1\n" + "\u{FEFF}t2,bio,Behind a BOM,s1,a1\n"
        + "t3,bio\u{200B},Zero-width course,s1,a1\n" + "t4,bio,Isolated student,s\u{2066}1,a1\n"
        + "t5,bio,Lab 👩\u{200D}💻 report,s1,a\u{AD}1\n"

    @Test func eachIDWithAnInvisibleCharacterIsRejectedNamingItAndTheRestImports() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write("tasks.csv", Self.tasks)
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--rejects", "rejects.csv", "courses.csv", "tasks.csv"])
        let removal = "an invisible character makes an id look like another one"
        #expect(
            result
                == CommandResult(
                    exitCode: 65, stdout: "",
                    stderr: """
                        tasks.csv:3: error: task_id: task_id holds an invisible character: U+FEFF (ZERO WIDTH NO-BREAK SPACE) at position 1 [invisible_character] value: "<U+FEFF>t2"
                            hint: remove U+FEFF at position 1 from the task_id in the export (it reads "t2" without it): \(removal)
                        tasks.csv:4: error: course_id: course_id holds an invisible character: U+200B (ZERO WIDTH SPACE) at position 4 [invisible_character] value: "bio<U+200B>"
                            hint: remove U+200B at position 4 from the course_id in the export (it reads "bio" without it): \(removal)
                        tasks.csv:5: error: student_id: student_id holds an invisible character: U+2066 (LEFT-TO-RIGHT ISOLATE) at position 2 [invisible_character] value: "s<U+2066>1"
                            hint: remove U+2066 at position 2 from the student_id in the export (it reads "s1" without it): \(removal)
                        tasks.csv:6: error: assignment_id: assignment_id holds an invisible character: U+00AD (SOFT HYPHEN) at position 2 [invisible_character] value: "a<U+00AD>1"
                            hint: remove U+00AD at position 2 from the assignment_id in the export (it reads "a1" without it): \(removal)
                        dashboard: import batch 1 committed (merge): 7 rows read, 3 inserted, 0 updated, 0 unchanged, 0 deleted, 4 rejected, 0 warnings

                        """))
        // Only the clean row: the others are rejected, not stored as second ids that look like the first.
        #expect(
            try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT task_id, title FROM tasks ORDER BY task_id")
                == "t1|Lab report\n")
        #expect(try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT count(*) FROM courses") == "2\n")
        // --rejects and JSON keep the exact values.
        let rejects = try String(contentsOfFile: sandbox.path("rejects.csv"), encoding: .utf8)
        #expect(rejects.contains("tasks.csv,3,task_id,invisible_character,\u{FEFF}t2,task_id holds an invisible character: "))
        #expect(rejects.contains("tasks.csv,4,course_id,invisible_character,bio\u{200B},course_id holds an invisible character: "))
        let json = try JSON.object(
            try sandbox.run(["--db", "fresh.sqlite", "check", "--format", "json", "courses.csv", "tasks.csv"]).stdout)
        let problems = JSON.objects(json["rejects"])
        #expect(problems.map { $0["code"] as? String } == Array(repeating: "invisible_character", count: 4))
        #expect(problems.map { $0["type"] as? String } == Array(repeating: "constraint-error", count: 4))
        #expect(problems.map { $0["line"] as? Int } == [3, 4, 5, 6])
        #expect(problems.map { $0["row"] as? Int } == [2, 3, 4, 5])
        #expect(problems.map { $0["column"] as? String } == ["task_id", "course_id", "student_id", "assignment_id"])
        #expect(problems.map { $0["value"] as? String } == ["\u{FEFF}t2", "bio\u{200B}", "s\u{2066}1", "a\u{AD}1"])
    }

    @Test func aTitleKeepsItsJoinerAndTheCourseOfATaskIsTheIDWithoutTheCharacter() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write("tasks.csv", "task_id,course_id,title\nt1,bio,Lab 👩\u{200D}💻 report\nt2,bio\u{200B},Quiz\n")
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--format", "json", "courses.csv", "tasks.csv"])
        #expect(result.exitCode == 65)
        // The zero-width space is the row's one problem: its course "bio" exists, no unknown_course.
        #expect(JSON.objects(try JSON.object(result.stdout)["rejects"]).map { $0["code"] as? String } == ["invisible_character"])
        #expect(
            try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT task_id, title FROM tasks ORDER BY task_id")
                == "t1|Lab 👩\u{200D}💻 report\n")
    }

    @Test func aSyncKeepsTheLiveRowsWhoseNewRowsCarryAnInvisibleCharacter() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        let before = try DatabaseSnapshot.data(sandbox.path("db.sqlite"))
        // his comes back with a BOM in its id, t3 with a zero-width space: neither is deleted.
        try sandbox.write(
            "courses.csv", "course_id,title,code,timezone\nbio,Biology,BIO 101,America/New_York\n\u{FEFF}his,History,HIS 200,\n")
        try sandbox.write("tasks.csv", Fixtures.tasks.replacingOccurrences(of: "t3,his", with: "t3\u{200B},his"))
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "--max-delete", "100%", "courses.csv", "tasks.csv"])
        #expect(result.exitCode == 65, "\(result)")
        #expect(result.stderr.hasSuffix(", 0 deleted, 2 rejected, 0 warnings\n"), "\(result.stderr)")
        #expect(try DatabaseSnapshot.data(sandbox.path("db.sqlite")) == before)
    }
}
