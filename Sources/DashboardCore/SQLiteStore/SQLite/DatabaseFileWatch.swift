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
///   never shorter than at the start of the write transaction (no other connection may shorten
///   it while this one holds the write lock).
///
/// The identities of the side files are taken when the connection arms the watch, right after
/// SQLite opened them; a file replaced in the microseconds between is not seen (SQLite gives no
/// handle on the `-wal`'s inode: its `HAS_MOVED` answers for the main file only).
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
    /// The `-wal`'s size and SQLite's spill count when the write transaction began.
    private var walAtBegin: (bytes: Int, spills: Int32)?
    /// The change the commit hook found (the hook can only say "roll back").
    var finding: DatabaseFileChange?

    static let sideSuffixes = ["-wal", "-shm"]

    /// A file's device and inode.
    struct FileKey: Equatable {
        var device: UInt64
        var inode: UInt64
        var bytes: Int
        static func == (a: FileKey, b: FileKey) -> Bool { a.device == b.device && a.inode == b.inode }
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
        for suffix in Self.sideSuffixes { sides[suffix] = Self.key(resolved + suffix) }
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
            sides[suffix] = Self.key(resolved + suffix)
        }
    }

    // MARK: - Checks

    /// What changed about the main file and the side files, or nil.
    func checkFiles(_ handle: OpaquePointer) -> DatabaseFileChange.Kind? {
        guard let now = Self.key(path) else { return .removed }
        if now != main || Self.key(resolved) != main || Self.hasMoved(handle) { return .replaced }
        if now.bytes < mainBytes, let needed = Self.bytesItsHeaderNeeds(resolved), now.bytes < needed {
            return .truncated(bytes: now.bytes, seen: mainBytes)
        }
        mainBytes = max(mainBytes, now.bytes)
        for suffix in Self.sideSuffixes {
            guard let kept = sides[suffix], let kept else { continue }
            guard let found = Self.key(resolved + suffix) else { return .sideFileRemoved(suffix: suffix) }
            if found != kept { return .sideFileReplaced(suffix: suffix) }
        }
        return nil
    }

    /// The bytes the main file's own header says it holds (page count × page size, when the
    /// header's count is valid: SQLite's "version-valid-for" equals its change counter), 100 (the
    /// header itself) when the count is not valid, or nil when the file cannot be read.
    ///
    /// A checkpoint may shorten the file to the database's size after writing page 1 (which then
    /// says that size): a file shorter than it was is cut only when it is also shorter than its
    /// own header says.
    static func bytesItsHeaderNeeds(_ path: String) -> Int? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let header = DatabaseFileHeader.readExactly(fd, 100) else { return 100 }
        func big32(_ offset: Int) -> Int { header[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        guard big32(92) == big32(24), pageSize >= 512 else { return 100 }
        return big32(28) * pageSize
    }

    /// Called when a write transaction has begun (the write lock is held): the `-wal` cannot
    /// shrink from here until this connection commits.
    func writeBegan(_ handle: OpaquePointer) {
        walAtBegin = (Self.key(resolved + "-wal")?.bytes ?? 0, Self.spills(handle))
    }

    /// The check of SQLite's commit hook: nil to let the commit go on.
    func checkBeforeCommit(_ handle: OpaquePointer) -> DatabaseFileChange.Kind? {
        if let kind = checkFiles(handle) { return kind }
        guard let begin = walAtBegin else { return nil }
        let bytes = Self.key(resolved + "-wal")?.bytes ?? 0
        if bytes < begin.bytes { return .walTruncated }
        // Pages spilled during the transaction were written to the -wal: it must have its header.
        let spilled = Self.spills(handle) > begin.spills
        return walHoldsItsIndex(requireHeader: spilled) ? nil : .walTruncated
    }

    /// The check right after a commit (the write lock is released by then).
    func checkAfterCommit(_ handle: OpaquePointer) -> DatabaseFileChange.Kind? {
        defer { walAtBegin = nil }
        if let kind = checkFiles(handle) { return kind }
        guard walAtBegin != nil else { return nil }
        return walHoldsItsIndex(requireHeader: false) ? nil : .walTruncated
    }

    /// Forgets the write transaction (it rolled back).
    func writeEnded() { walAtBegin = nil }

    /// SQLite's count of cache spills on this connection (each writes pages to the `-wal`).
    private static func spills(_ handle: OpaquePointer) -> Int32 {
        var current: Int32 = 0
        var highwater: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_SPILL, &current, &highwater, 0)
        return current
    }

    /// True when the `-wal` holds what the `-shm`'s index header says it does
    /// (https://www.sqlite.org/walformat.html): when the index counts frames (or a header is
    /// required), the `-wal` starts with a WAL header carrying the index's salts and is long
    /// enough for every frame counted. An index header that is not stable across two reads
    /// (another connection writing) is not judged.
    private func walHoldsItsIndex(requireHeader: Bool) -> Bool {
        guard let index = WALIndexHeader.read(resolved + "-shm") else { return true }
        guard requireHeader || index.frames > 0 else { return true }
        let wal = resolved + "-wal"
        let fd = open(wal, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return false }
        guard let header = DatabaseFileHeader.readExactly(fd, 32) else { return false }
        let magicWord = UInt32(header[0]) << 24 | UInt32(header[1]) << 16 | UInt32(header[2]) << 8 | UInt32(header[3])
        guard magicWord & 0xFFFF_FFFE == 0x377F_0682 else { return false }
        // Another connection moved the index on meanwhile: it found the -wal usable; not judged.
        guard WALIndexHeader.read(resolved + "-shm") == index else { return true }
        guard index.frames == 0 || Array(header[16..<24]) == index.salts else { return false }
        let frameBytes = 24 + index.pageSize
        return Int(info.st_size) >= 32 + index.frames * frameBytes
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

    static func read(_ path: String) -> WALIndexHeader? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let bytes = DatabaseFileHeader.readExactly(fd, 96), bytes[0..<48] == bytes[48..<96], bytes[12] == 1 else {
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
