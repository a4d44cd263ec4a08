import Foundation

/// What a path names, found without opening it (so a FIFO, a device or a socket can never make
/// the program block), and the plain words for it.
///
/// Policy: `stat` follows symbolic links (a link to a regular file is that file); when it fails,
/// `lstat` tells a link that points to nothing, or a loop of links, from a path that does not
/// exist. Nothing here opens, reads or changes anything.
package enum PathInspection {
    /// The kind of object at a path.
    package enum Kind: Equatable, Sendable {
        case regularFile
        case directory
        case fifo
        case characterDevice
        case blockDevice
        case socket
        /// A symbolic link whose target does not exist (the link's text).
        case danglingSymlink(target: String)
        /// A symbolic link that leads back to itself (ELOOP).
        case symlinkLoop
        /// Nothing at that path.
        case missing
        /// `stat` failed for another reason (the `errno`), e.g. a folder on the way that cannot
        /// be searched.
        case inaccessible(errno: Int32)
    }

    /// What `path` names (following symbolic links).
    package static func inspect(_ path: String) -> Kind {
        var info = stat()
        if stat(path, &info) == 0 { return kind(mode: info.st_mode) }
        let failure = errno
        if failure == ELOOP { return .symlinkLoop }
        var link = stat()
        if failure == ENOENT, lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
            return .danglingSymlink(target: linkTarget(path) ?? "?")
        }
        return failure == ENOENT || failure == ENOTDIR ? .missing : .inaccessible(errno: failure)
    }

    /// The kind for a `st_mode` (from `stat` or `fstat`).
    package static func kind(mode: mode_t) -> Kind {
        switch mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        case S_IFIFO: return .fifo
        case S_IFCHR: return .characterDevice
        case S_IFBLK: return .blockDevice
        case S_IFSOCK: return .socket
        default: return .inaccessible(errno: EINVAL)
        }
    }

    /// `path is …`: the words for what is wrong with `path`, e.g. "x.csv is a symbolic link that
    /// points to nothing (missing.csv)"; for a regular file or a folder, what it is.
    package static func describe(_ path: String, _ kind: Kind) -> String {
        switch kind {
        case .regularFile: return "\(path) is a file"
        case .directory: return "\(path) is a folder, not a regular file"
        case .fifo: return "\(path) is a FIFO (named pipe), not a regular file"
        case .characterDevice: return "\(path) is a character device, not a regular file"
        case .blockDevice: return "\(path) is a block device, not a regular file"
        case .socket: return "\(path) is a socket, not a regular file"
        case .danglingSymlink(let target): return "\(path) is a symbolic link that points to nothing (\(target))"
        case .symlinkLoop: return "\(path) is a loop of symbolic links"
        case .missing: return "\(path) does not exist"
        case .inaccessible(let code): return "\(path) cannot be reached: \(String(cString: strerror(code)))"
        }
    }

    /// The text of the symbolic link at `path`, or nil.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlink(path, &buffer, 4096)
        guard n >= 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
