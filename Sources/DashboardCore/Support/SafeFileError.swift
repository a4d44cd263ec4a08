import Foundation

/// Why a file or folder could not be written safely (see `SafeFolder`).
///
/// `path` is the path the caller asked for; `reason` names the component that is wrong, so
/// `--out missing/sub` says that `missing` does not exist.
package struct SafeFileError: Error, Equatable, CustomStringConvertible {
    package enum Problem: Equatable, Sendable {
        /// A component of the path does not exist (and was not to be created).
        case missingFolder(String)
        /// A component of the path is a file, not a folder.
        case notAFolder(String)
        /// The folder to write into is a symbolic link: never followed.
        case symbolicLink(String)
        /// A symbolic link on the way belongs to a user other than root and the one running the
        /// program: never followed (`PathWalk`).
        case untrustedLink(String, uid: UInt32)
        /// A symbolic link on the way points to nothing (its text): no folder is created there.
        case danglingLink(String, target: String)
        /// A name the program keeps as its own symbolic link (nightly's `latest`) is something
        /// else (the words say what, e.g. "a folder").
        case notOurLink(String, kind: String)
        /// The folder to write into belongs to another user.
        case otherOwner(String, uid: UInt32)
        /// The final name is a folder, so no file can replace it.
        case finalNameIsFolder(String)
        /// The final name is something a file may not replace (`ReplaceableName`): the words
        /// say what, e.g. "a character device".
        case notRegularFile(String, kind: String)
        /// Writing here would replace, or write into, a file or folder the run protects (the
        /// database or an input: `ProtectedFiles`).
        case protectedFile(String, protected: String)
        /// A folder to create is named `.` or `..`, which name folders that exist.
        case dotName(String)
        /// The system refused (`errno`).
        case system(String, errno: Int32)
    }

    /// The path the caller asked to write.
    package let path: String
    package let problem: Problem

    package init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// The reason in words, naming the component at fault.
    package var reason: String {
        switch problem {
        case .missingFolder(let folder): return "the folder \(folder) does not exist"
        case .notAFolder(let file): return "\(file) is a file, not a folder"
        case .symbolicLink(let link): return "\(link) is a symbolic link, and dashboard never writes through one"
        case .untrustedLink(let link, let uid):
            return "\(link) is a symbolic link owned by another user (uid \(uid)), and dashboard follows only links of root or its own user"
        case .danglingLink(let link, let text): return "\(link) is a symbolic link to \(text), which does not exist"
        case .notOurLink(let name, let kind): return "\(name) is \(kind), not the symbolic link dashboard makes there"
        case .otherOwner(let folder, let uid): return "the folder \(folder) belongs to another user (uid \(uid))"
        case .finalNameIsFolder(let name): return "\(name) is a folder"
        case .notRegularFile(let name, let kind): return "\(name) is not a regular file (\(kind)); dashboard replaces only files"
        case .protectedFile(let name, let protected):
            return "\(name) would replace or write into \(protected), which this run reads; refusing to overwrite it"
        case .dotName(let name): return "\(name) cannot be created: . and .. are folders that exist"
        case .system(let at, let code):
            let text = String(cString: strerror(code))
            return at == path ? text : "\(at): \(text)"
        }
    }

    /// What to do about it.
    package var hint: String {
        switch problem {
        case .missingFolder: return "create the folder first, or give one that exists"
        case .protectedFile: return "write the output somewhere else"
        case .notRegularFile: return "give a file name such as report.csv, or remove what is in the way"
        case .notAFolder, .finalNameIsFolder, .dotName: return "give a path whose folders are folders, or remove what is in the way"
        case .symbolicLink: return "give the folder the link points to, or remove the link"
        case .untrustedLink: return "check where it points, then give that folder itself, or have root or this user make the link"
        case .danglingLink: return "create the folder the link points to, or give one that exists"
        case .notOurLink: return "move it away: dashboard replaces only its own link there"
        case .otherOwner: return "write into a folder this user owns (or run as the folder's owner)"
        case .system: return "check the folder's permissions and the disk"
        }
    }

    package var description: String { "cannot write \(path): \(reason)" }
}
