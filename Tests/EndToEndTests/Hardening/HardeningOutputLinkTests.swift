import DashboardCore
import Foundation
import Testing

/// Issue 27, item 3: a link in any component of an output path. `--out evil/sub` wrote into the
/// target of `evil`, a link another user owns: only the last component was checked. Now every
/// component of `--out`, `--reports`, `--rejects` and `--metrics` is opened without following a
/// link, and a link on the way is followed only when root or the user running the program owns
/// it (`PathWalk`): refused with 74 before anything is read or written, naming the link and its
/// owner. Links of root and of the caller still work (`/var/run` → `/run`, `~/reports` →
/// `/srv/reports`), and so does the output guard through them.
@Suite(.enabled(if: geteuid() == 0, "needs root: links are given to other users with lchown, and runs as them through setpriv"))
struct HardeningOutputLinkTests {
    static let words = "is a symbolic link owned by another user (uid 65534), and dashboard follows only links of root or its own user"
    static let hint = "dashboard: hint: check where it points, then give that folder itself, or have root or this user make the link\n"

    /// The CSV set of the imported sandbox: the index and a page per course.
    static let csvSet = [ReportFileNames.course("bio", ext: "csv"), ReportFileNames.course("his", ext: "csv"), "index.csv"].sorted()

    /// The imported sandbox of the hardening suites, with `target/sub` and `evil` → `target`, a
    /// link owned by uid 65534.
    static func planted() throws -> Sandbox {
        let sandbox = try HardeningOutputPathTests.imported()
        try FileManager.default.createDirectory(atPath: sandbox.path("target/sub"), withIntermediateDirectories: true)
        try Self.link(sandbox, "evil", "target", owner: 65534)
        return sandbox
    }

    static func link(_ sandbox: Sandbox, _ name: String, _ text: String, owner: uid_t? = nil) throws {
        try FileManager.default.createSymbolicLink(atPath: sandbox.path(name), withDestinationPath: text)
        if let owner { #expect(lchown(sandbox.path(name), owner, owner) == 0) }
    }

    /// Runs `arguments` and expects 74 with `message` and `hint`, and no file changed anywhere.
    static func expectRefused(
        _ sandbox: Sandbox, _ arguments: [String], _ message: String, hint: String = Self.hint,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try HardeningOutputPathTests.state(sandbox)
        let result = try sandbox.run(arguments)
        #expect(
            result == CommandResult(exitCode: 74, stdout: "", stderr: "dashboard: error: " + message + "\n" + hint),
            sourceLocation: sourceLocation)
        #expect(try HardeningOutputPathTests.state(sandbox) == before, "nothing may change", sourceLocation: sourceLocation)
        #expect(try HardeningSafeFileTests.listing(sandbox, "target/sub") == [], sourceLocation: sourceLocation)
    }

