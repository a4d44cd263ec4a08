import Foundation

/// What a path names on disk, so that two different spellings of one file compare equal.
///
/// Policy: an existing path is its device and inode, with symbolic links followed (a symbolic
/// or hard link to the database is the database). A path that does not exist yet is its
/// folder's identity and its name, `.` and `..` of its missing part resolved first
/// (`out/../db.sqlite`, `nothere/../db.sqlite` and `db.sqlite` are then the same entry);
/// a dangling symbolic link is the identity of the path it points to, because writing through
/// it would create that file. Used by the output guard (SPEC §9: no output may be an input or
/// the database).
package indirect enum FileIdentity: Hashable, Sendable {
    /// An existing file or folder.
    case inode(device: UInt64, inode: UInt64)
    /// A name that does not exist (yet) in a folder.
    case entry(folder: FileIdentity, name: String)
    /// A path that cannot be resolved (a link loop, a path too long): equal only to itself.
    case unresolved(String)

    /// The identity of `path` now.
    package static func of(_ path: String) -> FileIdentity { of(path, depth: 0) }

    /// Whether `path` exists (links followed).
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Whether `path` exists (links followed) and is a folder.
    package static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private static func of(_ path: String, depth: Int) -> FileIdentity {
        // The part that does not exist is resolved as the writer will create it (`WritePath`).
        let trimmed = WritePath.settle(path)
        guard depth < 40 else { return .unresolved(trimmed) }
        var info = stat()
        if stat(trimmed, &info) == 0 { return .inode(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) }
        if lstat(trimmed, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK, let target = linkTarget(trimmed) {
            let (parent, _) = PathText.split(trimmed)
            return of(target.hasPrefix("/") ? target : PathText.join(parent, target), depth: depth + 1)
        }
        let (parent, name) = PathText.split(trimmed)
        guard parent != trimmed else { return .unresolved(trimmed) }
        return .entry(folder: of(parent, depth: depth + 1), name: name)
    }

    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
