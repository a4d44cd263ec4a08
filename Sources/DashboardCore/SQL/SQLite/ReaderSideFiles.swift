import Foundation

/// Whether a read-only connection can read a WAL database without creating anything.
///
/// Policy (docs/operations.md, read-only readers): SQLite reads a WAL database it may not write
/// when its `-wal` and `-shm` are already there and readable, or when it may create them in the
/// folder (https://www.sqlite.org/wal.html#readonly); else it fails with "attempt to write a
/// readonly database". The writer keeps both files (`Database.setKeepSideFiles`), with the
/// database file's mode, so a reader of the group reads them, and reads the last committed state
/// even while an import writes (a read-only `-shm` is used through SQLite's own read-only path).
/// The immutable open (`?immutable=1`) is not used: it takes no lock and reads no `-wal`, so
/// during an import it would read half-written pages or miss committed ones.
///
/// A reader creates the side files only when SQLite would hand them to the database's owner:
/// it is that owner (or root, whose new side files SQLite gives to the owner) and may write the
/// folder. Anyone else is refused before SQLite opens the file, so no file owned by a reader
/// (which the nightly writer could not write) is ever left beside the database.
enum ReaderSideFiles {
    /// The suffixes of the side files a WAL reader opens.
    static let suffixes = ["-wal", "-shm"]

    /// - Throws: `StoreError.sideFileUnavailable` naming the first side file the reader can
    ///   neither read nor create.
    static func check(_ path: String) throws(StoreError) {
        guard path != ":memory:", isWALMode(path) else { return }
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        let user = geteuid()
        let folder = PathText.parent(path)
        let mayCreate = (user == 0 || user == info.st_uid) && faccessat(AT_FDCWD, folder, W_OK, AT_EACCESS) == 0
        for suffix in suffixes {
            let side = path + suffix
            if faccessat(AT_FDCWD, side, R_OK, AT_EACCESS) == 0 { continue }
            let code = errno
            if code == ENOENT {
                if mayCreate { continue }
                throw .sideFileUnavailable(path: path, suffix: suffix, reason: nil)
            }
            throw .sideFileUnavailable(path: path, suffix: suffix, reason: String(cString: strerror(code)))
        }
    }

    /// True when the file's header says WAL (bytes 18 and 19, the read and write versions, are 2).
    private static func isWALMode(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard let header = DatabaseFileHeader.readExactly(fd, 20) else { return false }
        return header[18] == 2 && header[19] == 2
    }
}
