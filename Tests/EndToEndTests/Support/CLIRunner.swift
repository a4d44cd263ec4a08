import Foundation
import PostgresTestSupport
import Testing

/// What one run of a program left behind.
struct CommandResult: Equatable, CustomStringConvertible {
    var exitCode: Int32
    var stdout: String
    var stderr: String

    var description: String { "exit \(exitCode)\n--- stdout ---\n\(stdout)--- stderr ---\n\(stderr)" }
}

/// A failure of the test harness itself (no binary, a program that hangs), with the fix.
struct HarnessError: Error, CustomStringConvertible, Sendable {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Finds the `dashboard` executable the tests run.
///
/// Policy: the `dashboard` next to the running test bundle, that is, in the build folder SwiftPM
/// built the tests into (debug or release, whatever `--scratch-path`). Package.swift makes
/// EndToEndTests depend on the `dashboard` target, so `swift build --build-tests` and
/// `swift test` build it with the tests; no other binary (an older `.build/debug`, one named by
/// the environment) is ever run.
enum DashboardBinary {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // EndToEndTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// The folder of the running test bundle: SwiftPM's bin path for this build.
    static let buildFolder: URL? = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()

    static let located: Result<URL, HarnessError> = locate()

    /// - Throws: `HarnessError` naming where it looked and how to fix it.
    static func url() throws -> URL { try located.get() }

    private static func locate() -> Result<URL, HarnessError> {
        guard let buildFolder else { return .failure(HarnessError("the test bundle's own path is unknown (Bundle.main)")) }
        let binary = buildFolder.appendingPathComponent("dashboard")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            return .failure(
                HarnessError(
                    "no dashboard binary at \(binary.path), beside the test bundle: build it with the tests "
                        + "(`swift build --build-tests` in \(packageRoot.path)); Package.swift must keep EndToEndTests' "
                        + "dependency on the dashboard target"))
        }
        return .success(binary)
    }
}

/// A process started by a test, with its output going to files (no pipe can fill up).
final class RunningCommand {
    let process: Process
    private let outURL: URL
    private let errURL: URL
    private let timeout: TimeInterval
    /// What the outputs get back in place of a PostgreSQL database's URI (`StoreUnderTest`).
    private var replacements: [(String, String)] = []
    /// The SQLite files the command names, when the test is marked `.storeIndependent`: it must
    /// leave none behind (`StorePass`).
    private let databaseFiles: [String]

    init(
        executable: URL, arguments: [String], directory: URL, environment: [String: String], stdin: Data?, ioDirectory: URL,
        timeout: TimeInterval
    ) throws {
        let (arguments, environment, replacements) = try StoreUnderTest.prepare(
            arguments, environment: environment, directory: directory)
        self.replacements = replacements
        databaseFiles =
            StorePass.currentTestIsStoreIndependent
            ? StoreUnderTest.namedDatabaseFiles(arguments, environment: environment, directory: directory) : []
        let tag = UUID().uuidString
        outURL = ioDirectory.appendingPathComponent("\(tag).out")
        errURL = ioDirectory.appendingPathComponent("\(tag).err")
        self.timeout = timeout
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        if let stdin {
            let inURL = ioDirectory.appendingPathComponent("\(tag).in")
            try stdin.write(to: inURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
    }

    /// Waits for the process (killing it after the timeout) and collects its output.
    /// - Throws: `HarnessError` when it had to be killed or died of a signal (a crash).
    func finish(sourceLocation: SourceLocation = #_sourceLocation) throws -> CommandResult {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                process.waitUntilExit()
                throw HarnessError("\(process.arguments ?? []) still ran after \(Int(timeout)) s and was killed")
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        let result = CommandResult(
            exitCode: process.terminationStatus,
            stdout: StoreUnderTest.restoreNames(String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self), replacements),
            stderr: StoreUnderTest.restoreNames(String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self), replacements))
        for file in databaseFiles where FileManager.default.fileExists(atPath: file) {
            StorePass.opened("the database \(file) (\(process.arguments ?? []))", sourceLocation: sourceLocation)
        }
        if process.terminationReason == .uncaughtSignal {
            throw HarnessError("\(process.arguments ?? []) crashed with signal \(result.exitCode)\n\(result)")
        }
        return result
    }
}

/// A fresh temporary directory for one test: input files, the database, and the programs run
/// with it as their working directory. Removed when the test ends.
final class Sandbox {
    /// The working directory of every command; holds the test's files.
    let directory: URL
    private let root: URL
    private let io: URL