    @Test func anotherUsersLinkInTheMiddleOfOutIsRefused() throws {
        let sandbox = try Self.planted()
        for out in ["evil/sub", "evil/new/deeper", "./evil/sub/"] {
            try Self.expectRefused(
                sandbox, ["--db", "db.sqlite", "report", "grid", "--format", "html", "--out", out],
                "cannot write reports to \(out): evil \(Self.words)")
        }
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "report", "list", "--format", "csv", "--out", sandbox.path("evil/sub"), "--by-teacher"],
            "cannot write reports to \(sandbox.path("evil/sub")): \(sandbox.path("evil")) \(Self.words)")
    }

    @Test func anotherUsersLinkInTheMiddleOfReportsIsRefusedBeforeTheImport() throws {
        let sandbox = try Self.planted()
        try sandbox.write("drop/courses.csv", Fixtures.courses)
        try Self.expectRefused(
            sandbox, ["--db", "new.sqlite", "nightly", "--imports", "drop", "--reports", "evil/sub"],
            "cannot write reports to evil/sub: evil \(Self.words); nothing was imported")
        #expect(!sandbox.exists("new.sqlite"))
        // The same rule for `batches approve|discard --reports`, before anything is decided.
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "batches", "discard", "1", "--reports", "evil/sub"],
            "cannot write reports to evil/sub: evil \(Self.words); nothing was imported")
    }

    @Test func anotherUsersLinkInTheMiddleOfRejectsAndMetricsIsRefusedBeforeTheImport() throws {
        let sandbox = try Self.planted()
        let nothingImported = "dashboard: hint: give a file in a folder you can write to; nothing was imported\n"
        for command in ["import", "check"] {
            try Self.expectRefused(
                sandbox, ["--db", "db.sqlite", command, "--rejects", "evil/sub/rejects.csv", "courses.csv", "tasks.csv"],
                "cannot write --rejects evil/sub/rejects.csv: evil \(Self.words)", hint: nothingImported)
        }
        try sandbox.write("drop/courses.csv", Fixtures.courses)
        try Self.expectRefused(
            sandbox, ["--db", "new.sqlite", "nightly", "--imports", "drop", "--metrics", "evil/sub/dashboard.prom"],
            "cannot write --metrics evil/sub/dashboard.prom: evil \(Self.words)",
            hint: "dashboard: hint: give a file in a folder you own and can write to; nothing was imported\n")
        #expect(!sandbox.exists("new.sqlite"))
    }

    @Test func aLinkOfRootOnTheWayIsFollowed() throws {
        let sandbox = try Self.planted()
        // `/var/run` → `/run` stands here as `run` → `target`, a link of root (this user).
        try Self.link(sandbox, "run", "target")
        let report = try sandbox.run(["--db", "db.sqlite", "report", "grid", "--format", "csv", "--out", "run/sub"])
        #expect(report.exitCode == 0, "\(report)")
        #expect(try HardeningSafeFileTests.listing(sandbox, "target/sub") == Self.csvSet)
        try sandbox.write("drop/courses.csv", Fixtures.courses)
        try sandbox.write("drop/tasks.csv", Fixtures.tasks)
        try FileManager.default.createDirectory(atPath: sandbox.path("target/metrics"), withIntermediateDirectories: false)
        let night = try sandbox.run([
            "--db", "db.sqlite", "nightly", "--imports", "drop", "--reports", "run/reports", "--metrics", "run/metrics/n.prom",
        ])
        #expect(night.exitCode == 0, "\(night)")
        #expect(try HardeningSafeFileTests.listing(sandbox, "target/reports") == ["2026-11-29", "latest"])
        #expect(try HardeningSafeFileTests.listing(sandbox, "target/metrics") == ["n.prom"])
        // The folder a file goes into is never a link, whoever owns it (SPEC §9).
        let linked = try sandbox.run(["--db", "db.sqlite", "nightly", "--imports", "drop", "--metrics", "run/n.prom"])
        #expect(linked.exitCode == 74, "\(linked)")
        #expect(
            linked.stderr.hasPrefix(
                "dashboard: error: cannot write --metrics run/n.prom: run is a symbolic link, and dashboard never writes through one\n"))
        // `..` after a link is its target's parent, as the system reads it.
        try FileManager.default.createDirectory(atPath: sandbox.path("deep/inner"), withIntermediateDirectories: true)
        try Self.link(sandbox, "down", "deep/inner")
        let up = try sandbox.run(["--db", "db.sqlite", "report", "grid", "--format", "md", "--out", "down/../up"])
        #expect(up.exitCode == 0, "\(up)")
        #expect(try HardeningSafeFileTests.listing(sandbox, "deep") == ["inner", "up"])
    }

    @Test(.sqliteFiles) func theOutputGuardStillSeesTheDatabaseThroughALinkItFollows() throws {
        let sandbox = try Self.planted()
        try FileManager.default.moveItem(atPath: sandbox.path("db.sqlite"), toPath: sandbox.path("target/sub/index.json"))
        try Self.link(sandbox, "mine", "target")
        try HardeningOutputEscapeTests.expectRefused(
            sandbox, ["--db", "target/sub/index.json", "report", "grid", "--format", "json", "--out", "mine/sub"],
            "--out mine/sub would write index.json there, which is the database target/sub/index.json; refusing to overwrite it")
    }

    @Test func inARootOwnedStickyFolderAnotherUsersLinkIsRefusedAndRootsIsFollowed() throws {
        let sandbox = try Self.planted()
        // `/tmp`: root's, writable by all, sticky. Another user planted `reports` there first.
        try FileManager.default.createDirectory(atPath: sandbox.path("tmp"), withIntermediateDirectories: false)
        #expect(chmod(sandbox.path("tmp"), 0o1777) == 0)
        try Self.link(sandbox, "tmp/reports", "../target", owner: 65534)
        try Self.expectRefused(
            sandbox, ["--db", "db.sqlite", "report", "grid", "--format", "csv", "--out", "tmp/reports/sub"],
            "cannot write reports to tmp/reports/sub: tmp/reports \(Self.words)")
        try Self.link(sandbox, "tmp/ours", "../target")
        let result = try sandbox.run(["--db", "db.sqlite", "report", "grid", "--format", "csv", "--out", "tmp/ours/sub"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(try HardeningSafeFileTests.listing(sandbox, "target/sub") == Self.csvSet)
    }
}

/// The same rule for a user who is not root (uid 65534 through `setpriv`, as
/// `ReadOnlyReaderTests` runs readers): its own links and root's are followed, another user's
/// (uid 65533) are not, in a sticky folder as anywhere.
@Suite(.enabled(if: geteuid() == 0, "needs root: runs as another uid through setpriv"))
struct HardeningOutputLinkAsAUserTests {
    static let user: uid_t = 65534

    /// A sandbox any uid can enter, with a copy of the binary (`bin/dashboard`), `home` and
    /// `srv/reports` owned by the user, and `tmp`, root's sticky folder.
    static func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        for path in [sandbox.directory.deletingLastPathComponent().path, sandbox.directory.path] { #expect(chmod(path, 0o755) == 0) }
        try FileManager.default.createDirectory(atPath: sandbox.path("bin"), withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: try DashboardBinary.url().path, toPath: sandbox.path("bin/dashboard"))
        #expect(chmod(sandbox.path("bin"), 0o755) == 0 && chmod(sandbox.path("bin/dashboard"), 0o755) == 0)
        for folder in ["home", "srv/reports", "tmp"] {
            try FileManager.default.createDirectory(atPath: sandbox.path(folder), withIntermediateDirectories: true)
            #expect(chmod(sandbox.path(folder), 0o755) == 0)
        }
        #expect(chown(sandbox.path("home"), user, user) == 0 && chown(sandbox.path("srv/reports"), user, user) == 0)
        #expect(chmod(sandbox.path("tmp"), 0o1777) == 0)
        return sandbox
    }

    /// `dashboard report grid --format csv --out OUT` as the user (no database: an empty report).
    static func report(_ sandbox: Sandbox, _ out: String) throws -> CommandResult {
        try sandbox.runTool(
            "setpriv",
            ReadOnlyReaderTests.readerIDs + [sandbox.path("bin/dashboard"), "report", "grid", "--format", "csv", "--out", out])
    }

    @Test func theUsersOwnLinkAndRootsAreFollowedAnotherUsersIsNot() throws {
        let sandbox = try Self.sandbox()
        // `~/reports` → `/srv/reports`, the user's own link; `srv/current` → `reports`, root's.
        try HardeningOutputLinkTests.link(sandbox, "home/reports", sandbox.path("srv/reports"), owner: Self.user)
        try HardeningOutputLinkTests.link(sandbox, "srv/current", "reports")
        try HardeningOutputLinkTests.link(sandbox, "home/theirs", sandbox.path("srv/reports"), owner: 65533)
        for (out, written) in [("home/reports/mine", "mine"), ("srv/current/roots", "roots")] {
            let result = try Self.report(sandbox, out)
            #expect(result.exitCode == 0, "\(out): \(result)")
            #expect(try HardeningSafeFileTests.listing(sandbox, "srv/reports/" + written) == ["index.csv"])
        }
        let refused = try Self.report(sandbox, "home/theirs/x")
        #expect(
            refused
                == CommandResult(
                    exitCode: 74, stdout: "",
                    stderr:
                        "dashboard: error: cannot write reports to home/theirs/x: home/theirs is a symbolic link owned by another user (uid 65533), "
                        + "and dashboard follows only links of root or its own user\n" + HardeningOutputLinkTests.hint))
        // In root's sticky folder: the user's own link is followed, another user's is not.
        try HardeningOutputLinkTests.link(sandbox, "tmp/mine", "../srv/reports", owner: Self.user)
        try HardeningOutputLinkTests.link(sandbox, "tmp/planted", "../srv/reports", owner: 65533)
        #expect(try Self.report(sandbox, "tmp/mine/sticky").exitCode == 0)
        #expect(try Self.report(sandbox, "tmp/planted/x").exitCode == 74)
        #expect(try HardeningSafeFileTests.listing(sandbox, "srv/reports") == ["mine", "roots", "sticky"])
    }
}
