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
/// file (0 bytes, or no tables and schema 0) is initialised.
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
        let version = try database.int("PRAGMA user_version")
        let mark = try database.int("PRAGMA application_id")
        var tables: Set<String> = []
        try database.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").forEachRow { row in
            if let name = row.string(0), !name.hasPrefix("sqlite_") { tables.insert(name) }
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

    /// Inspects the file at `path` through an immutable read-only connection, which creates
    /// no `-wal` or `-shm` file (a plain read-only connection to a WAL file creates both and
    /// cannot remove them). Skipped when a `-wal` file exists: the main file alone is then not
    /// the whole database, and the caller's own inspection decides.
    /// - Throws: the `StoreError` verdicts of `inspect`; `.damaged` only when the file did not
    ///   change while the probe read it.
    static func inspectWithoutSideFiles(_ path: String) throws {
        guard !FileManager.default.fileExists(atPath: path + "-wal") else { return }
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
        // half written. So a damaged verdict is trusted only when no `-wal` appeared and the
        // file's size and modification time did not change while it read; otherwise the
        // caller's own, locked, inspection decides.
        let before = fileStamp(path)
        do {
            let probe = try Database(path: "file:" + uriPath + "?immutable=1", mode: .readOnly)
            _ = try inspect(probe, path: path)
        } catch let error as StoreError {
            throw error
        } catch {
            let verdict = Store.classify(error, path: path)
            guard case .damaged = verdict, before != nil, fileStamp(path) == before,
                !FileManager.default.fileExists(atPath: path + "-wal")
            else { return }
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
