import Foundation
import Testing

@testable import DashboardCore

/// Issue 27, item 3: every component of an output path is opened without following a link,
/// and a link on the way is followed only when root or the user running the program owns it
/// (`PathWalk`, through `SafeFolder.open` and `SafeFolder.existing`).
@Suite(.storeIndependent) struct PathWalkTests {
    /// A fresh folder with `real/deep` and `target`, removed by `defer`.
    static func scratch() throws -> String {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("path-walk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: base + "/real/deep", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/target", withIntermediateDirectories: false)
        return base
    }

    /// A symbolic link at `path` to `text`, owned by `owner` when given (`lchown`: root only).
    static func link(_ path: String, _ text: String, owner: uid_t? = nil) {
        #expect(symlink(text, path) == 0, "\(path)")
        if let owner { #expect(lchown(path, owner, owner) == 0, "\(path)") }
    }

    static func listing(_ path: String) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    @Test(
        "a link of another user on the way is refused, naming it and its owner; nothing is made where it points",
        .enabled(if: geteuid() == 0))
    func anotherUsersLinkOnTheWay() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        Self.link(base + "/evil", base + "/target", owner: 65534)
        for (path, create) in [(base + "/evil/sub", true), (base + "/evil/sub", false), (base + "/evil/a/b", true)] {
            #expect(throws: SafeFileError(path: path, problem: .untrustedLink(base + "/evil", uid: 65534))) {
                _ = try SafeFolder.open(path, create: create)
            }
        }
        #expect(throws: SafeFileError(path: base + "/evil/sub", problem: .untrustedLink(base + "/evil", uid: 65534))) {
            _ = try SafeFolder.existing(base + "/evil/sub")
        }
        // A link of ours whose text passes through it is judged on that way too.
        Self.link(base + "/via", "evil/sub")
        #expect(throws: SafeFileError(path: base + "/via/x", problem: .untrustedLink(base + "/evil", uid: 65534))) {
            _ = try SafeFolder.open(base + "/via/x", create: true)
        }
        #expect(try Self.listing(base + "/target") == [])
    }

    @Test("links of root and of this user are followed, relative or absolute, in chains; .. after a link is its target's parent")
    func trustedLinksAreFollowed() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        Self.link(base + "/absolute", base + "/real")
        Self.link(base + "/relative", "real")
        Self.link(base + "/chain", "relative/deep")
        try SafeFolder.open(base + "/absolute/sub", create: true).write("a", name: "a.txt")
        try SafeFolder.open(base + "/chain/sub", create: true).write("b", name: "b.txt")
        try SafeFolder.open(base + "/chain/..", create: false).write("c", name: "c.txt")
        try SafeFolder.open(base + "/chain/../new", create: true).write("d", name: "d.txt")
        #expect(try Self.listing(base + "/real") == ["c.txt", "deep", "new", "sub"])
        #expect(try Self.listing(base + "/real/sub") == ["a.txt"])
        #expect(try Self.listing(base + "/real/deep/sub") == ["b.txt"])
        #expect(try Self.listing(base + "/real/new") == ["d.txt"])
        // The folder written into is never a link, whoever owns it (SPEC §9).
        #expect(throws: SafeFileError(path: base + "/chain", problem: .symbolicLink(base + "/chain"))) {
            _ = try SafeFolder.open(base + "/chain", create: true)
        }
    }

    @Test("a link to nothing, a loop of links and a file on the way are named, and nothing is created")
    func brokenWaysAreNamed() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        Self.link(base + "/dangling", base + "/nowhere")
        #expect(throws: SafeFileError(path: base + "/dangling/sub", problem: .danglingLink(base + "/dangling", target: base + "/nowhere")))
        {
            _ = try SafeFolder.open(base + "/dangling/sub", create: true)
        }
        #expect(!Self.exists(base + "/nowhere"), "like mkdir -p, nothing is made where a link points to nothing")
        // The link named is the one whose text names the missing folder, not a link on its way.
        Self.link(base + "/to-real", "real")
        Self.link(base + "/half", "to-real/missing")
        #expect(throws: SafeFileError(path: base + "/half/sub", problem: .danglingLink(base + "/half", target: "to-real/missing"))) {
            _ = try SafeFolder.open(base + "/half/sub", create: true)
        }
        #expect(try Self.listing(base + "/real") == ["deep"])
        Self.link(base + "/loop-a", "loop-b")
        Self.link(base + "/loop-b", "loop-a")
        do {
            _ = try SafeFolder.open(base + "/loop-a/sub", create: true)
            Issue.record("a loop of links was walked")
        } catch {
            guard case .system(_, let code) = error.problem else { throw error }
            #expect(code == ELOOP)
        }
        try "x".write(toFile: base + "/file", atomically: false, encoding: .utf8)
        Self.link(base + "/to-file", "file")
        #expect(throws: SafeFileError(path: base + "/to-file/sub", problem: .notAFolder(base + "/file"))) {
            _ = try SafeFolder.open(base + "/to-file/sub", create: true)
        }
        #expect(try Self.listing(base) == ["dangling", "file", "half", "loop-a", "loop-b", "real", "target", "to-file", "to-real"])
    }

    @Test("in a root-owned sticky folder (/tmp), another user's link is refused, root's is followed", .enabled(if: geteuid() == 0))
    func stickyFolderLinks() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/shared", withIntermediateDirectories: false)
        #expect(chmod(base + "/shared", 0o1777) == 0)
        Self.link(base + "/shared/reports", "../target", owner: 65534)
        Self.link(base + "/shared/ours", "../real")
        #expect(throws: SafeFileError(path: base + "/shared/reports/x", problem: .untrustedLink(base + "/shared/reports", uid: 65534))) {
            _ = try SafeFolder.open(base + "/shared/reports/x", create: true)
        }
        try SafeFolder.open(base + "/shared/ours/x", create: true).write("x", name: "x.txt")
        #expect(try Self.listing(base + "/target") == [])
        #expect(try Self.listing(base + "/real/x") == ["x.txt"])
    }

    @Test("existing(_:) creates nothing: nil for a folder not there yet, and it refuses what open refuses")
    func existingCreatesNothing() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        #expect(try SafeFolder.existing(base + "/a/b") == nil)
        #expect(try SafeFolder.existing(base + "/real/new") == nil)
        #expect(try SafeFolder.existing(base + "/real")?.path == base + "/real")
        Self.link(base + "/lnk", "real")
        #expect(throws: SafeFileError(path: base + "/lnk", problem: .symbolicLink(base + "/lnk"))) {
            _ = try SafeFolder.existing(base + "/lnk")
        }
        try "x".write(toFile: base + "/file", atomically: false, encoding: .utf8)
        #expect(throws: SafeFileError(path: base + "/file/x", problem: .notAFolder(base + "/file"))) {
            _ = try SafeFolder.existing(base + "/file/x")
        }
        #expect(try Self.listing(base) == ["file", "lnk", "real", "target"])
        #expect(try Self.listing(base + "/real") == ["deep"])
    }

    @Test("obstacle(_:) reads a name as write(name:) does: a folder, a FIFO and a link to a folder are in the way")
    func obstacles() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        #expect(mkfifo(base + "/real/pipe", 0o600) == 0)
        Self.link(base + "/real/to-deep", "deep")
        try "x".write(toFile: base + "/real/file", atomically: false, encoding: .utf8)
        let folder = try SafeFolder.open(base + "/real", create: false)
        #expect(folder.obstacle("deep") == .finalNameIsFolder(base + "/real/deep"))
        #expect(folder.obstacle("pipe") == .notRegularFile(base + "/real/pipe", kind: "a FIFO (named pipe)"))
        #expect(folder.obstacle("to-deep") == .notRegularFile(base + "/real/to-deep", kind: "a symbolic link to a folder"))
        #expect(folder.obstacle("..") == .finalNameIsFolder(base + "/real/.."))
        #expect(folder.obstacle("file") == nil)
        #expect(folder.obstacle("new") == nil)
        #expect(throws: SafeFileError(path: base + "/real/deep", problem: .finalNameIsFolder(base + "/real/deep"))) {
            try folder.write("x", name: "deep")
        }
    }
}
