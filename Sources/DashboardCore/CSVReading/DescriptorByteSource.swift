import Foundation

/// An open file descriptor shared by every reader of one input (a spooled stream, or standard
/// input that is a regular file); closed when the last of them is released.
package final class SharedDescriptor: Sendable {
    package let fd: Int32

    /// Takes ownership of `fd`.
    package init(taking fd: Int32) {
        self.fd = fd
    }

    deinit { close(fd) }
}

/// Reads bytes `start..<end` of a shared descriptor with `pread`, at its own offset: the same
/// file can be opened any number of times (a file is read twice: its header, then its body),
/// even when it has no name.
///
/// Policy: when `unfinished` is set, the input was not read to its end (its spooling stopped at
/// a problem); reaching `end` is then a read failure naming why, never a silent end of file.
package final class DescriptorByteSource: ByteSource {
    private let descriptor: SharedDescriptor
    private var offset: Int
    private let end: Int
    private let unfinished: String?
    package let path: String

    package init(_ descriptor: SharedDescriptor, path: String, start: Int = 0, end: Int, unfinished: String? = nil) {
        self.descriptor = descriptor
        self.path = path
        self.offset = start
        self.end = end
        self.unfinished = unfinished
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let wanted = min(buffer.count, end - offset)
        if wanted <= 0 {
            if let unfinished { throw ByteSourceError(path: path, reason: unfinished) }
            return 0
        }
        while true {
            let n = pread(descriptor.fd, buffer.baseAddress, wanted, off_t(offset))
            if n > 0 {
                offset += n
                return n
            }
            if n == 0 {
                // The file got shorter than when it was measured.
                throw ByteSourceError(path: path, reason: "the input ended early (it was truncated while being read)")
            }
            if errno == EINTR { continue }
            throw ByteSourceError(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
