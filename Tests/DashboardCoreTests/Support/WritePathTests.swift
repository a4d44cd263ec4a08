import Foundation
import Testing

@testable import DashboardCore

/// Issue 11, classes 1 and 2: the guard and the writer read a path the same way (`WritePath`),
/// a folder is never created or opened as `.` or `..`, and only regular files are replaced.
@Suite struct WritePathTests {
    static func scratch() throws -> String {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("write-path-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: base + "/real/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: base + "/lnk", withDestinationPath: base + "/real/sub")
        return base
    }

    @Test("the missing part of a path is resolved by its text; the existing part is left to the system")
    func settle() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let cases: [(String, String)] = [
            ("nothere/..", "."), ("nothere/../", "."), ("./nothere/./..", "."), ("nothere//..", "."), ("no-a/b/../..", "."),
            ("no-a/b/../c/.", "no-a/c"), ("nothere/../../no-x", "../no-x"), ("", "."), (".", "."), ("./", "."),
            (base + "/real/new/../x", base + "/real/x"), (base + "/lnk/.", base + "/lnk"), (base + "/lnk/..", base + "/lnk/.."),
            (base + "//real///sub/", base + "/real/sub"), (base + "/lnk/new/..", base + "/lnk"), ("/", "/"), ("//", "/"),
        ]
        for (path, settled) in cases {
            #expect(WritePath.settle(path) == settled, "\(path)")
        }
    }

    @Test("a dot name is never created or opened as a child folder")
    func dotNamesAreRefused() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let folder = try SafeFolder.open(base + "/real", create: false)
        for name in [".", "..", ""] {
            #expect(throws: SafeFileError(path: base + "/real/" + name, problem: .dotName(base + "/real/" + name))) {
                try folder.child(name)
            }
        }
        // `nothere/..` opens the folder itself and creates nothing.
        let opened = try SafeFolder.open(base + "/real/nothere/..", create: true)
        try opened.write("x", name: "x.txt")
        #expect(FileManager.default.fileExists(atPath: base + "/real/x.txt"))
        #expect(!FileManager.default.fileExists(atPath: base + "/real/nothere"))
        // `lnk/.` is the link, refused, not its target.
        #expect(throws: SafeFileError(path: base + "/lnk/.", problem: .symbolicLink(base + "/lnk"))) {
            try SafeFolder.open(base + "/lnk/.", create: true)
        }
    }

    @Test("a FIFO, or a link to one or to a folder, at the final name is refused and left as it was")
    func nonRegularFinalNames() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        #expect(mkfifo(base + "/real/pipe", 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: base + "/real/to-pipe", withDestinationPath: "pipe")
        try FileManager.default.createSymbolicLink(atPath: base + "/real/to-folder", withDestinationPath: "sub")
        try FileManager.default.createSymbolicLink(atPath: base + "/real/to-fd", withDestinationPath: "/proc/self/fd/1")
        let folder = try SafeFolder.open(base + "/real", create: false)
        // A socket, bound in the folder (then closed: the name stays).
        let socketFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let socketPath = Array((base + "/real/sock").utf8)
        try #require(socketPath.count < MemoryLayout.size(ofValue: address.sun_path))
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: socketPath) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(socketFD)
        #expect(bound == 0)
        let kinds = [
            ("sock", "a socket"), ("pipe", "a FIFO (named pipe)"), ("to-pipe", "a symbolic link to a FIFO (named pipe)"),
            ("to-folder", "a symbolic link to a folder"), ("to-fd", "a symbolic link to a process's descriptor"),
        ]
        for (name, kind) in kinds {
            let target = base + "/real/" + name
            let refused = SafeFileError(path: target, problem: .notRegularFile(target, kind: kind))
            #expect(throws: refused) { try folder.write("x", name: name) }
            #expect(throws: refused) { try folder.probe(name: name) }
            #expect(ReplaceableName.obstacle(target) == kind)
        }
        var info = stat()
        #expect(lstat(base + "/real/pipe", &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: base + "/real/to-fd") == "/proc/self/fd/1")
        // A regular file, and a link to one, are still replaced as a name.
        try "old".write(toFile: base + "/real/file", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: base + "/real/to-file", withDestinationPath: "file")
        #expect(ReplaceableName.obstacle(base + "/real/file") == nil)
        #expect(ReplaceableName.obstacle(base + "/real/to-file") == nil)
        try folder.write("new", name: "to-file")
        #expect(try String(contentsOfFile: base + "/real/file", encoding: .utf8) == "old")
        #expect(try String(contentsOfFile: base + "/real/to-file", encoding: .utf8) == "new")
    }

    @Test("the writer checks the protected files again on the descriptor it writes through")
    func protectedFilesAreCheckedOnTheDescriptor() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try "db".write(toFile: base + "/db.sqlite", atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: base + "/in", withIntermediateDirectories: false)
        try FileManager.default.linkItem(atPath: base + "/db.sqlite", toPath: base + "/real/index.html")
        var protected = ProtectedFiles()
        protected.protectFile(FileIdentity.of(base + "/db.sqlite"), path: "db.sqlite")
        protected.protectFile(FileIdentity.of(base + "/db.sqlite-wal"), path: "db.sqlite-wal")
        protected.protectFolder(FileIdentity.of(base + "/in"), path: "in")
        let cases = [
            (base + "/real/nothere/..", "index.html", "db.sqlite"), (base + "/real/sub/..", "index.html", "db.sqlite"),
            (base + "/nothere/..", "db.sqlite-wal", "db.sqlite-wal"), (base + "/real/../in/.", "x.csv", "in"),
        ]
        for (folder, name, hit) in cases {
            let opened = try SafeFolder.open(folder, create: true, protecting: protected)
            let target = folder + "/" + name
            #expect(throws: SafeFileError(path: target, problem: .protectedFile(target, protected: hit))) {
                try opened.write("report", name: name)
            }
        }
        #expect(try String(contentsOfFile: base + "/db.sqlite", encoding: .utf8) == "db")
        #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/in") == [])
        #expect(!FileManager.default.fileExists(atPath: base + "/db.sqlite-wal"))
        // Other names are written.
        try SafeFolder.open(base + "/real", create: false, protecting: protected).write("ok", name: "other.html")
        #expect(try String(contentsOfFile: base + "/real/other.html", encoding: .utf8) == "ok")
    }
}