    /// The environment every run starts from: nothing of the caller's `DASHBOARD_*`, a fixed as-of.
    static let baseEnvironment: [String: String] = [
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "USER": "e2e-tester",
        "DASHBOARD_AS_OF": "2026-11-29T08:00:00Z",
    ]

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("dashboard-e2e-\(UUID().uuidString)")
        directory = root.appendingPathComponent("work")
        io = root.appendingPathComponent("io")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: io, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// What `--db` takes for the database `name` when a test writes a command line itself (a
    /// shell's): the name, or in the PostgreSQL pass its database's URI (`StoreUnderTest`).
    func databaseArgument(_ name: String) throws -> String {
        StorePass.opened("the database \(name)")
        return StoreUnderTest.isPostgres ? try StoreUnderTest.uri(forPath: path(name)) : name
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try write(name, bytes: Data(text.utf8))
    }

    @discardableResult
    func write(_ name: String, bytes: Data) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: url)
        return url.path
    }

    /// The bytes of `name` (a database of the PostgreSQL pass: every row of every table, which
    /// is what a test comparing a database's bytes before and after means, `StoreUnderTest`).
    func read(_ name: String) throws -> Data {
        if let dump = try StoreUnderTest.contents(path(name)) { return dump }
        return try Data(contentsOf: directory.appendingPathComponent(name))
    }

    /// True when `name` exists (a database name of the PostgreSQL pass: when its database holds
    /// the dashboard's schema, `StoreUnderTest`).
    func exists(_ name: String) -> Bool { StoreUnderTest.exists(path(name)) }

    /// The names in the working directory, sorted.
    func listing() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() }

    /// Starts `dashboard ARGS` without waiting for it (`unsetting`: variables of the base
    /// environment the command does not get, `USER` for one).
    func launch(
        _ arguments: [String], environment: [String: String] = [:], unsetting: [String] = [], stdin: String? = nil,
        timeout: TimeInterval = 60
    ) throws -> RunningCommand {
        var environment = Sandbox.baseEnvironment.merging(environment) { $1 }
        for name in unsetting { environment[name] = nil }
        return try RunningCommand(
            executable: DashboardBinary.url(), arguments: arguments, directory: directory, environment: environment,
            stdin: stdin.map { Data($0.utf8) }, ioDirectory: io, timeout: timeout)
    }

    /// Runs `dashboard ARGS` to its end.
    func run(_ arguments: [String], environment: [String: String] = [:], unsetting: [String] = [], stdin: String? = nil) throws
        -> CommandResult
    {
        try launch(arguments, environment: environment, unsetting: unsetting, stdin: stdin).finish()
    }

    /// Runs `dashboard ARGS` as the user `uid` (and group `uid`), through `setpriv` (root only),
    /// without `USER`: the working directory is opened to every user first.
    func run(asUser uid: UInt32, _ arguments: [String]) throws -> CommandResult {
        chmod(directory.path, 0o777)
        var environment = Sandbox.baseEnvironment
        environment["USER"] = nil
        return try RunningCommand(
            executable: URL(fileURLWithPath: "/usr/bin/setpriv"),
            arguments: ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", try DashboardBinary.url().path] + arguments,
            directory: directory, environment: environment, stdin: nil, ioDirectory: io, timeout: 60
        ).finish()
    }

    /// Runs `sql` on the database `name` by hand, as an administrator would: in the `sqlite3`
    /// shell, or in the PostgreSQL pass in `psql` (unaligned, no headers: rows come out as the
    /// shell's, values joined by `|`).
    func sqlShell(_ name: String, _ sql: String) throws -> CommandResult {
        StorePass.opened("the database \(name) in a shell")
        guard StoreUnderTest.isPostgres else { return try runTool("sqlite3", [name, sql]) }
        let psql = PostgresTestServer.binaries + "/psql"
        return try RunningCommand(
            executable: URL(fileURLWithPath: psql),
            arguments: ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", try databaseArgument(name), "-c", sql],
            directory: directory, environment: Sandbox.baseEnvironment, stdin: nil, ioDirectory: io, timeout: 60
        ).finish()
    }

    /// Runs the program at `executable` in the working directory (no database is mapped).
    func runProgram(_ executable: URL, _ arguments: [String], stdin: String? = nil, timeout: TimeInterval = 120) throws -> CommandResult {
        try RunningCommand(
            executable: executable, arguments: arguments, directory: directory, environment: Sandbox.baseEnvironment,
            stdin: stdin.map { Data($0.utf8) }, ioDirectory: io, timeout: timeout
        ).finish()
    }

    /// Runs another program (`sha256sum`, `sqlite3`) found on PATH, in the working directory.
    func runTool(_ name: String, _ arguments: [String], stdin: String? = nil) throws -> CommandResult {
        let searchPath = Sandbox.baseEnvironment["PATH"] ?? ""
        guard
            let executable = searchPath.split(separator: ":").map({ URL(fileURLWithPath: String($0)).appendingPathComponent(name) })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else { throw HarnessError("\(name) is not installed (not on PATH); the Makefile's deps target installs it") }
        return try RunningCommand(
            executable: executable, arguments: arguments, directory: directory, environment: Sandbox.baseEnvironment,
            stdin: stdin.map { Data($0.utf8) }, ioDirectory: io, timeout: 60
        ).finish()
    }
}
