import Foundation

/// Walks the folders of a path the program writes into, one component at a time, following a
/// symbolic link only when root or the user running the program owns it.
///
/// Policy (SPEC §9; docs/reliability.md, "Hardening: links on the way to an output"): the walk
/// starts at `/` (an absolute path) or at the current folder (a relative one; it is where the
/// caller chose to be, so it is not judged) and opens each component with `openat(folder, name,
/// O_PATH|O_NOFOLLOW)` on the descriptor of the folder before it, then `fstat`s that
/// descriptor: what is judged is what is used, whatever is renamed meanwhile.
/// - A folder is walked into. Its owner is not judged on the way (a folder of another user can
///   only rearrange what is in it, and each thing in it is judged in turn); the folder the
///   program writes into is (`SafeFolder`).
/// - A symbolic link is followed only when the link itself belongs to root or to the effective
///   user (`geteuid()`): only they can have chosen where it points, and a link cannot be changed,
///   only replaced by another link, which is judged in its turn. So a link another user planted
///   (`/tmp/reports` → `/etc`, the classic `/tmp` attack) is refused wherever it is; this is the
///   kernel's `fs.protected_symlinks` rule for sticky folders, applied in every folder and
///   without its exception for a link of the folder's owner. Its text is read from the same
///   descriptor (`readlinkat(fd, "")`); a relative text is walked from the link's folder, an
///   absolute one from `/`, by the same rules; at most 40 links per path (`ELOOP`).
/// - `..` is the parent the system has (`openat(fd, "..")`): after a link, its target's parent,
///   as `open(2)` reads `lnk/..`, and as `WritePath` and `FileIdentity` read it.
/// - Anything else is not a folder. A missing component of the caller's own text is created
///   when asked (`mkdirat`, then opened without following a link, checked to be ours and given
///   `modes.folder`); one named by a link's text never is (like `mkdir -p`, a link that points
///   to nothing is an error).
package enum PathWalk {
    /// Where a walk ended.
    package enum End {
        /// Every component is there: the descriptor of the last one (an `O_PATH` descriptor or a
        /// readable one, a folder; the caller closes it) and its path in words.
        case folder(Int32, shown: String)
        /// The component `shown` is not there (the walk was not asked to create it).
        case missing(shown: String)
    }

    /// `O_PATH` (Linux `<asm-generic/fcntl.h>`, the same on x86-64 and arm64): a descriptor that
    /// names a file without opening it, enough for `fstat`, `readlinkat` and the `*at` calls.
    /// Swift's Glibc module does not export it.
    static let pathOnly: Int32 = 0o10000000

    /// The most links one path may pass through (the kernel's own limit).
    static let linkLimit = 40

    /// Walks every component of `path` (already settled by `WritePath`).
    /// - Parameters:
    ///   - creating: the modes of the folders to create when missing; nil: create nothing.
    ///   - target: the path the caller asked to write (for the error).
    /// - Throws: `SafeFileError` naming the component at fault.
    static func walk(_ path: String, creating modes: FileModes?, for target: String) throws(SafeFileError) -> End {
        let absolute = path.hasPrefix("/")
        var shown = absolute ? "/" : "."
        var fd = open(shown, pathOnly | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw SafeFileError(path: target, problem: .system(shown, errno: errno)) }
        // The components left, last first, each with the link whose text named it (nil: the
        // caller's own text, which may be created).
        var todo: [(name: String, link: (shown: String, text: String)?)] = components(path).reversed().map { ($0, nil) }
        var links = 0
        func fail(_ problem: SafeFileError.Problem) -> SafeFileError {
            close(fd)
            return SafeFileError(path: target, problem: problem)
        }
        while let next = todo.popLast() {
            let (name, link) = next
            if name == "." { continue }
            let here = PathText.join(shown, name)
            if name == ".." {
                let parent = openat(fd, "..", pathOnly | O_DIRECTORY | O_CLOEXEC)
                guard parent >= 0 else { throw fail(.system(here, errno: errno)) }
                close(fd)
                fd = parent
                shown = here
                continue
            }
            var child = openat(fd, name, pathOnly | O_NOFOLLOW | O_CLOEXEC)
            if child < 0 {
                let code = errno
                guard code == ENOENT else { throw fail(.system(here, errno: code)) }
                if let link { throw fail(.danglingLink(link.shown, target: link.text)) }
                guard let modes else {
                    close(fd)
                    return .missing(shown: here)
                }
                if mkdirat(fd, name, modes.folder) == 0 {
                    let made = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                    if made >= 0 {
                        var info = stat()
                        guard fstat(made, &info) == 0 else {
                            let code = errno
                            close(made)
                            throw fail(.system(here, errno: code))
                        }
                        guard info.st_uid == geteuid() else {
                            close(made)
                            throw fail(.otherOwner(here, uid: info.st_uid))
                        }
                        // mkdirat's mode passes through the umask: set it on the descriptor.
                        fchmod(made, modes.folder)
                        close(fd)
                        fd = made
                        shown = here
                        continue
                    }
                } else if errno != EEXIST {
                    throw fail(.system(here, errno: errno))
                }
                // Made by someone else meanwhile: judged like anything found there.
                child = openat(fd, name, pathOnly | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else { throw fail(.system(here, errno: errno)) }
            }
            var info = stat()
            guard fstat(child, &info) == 0 else {
                let code = errno
                close(child)
                throw fail(.system(here, errno: code))
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                close(fd)
                fd = child
                shown = here
            case S_IFLNK:
                defer { close(child) }
                guard info.st_uid == 0 || info.st_uid == geteuid() else { throw fail(.untrustedLink(here, uid: info.st_uid)) }
                links += 1
                guard links <= linkLimit, let text = linkText(child), !text.isEmpty else {
                    throw fail(.system(here, errno: links > linkLimit ? ELOOP : ENOENT))
                }
                todo += components(text).reversed().map { ($0, (here, text)) }
                if text.hasPrefix("/") {
                    let root = open("/", pathOnly | O_DIRECTORY | O_CLOEXEC)
                    guard root >= 0 else { throw fail(.system("/", errno: errno)) }
                    close(fd)
                    fd = root
                    shown = "/"
                }
            default:
                close(child)
                throw fail(.notAFolder(here))
            }
        }
        return .folder(fd, shown: shown)
    }

    /// The names of `path`, without empty ones (repeated and trailing slashes).
    static func components(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    /// The text of the link open at `fd` (`O_PATH|O_NOFOLLOW`), or nil.
    private static func linkText(_ fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlinkat(fd, "", &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
