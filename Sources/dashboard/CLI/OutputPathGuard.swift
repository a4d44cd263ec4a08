import DashboardCore
import Foundation

/// Refuses every output path that would replace what the run reads: the one check behind
/// `--rejects` (import, check), `--out` (report) and `--reports` (nightly).
///
/// Policy (SPEC §9): an output file that is, or resolves to (same device and inode, through
/// symbolic or hard links; or the same folder and name when it does not exist yet), the
/// database, its `-wal`, `-shm` or `-journal`, or an input file of the run is refused with 64
/// before anything is read or written, naming both paths. So is an output folder that is an
/// input folder of the run (a nightly writing into its drop folder would import its own reports
/// the next night), and a `--rejects` file inside an input folder. For a report folder every
/// name the run may write there is checked: `index.<ext>`, each existing `course-…` file of
/// that form, and the protected files' own names when they are of that form. An input given
/// as `-` protects the regular file standard input is (`< tasks.csv`). Paths are compared as
/// the writer will open them (`WritePath.settle`: `nothere/..` is `.`). An output name that is
/// not a regular file (a device, FIFO, socket, or a link to one or through `/proc`, such as
/// `/dev/stdout`: `ReplaceableName`) is refused too, with 64, and so is an output file that
/// names a folder (`--rejects out/`, `--metrics ..`); for a report folder, every name of the set
/// is checked on the folder's descriptor, as the writer will open it (`checkReportNames`).
struct OutputPathGuard {
    private struct Protected {
        let role: String
        let path: String
        let identity: FileIdentity
    }

    private var files: [Protected] = []
    private var folders: [Protected] = []

