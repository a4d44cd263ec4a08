import Foundation

/// The reports folder of `nightly` (`--reports`): its dated folders, `latest`, and the
/// retention of old nights, all done on the folder's descriptor (`SafeFolder`), never through
/// a symbolic link.
///
/// Policy: a night is written whole into a fresh hidden folder (`.2026-11-29.partial-<random>`,
/// made with `mkdirat`, which never reuses a name), then published under its date in one step:
/// a rename, or, when the date's folder is there from an earlier run of the same night, an
/// atomic exchange (`renameat2(RENAME_EXCHANGE)`) after which the old night is removed. Only
/// then does `latest`, a symbolic link made at a hidden name and renamed over the old one, point
/// at it. So `latest` and every dated folder are always whole: a run killed at any moment
/// leaves at most a hidden `.partial-` folder, which a later night removes.
package final class NightFolders {
    package let root: SafeFolder
    /// The name of the link to the newest night.
    package static let latest = "latest"

    /// Opens (creating it when missing) the reports folder; folders made in it get
    /// `modes.folder` (the umask's mode, without any bit for others).
    package init(_ path: String, modes: FileModes = .ownerOnly) throws(SafeFileError) {
        root = try SafeFolder.open(path, create: true, modes: modes)
    }

    /// Checks, before a night writes anything, the reports folder `path` and every name the night
    /// will write in it, creating nothing: the folder itself (a link on the way followed only when
    /// root's or ours, no link at its name, ours or root's: `SafeFolder.existing`), the folder of
    /// `date` (a real folder of ours, and every name `layout` writes in it: `ReportSetLayout`,
    /// though the night is written into a fresh folder that replaces it whole), and `latest`
    /// (nothing, or a symbolic link). A folder that is not there yet passes: the night creates it.
    /// - Throws: `SafeFileError` for a folder that cannot be written into; `ReportSetObstacle` for
    ///   a name in the way (`latest` included, relative to `path`).
    package static func check(_ path: String, date: String, layout: ReportSetLayout, protecting: ProtectedFiles) throws {
        guard let root = try SafeFolder.existing(path, protecting: protecting) else { return }
        if let dated = try root.existingChild(date) { try layout.check(dated) }
        if let problem = latestObstacle(in: root) { throw ReportSetObstacle(folder: root.path, name: latest, problem: problem) }
    }

    /// Why `latest` in `root` may not be replaced by the night's link: something else than a
    /// symbolic link is there.
    private static func latestObstacle(in root: SafeFolder) -> SafeFileError.Problem? {
        var info = stat()
        guard fstatat(root.descriptor, latest, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT != S_IFLNK else { return nil }
        let kind: String
        switch PathInspection.kind(mode: info.st_mode) {
        case .directory: kind = "a folder"
        case .regularFile: kind = "a file"
        case .fifo: kind = "a FIFO (named pipe)"
        case .socket: kind = "a socket"
        case .characterDevice: kind = "a character device"
        case .blockDevice: kind = "a block device"
        default: kind = "a special file"
        }
        return .notOurLink(PathText.join(root.path, latest), kind: kind)
    }

    /// A new, empty hidden folder for the night of `date`; its path.
    package func makeStaging(for date: String) throws(SafeFileError) -> String {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<64 {
            let name = ".\(date).partial-" + String(generator.next() as UInt64, radix: 16)
            if mkdirat(root.descriptor, name, root.modes.folder) == 0 {
                // mkdirat's mode passes through the umask: set it on the descriptor, as for every folder.
                let fd = openat(root.descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if fd >= 0 {
                    fchmod(fd, root.modes.folder)
                    close(fd)
                }
                return PathText.join(root.path, name)
            }
            // Named after the night it is for: the hidden name means nothing to the reader.
            if errno != EEXIST { throw SafeFileError(path: path(date), problem: .system(path(date), errno: errno)) }
        }
        throw SafeFileError(path: path(date), problem: .system(path(date), errno: EEXIST))
    }

    /// Publishes the staging folder (a path from `makeStaging`) as `date`, replacing an earlier
    /// run's folder of that date in one step.
    package func publish(_ staging: String, as date: String) throws(SafeFileError) {
        let name = PathText.split(staging).1
        var info = stat()
        // Two nights of the same date publishing at once: the other may rename its folder to the
        // date between the look and the rename (ENOTEMPTY, EEXIST); then this one exchanges.
        var tries = 0
        while fstatat(root.descriptor, date, &info, AT_SYMLINK_NOFOLLOW) != 0 {
            if renameat(root.descriptor, name, root.descriptor, date) == 0 { return }
            tries += 1
            guard errno == ENOTEMPTY || errno == EEXIST, tries < 8 else { throw failure(date) }
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            let problem: SafeFileError.Problem = info.st_mode & S_IFMT == S_IFLNK ? .symbolicLink(path(date)) : .notAFolder(path(date))
            throw SafeFileError(path: path(date), problem: problem)
        }
        if Self.exchange(root.descriptor, name, date) {
            try removeTree(name)
            return
        }
        // No atomic exchange here (an old kernel or file system): move the old night aside
        // first; the date is missing for the moment between the two renames.
        let aside = name + ".old"
        guard renameat(root.descriptor, date, root.descriptor, aside) == 0 else { throw failure(date) }
        guard renameat(root.descriptor, name, root.descriptor, date) == 0 else {
            let code = errno
            renameat(root.descriptor, aside, root.descriptor, date)
            throw SafeFileError(path: path(date), problem: .system(path(date), errno: code))
        }
        try removeTree(aside)
    }

    /// Points `latest` at the folder `date`: a new link at a hidden name, renamed over the old
    /// link. `latest` only moves forward: when it points at a later night (a night written
    /// again with an earlier `--as-of`), it stays. A `latest` that is not a symbolic link (a
    /// folder or file someone made) is refused (`check` refused it before the night began: this
    /// is the second check, for one made meanwhile).
    package func pointLatest(at date: String) throws(SafeFileError) {
        if let problem = Self.latestObstacle(in: root) { throw SafeFileError(path: path(Self.latest), problem: problem) }
        var info = stat()
        if fstatat(root.descriptor, Self.latest, &info, AT_SYMLINK_NOFOLLOW) == 0 {
            if let current = latestTarget(), let night = ReportRetention.date(ofFolder: current),
                let new = ReportRetention.date(ofFolder: date), night > new
            {
                return
            }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<64 {
            let name = ".latest-" + String(generator.next() as UInt64, radix: 16)
            guard symlinkat(date, root.descriptor, name) == 0 else {
                if errno == EEXIST { continue }
                throw failure(name)
            }
            guard renameat(root.descriptor, name, root.descriptor, Self.latest) == 0 else {
                let code = errno
                unlinkat(root.descriptor, name, 0)
                throw SafeFileError(path: path(Self.latest), problem: .system(path(Self.latest), errno: code))
            }
            return
        }
        throw SafeFileError(path: path(Self.latest), problem: .system(path(Self.latest), errno: EEXIST))
    }

    /// Where `latest` points (the link's text), or nil.
    func latestTarget() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = readlinkat(root.descriptor, Self.latest, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes the dated folders `ReportRetention` lets go, and hidden folders of runs that
    /// were killed (`.partial-`, older than a day: a run still writing is never touched).
    /// - Returns: the dated folders removed.
    @discardableResult
    package func removeExpired(tonight: CivilDate, keepDays: Int, now: Date) throws(SafeFileError) -> [String] {
        let folders = try entries().filter { $0.isFolder }
        let expired = ReportRetention.expired(folders.map(\.name), tonight: tonight, keepDays: keepDays)
        for name in expired { try removeTree(name) }
        let dayAgo = now.timeIntervalSince1970 - 86_400
        for entry in folders where entry.name.hasPrefix(".") && entry.name.contains(".partial-") && entry.modified < dayAgo {
            try removeTree(entry.name)
        }
        return expired
    }

    /// The names in the reports folder, with whether each is a real folder (not a link to one)
    /// and its modification time.
    func entries() throws(SafeFileError) -> [(name: String, isFolder: Bool, modified: Double)] {
        let fd = openat(root.descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0, let stream = fdopendir(fd) else {
            if fd >= 0 { close(fd) }
            throw failure(".")
        }
        defer { closedir(stream) }
        var found: [(String, Bool, Double)] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            var info = stat()
            guard fstatat(root.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            found.append((name, info.st_mode & S_IFMT == S_IFDIR, Double(info.st_mtim.tv_sec)))
        }
        return found
    }

    /// Removes the folder `name` of the reports folder and everything in it, never following a
    /// symbolic link (a link inside is removed as a name).
    func removeTree(_ name: String) throws(SafeFileError) {
        try Self.removeTree(name, in: root.descriptor, shown: path(name))
    }

    private static func removeTree(_ name: String, in parent: Int32, shown: String) throws(SafeFileError) {
        let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw SafeFileError(path: shown, problem: .system(shown, errno: errno)) }
        guard let stream = fdopendir(fd) else {
            close(fd)
            throw SafeFileError(path: shown, problem: .system(shown, errno: errno))
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let child = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if child != "." && child != ".." { names.append(child) }
        }
        for child in names {
            var info = stat()
            guard fstatat(fd, child, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                try removeTree(child, in: fd, shown: PathText.join(shown, child))
            } else if unlinkat(fd, child, 0) != 0, errno != ENOENT {
                throw SafeFileError(path: shown, problem: .system(PathText.join(shown, child), errno: errno))
            }
        }
        guard unlinkat(parent, name, AT_REMOVEDIR) == 0 || errno == ENOENT else {
            throw SafeFileError(path: shown, problem: .system(shown, errno: errno))
        }
    }

    private func path(_ name: String) -> String { PathText.join(root.path, name) }

    private func failure(_ name: String) -> SafeFileError {
        SafeFileError(path: path(name), problem: .system(path(name), errno: errno))
    }

    /// `renameat2(…, RENAME_EXCHANGE)`, looked up at run time (Swift's Glibc module does not
    /// declare it); false when the system has no such call or the file system refuses it.
    private static func exchange(_ directory: Int32, _ a: String, _ b: String) -> Bool {
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return false }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let renameExchange: UInt32 = 2
        return renameat2(directory, a, directory, b, renameExchange) == 0
    }
}
