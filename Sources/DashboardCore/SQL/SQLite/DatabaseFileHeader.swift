import Foundation

/// The first page of an SQLite database as SQLite would read it (the main file's, or the last
/// committed copy in its `-wal`), read from the bytes on disk without SQLite: no lock, no side
/// file, no checkpoint.
///
/// Policy (docs/reliability.md, class 7): whose file a database is must be known before any
/// connection can change it. The main file's header alone can be stale (a crashed writer's
/// committed pages, the mark and schema version included, may live only in the `-wal`), so the
/// `-wal` is read as SQLite's recovery reads it: frames count only while their salts match the
/// WAL header and their checksum chain holds, and only up to the last commit frame.
struct DatabaseFileHeader: Equatable {
    /// `PRAGMA application_id` (offset 68), as a signed 32-bit number like SQLite's.
    var applicationID: Int
    /// `PRAGMA user_version` (offset 60), signed.
    var userVersion: Int
    /// The page size in bytes (offset 16).
    var pageSize: Int
    /// True when `sqlite_schema` (the B-tree on page 1) holds no entry: no table, index or view.
    var schemaIsEmpty: Bool
    /// True when page 1 came from the `-wal`.
    var fromWAL: Bool

    /// What the `-wal` next to a database holds.
    struct WALContent {
        /// The page size of the WAL header.
        var pageSize: Int
        /// The first bytes of the last committed copy of page 1, if the WAL holds one.
        var pageOne: [UInt8]?
        /// True when at least one transaction is committed in it.
        var hasCommits: Bool
    }

    /// The SQLite magic string.
    static let magic = Array("SQLite format 3\0".utf8)

    /// The header parsed from the first bytes of page 1 (at least 108); nil when they are not an
    /// SQLite header.
    static func parse(_ bytes: [UInt8], fromWAL: Bool) -> DatabaseFileHeader? {
        guard bytes.count >= 108, Array(bytes[0..<16]) == magic else { return nil }
        let rawPageSize = Int(bigEndian16(bytes, 16))
        let pageType = bytes[100]
        let cells = Int(bigEndian16(bytes, 103))
        return DatabaseFileHeader(
            applicationID: Int(Int32(bitPattern: bigEndian32(bytes, 68))),
            userVersion: Int(Int32(bitPattern: bigEndian32(bytes, 60))),
            pageSize: rawPageSize == 1 ? 65536 : rawPageSize,
            schemaIsEmpty: pageType == 0x0D && cells == 0, fromWAL: fromWAL)
    }

    /// Reads the `-wal` at `path`; nil when it does not exist, is empty or has no valid header.
    /// - Throws: `StoreError.unreadable` for a file that exists but cannot be read.
    static func readWAL(_ path: String) throws(StoreError) -> WALContent? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        guard let header = readExactly(fd, 32) else { return nil }
        let magicWord = bigEndian32(header, 0)
        guard magicWord & 0xFFFF_FFFE == 0x377F_0682 else { return nil }
        let bigEndian = magicWord & 1 == 1
        let pageSize = Int(bigEndian32(header, 8))
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else { return nil }
        var sums = checksum(header[0..<24], bigEndian: bigEndian, (0, 0))
        guard sums == (bigEndian32(header, 24), bigEndian32(header, 28)) else { return nil }
        var content = WALContent(pageSize: pageSize, pageOne: nil, hasCommits: false)
        var pendingPageOne: [UInt8]?
        while let frame = readExactly(fd, 24 + pageSize) {
            guard frame[8..<16] == header[16..<24] else { break }
            sums = checksum(frame[0..<8], bigEndian: bigEndian, sums)
            sums = checksum(frame[24...], bigEndian: bigEndian, sums)
            guard sums == (bigEndian32(frame, 16), bigEndian32(frame, 20)) else { break }
            if bigEndian32(frame, 0) == 1 { pendingPageOne = Array(frame[24..<(24 + 108)]) }
            if bigEndian32(frame, 4) != 0 {
                content.hasCommits = true
                if let pendingPageOne { content.pageOne = pendingPageOne }
            }
        }
        return content
    }

    /// SQLite's WAL checksum (https://www.sqlite.org/fileformat.html#checksum_algorithm).
    private static func checksum(_ bytes: ArraySlice<UInt8>, bigEndian: Bool, _ start: (UInt32, UInt32)) -> (UInt32, UInt32) {
        var (s0, s1) = start
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset + 8 <= raw.count {
                var x0 = raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                var x1 = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                x0 = bigEndian ? UInt32(bigEndian: x0) : UInt32(littleEndian: x0)
                x1 = bigEndian ? UInt32(bigEndian: x1) : UInt32(littleEndian: x1)
                s0 = s0 &+ x0 &+ s1
                s1 = s1 &+ x1 &+ s0
                offset += 8
            }
        }
        return (s0, s1)
    }

    /// Exactly `count` bytes from `fd`, or nil at the end of the file.
    static func readExactly(_ fd: Int32, _ count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = buffer.withUnsafeMutableBytes { raw in
                read(fd, raw.baseAddress.map { $0 + filled }, count - filled)
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            filled += n
        }
        return buffer
    }

    private static func bigEndian16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    private static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}
