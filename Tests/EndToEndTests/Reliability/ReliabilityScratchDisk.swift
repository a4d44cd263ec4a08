import Foundation
import Testing

/// A small tmpfs mounted inside a sandbox: a disk the tests can fill or remount read-only.
///
/// Mounting needs root (CAP_SYS_ADMIN); the tests run as root here and in CI. When the mount
/// is refused the test fails, naming why: a skipped fault test would prove nothing. Always
/// `unmount()` in a `defer`.
final class ScratchDisk {
    /// The mount point, relative to the sandbox (the way the commands are given it).
    let name: String
    let path: String
    private let sandbox: Sandbox
    private var mounted = false

    init(_ sandbox: Sandbox, name: String = "disk", megabytes: Int) throws {
        self.sandbox = sandbox
        self.name = name
        path = sandbox.path(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let result = try Self.mountTool(sandbox, ["-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0755", "tmpfs", path])
        guard result.exitCode == 0 else {
            throw HarnessError(
                "cannot mount a \(megabytes) MiB tmpfs at \(path) (uid \(getuid())): \(result.stderr)"
                    + "the fault tests need root (CAP_SYS_ADMIN) to simulate a full or read-only disk: run `make test` as root, as CI does")
        }
        mounted = true
    }

    static func mountTool(_ sandbox: Sandbox, _ arguments: [String], tool: String = "mount") throws -> CommandResult {
        let candidates = ["/usr/bin/\(tool)", "/bin/\(tool)", "/usr/sbin/\(tool)", "/sbin/\(tool)"]
        guard let executable = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw HarnessError("\(tool) is not installed (util-linux); the fault tests need it")
        }
        return try RunningCommand(
            executable: URL(fileURLWithPath: executable), arguments: arguments, directory: sandbox.directory,
            environment: Sandbox.baseEnvironment, stdin: nil, ioDirectory: sandbox.ioDirectory, timeout: 30
        ).finish()
    }

    func remount(readOnly: Bool) throws {
        let result = try Self.mountTool(sandbox, ["-o", readOnly ? "remount,ro" : "remount,rw", path])
        guard result.exitCode == 0 else {
            throw HarnessError("remounting \(path) \(readOnly ? "read-only" : "read-write") failed: \(result)")
        }
    }

    /// Bytes free for new files.
    var freeBytes: Int {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return 0 }
        return Int(stats.f_bavail) * Int(stats.f_frsize)
    }

    /// Writes `filler` until about `leaving` bytes are free.
    func fill(leaving: Int) throws {
        let fd = open(path + "/filler", O_CREAT | O_WRONLY | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw HarnessError("cannot create \(path)/filler: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0x5A, count: 64 * 1024)
        while freeBytes > leaving {
            let size = min(chunk.count, freeBytes - leaving)
            let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress, size) }
            guard written > 0 else { break }
        }
    }

    func removeFiller() throws { try FileManager.default.removeItem(atPath: path + "/filler") }

    /// Unmounts (read-write first, so that nothing is left read-only behind the sandbox).
    func unmount() {
        guard mounted else { return }
        _ = try? Self.mountTool(sandbox, ["-o", "remount,rw", path])
        if let result = try? Self.mountTool(sandbox, [path], tool: "umount"), result.exitCode == 0 {
            mounted = false
        } else if let result = try? Self.mountTool(sandbox, ["-l", path], tool: "umount"), result.exitCode == 0 {
            mounted = false
        }
    }

    deinit { unmount() }
}

// MARK: - Running without root's file permissions

/// Runs `dashboard ARGS` as root without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH (`setpriv
/// --bounding-set`), so that a mode-000 folder is unreadable to it as to any cron user.
func runWithoutFileCapabilities(_ sandbox: Sandbox, _ arguments: [String]) throws -> CommandResult {
    let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let setpriv else { throw HarnessError("setpriv (util-linux) is not installed; the unreadable-folder test needs it") }
    return try RunningCommand(
        executable: URL(fileURLWithPath: setpriv),
        arguments: ["--bounding-set=-dac_override,-dac_read_search", "--", try DashboardBinary.url().path] + arguments,
        directory: sandbox.directory, environment: Sandbox.baseEnvironment, stdin: nil, ioDirectory: sandbox.ioDirectory, timeout: 60
    ).finish()
}

extension Sandbox {
    /// Where `RunningCommand` puts the output files of the programs a test runs.
    var ioDirectory: URL { directory.deletingLastPathComponent().appendingPathComponent("io") }
}
