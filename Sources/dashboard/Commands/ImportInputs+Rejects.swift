import DashboardCore
import Foundation

/// `--rejects FILE` of import and check: every rejected row as CSV.
///
/// Policy: the file is written by `CSVWriter` (formula protection, RFC 4180 quoting, CRLF)
/// through `SafeFolder` (a new file at an unpredictable name, mode from the umask (`FileModes`), renamed
/// over FILE: an existing FILE, even a hard or symbolic link, is replaced, never written
/// through). Its folder must exist, not be a symbolic link and belong to the user (or root), and
/// a link on the way to it is followed only when root or the user owns it (`PathWalk`).
extension ImportInputs {
    /// The header of a rejects file.
    static let rejectsHeader = ["file", "line", "column", "code", "value", "message"]

    /// Refuses `--rejects` paths that are the database or an input (64, see `OutputPathGuard`),
    /// then makes sure FILE can be written, before anything is imported: its folder is opened
    /// and a temporary file is created there and removed; FILE itself is not touched.
    /// - Throws: `CommandError` 64 for a protected path, 74 when FILE cannot be written.
    static func prepareRejectsFile(_ invocation: Invocation) throws {
        guard let path = invocation.arguments.value("rejects") else { return }
        let outputs = OutputPathGuard(database: invocation.global.databasePath, inputs: invocation.arguments.positionals)
        try outputs.checkFile("--rejects", path)
        do {
            try SafeFolder.open(PathText.parent(path), create: false, modes: invocation.fileModes).probe(name: PathText.name(path))
        } catch {
            throw rejectsFailure(path, error, before: true)
        }
    }

    /// Writes the rejected rows of `problems` to `path` as CSV (see the policy above), never over
    /// the database or an input (checked again on the open folder: `ProtectedFiles`), streamed
    /// from the spool one row at a time: memory stays bounded whatever the number of rejects.
    /// - Throws: `CommandError` 74 naming the path and the reason.
    static func writeRejects(_ problems: ProblemSpool, to path: String, invocation: Invocation) throws {
        // The guard's files again, checked on the folder's descriptor as the file is written.
        let outputs = OutputPathGuard(database: invocation.global.databasePath, inputs: invocation.arguments.positionals)
        do {
            let folder = try SafeFolder.open(
                PathText.parent(path), create: false, protecting: outputs.protectedFiles, modes: invocation.fileModes)
            try folder.write(name: PathText.name(path)) { file in
                file.write(CSVWriter.line(rejectsHeader))
                try spoolRead {
                    try problems.forEachProblem(severity: .error) { p in
                        file.write(CSVWriter.line([p.file, String(p.line), p.column, p.code.rawValue, p.value, p.message]))
                    }
                }
            }
        } catch let error as SafeFileError {
            throw rejectsFailure(path, error, before: false)
        }
    }

    private static func rejectsFailure(_ path: String, _ error: SafeFileError, before: Bool) -> CommandError {
        let hint = before ? "give a file in a folder you can write to; nothing was imported" : error.hint
        return CommandError(.ioError, "cannot write --rejects \(path): \(error.reason)", hint: hint)
    }
}
