import Foundation
import Testing

/// Issue 11, class 10 (the input side): every problem of a row at once, and plain words for a
/// symbolic link to nothing, a loop of links, standard input named twice and a UTF-32 file.
@Suite struct HardeningInputWordsTests {
    @Test func everyProblemOfARowIsReportedAtOnceAndTheRowRejectedOnce() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        try sandbox.write(
            "more.csv",
            """
            task_id,course_id,title,student_id,due,priority,completed
            m1,nope,Everything wrong,s1,2026-13-45,urgentish,maybe
            m2,bio,Fine,s2,2026-12-02,low,no

            """)
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--format", "json", "more.csv"])
        #expect(result.exitCode == 65, "\(result)")
        let output = try JSON.object(result.stdout)
        let rejects = JSON.objects(output["rejects"])
        let seen = rejects.map {
            "\($0["line"] as? Int ?? -1) \($0["row"] as? Int ?? -1) \($0["column"] as? String ?? "?") \($0["code"] as? String ?? "?")"
        }
        #expect(
            seen == [
                "2 1 due invalid_date", "2 1 priority invalid_priority", "2 1 completed invalid_boolean",
                "2 1 course_id unknown_course",
            ], "\(seen)")
        #expect(output["rejected"] as? Int == 1, "the row counts once")
        #expect(output["inserted"] as? Int == 1)

        // The text summary lists all four too.
        let text = try sandbox.run(["--db", "db.sqlite", "check", "more.csv"])
        #expect(text.exitCode == 65)
        for code in ["invalid_date", "invalid_priority", "invalid_boolean", "unknown_course"] {
            #expect(text.stderr.contains("more.csv:2: error: ") && text.stderr.contains("[\(code)]"), "\(code): \(text.stderr)")
        }
        #expect(text.stderr.contains("1 rejected"), "\(text.stderr)")
    }

    @Test(arguments: ["import", "check"])
    func aSymbolicLinkToNothingOrALoopIsNamedAsSuch(_ command: String) throws {
        let sandbox = try Sandbox()
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("x.csv"), withDestinationPath: "missing-target.csv")
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("a.csv"), withDestinationPath: "b.csv")
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("b.csv"), withDestinationPath: "a.csv")
        let dangling = try sandbox.run(["--db", "db.sqlite", command, "x.csv"])
        #expect(dangling.exitCode == 66)
        #expect(
            dangling.stderr.hasPrefix("dashboard: error: x.csv is a symbolic link that points to nothing (missing-target.csv)\n"),
            "\(dangling.stderr)")
        let loop = try sandbox.run(["--db", "db.sqlite", command, "a.csv"])
        #expect(loop.exitCode == 66)
        #expect(loop.stderr.hasPrefix("dashboard: error: a.csv is a loop of symbolic links\n"), "\(loop.stderr)")
        // A folder given through a dangling link is named the same way.
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("drop"), withDestinationPath: "no-such-folder")
        let folder = try sandbox.run(["--db", "db.sqlite", command, "drop"])
        #expect(folder.exitCode == 66)
        #expect(folder.stderr.hasPrefix("dashboard: error: drop is a symbolic link that points to nothing (no-such-folder)\n"))
        #expect(!sandbox.exists("db.sqlite"))
    }

    @Test(arguments: [["check", "-", "-"], ["import", "-", "-"], ["import", "-", "tasks.csv", "-"]])
    func standardInputNamedTwiceIsAUsageError(_ arguments: [String]) throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let result = try sandbox.run(["--db", "db.sqlite"] + arguments, stdin: Fixtures.courses)
        #expect(result.exitCode == 64, "\(result)")
        #expect(
            result.stderr.hasPrefix("dashboard: error: standard input was named twice (-); it can be read only once\n"), "\(result.stderr)")
        #expect(!sandbox.exists("db.sqlite"))
    }

    @Test func standardInputNamedAgainAsDevStdinIsAUsageError() throws {
        let sandbox = try Sandbox()
        let run = try PipedCommand(sandbox, ["--db", "db.sqlite", "check", "-", "/dev/stdin"])
        run.write(Data(Fixtures.courses.utf8))
        run.closeInput()
        let outcome = try run.finish(timeout: 30)
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(
            outcome.stderr.hasPrefix("dashboard: error: standard input was named twice (- and /dev/stdin); it can be read only once\n"),
            "\(outcome.stderr)")
    }

    @Test(arguments: [[UInt8]([0xFF, 0xFE, 0x00, 0x00]), [0x00, 0x00, 0xFE, 0xFF]])
    func aUTF32FileIsCalledUTF32(_ mark: [UInt8]) throws {
        let sandbox = try Sandbox()
        let little = mark[0] == 0xFF
        var bytes = mark
        for scalar in "task_id,course_id,title\nw1,bio,Caf\u{E9}\n".unicodeScalars {
            let value = scalar.value
            let word = [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
            bytes += little ? word : word.reversed()
        }
        try sandbox.write("wide.csv", bytes: Data(bytes))
        let result = try sandbox.run(["--db", "db.sqlite", "check", "wide.csv"])
        #expect(result.exitCode == 65, "\(result)")
        #expect(
            result.stderr.hasPrefix(
                "dashboard: error: wide.csv:1: the file is UTF-32, not UTF-8 (it starts with a UTF-32 byte order mark) [invalid_encoding]"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("UTF-16") && !result.stderr.contains("NUL"), "\(result.stderr)")
    }
}
