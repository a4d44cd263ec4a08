import DashboardCore
import Foundation

/// The exit codes of SPEC §8 (sysexits.h values).
enum ExitCode: Int32 {
    case success = 0
    case usage = 64
    case dataError = 65
    case noInput = 66
    case internalError = 70
    case ioError = 74
    case busy = 75
}

/// An error that ends the command with a message, a hint and an exit code.
struct CommandError: Error {
    let code: ExitCode
    let message: String
    let hint: String
    /// True when the message is about the database file: `Dashboard.main` then says the path
    /// came from `DASHBOARD_DB` when it did.
    var aboutDatabase = false
    /// A refusal by the PostgreSQL server: `Dashboard.main` words it for the command that was
    /// refused (`RefusalWords`).
    var refusal: (refusal: RoleRefusal, database: String)?

    init(_ code: ExitCode, _ message: String, hint: String = "") {
        self.code = code
        self.message = message
        self.hint = hint
    }

    static func usage(_ message: String, command: String? = nil) -> CommandError {
        let help = command.map { "dashboard \($0) --help" } ?? "dashboard --help"
        return CommandError(.usage, message, hint: "see `\(help)`")
    }

    /// Maps a store failure to its exit code and words.
    static func store(_ error: StoreError) -> CommandError {
        var mapped = storeWords(error)
        mapped.aboutDatabase = true
        return mapped
    }

    private static func storeWords(_ error: StoreError) -> CommandError {
        switch error {
        case .busy:
            return CommandError(.busy, error.description, hint: "try again later, or pass --wait SECONDS to wait for it")
        case .missing(let path):
            // A file that is there but empty is a new database with nothing in it, not a missing one.
            if PathInspection.inspect(path) == .regularFile { return storeWords(.empty(path: path)) }
            return CommandError(.noInput, "no database at \(path) yet", hint: "import data first: `dashboard import imports/`")
        case .isDirectory, .notADatabase:
            return CommandError(.ioError, error.description, hint: "point --db (or DASHBOARD_DB) at a database file")
        case .newerSchema:
            return CommandError(.ioError, error.description, hint: "use the newer dashboard that wrote this file")
        case .unknownSchema:
            return CommandError(.ioError, error.description, hint: "restore the last backup of the database")
        case .olderSchema:
            return CommandError(
                .ioError, error.description,
                hint: "the database's owner runs `dashboard categorize` once: it migrates the file, then every command reads it")
        case .sideFileUnavailable(_, _, let reason):
            let fix =
                reason == nil
                ? "the database's owner runs `dashboard status` once, which leaves the -wal and -shm files beside it"
                : "the database's owner gives the -wal and -shm files the database file's group and mode"
            return CommandError(.ioError, error.description, hint: fix + " (see docs/operations.md, read-only readers)")
        case .empty:
            return CommandError(.noInput, error.description, hint: "import data first: `dashboard import imports/`")
        case .unreadable(let path, _):
            if case .postgres = DatabaseLocation(path) {
                return CommandError(
                    .ioError, error.description,
                    hint: "check that the server runs and the URI, user and password (~/.pgpass, PGPASSWORD) are right (docs/postgresql.md)"
                )
            }
            return CommandError(.ioError, error.description, hint: "check the file's permissions and owner (and those of its folders)")
        case .readOnlyServer:
            return CommandError(
                .ioError, error.description,
                hint: "point writing commands at the primary server; a standby serves reports (docs/postgresql.md, \"Read replicas\")")
        case .refused(let path, let refusal):
            var mapped = CommandError(
                .ioError, error.description,
                hint: "the database's administrator grants what this role may do (`dashboard access`, docs/postgresql.md)")
            mapped.refusal = (refusal, path)
            return mapped
        case .badLink:
            return CommandError(
                .ioError, error.description, hint: "point --db (or DASHBOARD_DB) at the database file itself, or fix the link")
        case .foreignWAL:
            return CommandError(
                .ioError, error.description,
                hint: "move the stray -wal file away (keep a copy), then run the command again; `dashboard verify` checks the database")
        case .foreign, .foreignMark:
            return CommandError(
                .ioError, error.description, hint: "point --db (or DASHBOARD_DB) at the dashboard's database, or at a new file")
        case .interrupted:
            return CommandError(.busy, error.description, hint: "run the command again")
        case .filesChanged(let path, let change):
            return CommandError(.ioError, error.description, hint: filesChangedHint(path: path, change))
        case .upgradeNeeded:
            return CommandError(
                .ioError, error.description,
                hint: "the role that owns the database's tables runs a writing command once (`dashboard categorize`), "
                    + "which upgrades it (docs/postgresql.md, \"The schema\")")
        case .schemaEdited:
            return CommandError(
                .ioError, error.description,
                hint: "restore the last backup of the database from before the table was changed; "
                    + "`dashboard verify` tells what else is wrong (docs/operations.md, \"Schema upgrades that stop\")")
        case .damaged:
            return CommandError(
                .ioError, error.description, hint: "restore the last backup of the database; `dashboard verify` tells what is wrong")
        case .internalFailure:
            return CommandError(.internalError, error.description, hint: "this is a bug; please report it with the command you ran")
        case .postgres:
            return CommandError(.internalError, error.description, hint: "this is a bug; please report it with the command you ran")
        case .sqlite(let e):
            if e.isFull {
                // SQLite says "disk I/O error" for some full-disk cases: the system's words are clearer.
                let reason = e.systemErrno != 0 ? String(cString: strerror(e.systemErrno)) : e.message
                return CommandError(.ioError, "the disk (or database) is full: \(reason)", hint: "free some space; nothing was changed")
            }
            if e.isCorrupt {
                return CommandError(
                    .ioError, "the database file is damaged: \(e.message)",
                    hint: "restore the last backup of the database; `dashboard verify` tells what is wrong")
            }
            if e.isIOError {
                return CommandError(.ioError, "cannot write the database: \(e.message)", hint: "check the file's permissions and the disk")
            }
            return CommandError(.internalError, error.description, hint: "this is a bug; please report it with the command you ran")
        }
    }

    /// What to do after the database's files changed under a command (docs/operations.md,
    /// "Replacing or restoring the database file").
    private static func filesChangedHint(path: String, _ change: DatabaseFileChange) -> String {
        if change.kind == .overwritten {
            return
                "the -wal and -shm beside \(path) belong to the file that was there: stop every dashboard command, move \(path)-wal and \(path)-shm away, restore the backup again by moving a copy over \(path) (`mv`), then run `dashboard verify` (docs/operations.md)"
        }
        if change.damagesTheFile {
            return "the database is damaged: restore the last backup, then run the command again; `dashboard verify` tells what is wrong"
        }
        if change.walSettled == false {
            return
                "the -wal beside \(path) still holds pages of the file that was there: stop every dashboard command, move \(path)-wal and \(path)-shm away, then run the command again"
        }
        let again: String
        switch change.moment {
        case .afterCommit: again = "run the command again to apply it to the file now at \(path)"
        case .reading, .opening, .beforeCommit: again = "run the command again"
        }
        switch change.kind {
        case .sideFileRemoved, .sideFileReplaced:
            return again
                + "; never delete or replace a database's -wal or -shm: they hold committed data and the locks (docs/operations.md)"
        default:
            return again + "; replace or restore a database file only while no dashboard command runs (docs/operations.md)"
        }
    }
}
