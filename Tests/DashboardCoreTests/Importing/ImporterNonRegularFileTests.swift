import Foundation
import Testing

@testable import DashboardCore

/// A path that stopped being a regular file after it was listed (a FIFO, a folder) is refused on
/// the open descriptor without blocking: `unreadable_file`, nothing imported. A symbolic link to
/// nothing, or a loop, is named as such.
@Suite("Importer: inputs that are not regular files")
struct ImporterNonRegularFileTests {
    @Test("a FIFO or a folder opened as a file is unreadable_file, at once")
    func notRegular() throws {
        let f = try ImporterFixture()
        let fifo = f.directory + "/x.csv"
        try #require(mkfifo(fifo, 0o644) == 0)
        let folder = f.directory + "/y.csv"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for (path, words) in [(fifo, "it is a FIFO (named pipe), not a regular file"), (folder, "it is a folder, not a regular file")] {
            let started = Date()
            do {
                _ = try f.importer.run(files: [InputFile.onDisk(path)], options: ImporterFixture.options())
                Issue.record("the import of \(path) succeeded")
            } catch {
                guard case .fileProblem(let problem, _) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(problem.code == .unreadableFile)
                #expect(problem.file == path)
                #expect(problem.message == "\(words); it was not read")
            }
            #expect(Date().timeIntervalSince(started) < 10)
        }
        #expect(try f.store.database.int("SELECT count(*) FROM tasks") == 0)
    }

    @Test("a symbolic link to nothing, or a loop, is named as such when it is opened")
    func links() throws {
        let f = try ImporterFixture()
        try FileManager.default.createSymbolicLink(atPath: f.directory + "/d.csv", withDestinationPath: "gone.csv")
        try FileManager.default.createSymbolicLink(atPath: f.directory + "/l.csv", withDestinationPath: "l.csv")
        #expect(throws: ByteSourceError(path: f.directory + "/d.csv", reason: "it is a symbolic link that points to nothing (gone.csv)")) {
            _ = try FileByteSource(path: f.directory + "/d.csv")
        }
        #expect(throws: ByteSourceError(path: f.directory + "/l.csv", reason: "it is a loop of symbolic links")) {
            _ = try FileByteSource(path: f.directory + "/l.csv")
        }
    }
}
