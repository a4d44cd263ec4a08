import Foundation

/// `dashboard ARGS` with standard input on a pipe that the test holds open (a stream, never a
/// file), and `TMPDIR` set to a folder of the sandbox so that the test can list what the run
/// leaves in it.
final class PipedCommand {
    let process = Process()
    let input = Pipe()
    /// The run's `TMPDIR`.
    let temporary: URL
    /// A feeding thread owns the pipe's writing end (it closes it): nobody else may, or the
    /// descriptor number could be reused under its writes.
    private var feeding = false
    private let outURL: URL
    private let errURL: URL

    /// - Parameter asFromAShell: start the program as a shell or cron would, with no signal
    ///   blocked (a test runner's thread blocks most signals, and a child inherits that mask)
    ///   and the stopping signals at their default action (a child started while another test
    ///   runs `system(3)`, which ignores SIGINT and SIGQUIT in the whole test process meanwhile,
    ///   would inherit them ignored): through `python3`, which clears the mask, resets SIGINT,
    ///   SIGQUIT, SIGTERM and SIGHUP, and `exec`s it under the same process id.
    init(
        _ sandbox: Sandbox, _ arguments: [String], environment: [String: String] = [:], temporary: URL? = nil,
        asFromAShell: Bool = false
    ) throws {
        // A write to a pipe whose reader has gone must fail, not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        self.temporary = temporary ?? sandbox.directory.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: self.temporary, withIntermediateDirectories: true)
        let tag = UUID().uuidString
        outURL = sandbox.ioDirectory.appendingPathComponent("\(tag).out")
        errURL = sandbox.ioDirectory.appendingPathComponent("\(tag).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let binary = try DashboardBinary.url()
        let (arguments, environment, _) = try StoreUnderTest.prepare(arguments, environment: environment, directory: sandbox.directory)
        if asFromAShell {
            let python = ["/usr/bin/python3", "/bin/python3", "/usr/local/bin/python3"]
                .first { FileManager.default.isExecutableFile(atPath: $0) }
            guard let python else { throw HarnessError("python3 is not installed; the signal tests need it") }
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments =
                [
                    "-c",
                    "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
                        + "[signal.signal(s, signal.SIG_DFL) for s in (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGHUP)]; "
                        + "os.execv(sys.argv[1], sys.argv[1:])",
                    binary.path,
                ] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        process.currentDirectoryURL = sandbox.directory
        process.environment = Sandbox.baseEnvironment.merging(["TMPDIR": self.temporary.path]) { $1 }.merging(environment) { $1 }
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
    }

    /// Writes `data` into the pipe; false once the reader has gone.
    @discardableResult
    func write(_ data: Data) -> Bool {
        (try? input.fileHandleForWriting.write(contentsOf: data)) != nil
    }

    /// Closes the pipe: the end of standard input.
    func closeInput() { try? input.fileHandleForWriting.close() }

    /// Feeds `chunk` again and again on another thread until the reader goes or `limit` bytes
    /// were written; returns a way to ask how many bytes went in.
    func feedForever(_ chunk: Data, limit: Int) -> () -> Int {
        let written = Counter()
        let handle = input.fileHandleForWriting
        feeding = true
        Thread.detachNewThread {
            while written.value < limit {
                guard (try? handle.write(contentsOf: chunk)) != nil else { break }
                written.add(chunk.count)
            }
            try? handle.close()
        }
        return { written.value }
    }

    /// Waits for the end (killing the process after `timeout` seconds).
    /// - Returns: the exit status or signal, whether it died of a signal, and stderr.
    func finish(timeout: TimeInterval) throws -> (status: Int32, signalled: Bool, stderr: String) {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw HarnessError("\(process.arguments ?? []) still ran after \(Int(timeout)) s and was killed")
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        if !feeding { closeInput() }
        let stderr = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal, stderr)
    }

    /// The descriptors of the running process that point into the temporary folder (its spool,
    /// if it made one; `/proc/PID/fd`).
    func descriptorsInTemporaryFolder() -> [String] {
        let folder = "/proc/\(process.processIdentifier)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0) }
            .filter { $0.hasPrefix(temporary.path + "/") || $0.hasPrefix(temporary.resolvingSymlinksInPath().path + "/") }
    }

    /// What the run left in its temporary folder.
    func temporaryListing() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: temporary.path).sorted()
    }
}

/// A thread-safe byte count.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    func add(_ n: Int) {
        lock.lock()
        count += n
        lock.unlock()
    }
}
