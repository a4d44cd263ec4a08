import Foundation
import Testing

@testable import DashboardCore

/// Issue 11, class 2: every file is created new at an unpredictable name, with the product's
/// mode, and renamed into place; folders are never symbolic links or another user's.
@Suite(.storeIndependent) struct SafeFolderTests {
    /// A fresh folder under the temporary directory, removed by `defer`.
    static func scratch() throws -> String {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("safe-folder-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: false)
        return base
    }

    static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    static func listing(_ path: String) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }

    @Test("a file replaces a hard link at its name: the other file keeps its bytes, the new one gets the product's mode")
    func hardLinkAtTheFinalName() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try "precious".write(toFile: base + "/outside", atomically: false, encoding: .utf8)
        chmod(base + "/outside", 0o644)
        try FileManager.default.createDirectory(atPath: base + "/out", withIntermediateDirectories: false)
        try FileManager.default.linkItem(atPath: base + "/outside", toPath: base + "/out/rejects.csv")

        try SafeFolder.open(base + "/out", create: false).write("new", name: "rejects.csv")
        #expect(try Self.text(base + "/outside") == "precious")
        #expect(try Self.mode(base + "/outside") == 0o644)
        #expect(try Self.text(base + "/out/rejects.csv") == "new")
        #expect(try Self.mode(base + "/out/rejects.csv") == Int(FileModes.ownerOnly.file))
        #expect(try Self.listing(base + "/out") == ["rejects.csv"])
    }

    @Test("a symbolic link at the final name is replaced, its target untouched")
    func symbolicLinkAtTheFinalName() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try "precious".write(toFile: base + "/outside", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: base + "/index.html", withDestinationPath: base + "/outside")
        try SafeFolder.open(base, create: false).write("new", name: "index.html")
        #expect(try Self.text(base + "/outside") == "precious")
        #expect(try FileManager.default.destinationOfSymbolicLinkSafe(base + "/index.html") == nil)
        #expect(try Self.text(base + "/index.html") == "new")
    }

    @Test("a file with another mode is replaced by one with the product's mode, whatever the umask")
    func modeOfAReplacedFile() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try "old".write(toFile: base + "/index.csv", atomically: false, encoding: .utf8)
        chmod(base + "/index.csv", 0o666)
        let old = umask(0)
        defer { umask(old) }
        try SafeFolder.open(base, create: false).write("new", name: "index.csv")
        #expect(try Self.mode(base + "/index.csv") == 0o600)
        #expect(try Self.text(base + "/index.csv") == "new")
    }

    @Test("hard links planted at the names the old writer used (.NAME.tmp-PID) are never written")
    func plantedTemporaryNames() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try "precious".write(toFile: base + "/outside", atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: base + "/out", withIntermediateDirectories: false)
        let planted = base + "/out/.index.html.tmp-\(getpid())"
        try FileManager.default.linkItem(atPath: base + "/outside", toPath: planted)
        let disk = LocalReportFileSystem()
        try disk.ensureDirectory(base + "/out")
        try disk.write("<html>", name: "index.html", in: base + "/out")
        #expect(try Self.text(base + "/outside") == "precious")
        #expect(try Self.text(planted) == "precious")
        #expect(try Self.listing(base + "/out") == [".index.html.tmp-\(getpid())", "index.html"])
    }

    @Test("temporary names are unpredictable, created with O_EXCL, and removed when the body fails")
    func temporaryFiles() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let folder = try SafeFolder.open(base, create: false)
        var names: Set<String> = []
        for _ in 0..<20 {
            let (fd, name) = try folder.makeTemporary(for: base + "/x")
            close(fd)
            #expect(name.hasPrefix(".dashboard-") && name.hasSuffix(".tmp") && name.count == 31, "\(name)")
            #expect(try Self.mode(base + "/" + name) == 0o600)
            names.insert(name)
        }
        #expect(names.count == 20)
        for name in names { unlink(base + "/" + name) }

        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try folder.write(name: "index.csv") { sink in
                sink.write("partial")
                throw Stop()
            }
        }
        #expect(try Self.listing(base) == [])
    }

    @Test("the folder is refused when it is a symbolic link (even with a trailing slash), dangling or not")
    func symbolicLinkFolder() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/real", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: base + "/real")
        try FileManager.default.createSymbolicLink(atPath: base + "/dangling", withDestinationPath: base + "/nowhere")
        for (path, create) in [(base + "/link", false), (base + "/link/", true), (base + "/dangling", true)] {
            #expect(throws: SafeFileError(path: path, problem: .symbolicLink(PathText.trim(path)))) {
                _ = try SafeFolder.open(path, create: create)
            }
        }
        #expect(try Self.listing(base + "/real") == [])
        #expect(!FileManager.default.fileExists(atPath: base + "/nowhere"))
        // A link in the middle of the path is followed as the system resolves it.
        try SafeFolder.open(base + "/link/sub", create: true).write("x", name: "f")
        #expect(try Self.text(base + "/real/sub/f") == "x")
    }

    @Test("a child folder planted as a symbolic link is refused, not followed")
    func symbolicLinkChild() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/elsewhere", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: base + "/2026-11-29", withDestinationPath: base + "/elsewhere")
        let root = try SafeFolder.open(base, create: false)
        #expect(throws: SafeFileError(path: base + "/2026-11-29", problem: .symbolicLink(base + "/2026-11-29"))) {
            _ = try root.child("2026-11-29")
        }
        let made = try root.child("2026-11-30")
        try made.write("x", name: "index.txt")
        #expect(try Self.mode(base + "/2026-11-30") == Int(FileModes.ownerOnly.folder))
        #expect(try Self.listing(base + "/elsewhere") == [])
    }

    @Test("a folder owned by another user is refused; one owned by root or by us is used", .enabled(if: geteuid() == 0))
    func otherOwner() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/theirs", withIntermediateDirectories: false)
        #expect(chown(base + "/theirs", 65534, 65534) == 0)
        #expect(throws: SafeFileError(path: base + "/theirs", problem: .otherOwner(base + "/theirs", uid: 65534))) {
            _ = try SafeFolder.open(base + "/theirs", create: false)
        }
        #expect(try Self.listing(base + "/theirs") == [])
    }

    @Test("missing folders are created with the product's mode like mkdir -p, or named when not to be created")
    func missingFolders() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        #expect(throws: SafeFileError(path: base + "/a/b", problem: .missingFolder(base + "/a"))) {
            _ = try SafeFolder.open(base + "/a/b", create: false)
        }
        let old = umask(0o077)
        defer { umask(old) }
        try SafeFolder.open(base + "/a/b/c", create: true).write("x", name: "f")
        for path in ["/a", "/a/b", "/a/b/c"] { #expect(try Self.mode(base + path) == 0o700) }
        try "file".write(toFile: base + "/plain", atomically: false, encoding: .utf8)
        #expect(throws: SafeFileError(path: base + "/plain/sub", problem: .notAFolder(base + "/plain"))) {
            _ = try SafeFolder.open(base + "/plain/sub", create: true)
        }
        #expect(throws: SafeFileError(path: base + "/plain", problem: .notAFolder(base + "/plain"))) {
            _ = try SafeFolder.open(base + "/plain", create: true)
        }
    }

    @Test("a folder at the final name is reported, and the probe never touches the final name")
    func probe() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/dir", withIntermediateDirectories: false)
        let folder = try SafeFolder.open(base, create: false)
        #expect(throws: SafeFileError(path: base + "/dir", problem: .finalNameIsFolder(base + "/dir"))) {
            try folder.probe(name: "dir")
        }
        #expect(throws: SafeFileError(path: base + "/dir", problem: .finalNameIsFolder(base + "/dir"))) {
            try folder.write("x", name: "dir")
        }
        try "old".write(toFile: base + "/rejects.csv", atomically: false, encoding: .utf8)
        chmod(base + "/rejects.csv", 0o644)
        try folder.probe(name: "rejects.csv")
        try folder.probe(name: "new.csv")
        #expect(try Self.listing(base) == ["dir", "rejects.csv"])
        #expect(try Self.text(base + "/rejects.csv") == "old")
        #expect(try Self.mode(base + "/rejects.csv") == 0o644)
    }
}

extension FileManager {
    /// The link's destination, or nil when `path` is not a symbolic link.
    fileprivate func destinationOfSymbolicLinkSafe(_ path: String) throws -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return nil }
        return try destinationOfSymbolicLink(atPath: path)
    }
}
