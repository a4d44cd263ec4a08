import Foundation

/// Turns a stream (standard input, a FIFO named on the command line) into an input that can be
/// read twice, in bounded space.
///
/// Policy:
/// - The stream is copied into a spool file that never has a name: `O_TMPFILE` in the temporary
///   folder, or (where the file system has no `O_TMPFILE`) `mkstemp` unlinked at once, with
///   SIGINT, SIGTERM, SIGHUP and SIGQUIT blocked in between. Nothing is left behind on any exit
///   path, `kill -9` and a full disk included; the spool is read back through its descriptor.
/// - While copying, the bytes go through the CSV reader with the run's options: the first
///   file-level problem (a NUL byte, invalid UTF-8, a UTF-16 or UTF-32 byte order mark, a field
///   over `CSVReader.fieldLimit`) stops the copy at once. The spool then holds the input up to
///   that problem; the importer finds the same problem there and reports it as for a file
///   (and reading past it is a failure, never a silent end of file).
/// - At most `limit` bytes (`defaultLimit`, 1 GiB) are taken from a stream: one byte more is
///   `tooLarge`, and nothing is imported. A regular file given as standard input is not copied
///   at all: it is read in place from its current offset, like a file named on the command line.
package enum StreamSpool {
    /// The most bytes a stream may hold (1 GiB). A file on disk has no such limit.
    package static let defaultLimit = 1 << 30

    /// Why a stream could not be taken in.
    package enum Failure: Error, Equatable, Sendable {
        /// The stream holds more than `limit` bytes.
        case tooLarge(limit: Int)
        /// No spool file could be made in `directory`.
        case cannotCreate(directory: String, reason: String)
        /// Reading the stream failed.
        case readFailed(reason: String)
        /// Writing the spool failed (a full disk).
        case writeFailed(directory: String, reason: String)
    }

    /// Takes the stream on `fd` in and returns it as an input named `name`.
    /// - Parameters:
    ///   - directory: where the (nameless) spool lives, normally `NSTemporaryDirectory()`.
    ///   - options: the options the file will be read with (its encoding and delimiter).
    ///   - limit: the most bytes the stream may hold.
    /// - Throws: `StreamSpool.Failure`.
    package static func input(
        reading fd: Int32, name: String, directory: String, options: CSVReaderOptions, limit: Int = defaultLimit
    ) throws(Failure) -> InputFile {
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
            // A regular file: read it where it is (twice), from where the caller left it.
            let start = max(0, Int(lseek(fd, 0, SEEK_CUR)))
            let copy = dup(fd)
            if copy >= 0 {
                let shared = SharedDescriptor(taking: copy)
                let end = max(start, Int(info.st_size))
                return InputFile(path: name, size: end - start) {
                    DescriptorByteSource(shared, path: name, start: start, end: end)
                }
            }
        }
        let spool = try SpoolFile(directory: directory)
        let tee = TeeSource(input: fd, spool: spool, limit: limit)
        let reader = CSVReader(source: tee, options: options)
        var stoppedAt: String?
        do {
            try reader.read { _ in }
        } catch let failure as Failure {
            throw failure
        } catch is CSVFileError {
            if !tee.reachedEnd { stoppedAt = "\(name) was not read past the problem found while it was taken in" }
        } catch {
            stoppedAt = "\(name) was not read past the problem found while it was taken in: \(error)"
        }
        if let failure = tee.failure { throw failure }
        let size = tee.spooled
        let shared = spool.descriptor
        let unfinished = stoppedAt
        return InputFile(path: name, size: size) {
            DescriptorByteSource(shared, path: name, start: 0, end: size, unfinished: unfinished)
        }
    }

    /// Reads the stream in whole chunks (as a file would be read, so the reader decides alike
    /// both times), writes each into the spool, counts it against the limit.
    private final class TeeSource: ByteSource {
        let input: Int32
        let spool: SpoolFile
        let limit: Int
        private(set) var spooled = 0
        private(set) var reachedEnd = false
        private(set) var failure: Failure?

        init(input: Int32, spool: SpoolFile, limit: Int) {
            self.input = input
            self.spool = spool
            self.limit = limit
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            guard let base = buffer.baseAddress, !reachedEnd else { return 0 }
            var filled = 0
            while filled < buffer.count {
                let n = Foundation.read(input, base + filled, buffer.count - filled)
                if n == 0 {
                    reachedEnd = true
                    break
                }
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN {
                        // A non-blocking stream: wait until it has data.
                        var poller = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                        _ = poll(&poller, 1, -1)
                        continue
                    }
                    return try fail(.readFailed(reason: String(cString: strerror(errno))))
                }
                filled += n
                if spooled + filled > limit { return try fail(.tooLarge(limit: limit)) }
            }
            let failed = FileDescriptorWriter.writeAll(spool.descriptor.fd, UnsafeRawBufferPointer(start: base, count: filled))
            if failed != 0 {
                return try fail(.writeFailed(directory: spool.directory, reason: String(cString: strerror(failed))))
            }
            spooled += filled
            return filled
        }

        private func fail(_ failure: Failure) throws -> Int {
            self.failure = failure
            throw failure
        }
    }
}

/// A new spool file with no name, opened for reading and writing.
final class SpoolFile {
    let descriptor: SharedDescriptor
    let directory: String

    /// - Parameter nameless: try `O_TMPFILE` first (false tests the `mkstemp` way).
    init(directory: String, nameless: Bool = true) throws(StreamSpool.Failure) {
        self.directory = directory
        if nameless, let fd = Self.openTemporary(directory) {
            descriptor = SharedDescriptor(taking: fd)
            return
        }
        // No O_TMPFILE here: mkstemp, then unlink at once, with the stopping signals held
        // back in between so that none of them can leave the name behind.
        var blocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&blocked)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        var template = Array((base + "dashboard-stdin-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard fd >= 0 else {
            throw .cannotCreate(directory: directory, reason: String(cString: strerror(errno)))
        }
        template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        descriptor = SharedDescriptor(taking: fd)
    }

    /// `open(directory, O_TMPFILE | O_RDWR | O_EXCL, 0600)`, or nil where that is not
    /// available (then `mkstemp`).
    private static func openTemporary(_ directory: String) -> Int32? {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            // O_TMPFILE is __O_TMPFILE | O_DIRECTORY; Swift does not import the macro.
            let tmpfile: Int32 = 0o20_000_000 | O_DIRECTORY
            let fd = open(directory, tmpfile | O_RDWR | O_EXCL | O_CLOEXEC, 0o600)
            return fd >= 0 ? fd : nil
        #else
            return nil
        #endif
    }
}
