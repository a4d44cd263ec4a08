import Foundation

/// File names for reports written with `--out DIR`: safe whatever a course id holds.
///
/// Policy: a course's file is `course-<slug>-<hash>.<ext>`: the slug keeps ASCII letters and
/// digits (lowercased) and turns runs of anything else into `-`, at most 36 characters; the
/// hash is the first 8 hex digits of the id's SHA-256, so two ids never share a file. No name
/// holds a path separator, starts with a dot, or is a reserved device name, and none is
/// `index`.
package enum ReportFileNames {
    package static func index(_ ext: String) -> String { "index." + ext }

    package static func course(_ courseID: String, ext: String) -> String {
        "course-" + slug(courseID) + "-" + shortHash(courseID) + "." + ext
    }

    /// Page `page` (2 or more) of a big course's HTML (`HTMLRenderer.coursePages`):
    /// `course-<slug>-<hash>-p<page>.<ext>`; its first page is `course(_:ext:)`.
    package static func coursePage(_ courseID: String, page: Int, ext: String) -> String {
        page <= 1 ? course(courseID, ext: ext) : "course-" + slug(courseID) + "-" + shortHash(courseID) + "-p\(page)." + ext
    }

    /// Whether `--out` could write a file of this name for `ext`: `index.<ext>`,
    /// `course-<slug>-<8 hex digits>.<ext>` or a further page of it, `…-p<2 to 99999>.<ext>`
    /// (the output guard and the check before a run, `ReportSetLayout`, read names with it).
    package static func couldWrite(_ name: String, ext: String) -> Bool {
        if name == index(ext) { return true }
        let suffix = "." + ext
        guard name.hasPrefix("course-"), name.hasSuffix(suffix) else { return false }
        var stem = name.dropFirst("course-".count).dropLast(suffix.count)
        if let dash = stem.lastIndex(of: "-"), stem[stem.index(after: dash)...].hasPrefix("p") {
            let digits = stem[stem.index(dash, offsetBy: 2)...]
            guard (1...5).contains(digits.count), digits.first != "0", digits.allSatisfy({ ("0"..."9").contains($0) }),
                Int(digits) ?? 0 >= 2
            else {
                return false
            }
            stem = stem[..<dash]
        }
        return isSlugAndHash(stem)
    }

    /// Whether `text` is `<slug>-<8 hex digits>` as `slug` and `shortHash` make it (course files,
    /// teachers' folders).
    static func isSlugAndHash(_ text: Substring) -> Bool {
        let stem = text.utf8
        guard stem.count >= 10, stem.count <= 45 else { return false }
        let hash = stem.suffix(8)
        let slug = stem.dropLast(9)
        let hex = { (b: UInt8) in (0x30...0x39).contains(b) || (0x61...0x66).contains(b) }
        let slugByte = { (b: UInt8) in (0x30...0x39).contains(b) || (0x61...0x7A).contains(b) || b == 0x2D }
        return stem.dropLast(8).last == 0x2D && hash.allSatisfy(hex) && slug.allSatisfy(slugByte)
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
package protocol ReportFileSystem {
    /// Creates `path` and its missing parents (the folder mode of `FileModes`) if missing; fails if it
    /// (or a parent) is not a folder, or it is a symbolic link or another user's folder.
    func ensureDirectory(_ path: String) throws
    /// Writes `contents` to `directory/name` as a new file (the file mode of `FileModes`) renamed over
    /// the old one.
    func write(_ contents: String, name: String, in directory: String) throws
    /// Writes `directory/name` like `write(_:name:in:)`, from the pieces `body` emits in order,
    /// so a large page (the index of tens of thousands of courses) is never held whole.
    func write(name: String, in directory: String, pieces body: ((String) -> Void) throws -> Void) throws
}

extension ReportFileSystem {
    /// Collects the pieces and writes them at once: for file systems that hold files in memory
    /// (tests).
    package func write(name: String, in directory: String, pieces body: ((String) -> Void) throws -> Void) throws {
        var contents = ""
        try body { contents += $0 }
        try write(contents, name: name, in: directory)
    }
}

/// Why writing reports failed.
package struct ReportWriteError: Error, Equatable, CustomStringConvertible {
    package let path: String
    package let reason: String
    package let hint: String

    package init(path: String, reason: String, hint: String = "check that the folder can be written") {
        self.path = path
        self.reason = reason
        self.hint = hint
    }

    package init(_ error: SafeFileError) {
        self.init(path: error.path, reason: error.reason, hint: error.hint)
    }

    package var description: String { "cannot write \(path): \(reason)" }
}

/// The real disk, through `SafeFolder`: the report folder is opened once without following a
/// link and checked to be ours, and every file is created new and renamed into place.
package final class LocalReportFileSystem: ReportFileSystem {
    private var folders: [String: SafeFolder] = [:]
    private let protected: ProtectedFiles
    private let modes: FileModes

    /// - Parameters:
    ///   - protecting: what no report file may replace (the database, the inputs).
    ///   - modes: the modes of the files and folders it creates (from the umask).
    package init(protecting: ProtectedFiles = ProtectedFiles(), modes: FileModes = .ownerOnly) {
        protected = protecting
        self.modes = modes
    }

    package func ensureDirectory(_ path: String) throws {
        _ = try folder(path, create: true)
    }

    /// Writes into the folder `ensureDirectory` opened (else an existing one, never created).
    package func write(_ contents: String, name: String, in directory: String) throws {
        do {
            try folder(directory, create: false).write(contents, name: name)
        } catch let error as SafeFileError {
            throw ReportWriteError(error)
        }
    }

    /// Streams the pieces into the new file (`SafeFolder.write(name:_:)`, 64 KiB at a time).
    package func write(name: String, in directory: String, pieces body: ((String) -> Void) throws -> Void) throws {
        do {
            try folder(directory, create: false).write(name: name) { sink in try body { sink.write($0) } }
        } catch let error as SafeFileError {
            throw ReportWriteError(error)
        }
    }

    private func folder(_ path: String, create: Bool) throws(ReportWriteError) -> SafeFolder {
        if let open = folders[path] { return open }
        do {
            let folder = try SafeFolder.open(path, create: create, protecting: protected, modes: modes)
            folders[path] = folder
            return folder
        } catch {
            throw ReportWriteError(error)
        }
    }
}
