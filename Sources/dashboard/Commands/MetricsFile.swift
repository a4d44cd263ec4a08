import DashboardCore
import Foundation

/// `nightly --metrics FILE`: the night's metrics in the Prometheus text format, for
/// node_exporter's textfile collector (docs/operations.md, "Monitoring").
///
/// Policy: FILE is written as every file of the program is (`SafeFolder`): a new file at an
/// unpredictable hidden name (`.dashboard-<16 hex digits>.tmp`) in FILE's own folder, with the
/// umask's mode without any bit for others (`FileModes`), written, `fsync`ed, then renamed over
/// FILE. A reader sees last night's file or tonight's, whole, never a part of one, whatever
/// stops the run; the collector reads only names ending in `.prom`, so it never reads the
/// temporary file. FILE's folder must exist, not be a symbolic link and belong to the user (or
/// root), and a link on the way to it is followed only when root or the user owns it
/// (`PathWalk`). FILE may not be the database (or its `-wal`, `-shm`, `-journal`), an input file or
/// lie in the drop folder, nor be a device, FIFO or socket (64, before anything is read), and a
/// folder that cannot be written is refused (74) before anything is imported.
enum MetricsFile {
    /// Checks FILE before the night starts (see the policy); FILE itself is not touched.
    /// - Throws: `CommandError` 64 for a protected path or a folder (a name ending in `/`, or a
    ///   folder already there), 74 when FILE's folder
    ///   cannot be written.
    static func prepare(_ path: String, inputs: [String], invocation: Invocation) throws {
        let outputs = OutputPathGuard(database: invocation.global.databasePath, inputs: inputs)
        let example = "/var/lib/dashboard-metrics/dashboard.prom"
        try outputs.checkFile("--metrics", path, example: example)
        do {
            try SafeFolder.open(PathText.parent(path), create: false, modes: invocation.fileModes).probe(name: PathText.name(path))
        } catch {
            throw cannotWrite(path, error.reason, hint: "give a file in a folder you own and can write to; nothing was imported")
        }
    }

    /// Writes `text` as FILE (see the policy), never over the database or an input (checked
    /// again on the open folder: `ProtectedFiles`).
    /// - Throws: `CommandError` 74 naming the path and the reason; FILE is then as it was.
    static func write(_ text: String, to path: String, inputs: [String], invocation: Invocation) throws {
        let outputs = OutputPathGuard(database: invocation.global.databasePath, inputs: inputs)
        do {
            let folder = try SafeFolder.open(
                PathText.parent(path), create: false, protecting: outputs.protectedFiles, modes: invocation.fileModes)
            try folder.write(text, name: PathText.name(path))
        } catch {
            throw cannotWrite(path, error.reason, hint: "\(error.hint); the previous file was left as it was")
        }
    }

    /// `cannot write --metrics PATH: REASON` (74), the words of every failure to write FILE.
    static func cannotWrite(_ path: String, _ reason: String, hint: String = "") -> CommandError {
        CommandError(.ioError, "cannot write --metrics \(path): \(reason)", hint: hint)
    }
}
