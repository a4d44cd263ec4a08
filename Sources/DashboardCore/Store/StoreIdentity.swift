import CSQLite
import Foundation

/// Whose file a database is, decided by reading it before anything is written to it.
///
/// Policy (SPEC §9): a dashboard database carries the mark `PRAGMA application_id =
/// 0x44534842` ("DSHB"). A new file gets it in the transaction of migration 1; a file written
/// by a dashboard before the mark existed (schema 1 to 3, every table of its schema present,
/// no mark) is ours and migration 4 marks it. Anything else that holds tables (another
/// application's file, or schema 0 with tables) is refused before the store changes a byte of
/// it, and so is a negative schema version, which no dashboard ever wrote. A blank SQLite
/// file (0 bytes, or no tables and schema 0) is initialised. The judgement is made first from
/// the bytes on disk (`judgeOnDisk`: the header, and the last committed page 1 of a `-wal`),
/// so that no connection that could write or checkpoint is opened on a file that is not ours.
enum StoreIdentity {
    /// The mark: "DSHB" read as a big-endian 32-bit number.
    static let applicationID = 0x4453_4842

    /// The last schema version written without the mark.
    static let lastUnmarkedVersion = 3

    /// What the file is.
    enum Verdict: Equatable {
        /// No tables and schema 0: a new file to initialise.
        case blank
        /// A marked dashboard database at this schema version.
        case ours(version: Int)
        /// A dashboard database from before the mark (schema 1 to 3).
        case unmarked(version: Int)
    }

