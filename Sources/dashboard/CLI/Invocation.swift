import DashboardCore
import Foundation

/// Everything a command's `run` gets.
struct Invocation {
    let arguments: ParsedArguments
    let global: GlobalOptions
    let console: Console
    let environment: [String: String]
    /// The modes of what the command creates: from the umask the process started with.
    let fileModes: FileModes
}

/// A subcommand: its declaration and its work.
protocol Command: SendableMetatype {
    static var spec: CommandSpec { get }
    static func run(_ invocation: Invocation) throws -> ExitCode
}

extension Command {
    /// The output format asked for: `--format` is declared as a choice among the formats the
    /// command supports, so the parser has already refused any other.
    static func format(_ invocation: Invocation, default fallback: String = "text") -> String {
        invocation.arguments.value("format") ?? fallback
    }

    /// Exactly `count` positional arguments, or a usage error naming what is expected.
    static func positionals(_ invocation: Invocation, count: Int, names: String) throws -> [String] {
        let given = invocation.arguments.positionals
        guard given.count == count else {
            throw CommandError.usage(
                given.count < count ? "missing \(names)" : "unexpected argument \"\(given[count])\"", command: spec.name)
        }
        return given
    }

    /// Opens the store for writing, mapping its failures to exit codes.
    static func openStore(_ invocation: Invocation, wait: Double = 0, existing: Bool = false) throws -> any WritableStore {
        do {
            return try StoreFactory.open(
                path: invocation.global.databasePath, busyTimeout: wait, modes: invocation.fileModes, existing: existing)
        } catch {
            throw CommandError.store(error)
        }
    }

    /// Opens an existing store for writing: commands that change data already imported
    /// (categorize, reclassify, revert) never create a database; a missing one is "input
    /// missing" (66), so a mistyped `--db` does not leave an empty file behind.
    static func openExistingStoreForWriting(_ invocation: Invocation, wait: Double = 0) throws -> any WritableStore {
        let path = invocation.global.databasePath
        // Only a path with nothing at it is missing: a dangling link or a file the user cannot
        // reach gets its own words from the store.
        if !invocation.global.databaseIsServer, PathInspection.inspect(path) == .missing { throw CommandError.store(.missing(path: path)) }
        return try openStore(invocation, wait: wait, existing: true)
    }

    /// The zone courses without one use: the database's default (SPEC §4), else the command's
    /// `--timezone` (a database no import has given one yet).
    static func defaultZone(_ store: any SettingsReading, _ invocation: Invocation) throws -> TimeZone {
        do {
            return try store.defaultTimeZone(else: invocation.global.timeZone)
        } catch {
            let path = invocation.global.databasePath
            throw CommandError.store(StoreFactory.storeFailure(error, path: path) ?? .internalFailure(.unexpected("\(error)")))
        }
    }

    /// Opens an existing store read-only; nil when none exists yet.
    static func openExistingStore(_ invocation: Invocation) throws -> (any ReadableStore)? {
        do {
            return try StoreFactory.openReadOnly(path: invocation.global.databasePath)
        } catch StoreError.missing {
            return nil
        } catch StoreError.empty {
            return nil
        } catch {
            throw CommandError.store(error)
        }
    }
}

extension Command {
    /// Who makes a write a teacher's role may make (`reclassify`, `revert`): on PostgreSQL, a
    /// role that row-level security restricts is its own actor (`GlobalOptions.actor`).
    static func actor(_ invocation: Invocation, store: any RoleReading) throws -> String {
        let role: RestrictedRole?
        do {
            role = try store.restrictedRole()
        } catch {
            let path = invocation.global.databasePath
            throw CommandError.store(StoreFactory.storeFailure(error, path: path) ?? .internalFailure(.unexpected("\(error)")))
        }
        return try GlobalOptions.actor(invocation.arguments, environment: invocation.environment, role: role)
    }
}