    /// - Parameters:
    ///   - database: the `--db` path; it and its `-wal`, `-shm` and `-journal` are protected,
    ///     next to the path given and next to the file it resolves to.
    ///   - inputs: the PATH arguments (`-` stands for the file standard input is, if any); a
    ///     folder protects itself and every input file found in it (`ImportInputs.isInputName`).
    init(database: String, inputs: [String]) {
        if database != ":memory:" {
            let roles = [
                ("", "the database"), ("-wal", "the database's write-ahead log"), ("-shm", "the database's shared-memory file"),
                ("-journal", "the database's rollback journal"),
            ]
            // SQLite names its journals after the file a symbolic link points to: both are kept.
            var names = [database]
            var info = stat()
            if lstat(database, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(database, nil) {
                names.append(String(cString: resolved))
                free(resolved)
            }
            for name in names {
                for (suffix, role) in roles { files.append(Self.protected(role, name + suffix)) }
            }
        }
        // `- < tasks.csv`: the file standard input is, is an input file.
        var info = stat()
        if inputs.contains("-"), fstat(STDIN_FILENO, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
            let identity = FileIdentity.inode(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            files.append(Protected(role: "the file on standard input", path: "(-)", identity: identity))
        }
        // An input that is not there is refused later as missing (66), before anything is written.
        for input in inputs where input != "-" && FileIdentity.exists(input) {
            guard FileIdentity.isFolder(input) else {
                files.append(Self.protected("the input file", input))
                continue
            }
            folders.append(Self.protected("the input folder", input))
            let names = (try? FileManager.default.contentsOfDirectory(atPath: input)) ?? []
            for name in names.sorted() where ImportInputs.isInputName(name) {
                files.append(Self.protected("the input file", PathText.join(input, name)))
            }
        }
    }

    /// The protected files and input folders, for `SafeFolder` to check again on the descriptor
    /// it writes through (whatever the spelling of the path).
    var protectedFiles: ProtectedFiles {
        var protected = ProtectedFiles()
        for file in files { protected.protectFile(file.identity, path: file.path) }
        for folder in folders { protected.protectFolder(folder.identity, path: folder.path) }
        return protected
    }

    /// Refuses `path` (given as `option`) when it is a protected file, not a regular file, a
    /// folder (a name ending in `/`, or a folder already there, `..` included), or lies in an
    /// input folder; `example` is the file name the hints suggest.
    /// - Throws: `CommandError` 64.
    func checkFile(_ option: String, _ path: String, example: String = "rejects.csv") throws {
        try Self.notEmpty(option, path)
        let settled = WritePath.settle(path)
        let identity = FileIdentity.of(settled)
        if let hit = files.first(where: { $0.identity == identity }) {
            throw Self.refusal("\(option) \(path) is \(hit.role) \(hit.path); refusing to overwrite it")
        }
        if let kind = ReplaceableName.obstacle(settled) {
            throw Self.notRegular("\(option) \(path) is not a regular file (\(kind))", hint: "give a file name such as \(example)")
        }
        var info = stat()
        if path.hasSuffix("/") || (stat(settled, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR) {
            throw CommandError(.usage, "\(option) \(path) names a folder", hint: "give a file name, like \(example)")
        }
        let folder = FileIdentity.of(PathText.parent(settled))
        if let hit = folders.first(where: { $0.identity == folder }) {
            throw Self.refusal(
                "\(option) \(path) is inside \(hit.role) \(hit.path); the next run over that folder would read it as input")
        }
    }

    /// Refuses a report folder (`option` given as `shown`, the folder written being `path`)
    /// that is a protected file or an input folder, or in which a file the run may write
    /// (`index.<ext>` or `course-…` names for the given extensions) is a protected file, however
    /// the path is spelled (what is in the way of a name: `checkReportNames`).
    /// - Throws: `CommandError` 64.
    func checkReportFolder(_ option: String, _ shown: String, writing given: String, extensions: [String], names extra: [String] = [])
        throws
    {
        try Self.notEmpty(option, shown)
        let path = WritePath.settle(given)
        let said = shown == given ? "\(option) \(shown)" : "\(option) \(shown): the folder \(given)"
        let identity = FileIdentity.of(path)
        if let hit = files.first(where: { $0.identity == identity }) {
            throw Self.refusal("\(said) is \(hit.role) \(hit.path); refusing to overwrite it")
        }
        if let hit = folders.first(where: { $0.identity == identity }) {
            throw Self.refusal("\(said) is \(hit.role) \(hit.path); its reports would be read as input by the next run")
        }
        let couldWrite = { (name: String) in extensions.contains { ReportFileNames.couldWrite(name, ext: $0) } }
        var names = extensions.map(ReportFileNames.index) + extra
        names += ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter(couldWrite).sorted()
        names += files.map { PathText.name($0.path) }.filter(couldWrite)
        for name in names {
            let target = FileIdentity.of(PathText.join(path, name))
            if let hit = files.first(where: { $0.identity == target }) {
                throw Self.refusal("\(said) would write \(name) there, which is \(hit.role) \(hit.path); refusing to overwrite it")
            }
        }
    }

    /// Before anything is read or written: opens the report folder `given` (`option` given as
    /// `shown`) as the writer will, creating nothing (`SafeFolder.existing`: every link on the
    /// way judged, no link at its name, ours or root's), and checks every name the set `layout`
    /// would write there (`ReportSetLayout.check`: a folder, FIFO, socket, device, a link to one,
    /// a protected file). A folder that is not there yet passes: the writer creates it.
    /// - Parameter cannotWrite: the command's words for a folder that cannot be written into.
    /// - Throws: `CommandError` 64 for a name in the way; `cannotWrite`'s (74) for a folder.
    func checkReportNames(
        _ option: String, _ shown: String, writing given: String, layout: ReportSetLayout,
        cannotWrite: (SafeFileError) -> CommandError
    ) throws {
        do {
            guard let folder = try SafeFolder.existing(given, protecting: protectedFiles) else { return }
            try layout.check(folder)
        } catch let error as SafeFileError {
            throw cannotWrite(error)
        } catch let obstacle as ReportSetObstacle {
            throw Self.refusal(option, shown, obstacle)
        }
    }

    /// The words of a name in the way of a report set (64).
    static func refusal(_ option: String, _ shown: String, _ obstacle: ReportSetObstacle) -> CommandError {
        let said = obstacle.folder == shown ? "\(option) \(shown)" : "\(option) \(shown): the folder \(obstacle.folder)"
        switch obstacle.problem {
        case .protectedFile(_, let protected):
            return refusal("\(said) would write \(obstacle.name) there, over \(protected), which this run reads; refusing to overwrite it")
        case .notOurLink(let path, let kind):
            return CommandError(
                .usage, "\(said) would point \(obstacle.name) at tonight's reports, but \(path) is \(kind), not a symbolic link",
                hint: "move \(path) away (dashboard keeps a symbolic link there), or give another folder; nothing was read or written")
        default:
            return notRegular(
                "\(said) would write \(obstacle.name) there, which is not a regular file (\(obstacle.kind ?? "not a file"))",
                hint: "give another folder")
        }
    }

    /// `--out ""` is a slip, not the current folder.
    private static func notEmpty(_ option: String, _ path: String) throws {
        guard path.isEmpty else { return }
        throw CommandError(
            .usage, "\(option) needs a path, not an empty string", hint: "give a file or folder name; nothing was read or written")
    }

    private static func protected(_ role: String, _ path: String) -> Protected {
        Protected(role: role, path: path, identity: FileIdentity.of(path))
    }

    private static func notRegular(_ message: String, hint: String) -> CommandError {
        CommandError(
            .usage, message + "; dashboard replaces only regular files",
            hint: hint + ", or remove what is in the way; nothing was read or written")
    }

    private static func refusal(_ message: String) -> CommandError {
        CommandError(.usage, message, hint: "write the output somewhere else; nothing was read or written")
    }
}
