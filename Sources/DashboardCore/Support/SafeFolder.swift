import Foundation

/// A folder opened for writing without following a link, checked to be ours.
///
/// Policy (SPEC §9): the folder the program writes into is opened with
/// `O_DIRECTORY|O_NOFOLLOW`, so a symbolic link at its name is refused, never followed; it must
/// belong to the user running the program (or to root, which every user already trusts: `/tmp`,
/// `/srv`), else it is refused, because its owner could swap files under us. Folders of the
/// path leading to it are followed as the system resolves them; the path is first settled by
/// `WritePath` (`nothere/..` is `.`, `out/.` is `out`), the same spelling the output guard
/// checks, and `.` or `..` is never created or opened as a child (`dotName`). Missing folders are created
/// when asked (like `mkdir -p`) with `mkdirat`, opened again without following links, checked
/// and given the folder mode of `modes` (`FileModes`, from the umask the executable read) on the
/// descriptor. Files go in through `write(name:_:)`
/// (`SafeFolder+Writing.swift`). The descriptor closes when the value is released.
package final class SafeFolder {
    /// The folder's path as given (used in messages).
    package let path: String
    let descriptor: Int32
    /// What no file written here may replace, checked on the descriptor (`ProtectedFiles`).
    package var protected = ProtectedFiles()
    /// The modes of the files and folders created in it (its children inherit them).
    package let modes: FileModes

    private init(path: String, descriptor: Int32, modes: FileModes) {
        self.path = path
        self.descriptor = descriptor
        self.modes = modes
    }

    deinit { close(descriptor) }

    /// Opens `path` for writing.
    /// - Parameters:
    ///   - create: create it and its missing parents (mode `modes.folder`); else a missing
    ///     folder is an error naming the first missing component.
    ///   - modes: the modes of what is created (in it, and the folders `create` makes).
    /// - Throws: `SafeFileError` naming the path and the component at fault.
    package static func open(
        _ path: String, create: Bool, protecting: ProtectedFiles, modes: FileModes = .ownerOnly
    ) throws(SafeFileError) -> SafeFolder {
        let folder = try open(path, create: create, modes: modes)
        folder.protected = protecting
        return folder
    }

    /// Opens `path` for writing (see `open(_:create:protecting:modes:)`), protecting nothing.
    package static func open(_ path: String, create: Bool, modes: FileModes = .ownerOnly) throws(SafeFileError) -> SafeFolder {
        // `nothere/..` is `.`, and `lnk/.` is `lnk` (refused): see `WritePath`.
        let trimmed = WritePath.settle(path)
        let fd = Glibc.open(trimmed, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if fd >= 0 { return try checked(fd, path: path, shown: trimmed, modes: modes) }
        let code = errno
        if code == ENOENT, create, !isSymbolicLink(trimmed) {
            let (parent, name) = PathText.split(trimmed)
            let parentFD = try openCreating(parent, for: path, modes: modes)
            defer { close(parentFD) }
            return try makeChild(name, in: parentFD, parentPath: parent, for: path, modes: modes)
        }
        throw diagnose(trimmed, errno: code, for: path)
    }

    /// Opens (creating it when missing) the folder `name` inside this one, without following a
    /// link at that name (what `open(_:create:)` does for the last component of a path).
    package func child(_ name: String) throws(SafeFileError) -> SafeFolder {
        try Self.makeChild(name, in: descriptor, parentPath: path, for: PathText.join(path, name), modes: modes)
    }

    /// Checks that the file `name` could be written here now, never touching `name` itself:
    /// refuses a folder at that name, then creates a temporary file and removes it (the
    /// up-front check of `--rejects`).
    package func probe(name: String) throws(SafeFileError) {
        let target = PathText.join(path, name)
        var info = stat()
        if name.isEmpty || name.contains("/") || name == "." || name == ".." {
            throw SafeFileError(path: target, problem: .finalNameIsFolder(target))
        }
        if fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw SafeFileError(path: target, problem: .finalNameIsFolder(target))
        }
        if let kind = ReplaceableName.obstacle(in: descriptor, name, shown: target) {
            throw SafeFileError(path: target, problem: .notRegularFile(target, kind: kind))
        }
        let (fd, temporary) = try makeTemporary(for: target)
        close(fd)
        unlinkat(descriptor, temporary, 0)
    }

    // MARK: - Opening

    private static func makeChild(_ name: String, in parentFD: Int32, parentPath: String, for target: String, modes: FileModes)
        throws(SafeFileError) -> SafeFolder
    {
        let shown = PathText.join(parentPath, name)
        // A folder is only ever made or opened as a real child: `..` would step out of it.
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw SafeFileError(path: target, problem: .dotName(shown))
        }
        let created = mkdirat(parentFD, name, modes.folder) == 0
        if !created, errno != EEXIST { throw SafeFileError(path: target, problem: .system(shown, errno: errno)) }
        let fd = openat(parentFD, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw diagnose(shown, errno: errno, for: target) }
        let folder = try checked(fd, path: shown, shown: shown, target: target, modes: modes)
        if created { fchmod(fd, modes.folder) }
        return folder
    }

    /// Opens a parent folder, creating it (and its own parents) when missing; an existing
    /// parent is opened as the system resolves it.
    private static func openCreating(_ path: String, for target: String, modes: FileModes) throws(SafeFileError) -> Int32 {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { return fd }
        let code = errno
        guard code == ENOENT, path != "/", path != "." else { throw diagnose(path, errno: code, for: target) }
        let (parent, name) = PathText.split(path)
        let parentFD = try openCreating(parent, for: target, modes: modes)
        defer { close(parentFD) }
        let folder = try makeChild(name, in: parentFD, parentPath: parent, for: target, modes: modes)
        let copy = dup(folder.descriptor)
        guard copy >= 0 else { throw SafeFileError(path: target, problem: .system(path, errno: errno)) }
        return copy
    }

    /// Refuses a descriptor that is not a folder or belongs to another user; closes it then.
    private static func checked(_ fd: Int32, path: String, shown: String, target: String? = nil, modes: FileModes)
        throws(SafeFileError) -> SafeFolder
    {
        var info = stat()
        let target = target ?? path
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw SafeFileError(path: target, problem: .system(shown, errno: code))
        }
        guard info.st_uid == geteuid() || info.st_uid == 0 else {
            close(fd)
            throw SafeFileError(path: target, problem: .otherOwner(shown, uid: info.st_uid))
        }
        return SafeFolder(path: path, descriptor: fd, modes: modes)
    }

    private static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// Turns a failed open into the problem of the component at fault.
    private static func diagnose(_ path: String, errno code: Int32, for target: String) -> SafeFileError {
        // A link at the name itself (Linux says ENOENT for a dangling one, ELOOP otherwise).
        if isSymbolicLink(path) {
            return SafeFileError(path: target, problem: .symbolicLink(path))
        }
        if code == ENOENT || code == ENOTDIR {
            var info = stat()
            // The first component that is missing or not a folder.
            var prefix = path.hasPrefix("/") ? "/" : ""
            for part in path.split(separator: "/", omittingEmptySubsequences: true) {
                prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
                if stat(prefix, &info) != 0 {
                    if errno == ENOENT { return SafeFileError(path: target, problem: .missingFolder(prefix)) }
                    break
                }
                if (info.st_mode & S_IFMT) != S_IFDIR { return SafeFileError(path: target, problem: .notAFolder(prefix)) }
            }
        }
        return SafeFileError(path: target, problem: .system(path, errno: code))
    }
}
