import DashboardCore
import Foundation

/// Turns the PATH arguments of `import`, `check` and `nightly` into input files.
///
/// Policy:
/// - A folder means every `*.csv` in it (by name, sorted, hidden files skipped). Every entry is
///   looked at with `stat` before anything opens it: one that is not a regular file (a FIFO, a
///   socket, a device, a folder named `*.csv`, a symbolic link to nothing or a loop of them)
///   is never opened, and fails the whole run as `unreadable_file` (a file-level problem, exit
///   65, nothing imported): a sync must not run on a folder it could not read whole.
/// - `-` is standard input, and a FIFO (or a character device such as `/dev/stdin`) named on
///   the command line is read as a stream: taken in once through `StreamSpool` (checked while
///   it is read, at most `StreamSpool.defaultLimit` bytes, a spool file that never has a name).
///   Standard input named twice (`- -`, or `-` and `/dev/stdin`) is a usage error.
/// - A path that is missing, a symbolic link to nothing, a loop of links, a socket or a block
///   device is exit 66, named as such.
enum InputPaths {
    /// Lowers the stream limit for the tests (bytes). Not documented for users.
    static let testLimitVariable = "DASHBOARD_TEST_STREAM_LIMIT"

    /// - Throws: `CommandError` 64 without paths or with standard input named twice, 66 for a
    ///   missing or unusable path or a folder with no CSV, 65 for a stream over the limit, 74
    ///   when a stream cannot be read or held.
    /// - Parameter allowStreams: false for `nightly --imports DIR`, a drop folder that cron reads
    ///   unattended: a FIFO or device there is refused (66) instead of waiting for a writer.
    static func files(
        _ paths: [String], command: String, options: ImportOptions, environment: [String: String], allowStreams: Bool = true
    ) throws -> [InputFile] {
        guard !paths.isEmpty else {
            throw CommandError.usage("give at least one file or folder to \(command)", command: command)
        }
        let dashes = paths.filter { $0 == "-" }.count
        if dashes > 1 {
            throw CommandError.usage(
                "standard input was named \(dashes == 2 ? "twice" : "\(dashes) times") (-); it can be read only once", command: command)
        }
        // `-` and a name of standard input itself: one input named twice, whatever stdin is
        // (a stream is caught below by its identity; a regular file would be read twice).
        if dashes == 1, let alias = paths.first(where: { ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"].contains($0) }) {
            throw CommandError.usage("standard input was named twice (- and \(alias)); it can be read only once", command: command)
        }
        var limit = StreamSpool.defaultLimit
        if let text = environment[testLimitVariable], let value = Int(text), value > 0 { limit = value }
        let reading = CSVReaderOptions(delimiter: options.delimiter, encoding: options.encoding, chunkSize: options.chunkSize)
        var streams: [(device: UInt64, inode: UInt64, name: String)] = []
        var files: [InputFile] = []

        func takeStream(_ fd: Int32, name: String, given: String) throws {
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
                let identity = (UInt64(info.st_dev), UInt64(info.st_ino))
                if let earlier = streams.first(where: { $0.device == identity.0 && $0.inode == identity.1 }) {
                    let both = "\(earlier.name) and \(given)"
                    throw CommandError.usage(
                        earlier.name == "-" || given == "-"
                            ? "standard input was named twice (\(both)); it can be read only once"
                            : "the same stream was named twice (\(both)); it can be read only once", command: command)
                }
                streams.append((identity.0, identity.1, given))
            }
            files.append(try spool(fd, name: name, options: reading, limit: limit))
        }

        for path in paths {
            if path == "-" {
                try takeStream(STDIN_FILENO, name: "stdin", given: "-")
                continue
            }
            let kind = PathInspection.inspect(path)
            switch kind {
            case .directory:
                files += try folder(path)
            case .regularFile:
                guard access(path, R_OK) == 0 else {
                    throw CommandError(.noInput, "\(path) is not readable", hint: "check the file's permissions")
                }
                files.append(InputFile.onDisk(path))
            case .fifo where !allowStreams, .characterDevice where !allowStreams:
                throw CommandError(
                    .noInput, "\(path) is a \(kind == .fifo ? "FIFO" : "character device"), not a folder of exports",
                    hint: "give the drop folder the exports are written to")
            case .fifo, .characterDevice:
                // Named on purpose: wait for a writer, as `cat` would.
                let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
                guard fd >= 0 else {
                    throw CommandError(.noInput, "cannot open \(path): \(String(cString: strerror(errno)))", hint: "check the path")
                }
                defer { close(fd) }
                try takeStream(fd, name: path, given: path)
            case .missing:
                throw CommandError(.noInput, "\(path) does not exist", hint: "check the path; give a CSV file or a folder of them")
            case .danglingSymlink, .symlinkLoop:
                throw CommandError(
                    .noInput, PathInspection.describe(path, kind), hint: "point the link at the export, or give the file itself")
            case .socket, .blockDevice, .inaccessible:
                throw CommandError(
                    .noInput, PathInspection.describe(path, kind),
                    hint: "give a CSV file, a folder of them, or - for standard input")
            }
        }
        return files
    }

