import Foundation
import Testing

/// Issue 11, classes 1 and 2, as a hostile review broke them after the first fix: a missing
/// folder followed by `..` (`nothere/..`) reached the database; `--rejects` replaced a device,
/// a FIFO or `/dev/stdout`; an input given as `-` (standard input a regular file) was not
/// protected. Every case: exit 64 before anything is read or written, nothing changed.
@Suite struct HardeningOutputEscapeTests {
    static let hint = HardeningOutputPathTests.hint
    static let notRegularHint =
        "dashboard: hint: give a file name such as rejects.csv, or remove what is in the way; nothing was read or written\n"

    static func expectRefused(
        _ sandbox: Sandbox, _ arguments: [String], _ message: String, hint: String = Self.hint,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try HardeningOutputPathTests.state(sandbox)
        let result = try sandbox.run(arguments)
        #expect(
            result == CommandResult(exitCode: 64, stdout: "", stderr: "dashboard: error: " + message + "\n" + hint),
            sourceLocation: sourceLocation)
        #expect(try HardeningOutputPathTests.state(sandbox) == before, "nothing may change", sourceLocation: sourceLocation)
    }

    @Test(.sqliteFiles) func aMissingFolderFollowedByDotDotCannotReachTheDatabase() throws {
        let sandbox = try HardeningOutputPathTests.imported()
        try FileManager.default.moveItem(atPath: sandbox.path("db.sqlite"), toPath: sandbox.path("index.json"))
        for out in ["nothere/..", "nothere/./..", "nothere//../", "./nothere/../.", "x/y/../..", "nothere/../nothere2/.."] {
            try Self.expectRefused(
                sandbox, ["--db", "index.json", "report", "grid", "--format", "json", "--out", out],
                "--out \(out) would write index.json there, which is the database index.json; refusing to overwrite it")
        }
        try Self.expectRefused(
            sandbox, ["--db", "index.json", "check", "--rejects", "nothere/../index.json", "tasks.csv"],
            "--rejects nothere/../index.json is the database index.json; refusing to overwrite it")
        try Self.expectRefused(
            sandbox, ["--db", "index.json", "import", "--rejects", "nothere/./../tasks.csv", "tasks.csv"],
            "--rejects nothere/./../tasks.csv is the input file tasks.csv; refusing to overwrite it")
    }

    @Test func nightlyReportsThroughAMissingFolderAndDotDotIntoItsDropFolderIsRefused() throws {
        let sandbox = try HardeningOutputPathTests.imported()
        try sandbox.write("rep/2026-11-29/index.csv", Fixtures.tasks)
        for reports in ["rep/nothere/..", "rep//nothere/../", "rep/a/b/../../."] {
            try Self.expectRefused(
                sandbox, ["--db", "db.sqlite", "nightly", "--imports", "rep/2026-11-29", "--reports", reports],
                "--reports \(reports): the folder \(reports.hasSuffix("/") ? String(reports.dropLast()) : reports)/2026-11-29 "
                    + "is the input folder rep/2026-11-29; its reports would be read as input by the next run")
        }
    }

    @Test func outThatEndsInDotAfterASymbolicLinkIsRefusedNotFollowed() throws {
        let sandbox = try HardeningOutputPathTests.imported()
        try FileManager.default.createDirectory(atPath: sandbox.path("target"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("lnk"), withDestinationPath: "target")
        let result = try sandbox.run(["--db", "db.sqlite", "report", "grid", "--format", "csv", "--out", "lnk/."])
        #expect(
            result
                == CommandResult(
                    exitCode: 74, stdout: "",
                    stderr:
                        "dashboard: error: cannot write reports to lnk/.: lnk is a symbolic link, and dashboard never writes through one\n"
                        + "dashboard: hint: give the folder the link points to, or remove the link\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("target")) == [])
    }

    @Test func rejectsThatIsNotARegularFileIsRefusedBeforeAnythingIsRead() throws {
        let sandbox = try HardeningOutputPathTests.imported()
        try FileManager.default.createDirectory(atPath: sandbox.path("sub"), withIntermediateDirectories: false)
        #expect(mkfifo(sandbox.path("pipe.csv"), 0o600) == 0)
        let links = [("to-pipe.csv", "pipe.csv"), ("stdout", "/proc/self/fd/1"), ("fd", "/proc/self/fd"), ("to-sub", "sub")]
        for (name, target) in links {
            try FileManager.default.createSymbolicLink(atPath: sandbox.path(name), withDestinationPath: target)
        }
        var cases = [
            ("pipe.csv", "a FIFO (named pipe)"), ("to-pipe.csv", "a symbolic link to a FIFO (named pipe)"),
            ("stdout", "a symbolic link to a process's descriptor"), ("fd/1", "a symbolic link to a process's descriptor"),
            ("to-sub", "a symbolic link to a folder"),
        ]
        // A stand-in for /dev/null, made in the sandbox (the real /dev is never touched).
        if geteuid() == 0, mknod(sandbox.path("mynull"), S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 {
            try FileManager.default.createSymbolicLink(atPath: sandbox.path("to-null"), withDestinationPath: "mynull")
            cases += [("mynull", "a character device"), ("to-null", "a symbolic link to a character device")]
        }
        for (name, kind) in cases {
            for command in ["check", "import"] {
                try Self.expectRefused(
                    sandbox, ["--db", "db.sqlite", command, "--rejects", name, "tasks.csv"],
                    "--rejects \(name) is not a regular file (\(kind)); dashboard replaces only regular files", hint: Self.notRegularHint)
            }
        }
        // A symbolic link to a regular file is still replaced as a name; its target is kept.
        try sandbox.write("kept.csv", "keep me\n")
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("to-kept.csv"), withDestinationPath: "kept.csv")
        let replaced = try sandbox.run(["--db", "db.sqlite", "check", "--rejects", "to-kept.csv", "tasks.csv"])
        #expect(replaced.exitCode == 0, "\(replaced)")
        #expect(try sandbox.read("kept.csv") == Data("keep me\n".utf8))
        var info = stat()
        #expect(lstat(sandbox.path("to-kept.csv"), &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG, "the link was replaced")
    }

    @Test func reportFileNamesThatAreNotRegularFilesAreRefused() throws {
        let sandbox = try HardeningOutputPathTests.imported()
        try FileManager.default.createDirectory(atPath: sandbox.path("out"), withIntermediateDirectories: false)
        #expect(mkfifo(sandbox.path("out/index.html"), 0o600) == 0)
        #expect(mkfifo(sandbox.path("out/course-bio-0f3b5e4a.md"), 0o600) == 0)
        let hint = "dashboard: hint: give another folder, or remove what is in the way; nothing was read or written\n"
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "report", "grid", "--format", "html", "--out", "out"],
            "--out out would write index.html there, which is not a regular file (a FIFO (named pipe)); dashboard replaces only regular files",
            hint: hint)
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "report", "list", "--format", "markdown", "--out", "out"],
            "--out out would write course-bio-0f3b5e4a.md there, which is not a regular file (a FIFO (named pipe)); dashboard replaces only regular files",
            hint: hint)
        // Nightly: refused before the import (the database is part of the state compared).
        try FileManager.default.createDirectory(atPath: sandbox.path("reports/2026-11-29"), withIntermediateDirectories: true)
        #expect(mkfifo(sandbox.path("reports/2026-11-29/index.csv"), 0o600) == 0)
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "nightly", "--imports", "imports"],
            "--reports reports: the folder reports/2026-11-29 would write index.csv there, which is not a regular file (a FIFO (named pipe)); "
                + "dashboard replaces only regular files", hint: hint)
    }

    /// `dashboard ARGS < file`, through the shell: standard input is that regular file.
    static func runWithStdin(_ sandbox: Sandbox, _ file: String, _ arguments: [String]) throws -> CommandResult {
        try RunningCommand(
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", "exec \"$0\" \"$@\" < \(file)", DashboardBinary.url().path] + arguments,
            directory: sandbox.directory, environment: Sandbox.baseEnvironment, stdin: nil, ioDirectory: sandbox.ioDirectory,
            timeout: 60
        ).finish()
    }

    @Test func rejectsOverTheFileOnStandardInputIsRefused() throws {
        let sandbox = try HardeningOutputPathTests.imported()
        try sandbox.write("t2.csv", HardeningSafeFileTests.badTasks)
        try FileManager.default.linkItem(atPath: sandbox.path("t2.csv"), toPath: sandbox.path("t2-link.csv"))
        let cases = [
            (["check", "--rejects", "t2.csv", "-"], "--rejects t2.csv is the file on standard input (-)"),
            (["import", "--rejects", "./t2.csv", "-"], "--rejects ./t2.csv is the file on standard input (-)"),
            (["check", "--rejects", "t2-link.csv", "-"], "--rejects t2-link.csv is the file on standard input (-)"),
            (["check", "--rejects", "t2.csv", "/dev/stdin"], "--rejects t2.csv is the input file /dev/stdin"),
        ]
        for (arguments, message) in cases {
            let before = try HardeningOutputPathTests.state(sandbox)
            let result = try Self.runWithStdin(sandbox, "t2.csv", ["--db", "db.sqlite"] + arguments)
            #expect(
                result
                    == CommandResult(
                        exitCode: 64, stdout: "", stderr: "dashboard: error: \(message); refusing to overwrite it\n" + Self.hint))
            #expect(try HardeningOutputPathTests.state(sandbox) == before, "nothing may change")
        }
        // Another rejects file is still written from standard input.
        let other = try Self.runWithStdin(sandbox, "t2.csv", ["--db", "db.sqlite", "check", "--rejects", "other.csv", "-"])
        #expect(other.exitCode == 65, "\(other)")
        #expect(sandbox.exists("other.csv"))
    }
}
