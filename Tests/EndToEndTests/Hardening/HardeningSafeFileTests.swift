import Foundation
import Testing

/// Issue 11, class 2: every file is created safely. Files are created new at an unpredictable
/// name with the umask's mode (these tests run with umask 077: 0600, folders 0700; issue 13)
/// and renamed into place (an existing file, even a link, is replaced, never
/// written through); a folder that is a symbolic link or another user's is refused with 74.
@Suite struct HardeningSafeFileTests {
    static func mode(_ sandbox: Sandbox, _ name: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: sandbox.path(name))[.posixPermissions] as? Int)
    }

    static func text(_ sandbox: Sandbox, _ name: String) throws -> String {
        String(decoding: try sandbox.read(name), as: UTF8.self)
    }

    static func listing(_ sandbox: Sandbox, _ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: sandbox.path(folder)).sorted()
    }

    static let badTasks = "task_id,course_id,title\nt1,bio,One\nt2,nope,Two\n"

    @Test func anExistingRejectsFileThatIsAHardLinkIsReplacedNotWrittenThrough() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write("bad.csv", Self.badTasks)
        try sandbox.write("precious.txt", "keep me\n")
        chmod(sandbox.path("precious.txt"), 0o644)
        try FileManager.default.linkItem(atPath: sandbox.path("precious.txt"), toPath: sandbox.path("rejects.csv"))
        let result = try sandbox.run(umask: "077", ["--db", "db.sqlite", "check", "--rejects", "rejects.csv", "courses.csv", "bad.csv"])
        #expect(result.exitCode == 65, "\(result)")
        #expect(try Self.text(sandbox, "precious.txt") == "keep me\n")
        #expect(try Self.mode(sandbox, "precious.txt") == 0o644)
        #expect(try Self.text(sandbox, "rejects.csv").hasPrefix("file,line,column,code,value,message\r\nbad.csv,3,course_id,"))
        #expect(try Self.mode(sandbox, "rejects.csv") == 0o600)
        #expect(try sandbox.listing() == ["bad.csv", "courses.csv", "precious.txt", "rejects.csv"])
    }

    @Test func anExistingRejectsFileWithAnotherModeGetsTheProductsMode() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write("bad.csv", Self.badTasks)
        try sandbox.write("rejects.csv", "old\n")
        chmod(sandbox.path("rejects.csv"), 0o666)
        let result = try sandbox.run(umask: "077", ["--db", "db.sqlite", "import", "--rejects", "rejects.csv", "courses.csv", "bad.csv"])
        #expect(result.exitCode == 65, "\(result)")
        #expect(try Self.mode(sandbox, "rejects.csv") == 0o600)
        #expect(try Self.text(sandbox, "rejects.csv").hasPrefix("file,line,"))
    }

    @Test func rejectsIntoAMissingOrSymlinkedFolderIsRefusedBeforeTheImport() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        try FileManager.default.createDirectory(atPath: sandbox.path("real"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("link"), withDestinationPath: "real")
        let linked = try sandbox.run(["--db", "db.sqlite", "import", "--rejects", "link/rejects.csv", "courses.csv", "tasks.csv"])
        #expect(
            linked
                == CommandResult(
                    exitCode: 74, stdout: "",
                    stderr: """
                        dashboard: error: cannot write --rejects link/rejects.csv: link is a symbolic link, and dashboard never writes through one
                        dashboard: hint: give a file in a folder you can write to; nothing was imported

                        """))
        let missing = try sandbox.run(["--db", "db.sqlite", "import", "--rejects", "no/such/rejects.csv", "courses.csv", "tasks.csv"])
        #expect(missing.exitCode == 74)
        #expect(missing.stderr.hasPrefix("dashboard: error: cannot write --rejects no/such/rejects.csv: the folder no does not exist\n"))
        #expect(try sandbox.listing() == ["courses.csv", "link", "real", "tasks.csv"])
        #expect(try Self.listing(sandbox, "real") == [])
    }

    @Test func reportOutThatIsASymbolicLinkIsRefused() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("elsewhere"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("out"), withDestinationPath: "elsewhere")
        for out in ["out", "out/"] {
            let result = try sandbox.run(["--db", "db.sqlite", "report", "grid", "--format", "html", "--out", out])
            #expect(
                result
                    == CommandResult(
                        exitCode: 74, stdout: "",
                        stderr: """
                            dashboard: error: cannot write reports to \(out): out is a symbolic link, and dashboard never writes through one
                            dashboard: hint: give the folder the link points to, or remove the link

                            """))
        }
        #expect(try Self.listing(sandbox, "elsewhere") == [])
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a folder to another user"))
    func reportOutOwnedByAnotherUserIsRefused() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("theirs"), withIntermediateDirectories: false)
        #expect(chown(sandbox.path("theirs"), 65534, 65534) == 0)
        let result = try sandbox.run(["--db", "db.sqlite", "report", "grid", "--format", "csv", "--out", "theirs"])
        #expect(
            result
                == CommandResult(
                    exitCode: 74, stdout: "",
                    stderr: """
                        dashboard: error: cannot write reports to theirs: the folder theirs belongs to another user (uid 65534)
                        dashboard: hint: write into a folder this user owns (or run as the folder's owner)

                        """))
        #expect(try Self.listing(sandbox, "theirs") == [])
    }

    @Test func reportOutUnderAMissingFolderIsCreatedPrivateLikeMkdirP() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(umask: "077", ["--db", "db.sqlite", "report", "grid", "--format", "csv", "--out", "missing/sub"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(try Self.mode(sandbox, "missing") == 0o700)
        #expect(try Self.mode(sandbox, "missing/sub") == 0o700)
        #expect(try Self.listing(sandbox, "missing/sub") == ["index.csv"])
        #expect(try Self.mode(sandbox, "missing/sub/index.csv") == 0o600)
    }

    @Test func reportOutUnderAFileGetsTheProductsMessage() throws {
        let sandbox = try Sandbox()
        try sandbox.write("notes.txt", "x")
        let result = try sandbox.run(["--db", "db.sqlite", "report", "grid", "--format", "csv", "--out", "notes.txt/sub"])
        #expect(
            result
                == CommandResult(
                    exitCode: 74, stdout: "",
                    stderr: """
                        dashboard: error: cannot write reports to notes.txt/sub: notes.txt is a file, not a folder
                        dashboard: hint: give a path whose folders are folders, or remove what is in the way

                        """))
    }

    @Test func reportFilesReplaceHardLinksAndGetTheProductsMode() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("out"), withIntermediateDirectories: false)
        try sandbox.write("precious.txt", "keep me\n")
        try FileManager.default.linkItem(atPath: sandbox.path("precious.txt"), toPath: sandbox.path("out/index.md"))
        chmod(sandbox.path("precious.txt"), 0o664)
        let result = try sandbox.run(umask: "077", ["--db", "db.sqlite", "report", "grid", "--format", "markdown", "--out", "out"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(try Self.text(sandbox, "precious.txt") == "keep me\n")
        #expect(try Self.text(sandbox, "out/index.md").hasPrefix("# Courses as of"))
        #expect(try Self.mode(sandbox, "out/index.md") == 0o600)
        #expect(try Self.listing(sandbox, "out") == ["index.md"])
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to plant a file of another user"))
    func aReportFilePlantedByAnotherUserIsReplacedByOneOfOurs() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.path("out"), withIntermediateDirectories: false)
        try sandbox.write("out/index.csv", "planted\n")
        #expect(chown(sandbox.path("out/index.csv"), 65534, 65534) == 0)
        chmod(sandbox.path("out/index.csv"), 0o666)
        let result = try sandbox.run(umask: "077", ["--db", "db.sqlite", "report", "grid", "--format", "csv", "--out", "out"])
        #expect(result.exitCode == 0, "\(result)")
        let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.path("out/index.csv"))
        #expect(attributes[.ownerAccountID] as? Int == Int(geteuid()))
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        #expect(try Self.text(sandbox, "out/index.csv").hasPrefix("course_id,code,title"))
    }

    @Test func rejectsOnAFullDiskLeaveTheOldFileAndNoTemporaryFile() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write("bad.csv", Self.badTasks)
        let disk = try ScratchDisk(sandbox, megabytes: 1)
        defer { disk.unmount() }
        try sandbox.write("disk/rejects.csv", "old\n")
        try disk.fill(leaving: 0)
        let result = try sandbox.run(["--db", "db.sqlite", "check", "--rejects", "disk/rejects.csv", "courses.csv", "bad.csv"])
        #expect(
            result.stderr.hasSuffix(
                "dashboard: error: cannot write --rejects disk/rejects.csv: No space left on device\n"
                    + "dashboard: hint: check the folder's permissions and the disk\n"), "\(result)")
        #expect(result.exitCode == 74)
        #expect(try Self.text(sandbox, "disk/rejects.csv") == "old\n")
        #expect(try Self.listing(sandbox, "disk") == ["filler", "rejects.csv"])
    }

    @Test func nightlyRefusesASymbolicLinkAtTheDatedFolderBeforeImporting() throws {
        let sandbox = try Sandbox()
        try sandbox.write("imports/courses.csv", Fixtures.courses)
        try sandbox.write("imports/tasks.csv", Fixtures.tasks)
        try FileManager.default.createDirectory(atPath: sandbox.path("reports"), withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: sandbox.path("target"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("reports/2026-11-29"), withDestinationPath: "../target")
        let result = try sandbox.run(["--db", "db.sqlite", "nightly"])
        #expect(
            result
                == CommandResult(
                    exitCode: 74, stdout: "",
                    stderr: """
                        dashboard: error: cannot write reports to reports/2026-11-29: reports/2026-11-29 is a symbolic link, and dashboard never writes through one; nothing was imported
                        dashboard: hint: give the folder the link points to, or remove the link

                        """))
        #expect(try Self.listing(sandbox, "target") == [])
        #expect(!sandbox.exists("db.sqlite"))
    }

    @Test func nightlyCreatesItsDatedFolderPrivateAndReplacesPlantedFiles() throws {
        let sandbox = try Sandbox()
        try sandbox.write("imports/courses.csv", Fixtures.courses)
        try sandbox.write("imports/tasks.csv", Fixtures.tasks)
        try sandbox.write("precious.txt", "keep me\n")
        try FileManager.default.createDirectory(atPath: sandbox.path("reports/2026-11-29"), withIntermediateDirectories: true)
        try FileManager.default.linkItem(atPath: sandbox.path("precious.txt"), toPath: sandbox.path("reports/2026-11-29/index.txt"))
        let result = try sandbox.run(umask: "077", ["--db", "db.sqlite", "nightly"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(try Self.text(sandbox, "precious.txt") == "keep me\n")
        #expect(try Self.mode(sandbox, "reports/2026-11-29/index.txt") == 0o600)
        let written = try Self.listing(sandbox, "reports/2026-11-29")
        #expect(written.count == 18, "15 pages, 2 course feeds and the teachers' folder: \(written)")
        #expect(written.allSatisfy { !$0.hasPrefix(".") })
    }
}
