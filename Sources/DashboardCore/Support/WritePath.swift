import Foundation

/// A path to write to, spelled so that the output guard and the writer mean the same folder.
///
/// Policy (SPEC §9): the part of a path that exists is left to the system (a symbolic link on
/// the way is followed as `open` would, so `lnk/..` stays `lnk/..`); the part that does not exist
/// yet — the folders a writer will create — is resolved here, by its text: `.` is dropped and
/// `..` takes back the missing name before it (`nothere/..` is `.`, `a/new/../b` is `a/b`), so no
/// folder is created only to step out of it. `.` components and repeated or trailing slashes of
/// the existing part are dropped too (`out/.` is `out`, so a symbolic link at `out` is seen and
/// refused, never followed). A `.` or `..` that would itself have to be created (under a
/// dangling link or a file) is kept: `SafeFolder` refuses it. Reads the disk with `lstat` only.
package enum WritePath {
    /// `path` with its missing part resolved (see the policy); "" and "." are ".".
    package static func settle(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var existing: [String] = []
        var missing: [String] = []
        var info = stat()
        for part in path.split(separator: "/", omittingEmptySubsequences: true).map(String.init) {
            if part == "." { continue }
            if missing.isEmpty {
                if lstat(text(absolute, existing + [part]), &info) == 0 {
                    existing.append(part)
                } else {
                    missing.append(part)
                }
            } else if part == "..", let last = missing.last, last != "..", last != "." {
                missing.removeLast()
            } else {
                missing.append(part)
            }
        }
        return text(absolute, existing + missing)
    }

    private static func text(_ absolute: Bool, _ parts: [String]) -> String {
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }
}