    /// Every `*.csv` of a folder; an entry that is not a regular file becomes an input that fails
    /// as `unreadable_file` when the importer opens it (it is never opened itself).
    private static func folder(_ path: String) throws -> [InputFile] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            let reason = access(path, R_OK | X_OK) == 0 ? "it cannot be read" : String(cString: strerror(errno))
            throw CommandError(.noInput, "cannot list the folder \(path): \(reason)", hint: "check the folder's permissions for this user")
        }
        let csvs = names.filter(ImportInputs.isInputName).sorted()
        guard !csvs.isEmpty else {
            throw CommandError(.noInput, "\(path) holds no *.csv file", hint: "put courses.csv and tasks.csv in it")
        }
        let base = path.hasSuffix("/") ? path : path + "/"
        return csvs.map { name in
            let file = base + name
            let kind = PathInspection.inspect(file)
            switch kind {
            case .regularFile, .missing, .inaccessible:
                // Opened as a file; one that changed since is refused on the open descriptor.
                return InputFile.onDisk(file)
            default:
                let reason = PathInspection.describe("it", kind)
                return InputFile(path: file, size: 0) { throw ByteSourceError(path: file, reason: reason, notRegularFile: true) }
            }
        }
    }

    /// Takes a stream in (see `StreamSpool`), mapping its failures to exit codes.
    private static func spool(_ fd: Int32, name: String, options: CSVReaderOptions, limit: Int) throws -> InputFile {
        let directory = NSTemporaryDirectory()
        do {
            return try StreamSpool.input(reading: fd, name: name, directory: directory, options: options, limit: limit)
        } catch {
            switch error {
            case .tooLarge(let limit):
                throw CommandError(
                    .dataError, "\(name) holds more than \(size(limit)), the most a stream may hold; nothing was imported",
                    hint: "save the export to a file and import the file (files have no such limit)")
            case .cannotCreate(let directory, let reason):
                throw CommandError(
                    .ioError, "cannot make a temporary file for \(name) in \(directory): \(reason)",
                    hint: "set TMPDIR to a folder you can write to; nothing was imported")
            case .readFailed(let reason):
                throw CommandError(.ioError, "reading \(name) failed: \(reason); nothing was imported")
            case .writeFailed(let directory, let reason):
                throw CommandError(
                    .ioError, "cannot hold \(name) in the temporary folder \(directory): \(reason); nothing was imported",
                    hint: "free some space there, or set TMPDIR to another folder (nothing was left behind)")
            }
        }
    }

    /// `1 GiB`, `64 MiB`, or a number of bytes.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        return "\(bytes) bytes"
    }
}
