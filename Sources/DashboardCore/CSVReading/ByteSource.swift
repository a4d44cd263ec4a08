import Foundation

/// Where the CSV reader gets its bytes: a file, standard input, or memory (in tests).
package protocol ByteSource: AnyObject {
    /// Fills `buffer` with up to `buffer.count` bytes; returns 0 at the end of the input.
    /// - Throws: `ByteSourceError` on a read failure.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// A read failure of the underlying file.
package struct ByteSourceError: Error, Equatable, Sendable {
    package let path: String
    package let reason: String
    /// The path names something that is not a regular file (a FIFO, a device, a socket, a
    /// folder): the importer reports it as `unreadable_file`, never blocks on it.
    package var notRegularFile = false

    package init(path: String, reason: String, notRegularFile: Bool = false) {
        self.path = path
        self.reason = reason
        self.notRegularFile = notRegularFile
    }
}

/// Reads a regular file through a POSIX descriptor in the caller's chunks; closes it when
/// released.
///
/// Policy: the file is opened with `O_NONBLOCK` (opening a FIFO or a device cannot block) and
/// checked with `fstat` on the open descriptor: anything but a regular file is refused
/// (`notRegularFile`), whatever the path named when it was listed.
package final class FileByteSource: ByteSource {
    private let fd: Int32
    package let path: String

    /// Opens `path` for reading (`-` is standard input, read as it is).
    /// - Throws: `ByteSourceError` when the file cannot be opened or is not a regular file.
    package init(path: String) throws {
        self.path = path
        if path == "-" {
            fd = dup(STDIN_FILENO)
            if fd < 0 { throw ByteSourceError(path: path, reason: String(cString: strerror(errno))) }
            return
        }
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        if fd < 0 {
            let failure = errno
            if failure == ENOENT || failure == ELOOP {
                let kind = PathInspection.inspect(path)
                if kind != .missing {
                    throw ByteSourceError(path: path, reason: PathInspection.describe("it", kind))
                }
            }
            throw ByteSourceError(path: path, reason: String(cString: strerror(failure)))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ByteSourceError(path: path, reason: reason)
        }
        let kind = PathInspection.kind(mode: info.st_mode)
        guard kind == .regularFile else {
            close(fd)
            throw ByteSourceError(path: path, reason: PathInspection.describe("it", kind), notRegularFile: true)
        }
        // Regular files never block; clear the flag all the same.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    }

    deinit { close(fd) }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = Foundation.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw ByteSourceError(path: path, reason: String(cString: strerror(errno)))
        }
    }
}

/// Serves bytes from memory, `chunkLimit` at a time (to test chunk boundaries).
package final class MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0
    private let chunkLimit: Int

    package init(_ bytes: [UInt8], chunkLimit: Int = .max) {
        self.bytes = bytes
        self.chunkLimit = max(1, chunkLimit)
    }

    package convenience init(_ text: String, chunkLimit: Int = .max) {
        self.init(Array(text.utf8), chunkLimit: chunkLimit)
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, chunkLimit, bytes.count - offset)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { src in
            guard let from = src.baseAddress, let to = buffer.baseAddress else { return }
            to.copyMemory(from: from + offset, byteCount: n)
        }
        offset += n
        return n
    }
}
