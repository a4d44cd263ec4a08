import CSQLite
import Foundation

/// Watches the files of one open SQLite database: does the path still name the file the
/// connection opened, and are its `-wal` and `-shm` still the ones it uses, whole?
///
/// Policy (docs/reliability.md, "Files replaced or cut short under a running command"): SQLite
/// keeps working on the files it opened, whatever their paths name later. A backup moved over
/// the database while an import runs would get the import's commit in the old `-wal`, which the
/// next command then reads together with the new file: a batch that exists nowhere whole, and a
/// file that reads as damaged. So the connection checks, at open, before every commit (SQLite's
/// commit hook: a failed check turns the commit into a rollback), right after it, and at the
/// end of every read:
/// - the path (links followed) names the file SQLite has open: same device and inode, and
///   SQLite's own `SQLITE_FCNTL_HAS_MOVED` says so;
/// - the file is not shorter than the connection saw it (SQLite never shrinks a dashboard
///   database: no VACUUM, no auto-vacuum);
/// - the `-wal` and `-shm` beside the file SQLite uses (`sqlite3_db_filename`: a path through
///   a link is resolved) are the ones that were there when the connection opened them;
/// - for a write, the `-wal` holds what the `-shm`'s index says it holds: its header intact
///   (magic, the salts the index records) and at least as long as its committed frames, and
///   never shorter than it was seen since the write transaction began (its size is sampled
///   while the transaction runs; no other connection may shorten it while this one holds the
///   write lock).
///
/// The identities of the side files are taken when the connection arms the watch, right after
/// SQLite opened them; a file replaced in the microseconds between is not seen (SQLite gives no
/// handle on the `-wal`'s inode: its `HAS_MOVED` answers for the main file only).
///
/// The files are read through descriptors the watch opens when it is armed and closes only
/// after SQLite closed its own (`deinit` runs after the connection's): closing any descriptor
/// of a file drops every POSIX lock the process holds on it, SQLite's locks on the database
/// file and on the `-shm` (where WAL keeps its locks) included. An open and a close of the
/// `-shm` in the commit hook once let a second writer's checkpoint run under a write, and its
/// commit failed with SQLITE_PROTOCOL.
final class DatabaseFileWatch {
    /// The path the user named (links followed when it is compared).
    let path: String
    /// The path of the file SQLite has open (links resolved), beside which it keeps `-wal` and `-shm`.
    let resolved: String
    private let main: FileKey
    /// The largest size of the main file seen so far.
    private var mainBytes: Int
    /// The side files as they were when the watch was armed (nil: not there then).
    private var sides: [String: FileKey?] = [:]
    /// Read-only descriptors of the main file ("") and its side files, kept until the watch
    /// goes (after the connection closed).
    private var descriptors: [String: Int32] = [:]
    /// The largest size of the `-wal` seen since the write transaction began (at its start, and
    /// sampled while it runs: `sampleWAL`), or nil outside a write transaction.
    private var walSeen: Int?
    /// The change the commit hook found (the hook can only say "roll back").
    var finding: DatabaseFileChange?
    /// The main file's last modification as last seen, with what the `-shm` said then of the
    /// database's writes and checkpoints (`writeRecord`): the basis of `overwrittenInPlace`.
    private var lastWrite: (stamp: FileStamp, record: [UInt8]?)?

    static let sideSuffixes = ["-wal", "-shm"]

    /// A file's device and inode.
    struct FileKey: Equatable {
        var device: UInt64
        var inode: UInt64
        var bytes: Int
        static func == (a: FileKey, b: FileKey) -> Bool { a.device == b.device && a.inode == b.inode }
    }

    /// When a file's bytes last changed, and how many there are.
    struct FileStamp: Equatable {
        var seconds: Int
        var nanoseconds: Int
        var bytes: Int
    }