    /// Reads the mark, the schema version and the table names of `database`.
    /// - Throws: `StoreError.foreign`, `.unknownSchema` or `.newerSchema` when the file is not
    ///   one this build may use; SQLite's error when the file cannot be read.
    static func inspect(_ database: Database, path: String) throws -> Verdict {
        var version = 0
        var mark = 0
        var tables: Set<String> = []
        // One read transaction: another process's first migration (tables, mark and version in
        // one commit) is seen whole or not at all, never as tables without the mark.
        try database.inTransaction(.deferred) {
            version = try database.int("PRAGMA user_version")
            mark = try database.int("PRAGMA application_id")
            try database.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").forEachRow { row in
                if let name = row.string(0), !name.hasPrefix("sqlite_") { tables.insert(name) }
            }
            return .commit
        }
        if version < 0 {
            throw StoreError.unknownSchema(path: path, found: version)
        }
        if mark == applicationID {
            if version > Schema.currentVersion {
                throw StoreError.newerSchema(path: path, found: version, supported: Schema.currentVersion)
            }
            if version == 0, !tables.isEmpty { throw StoreError.unknownSchema(path: path, found: version) }
            // Migrations commit whole: a marked file without one of its tables lost it by hand.
            let missing = Schema.tables(through: version).subtracting(tables)
            if !missing.isEmpty {
                throw StoreError.damaged(path: path, detail: "missing table \(missing.sorted().joined(separator: ", "))")
            }
            return version == 0 ? .blank : .ours(version: version)
        }
        if mark == 0 {
            if version == 0, tables.isEmpty { return .blank }
            if (1...lastUnmarkedVersion).contains(version), tables.isSuperset(of: Schema.tables(through: version)) {
                return .unmarked(version: version)
            }
        }
        throw StoreError.foreign(path: path)
    }

    /// What the bytes on disk say, before any SQLite connection is opened.
    enum DiskVerdict: Equatable {
        /// No file at the path.
        case absent
        /// A file whose first page decides nothing alone (blank, or ours, or a candidate from
        /// before the mark); `walCommitted` when its `-wal` holds committed pages.
        case needsSQLite(walCommitted: Bool)
    }

    /// The verdict, and the file it was made on (device and inode, read on the descriptor the
    /// judgement read): the file SQLite opens next must be that one (`DatabaseFileWatch`).
    struct Judgement {
        var verdict: DiskVerdict
        var file: DatabaseFileWatch.FileKey?
    }

    /// `judgeOnDisk`, with the file judged.
    static func judgeFileOnDisk(_ path: String) throws(StoreError) -> Judgement {
        var file: DatabaseFileWatch.FileKey?
        let verdict = try judgeOnDisk(path, judged: &file)
        return Judgement(verdict: verdict, file: file)
    }

    /// Judges the file at `path` and its `-wal` from their bytes, then (when the main file is
    /// the whole database) through an immutable read-only connection, which creates no `-wal`
    /// or `-shm` and cannot checkpoint. Nothing is opened for writing and nothing is created.
    /// - Throws: `.unreadable` (a file that exists but cannot be read), `.notADatabase`,
    ///   `.foreign`, `.foreignMark`, `.foreignWAL` (a `-wal` of another database beside ours),
    ///   `.unknownSchema`, `.newerSchema`, `.damaged`.
    static func judgeOnDisk(_ path: String) throws(StoreError) -> DiskVerdict {
        var file: DatabaseFileWatch.FileKey?
        return try judgeOnDisk(path, judged: &file)
    }

    private static func judgeOnDisk(_ path: String, judged: inout DatabaseFileWatch.FileKey?) throws(StoreError) -> DiskVerdict {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            if errno == ENOENT { return .absent }
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        let first = DatabaseFileHeader.readExactly(fd, 108)
        var info = stat()
        let size = fstat(fd, &info) == 0 ? Int(info.st_size) : 0
        judged = DatabaseFileWatch.FileKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), bytes: size)
        close(fd)
        let wal = try DatabaseFileHeader.readWAL(path + "-wal")
        var main: DatabaseFileHeader?
        if size > 0 {
            guard let first else {
                if StoreIdentity.hasSQLiteHeader(path) { throw .damaged(path: path, detail: "the file ends inside its first page") }
                throw .notADatabase(path: path)
            }
            guard let parsed = DatabaseFileHeader.parse(first, fromWAL: false) else { throw .notADatabase(path: path) }
            main = parsed
        }
        let walCommitted = wal?.hasCommits == true
        var effective = main
        if let wal, walCommitted {
            if let main, wal.pageSize != main.pageSize { throw .foreignWAL(path: path) }
            if let pageOne = wal.pageOne {
                guard let fromWAL = DatabaseFileHeader.parse(pageOne, fromWAL: true) else { throw .foreignWAL(path: path) }
                // Our own writers never remove the mark: a -wal whose first page lacks it is another database's.
                if main?.applicationID == applicationID, fromWAL.applicationID != applicationID { throw .foreignWAL(path: path) }
                effective = fromWAL
            }
        }
        guard let header = effective else { return .needsSQLite(walCommitted: walCommitted) }
        try judge(header, path: path)
        if !walCommitted { try probeImmutable(path) }
        return .needsSQLite(walCommitted: walCommitted)
    }

    /// The verdicts that the first page alone decides (the rest is `inspect`'s, through SQLite).
    private static func judge(_ header: DatabaseFileHeader, path: String) throws(StoreError) {
        if header.userVersion < 0 { throw .unknownSchema(path: path, found: header.userVersion) }
        if header.applicationID == applicationID {
            if header.userVersion > Schema.currentVersion {
                throw .newerSchema(path: path, found: header.userVersion, supported: Schema.currentVersion)
            }
            return
        }
        if header.applicationID != 0 { throw .foreignMark(path: path, mark: header.applicationID) }
        if header.schemaIsEmpty {
            if header.userVersion == 0 { return }
            throw .unknownSchema(path: path, found: header.userVersion)
        }
        if !(1...lastUnmarkedVersion).contains(header.userVersion) { throw .foreign(path: path) }
    }

    /// Inspects the main file through an immutable read-only connection (it reads no `-wal`,
    /// so the caller calls it only when the `-wal` holds nothing committed).
    /// - Throws: the `StoreError` verdicts of `inspect`; `.damaged` only when the file did not
    ///   change while the probe read it.
    private static func probeImmutable(_ path: String) throws(StoreError) {
        var uriPath = ""
        for character in URL(fileURLWithPath: path).standardizedFileURL.path {
            switch character {
            case "%": uriPath += "%25"
            case "?": uriPath += "%3f"
            case "#": uriPath += "%23"
            default: uriPath.append(character)
            }
        }
        // The probe reads without locks: a writer that starts meanwhile could make it see a page
        // half written. So a damaged verdict is trusted only when the file's size and
        // modification time did not change while it read; otherwise the caller's own, locked,
        // inspection decides.
        let before = fileStamp(path)
        do {
            let probe = try Database(path: "file:" + uriPath + "?immutable=1", mode: .readOnly)
            _ = try inspect(probe, path: path)
        } catch let error as StoreError {
            throw error
        } catch {
            let verdict = Store.classify(error, path: path)
            guard case .damaged = verdict, before != nil, fileStamp(path) == before else { return }
            throw verdict
        }
    }

    /// Size and modification time (ns) of the file, or nil when it cannot be read.
    private static func fileStamp(_ path: String) -> [Int]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec, Int(info.st_ino)]
    }

    /// True when the file at `path` starts with SQLite's header, so that SQLite's "not a
    /// database" means a damaged dashboard file rather than some other kind of file.
    static func hasSQLiteHeader(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let magic = (try? handle.read(upToCount: 16)) ?? Data()
        return magic == Data("SQLite format 3\0".utf8)
    }
}
