import Foundation

/// Writes bytes to a file descriptor completely: `write(2)` may write less than asked (pipes,
/// signals), so every writer of the project loops through here.
package enum FileDescriptorWriter {
    /// Writes all of `bytes`, retrying on EINTR and partial writes.
    /// - Returns: 0 on success, else the `errno` of the failed write.
    @discardableResult
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let base = bytes.baseAddress else { return 0 }
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return 0
    }

    /// Writes all of `text` as UTF-8; 0 on success, else the failed write's `errno`.
    @discardableResult
    package static func writeAll(_ fd: Int32, _ text: String) -> Int32 {
        Array(text.utf8).withUnsafeBytes { writeAll(fd, $0) }
    }
}
