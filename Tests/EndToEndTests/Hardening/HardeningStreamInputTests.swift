import Foundation
import Testing

/// Issue 11, class 5: reading standard input (any stream) is bounded. The stream is checked as
/// it is taken in (a NUL byte stops it at once), at most `StreamSpool.defaultLimit` bytes are
/// taken (the tests lower it with `DASHBOARD_TEST_STREAM_LIMIT`), and the spool never has a
/// name: no exit path, a signal or a full disk included, leaves anything in `TMPDIR`.
@Suite struct HardeningStreamInputTests {
    /// A sandbox with the valid courses and tasks imported, and the dump of its tasks.
    private func baseline() throws -> (sandbox: Sandbox, tasks: String) {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let result = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"])
        try #require(result.exitCode == 0, "\(result)")
        return (sandbox, try DatabaseSnapshot.dump(sandbox.path("db.sqlite"), table: "tasks"))
    }

    @Test func aStreamOfNULBytesIsRefusedAtOnceAndLeavesNoSpool() throws {
        let (sandbox, tasks) = try baseline()
        let run = try PipedCommand(sandbox, ["--db", "db.sqlite", "import", "-"])
        // Up to 1 GiB of zeros: the old spool copied all of it before looking at a byte.
        let written = run.feedForever(Data(count: 1 << 20), limit: 1 << 30)
        let outcome = try run.finish(timeout: 60)
        #expect(!outcome.signalled)
        #expect(outcome.status == 65, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains(
                "stdin:1: the file is not valid UTF-8: line 1 holds a NUL byte [invalid_encoding]; nothing was imported"),
            "\(outcome.stderr)")
        #expect(written() < 64 << 20, "\(written()) bytes were taken in before the refusal")
        #expect(try run.temporaryListing() == [])
        #expect(try DatabaseSnapshot.dump(sandbox.path("db.sqlite"), table: "tasks") == tasks)
    }

    @Test func aStreamOverTheLimitIsRefusedAndNothingIsImported() throws {
        let (sandbox, tasks) = try baseline()
        var text = "task_id,course_id,title\n"
        for i in 1...400 { text += "big\(i),bio,Worksheet number \(i) with a longer title\n" }
        let bytes = Data(text.utf8)
        #expect(bytes.count > 8192)
        let refused = try PipedCommand(
            sandbox, ["--db", "db.sqlite", "import", "-"], environment: ["DASHBOARD_TEST_STREAM_LIMIT": "8192"])
        refused.write(bytes)
        refused.closeInput()
        let outcome = try refused.finish(timeout: 60)
        #expect(outcome.status == 65, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains(
                "dashboard: error: stdin holds more than 8192 bytes, the most a stream may hold; nothing was imported"),
            "\(outcome.stderr)")
        #expect(outcome.stderr.contains("hint: save the export to a file and import the file"))
        #expect(try refused.temporaryListing() == [])
        #expect(try DatabaseSnapshot.dump(sandbox.path("db.sqlite"), table: "tasks") == tasks)

        // Exactly at the limit is taken in: the same stream under a limit of its own size imports.
        let accepted = try PipedCommand(
            sandbox, ["--db", "db.sqlite", "import", "-"], environment: ["DASHBOARD_TEST_STREAM_LIMIT": "\(bytes.count)"])
        accepted.write(bytes)
        accepted.closeInput()
        let imported = try accepted.finish(timeout: 60)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try DatabaseSnapshot.int(sandbox.path("db.sqlite"), "SELECT count(*) FROM tasks WHERE task_id LIKE 'big%'") == 400)
        #expect(try accepted.temporaryListing() == [])
    }

    @Test(arguments: [SIGTERM, SIGHUP, SIGINT])
    func aSignalWhileStandardInputIsReadLeavesNoSpool(_ signal: Int32) throws {
        let (sandbox, tasks) = try baseline()
        let run = try PipedCommand(sandbox, ["--db", "db.sqlite", "import", "-"], asFromAShell: true)
        // Enough to be spooling, and the pipe stays open: the program waits for more.
        var text = "task_id,course_id,title\n"
        for i in 1...2000 { text += "s\(i),bio,Slow stream row \(i)\n" }
        #expect(run.write(Data(text.utf8)))
        // Wait until the spool is open (it is in TMPDIR, and has no name there).
        let deadline = Date().addingTimeInterval(30)
        while run.descriptorsInTemporaryFolder().isEmpty, run.process.isRunning, Date() < deadline { usleep(10_000) }
        let open = run.descriptorsInTemporaryFolder()
        #expect(open.count == 1, "the spool in TMPDIR: \(open)")
        #expect(try run.temporaryListing() == [], "while spooling, the spool has no name")
        kill(run.process.processIdentifier, signal)
        let outcome = try run.finish(timeout: 30)
        #expect(outcome.signalled && outcome.status == signal, "status \(outcome.status): \(outcome.stderr)")
        #expect(try run.temporaryListing() == [])
        #expect(try DatabaseSnapshot.dump(sandbox.path("db.sqlite"), table: "tasks") == tasks)
    }

    @Test func aFullTemporaryDiskIs74AndLeavesNothingOnIt() throws {
        let (sandbox, tasks) = try baseline()
        let disk = try ScratchDisk(sandbox, name: "tmpdisk", megabytes: 1)
        defer { disk.unmount() }
        let run = try PipedCommand(sandbox, ["--db", "db.sqlite", "import", "-"], temporary: URL(fileURLWithPath: disk.path))
        var text = "task_id,course_id,title\n"
        for i in 1...60_000 { text += "f\(i),bio,Row \(i) of a stream larger than the disk\n" }
        _ = run.feedForever(Data(text.utf8), limit: text.utf8.count)
        let outcome = try run.finish(timeout: 60)
        #expect(outcome.status == 74, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains("dashboard: error: cannot hold stdin in the temporary folder \(disk.path)"),
            "\(outcome.stderr)")
        #expect(outcome.stderr.contains("No space left on device"), "\(outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == [])
        #expect(try DatabaseSnapshot.dump(sandbox.path("db.sqlite"), table: "tasks") == tasks)
    }

    @Test func invalidUTF8StopsTheStreamWhereItIs() throws {
        let (sandbox, tasks) = try baseline()
        let run = try PipedCommand(sandbox, ["--db", "db.sqlite", "import", "-"])
        var chunk = Data("task_id,course_id,title\nu1,bio,Caf".utf8) + Data([0xE9]) + Data("\n".utf8)
        chunk += Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
        let written = run.feedForever(chunk, limit: 1 << 30)
        let outcome = try run.finish(timeout: 60)
        #expect(outcome.status == 65, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains("stdin:2: the file is not valid UTF-8: line 2 holds bytes that are not valid UTF-8 [invalid_encoding]"),
            "\(outcome.stderr)")
        #expect(written() < 64 << 20)
        #expect(try run.temporaryListing() == [])
        #expect(try DatabaseSnapshot.dump(sandbox.path("db.sqlite"), table: "tasks") == tasks)
    }

    @Test func aStreamIsCheckedWithTheRunsEncoding() throws {
        let (sandbox, _) = try baseline()
        let run = try PipedCommand(sandbox, ["--db", "db.sqlite", "import", "--encoding", "windows-1252", "-"])
        // More than one 64 KiB chunk after the Windows-1252 bytes: a check made as UTF-8 would
        // stop the stream at the first chunk.
        var rows = Data("task_id,course_id,title\nw1,bio,Caf".utf8) + Data([0xE9, 0x20, 0x80]) + Data("\n".utf8)
        for i in 2...6000 { rows += Data("w\(i),bio,Row \(i)\n".utf8) }
        #expect(rows.count > 64 * 1024)
        let written = run.feedForever(rows, limit: rows.count)
        let outcome = try run.finish(timeout: 60)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT title FROM tasks WHERE task_id = 'w1'") == "Caf\u{E9} \u{20AC}\n")
        #expect(try DatabaseSnapshot.int(sandbox.path("db.sqlite"), "SELECT count(*) FROM tasks WHERE task_id LIKE 'w%'") == 6000)
        #expect(written() == rows.count)
    }

    @Test func theLimitIsInTheHelp() throws {
        let help = try Sandbox().run(["import", "--help"])
        #expect(help.exitCode == 0)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("at most 1 GiB (exit 65 beyond, nothing imported)"), "\(help.stdout)")
    }

    @Test func standardInputThatIsAFileIsReadInPlace() throws {
        let (sandbox, _) = try baseline()
        let tmp = sandbox.directory.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        // A file as stdin is not limited like a stream (it is read where it is, no copy).
        let result = try sandbox.run(
            ["--db", "db.sqlite", "import", "-"],
            environment: ["TMPDIR": tmp.path, "DASHBOARD_TEST_STREAM_LIMIT": "16"],
            stdin: "task_id,course_id,title\nin1,bio,Read in place\n")
        #expect(result.exitCode == 0, "\(result)")
        #expect(try DatabaseSnapshot.int(sandbox.path("db.sqlite"), "SELECT count(*) FROM tasks WHERE task_id = 'in1'") == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == [])
    }
}
