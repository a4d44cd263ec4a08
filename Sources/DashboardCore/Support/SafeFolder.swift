import Foundation

/// A folder opened for writing without following a link, checked to be ours.
///
/// Policy (SPEC §9): the folder the program writes into is opened with
/// `O_DIRECTORY|O_NOFOLLOW`, so a symbolic link at its name is refused, never followed; it must
/// belong to the user running the program (or to root, which every user already trusts: `/tmp`,
/// `/srv`), else it is refused, because its owner could swap files under us. The folders of the
/// path leading to it are walked one at a time from `/` or the current folder (`PathWalk`): a
/// symbolic link on the way is followed only when root or this user owns it. The path is first
/// settled by `WritePath` (`nothere/..` is `.`, `out/.` is `out`), the same spelling the output
/// guard checks, and `.` or `..` is never created or opened as a child (`dotName`). Missing
/// folders are created when asked (like `mkdir -p`) with `mkdirat`, opened again without
/// following links, checked and given the folder mode of `modes` (`FileModes`, from the umask
/// the executable read) on the descriptor. Files go in through `write(name:_:)`
/// (`SafeFolder+Writing.swift`), after `obstacle(_:)`, the check a run also makes of every name
/// before its first write (`ReportSetLayout`). The descriptor closes when the value is released.
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
        switch try locate(path, create: create, modes: modes) {
        case .folder(let folder): return folder
        case .missing(let shown): throw SafeFileError(path: path, problem: .missingFolder(shown))
        }
    }

    /// The folder `path` as `open(_:create:false)` would open it, or nil when it is not there
    /// yet (a writer will create it): the check before a run, which creates nothing. The part of
    /// the path that is there is judged as the writer will judge it.
    /// - Throws: `SafeFileError` for a link, a file or another user's folder on the way or at `path`.
    package static func existing(
        _ path: String, protecting: ProtectedFiles = ProtectedFiles(), modes: FileModes = .ownerOnly
    ) throws(SafeFileError) -> SafeFolder? {
        switch try locate(path, create: false, modes: modes) {
        case .folder(let folder):
            folder.protected = protecting
            return folder
        case .missing: return nil
        }
    }

    /// Opens (creating it when missing) the folder `name` inside this one, without following a
    /// link at that name (what `open(_:create:)` does for the last component of a path).
    package func child(_ name: String) throws(SafeFileError) -> SafeFolder {
        try Self.makeChild(name, in: descriptor, parentPath: path, as: PathText.join(path, name), modes: modes, create: true)
    }

    /// The folder `name` inside this one, judged as `child(_:)` judges it, or nil when nothing
    /// is at that name; creates nothing. It protects what this one protects.
    package func existingChild(_ name: String) throws(SafeFileError) -> SafeFolder? {
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT else { return nil }
        let folder = try Self.makeChild(name, in: descriptor, parentPath: path, as: PathText.join(path, name), modes: modes, create: false)
        folder.protected = protected
        return folder
    }

    /// Why a file may not be written at `name` now, or nil: the first check of
    /// `write(name:_:)` and `probe(name:)`, and the check of every name before a run writes.
    ///
    /// Policy: a name that is not one plain name (`.`, `..`, empty, with a `/`) or is a folder;
    /// something `ReplaceableName` refuses (a device, FIFO, socket, a link to one or to a folder,
    /// a link through `/proc`); a protected file or folder (`ProtectedFiles`).
    package func obstacle(_ name: String) -> SafeFileError.Problem? {
        let target = PathText.join(path, name)
        if name.isEmpty || name.contains("/") || name == "." || name == ".." { return .finalNameIsFolder(target) }
        var info = stat()
        if fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            return .finalNameIsFolder(target)
        }
        if let kind = ReplaceableName.obstacle(in: descriptor, name, shown: target) { return .notRegularFile(target, kind: kind) }
        if let hit = protected.conflict(folder: descriptor, name: name) { return .protectedFile(target, protected: hit) }
        return nil
    }

    /// Calls `body` with each name in this folder (not `.` and `..`), in the order the system
    /// lists them, without holding the list.
    package func forEachName(_ body: (String) throws -> Void) throws {
        let fd = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0, let stream = fdopendir(fd) else {
            let code = errno
            if fd >= 0 { close(fd) }
            throw SafeFileError(path: path, problem: .system(path, errno: code))
        }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { try body(name) }
        }
    }

    /// Checks that the file `name` could be written here now, never touching `name` itself:
    /// refuses what `obstacle(_:)` refuses, then creates a temporary file and removes it (the
    /// up-front check of `--rejects` and `--metrics`).
    package func probe(name: String) throws(SafeFileError) {
        let target = PathText.join(path, name)
        if let problem = obstacle(name) { throw SafeFileError(path: target, problem: problem) }
        let (fd, temporary) = try makeTemporary(for: target)
        close(fd)
        unlinkat(descriptor, temporary, 0)
    }

    // MARK: - Opening

    private enum Located {
        case folder(SafeFolder)
        case missing(shown: String)
    }

    /// Walks to the folder `path` (`PathWalk`) and opens it as a folder to write into.
    private static func locate(_ path: String, create: Bool, modes: FileModes) throws(SafeFileError) -> Located {
        // `nothere/..` is `.`, and `lnk/.` is `lnk` (refused): see `WritePath`.
        let settled = WritePath.settle(path)
        let (parent, name) = PathText.split(settled)
        let creating = create ? modes : nil
        // `/`, `.` and a path ending in `..` name a folder by walking to it: nothing to create.
        if settled == "/" || settled == "." || name == ".." {
            switch try PathWalk.walk(settled, creating: creating, for: path) {
            case .missing(let shown): return .missing(shown: shown)
            case .folder(let walked, let shown):
                let fd = openat(walked, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                let code = errno
                close(walked)
                guard fd >= 0 else { throw SafeFileError(path: path, problem: .system(shown, errno: code)) }
                return .folder(try checked(fd, path: path, shown: shown, modes: modes))
            }
        }
        switch try PathWalk.walk(parent, creating: creating, for: path) {
        case .missing(let shown): return .missing(shown: shown)
        case .folder(let parentFD, let shown):
            defer { close(parentFD) }
            var info = stat()
            if !create, fstatat(parentFD, name, &info, AT_SYMLINK_NOFOLLOW) != 0, errno == ENOENT {
                return .missing(shown: PathText.join(shown, name))
            }
            return .folder(try makeChild(name, in: parentFD, parentPath: shown, as: path, modes: modes, create: create))
        }
    }

    /// Opens the folder `name` of the folder open at `parentFD` without following a link there,
    /// creating it first when `create`; checks it (see `checked`). `target` is the path the caller
    /// asked for: the folder's `path`, and the path of its errors.
    private static func makeChild(
        _ name: String, in parentFD: Int32, parentPath: String, as target: String, modes: FileModes, create: Bool
    ) throws(SafeFileError) -> SafeFolder {
        let shown = PathText.join(parentPath, name)
        // A folder is only ever made or opened as a real child: `..` would step out of it.
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw SafeFileError(path: target, problem: .dotName(shown))
        }
        let created = create && mkdirat(parentFD, name, modes.folder) == 0
        if create, !created, errno != EEXIST { throw SafeFileError(path: target, problem: .system(shown, errno: errno)) }
        let fd = openat(parentFD, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            var info = stat()
            guard fstatat(parentFD, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                let problem: SafeFileError.Problem = errno == ENOENT ? .missingFolder(shown) : .system(shown, errno: code)
                throw SafeFileError(path: target, problem: problem)
            }
            switch info.st_mode & S_IFMT {
            // A link at the name itself (Linux says ELOOP, or ENOTDIR with O_DIRECTORY).
            case S_IFLNK: throw SafeFileError(path: target, problem: .symbolicLink(shown))
            case S_IFDIR: throw SafeFileError(path: target, problem: .system(shown, errno: code))
            default: throw SafeFileError(path: target, problem: .notAFolder(shown))
            }
        }
        let folder = try checked(fd, path: target, shown: shown, modes: modes)
        if created { fchmod(fd, modes.folder) }
        return folder
    }

    /// Refuses a descriptor that belongs to another user (but root); closes it then. `path` is
    /// the folder's path as the caller gave it, `shown` the component in words.
    private static func checked(_ fd: Int32, path target: String, shown: String, modes: FileModes) throws(SafeFileError) -> SafeFolder {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw SafeFileError(path: target, problem: .system(shown, errno: code))
        }
        guard info.st_uid == geteuid() || info.st_uid == 0 else {
            close(fd)
            throw SafeFileError(path: target, problem: .otherOwner(shown, uid: info.st_uid))
        }
        return SafeFolder(path: target, descriptor: fd, modes: modes)
    }
}
