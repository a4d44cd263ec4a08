import Foundation

/// What every throwaway server of the tests shares: starting `pg_ctl` so that nothing of the test
/// process leaks into the server, and a watcher that cleans up when the test process dies.
public enum ServerProcess {
    /// Runs `command` (a `pg_ctl … start` line, with its `runuser` or `ip netns exec` prefix)
    /// through system(3), its output in `folder/pg_ctl.out`.
    ///
    /// Not through Foundation's `Process`: Foundation learns that a child ended when a socket it
    /// shares with the child closes, and the server `pg_ctl` leaves running would inherit it. And
    /// through a bash that first closes every descriptor it inherited but the standard three:
    /// another test's `Process` may be starting at that moment, and a server holding its child's
    /// end of Foundation's socket pair would keep that child from ever being seen to end.
    /// - Parameter log: the server's log, quoted in the failure.
    /// - Throws: a failure naming `what`, with `pg_ctl`'s output and the server's log.
    public static func start(_ command: String, folder: String, log: String, what: String) throws {
        let closeInherited = "for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ \"$fd\" -gt 2 ] && exec {fd}>&-; done; exec \"$@\""
        let status = system("cd / && exec /bin/bash -c '\(closeInherited)' start \(command) >\(folder)/pg_ctl.out 2>&1 </dev/null")
        guard status == 0 else {
            let out = (try? String(contentsOfFile: folder + "/pg_ctl.out", encoding: .utf8)) ?? ""
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw PostgresTestServer.Failure("pg_ctl start of \(what) failed (\(status)): \(out)\n\(text)")
        }
    }

    /// A shell that waits for this test process to end, then runs `removal` (stop the server,
    /// remove its folder): a crash or a kill -9 of the tests leaves no server behind.
    public static func watch(removal: String) throws -> Process {
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: "/bin/sh")
        watcher.arguments = ["-c", "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; \(removal)"]
        watcher.standardOutput = FileHandle.nullDevice
        watcher.standardError = FileHandle.nullDevice
        try watcher.run()
        return watcher
    }
}
