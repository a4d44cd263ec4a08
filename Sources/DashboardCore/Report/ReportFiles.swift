import Foundation

/// File names for reports written with `--out DIR`: safe whatever a course id holds.
///
/// Policy: a course's file is `course-<slug>-<hash>.<ext>`: the slug keeps ASCII letters and
/// digits (lowercased) and turns runs of anything else into `-`, at most 36 characters; the
/// hash is the first 8 hex digits of the id's SHA-256, so two ids never share a file. No name
/// holds a path separator, starts with a dot, or is a reserved device name, and none is
/// `index`.
public enum ReportFileNames {
    public static func index(_ ext: String) -> String { "index." + ext }

    public static func course(_ courseID: String, ext: String) -> String {
        "course-" + slug(courseID) + "-" + shortHash(courseID) + "." + ext
    }

    static func slug(_ text: String) -> String {
        var out = ""
        var dash = false
        for scalar in text.unicodeScalars {
            let v = scalar.value
            let isLetterOrDigit = (0x30...0x39).contains(v) || (0x41...0x5A).contains(v) || (0x61...0x7A).contains(v)
            if isLetterOrDigit {
                if dash, !out.isEmpty {
                    // A dash and a letter would go past 36: stop here rather than end on a dash.
                    if out.count + 2 > 36 { break }
                    out.append("-")
                }
                dash = false
                let lower = (0x41...0x5A).contains(v) ? v + 0x20 : v
                out.unicodeScalars.append(Unicode.Scalar(UInt8(lower)))
            } else {
                dash = true
            }
            if out.count >= 36 { break }
        }
        return out.isEmpty ? "x" : out
    }

    static func shortHash(_ text: String) -> String {
        let digest = SHA256()
        digest.update(Array(text.utf8))
        return String(digest.finalizeHex().prefix(8))
    }
}

/// Where reports are written; injected so the writer can be tested without a disk.
public protocol ReportFileSystem {
    /// Creates `path` (mode 0700) if missing; fails if it exists and is not a directory.
    func ensureDirectory(_ path: String) throws
    /// Writes `contents` to `directory/name` atomically (a temporary file, then a rename),
    /// mode 0600.
    func write(_ contents: String, name: String, in directory: String) throws
}

/// Why writing reports failed.
public struct ReportWriteError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "cannot write \(path): \(reason)" }
}

/// The real disk.
public struct LocalReportFileSystem: ReportFileSystem {
    public init() {}

    public func ensureDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw ReportWriteError(path: path, reason: "it is a file, not a folder") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ReportWriteError(path: path, reason: error.localizedDescription)
        }
    }

    public func write(_ contents: String, name: String, in directory: String) throws {
        precondition(!name.contains("/") && name != "." && name != "..", "report file names never leave their folder")
        let final = directory + "/" + name
        let temporary = directory + "/.\(name).tmp-\(getpid())"
        let fd = open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw ReportWriteError(path: final, reason: String(cString: strerror(errno))) }
        let failed = FileDescriptorWriter.writeAll(fd, contents)
        if failed != 0 {
            close(fd)
            unlink(temporary)
            throw ReportWriteError(path: final, reason: String(cString: strerror(failed)))
        }
        if fsync(fd) != 0 || close(fd) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw ReportWriteError(path: final, reason: reason)
        }
        if rename(temporary, final) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw ReportWriteError(path: final, reason: reason)
        }
    }
}