    /// The key of the file at `path` (links followed), or nil when there is none.
    static func key(_ path: String) -> FileKey? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), bytes: Int(info.st_size))
    }

    /// Arms a watch on the database `handle` has open at `path`, after SQLite has read it once
    /// (so that it opened the `-wal` and `-shm` of a WAL database).
    /// - Parameter judged: the file the caller judged before SQLite opened the path, if any: it
    ///   must be the one SQLite opened.
    /// - Throws: `DatabaseFileChange` (moment `.opening`) when the path names another file than
    ///   the one SQLite opened (or than the judged one).
    init(handle: OpaquePointer, path: String, judged: FileKey?) throws(DatabaseFileChange) {
        self.path = path
        resolved = sqlite3_db_filename(handle, "main").map { String(cString: $0) } ?? path
        guard let now = Self.key(path), let opened = Self.key(resolved), now == opened else {
            throw DatabaseFileChange(kind: Self.key(path) == nil ? .removed : .replaced, moment: .opening)
        }
        if Self.hasMoved(handle) || (judged.map { $0 != now } ?? false) {
            throw DatabaseFileChange(kind: .replaced, moment: .opening)
        }
        main = now
        mainBytes = now.bytes
        keep("")
        for suffix in Self.sideSuffixes { sides[suffix] = keep(suffix) }
        _ = overwrittenInPlace()
    }

    deinit {
        for fd in descriptors.values { close(fd) }
    }

    /// Opens `resolved + suffix` read-only and keeps the descriptor: the file's key, or nil when
    /// it is not there.
    @discardableResult
    private func keep(_ suffix: String) -> FileKey? {
        let fd = open(resolved + suffix, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            descriptors[suffix + "?"] = fd
            return nil
        }
        if let earlier = descriptors[suffix] { descriptors[suffix + "#\(earlier)"] = earlier }
        descriptors[suffix] = fd
        return FileKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), bytes: Int(info.st_size))
    }

    /// True when SQLite says the main file it has open is no longer at its path.
    private static func hasMoved(_ handle: OpaquePointer) -> Bool {
        var moved: Int32 = 0
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK else { return false }
        return moved != 0
    }

    /// Takes note of the side files SQLite opened since the watch was armed (a new file's `-wal`
    /// and `-shm` appear when it switches to WAL).
    func noteSideFiles() {
        for suffix in Self.sideSuffixes where sides[suffix] == .some(nil) {
            sides[suffix] = keep(suffix)
        }
    }

    // MARK: - Checks

    /// What changed about the main file and the side files, or nil.
    func checkFiles(_ handle: OpaquePointer) -> DatabaseFileChange.Kind? {
        guard let now = Self.key(path) else { return .removed }
        if now != main || Self.key(resolved) != main || Self.hasMoved(handle) { return .replaced }
        if now.bytes < mainBytes, let needed = bytesItsHeaderNeeds(), now.bytes < needed {
            return .truncated(bytes: now.bytes, seen: mainBytes)
        }
        mainBytes = max(mainBytes, now.bytes)
        for suffix in Self.sideSuffixes {
            guard let kept = sides[suffix], let kept else { continue }
            guard let found = Self.key(resolved + suffix) else { return .sideFileRemoved(suffix: suffix) }
            if found != kept { return .sideFileReplaced(suffix: suffix) }
        }
        return overwrittenInPlace() ? .overwritten : nil
    }

    /// True when the main file's bytes changed since the last check although no SQLite
    /// connection wrote to it: another file copied over it in place (`cp backup.sqlite x.sqlite`
    /// keeps the inode, so the identity checks see nothing).
    ///
    /// In WAL mode SQLite writes the main file only in a checkpoint, and a checkpoint (like
    /// every commit) moves the `-shm`'s record of the database's writes (`writeRecord`: the
    /// WAL-index header and the checkpoint's progress). So a modification time or size that moved
    /// while that record did not is a writer that is not SQLite. Not judged: a database without a
    /// `-shm` of its own (no WAL, a read-only connection), and a check while another process holds
    /// the checkpoint lock (its pages may be on their way before its record moves). The record is
    /// read before the time, so that a checkpoint between the two reads is seen at the next check.
    private func overwrittenInPlace() -> Bool {
        let record = writeRecord()
        guard let fd = descriptors[""] else { return false }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return false }
        let stamp = FileStamp(seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec), bytes: Int(info.st_size))
        defer { lastWrite = (stamp, record) }
        guard let last = lastWrite, stamp != last.stamp, let record, let before = last.record else { return false }
        return record == before && !otherProcessCheckpoints()
    }

    /// What the `-shm` says of the database's writes: the first copy of the WAL-index header (its
    /// change counter, committed frames and salts) and the frames a checkpoint copied and tried
    /// to copy (https://www.sqlite.org/walformat.html); nil without a `-shm` or before SQLite set it up.
    private func writeRecord() -> [UInt8]? {
        guard let shm = descriptors["-shm"], let bytes = Self.read(shm, at: 0, 136), bytes[12] == 1 else { return nil }
        return Array(bytes[0..<48]) + Array(bytes[96..<100]) + Array(bytes[128..<132])
    }

    /// True when another process holds the `-shm`'s checkpoint lock (byte 121: SQLite's WAL locks
    /// start at byte 120, the checkpointer's is the second).
    private func otherProcessCheckpoints() -> Bool {
        guard let shm = descriptors["-shm"] else { return false }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 121
        lock.l_len = 1
        guard fcntl(shm, F_GETLK, &lock) == 0 else { return true }
        return lock.l_type != Int16(F_UNLCK)
    }

    /// The bytes the main file's own header says it holds (page count × page size, when the
    /// header's count is valid: SQLite's "version-valid-for" equals its change counter), 100 (the
    /// header itself) when the count is not valid, or nil when the file cannot be read.
    ///
    /// A checkpoint may shorten the file to the database's size after writing page 1 (which then
    /// says that size): a file shorter than it was is cut only when it is also shorter than its
    /// own header says.
    private func bytesItsHeaderNeeds() -> Int? {
        guard let fd = descriptors[""] else { return nil }
        guard let header = Self.read(fd, at: 0, 100) else { return 100 }
        func big32(_ offset: Int) -> Int { header[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        guard big32(92) == big32(24), pageSize >= 512 else { return 100 }
        return big32(28) * pageSize
    }

    /// Called when a write transaction has begun (the write lock is held): the `-wal` cannot
    /// shrink from here until this connection commits.
    func writeBegan(_ handle: OpaquePointer) {
        walSeen = Self.key(resolved + "-wal")?.bytes ?? 0
    }

    /// Notes the `-wal`'s size while a write transaction runs (SQLite's progress handler calls
    /// it every few thousand steps): pages it spills there make it grow, and it cannot shrink
    /// before the commit, so a size below one seen is a `-wal` cut short.
    func sampleWAL() {
        guard let seen = walSeen, let bytes = Self.key(resolved + "-wal")?.bytes else { return }
        walSeen = max(seen, bytes)
    }

    /// The check of SQLite's commit hook: nil to let the commit go on.
    func checkBeforeCommit(_ handle: OpaquePointer) -> DatabaseFileChange.Kind? {
        if let kind = checkFiles(handle) { return kind }
        guard let seen = walSeen else { return nil }
        let bytes = Self.key(resolved + "-wal")?.bytes ?? 0
        if bytes < seen { return .walTruncated }
        // A -wal that held pages during the transaction must still have its header.
        return walHoldsItsIndex(requireHeader: seen > 0) ? nil : .walTruncated
    }

    /// The check right after a commit (the write lock is released by then).
    func checkAfterCommit(_ handle: OpaquePointer) -> DatabaseFileChange.Kind? {
        if let kind = checkFiles(handle) { return kind }
        guard walSeen != nil else { return nil }
        return walHoldsItsIndex(requireHeader: false) ? nil : .walTruncated
    }

    /// Forgets the write transaction (it rolled back).
    func writeEnded() { walSeen = nil }

    /// True from the start of a write transaction until it ended (its commit or rollback
    /// included).
    var isWriting: Bool { walSeen != nil }

    /// True when the `-wal` holds what the `-shm`'s index header says it does
    /// (https://www.sqlite.org/walformat.html), and has no hole: when the index counts frames
    /// (or a header is required), the `-wal` starts with a WAL header carrying the index's salts,
    /// every frame the index counts is there, and no frame before the last one of this
    /// generation (its header carrying the `-wal`'s salts) is zeros, which is what a file cut
    /// short and written on past its end holds. An index header that is not stable across two
    /// reads (another connection writing) is not judged.
    ///
    /// Cost: one read of 24 bytes per frame (a 64 MiB `-wal` of 16 KiB pages: 4,000 reads).
    private func walHoldsItsIndex(requireHeader: Bool) -> Bool {
        guard let shm = descriptors["-shm"], let index = WALIndexHeader.read(shm) else { return true }
        guard let fd = descriptors["-wal"] else { return !(requireHeader || index.frames > 0) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return false }
        let bytes = Int(info.st_size)
        guard let header = Self.read(fd, at: 0, 32) else { return !(requireHeader || index.frames > 0) }
        func big32(_ data: [UInt8], _ offset: Int) -> Int { data[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        guard big32(header, 0) & 0xFFFF_FFFE == 0x377F_0682 else { return !(requireHeader || index.frames > 0 || bytes > 32) }
        // Another connection moved the index on meanwhile: it found the -wal usable; not judged.
        guard WALIndexHeader.read(shm) == index else { return true }
        let salts = Array(header[16..<24])
        guard index.frames == 0 || salts == index.salts else { return false }
        let pageSize = big32(header, 8)
        guard pageSize >= 512, pageSize <= 65536 else { return false }
        let frameBytes = 24 + pageSize
        guard bytes >= 32 + index.frames * frameBytes else { return false }
        var lastOfGeneration = 0
        var firstZeros = Int.max
        for number in 1...max(1, (bytes - 32) / frameBytes) where bytes >= 32 + number * frameBytes {
            guard let frame = Self.read(fd, at: 32 + (number - 1) * frameBytes, 24) else { return false }
            if Array(frame[8..<16]) == salts {
                lastOfGeneration = number
            } else if firstZeros == .max, frame.allSatisfy({ $0 == 0 }) {
                firstZeros = number
            }
        }
        return firstZeros > lastOfGeneration && lastOfGeneration >= index.frames
    }

    /// `count` bytes at `offset` of the file open at `fd`, or nil when it holds fewer.
    static func read(_ fd: Int32, at offset: Int, _ count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = buffer.withUnsafeMutableBytes { raw in
                pread(fd, raw.baseAddress.map { $0 + filled }, count - filled, off_t(offset + filled))
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            filled += n
        }
        return buffer
    }
}

/// The `-shm`'s WAL-index header (https://www.sqlite.org/walformat.html#the_wal_index_file_format):
/// the committed frames of the `-wal`, its page size and salts. Two copies, in native byte order;
/// read only when both copies agree and it is initialised.
struct WALIndexHeader: Equatable {
    var frames: Int
    var pageSize: Int
    /// The salts, as the `-wal`'s header holds them (bytes 16–23).
    var salts: [UInt8]

    /// The header of the `-shm` open at `fd` (read with `pread`: the descriptor stays open).
    static func read(_ fd: Int32) -> WALIndexHeader? {
        guard let bytes = DatabaseFileWatch.read(fd, at: 0, 96), bytes[0..<48] == bytes[48..<96], bytes[12] == 1 else {
            return nil
        }
        func native32(_ offset: Int) -> Int {
            bytes[offset..<(offset + 4)].withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self)) }
        }
        let rawPageSize = bytes[14..<16].withUnsafeBytes { Int($0.loadUnaligned(as: UInt16.self)) }
        return WALIndexHeader(
            frames: native32(16), pageSize: rawPageSize == 1 ? 65536 : rawPageSize, salts: Array(bytes[32..<40]))
    }
}
