import Foundation

/// Whether a file the program writes may replace what is at a name.
///
/// Policy (SPEC §9): only a regular file is replaced (as a name, never written through). So is
/// a symbolic link to a regular file, a link that points to nothing and a loop of links (the
/// link itself is replaced, its target is left as it was). Anything else at the name — a
/// device, a FIFO, a socket, or a symbolic link to one of those or to a folder — is refused,
/// and so is a symbolic link that leads through `/proc` (`/dev/stdout`, `/dev/fd/1`,
/// `/proc/self/fd/N`: a process's descriptor, whatever file it is now). A folder itself is
/// left to the caller (a rename cannot replace it; `SafeFolder` says "is a folder").
package enum ReplaceableName {
    /// Why the name `path` may not be replaced, as words such as "a character device" or "a
    /// symbolic link to a FIFO (named pipe)"; nil when it may (or nothing is there).
    package static func obstacle(_ path: String) -> String? { obstacle(in: AT_FDCWD, path, shown: path) }

    /// The same for `name` in the folder open at `folder` (`shown` is its path, for `/proc`).
    package static func obstacle(in folder: Int32, _ name: String, shown: String) -> String? {
        var link = stat()
        guard fstatat(folder, name, &link, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        let isLink = (link.st_mode & S_IFMT) == S_IFLNK
        if isLink, leadsThroughProc(shown) { return "a symbolic link to a process's descriptor" }
        var info = link
        if isLink, fstatat(folder, name, &info, 0) != 0 { return nil }
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR:
            guard isLink else { return nil }
            kind = "a folder"
        case S_IFIFO: kind = "a FIFO (named pipe)"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "a special file"
        }
        return isLink ? "a symbolic link to \(kind)" : kind
    }

    /// Whether the chain of links from `path` passes through a folder of the `proc` file system.
    private static func leadsThroughProc(_ path: String) -> Bool {
        var proc = stat()
        var folder = stat()
        let procDevice = stat("/proc/self", &proc) == 0 ? proc.st_dev : nil
        var current = path
        for _ in 0..<40 {
            // A folder on the device of `/proc` (`/dev/fd` leads to `/proc/self/fd`).
            if let procDevice, stat(PathText.parent(current), &folder) == 0, folder.st_dev == procDevice { return true }
            guard let target = PathInspection.linkTarget(current) else { return false }
            if target.hasPrefix("/proc/") { return true }
            current = target.hasPrefix("/") ? target : PathText.join(PathText.parent(current), target)
        }
        return false
    }
}
