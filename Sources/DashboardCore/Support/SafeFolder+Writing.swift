import Foundation

/// Where the body of `SafeFolder.write(name:_:)` puts its bytes: buffered, 64 KiB at a time.
package final class SafeFileSink {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// The `errno` of the first failed write, 0 while all is well; later writes are dropped.
    private(set) var failure: Int32 = 0

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(Self.chunk)
    }

    static let chunk = 64 * 1024

    /// Appends `text` as UTF-8.
    package func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.chunk { flush() }
    }

    func flush() {
        if failure == 0, !buffer.isEmpty {
            failure = buffer.withUnsafeBytes { FileDescriptorWriter.writeAll(descriptor, $0) }
        }
        // After a failure the bytes are dropped, so memory stays bounded until the body ends.
        buffer.removeAll(keepingCapacity: true)
    }
}

extension SafeFolder {
    /// Writes the file `name` in this folder: created new at an unpredictable name, then renamed
    /// over `name`.
    ///
    /// Policy (SPEC §9): the temporary file is `.dashboard-<16 random hex digits>.tmp`, opened
    /// with `openat(O_CREAT|O_EXCL|O_NOFOLLOW)` (a name already taken, by a planted hard link or
    /// anything else, is never opened: another name is drawn), given `modes.file` with
    /// `fchmod`, written, `fsync`ed and renamed over `name` with `renameat`. Whatever was at
    /// `name` (a file, a hard link to another file, a symbolic link) is replaced as a name, never
    /// written through; its owner and mode do not carry over. A name that is not a regular file
    /// (a device, a FIFO, a socket, a link to one: `ReplaceableName`) is refused, and so is a
    /// name or folder in `protected` (the database, an input: checked on the descriptor). On every failure the temporary file
    /// is removed and `name` is left as it was.
    /// - Parameter body: writes the contents into the sink; a throw aborts the file.
    /// - Throws: `SafeFileError`, or what `body` throws.
    package func write(name: String, _ body: (SafeFileSink) throws -> Void) throws {
        let target = PathText.join(path, name)
        // `.`, `..`, a folder, a device, FIFO or socket (or a link to one), the database or an
        // input: checked again here, as the file is written (the run checked every name first).
        if let problem = obstacle(name) { throw SafeFileError(path: target, problem: problem) }
        let (fd, temporary) = try makeTemporary(for: target)
        var renamed = false
        defer {
            if !renamed { unlinkat(descriptor, temporary, 0) }
        }
        let sink = SafeFileSink(descriptor: fd)
        do {
            try body(sink)
        } catch {
            close(fd)
            throw error
        }
        sink.flush()
        if sink.failure != 0 {
            close(fd)
            throw SafeFileError(path: target, problem: .system(target, errno: sink.failure))
        }
        if fsync(fd) != 0 {
            let code = errno
            close(fd)
            throw SafeFileError(path: target, problem: .system(target, errno: code))
        }
        if close(fd) != 0 { throw SafeFileError(path: target, problem: .system(target, errno: errno)) }
        guard renameat(descriptor, temporary, descriptor, name) == 0 else {
            let code = errno
            if code == EISDIR { throw SafeFileError(path: target, problem: .finalNameIsFolder(target)) }
            throw SafeFileError(path: target, problem: .system(target, errno: code))
        }
        renamed = true
    }

    /// Writes `contents` as the file `name` (see `write(name:_:)`).
    package func write(_ contents: String, name: String) throws(SafeFileError) {
        do {
            try write(name: name) { $0.write(contents) }
        } catch let error as SafeFileError {
            throw error
        } catch {
            preconditionFailure("the body only writes to the sink")
        }
    }

    /// Creates a new empty temporary file at an unpredictable name, mode `modes.file`.
    /// - Returns: its descriptor (open for writing) and its name in this folder.
    func makeTemporary(for target: String) throws(SafeFileError) -> (Int32, String) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<64 {
            let random = String(generator.next() as UInt64, radix: 16)
            let name = ".dashboard-" + String(repeating: "0", count: 16 - random.count) + random + ".tmp"
            let fd = openat(descriptor, name, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, modes.file)
            if fd < 0 {
                if errno == EEXIST || errno == EINTR { continue }
                throw SafeFileError(path: target, problem: .system(target, errno: errno))
            }
            guard fchmod(fd, modes.file) == 0 else {
                let code = errno
                close(fd)
                unlinkat(descriptor, name, 0)
                throw SafeFileError(path: target, problem: .system(target, errno: code))
            }
            return (fd, name)
        }
        throw SafeFileError(path: target, problem: .system(target, errno: EEXIST))
    }
}
