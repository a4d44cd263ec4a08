import Foundation
import Testing

@testable import DashboardCore

/// `StreamSpool`: a stream taken in once, checked as it is read, capped, with a spool that never
/// has a name, readable any number of times.
@Suite("StreamSpool", .storeIndependent)
struct StreamSpoolTests {
    /// A pipe holding `bytes` (written by another thread), its writing end closed after them.
    private func pipe(_ bytes: [UInt8]) throws -> Int32 {
        // The writer may outlive the reader's interest: a write then fails, it must not kill the test.
        signal(SIGPIPE, SIG_IGN)
        var fds: [Int32] = [0, 0]
        try #require(Foundation.pipe(&fds) == 0)
        let writer = fds[1]
        Thread.detachNewThread {
            _ = bytes.withUnsafeBytes { FileDescriptorWriter.writeAll(writer, $0) }
            close(writer)
        }
        return fds[0]
    }

    /// A fresh folder for the spool; the caller checks it stays empty.
    private func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func readAll(_ file: InputFile) throws -> [UInt8] {
        let source = try file.open()
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 7)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { return out }
            out += buffer[0..<n]
        }
    }

    @Test("a stream within the limit reads back whole, twice, and leaves no name behind")
    func withinLimit() throws {
        let text = Array("task_id,course_id,title\nt1,bio,Lab\n".utf8)
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fd = try pipe(text)
        defer { close(fd) }
        let file = try StreamSpool.input(reading: fd, name: "stdin", directory: directory, options: CSVReaderOptions(), limit: text.count)
        #expect(file.size == text.count)
        #expect(try readAll(file) == text)
        #expect(try readAll(file) == text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
    }

    @Test("one byte over the limit is tooLarge")
    func overLimit() throws {
        let text = Array("task_id,course_id,title\nt1,bio,Lab\n".utf8)
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fd = try pipe(text)
        defer { close(fd) }
        #expect(throws: StreamSpool.Failure.tooLarge(limit: text.count - 1)) {
            _ = try StreamSpool.input(reading: fd, name: "stdin", directory: directory, options: CSVReaderOptions(), limit: text.count - 1)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
    }

    @Test("a NUL byte stops the copy; the spool reads back to the NUL, then fails instead of ending")
    func stopsAtNUL() throws {
        var bytes = Array("task_id,course_id,title\nt1,bio,La\u{0}b\n".utf8)
        bytes += [UInt8](repeating: 0x41, count: 300_000)  // more than one chunk after the NUL
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fd = try pipe(bytes)
        defer { close(fd) }
        let options = CSVReaderOptions(chunkSize: 1024)
        let file = try StreamSpool.input(reading: fd, name: "stdin", directory: directory, options: options, limit: 1 << 20)
        #expect(file.size == 1024, "the copy stopped after the chunk holding the NUL")
        // The reader finds the same problem in the spool as it would in the stream.
        #expect(throws: CSVFileError.invalidEncoding(line: 2, detail: "a NUL byte")) {
            try CSVReader(source: try file.open(), options: options).read { _ in }
        }
        // Past the copied bytes, the source fails: it never pretends the stream ended there.
        #expect(throws: ByteSourceError.self) { _ = try readAll(file) }
    }

    @Test("a regular file given as the descriptor is read in place, from its current offset")
    func regularFileInPlace() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/input.csv"
        try Data("skip\nkeep,this\n".utf8).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(lseek(fd, 5, SEEK_SET) == 5)
        let file = try StreamSpool.input(reading: fd, name: "stdin", directory: directory, options: CSVReaderOptions(), limit: 3)
        #expect(try readAll(file) == Array("keep,this\n".utf8))
        #expect(try readAll(file) == Array("keep,this\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["input.csv"])
    }

    @Test("both ways of making the spool leave no name in the folder", arguments: [true, false])
    func spoolHasNoName(nameless: Bool) throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let spool = try SpoolFile(directory: directory, nameless: nameless)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
        let bytes = Array("abc".utf8)
        #expect(bytes.withUnsafeBytes { FileDescriptorWriter.writeAll(spool.descriptor.fd, $0) } == 0)
        let source = DescriptorByteSource(spool.descriptor, path: "stdin", end: bytes.count)
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(try buffer.withUnsafeMutableBytes { try source.read(into: $0) } == 3)
        #expect(Array(buffer.prefix(3)) == bytes)
        var info = stat()
        #expect(fstat(spool.descriptor.fd, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(info.st_nlink == 0, "the spool has no link in any folder")
    }

    @Test("a folder that cannot hold the spool is cannotCreate")
    func missingFolder() throws {
        let fd = try pipe(Array("a\n".utf8))
        defer { close(fd) }
        #expect(throws: StreamSpool.Failure.self) {
            _ = try StreamSpool.input(
                reading: fd, name: "stdin", directory: "/nonexistent-\(UUID().uuidString)", options: CSVReaderOptions(), limit: 10)
        }
    }
}
