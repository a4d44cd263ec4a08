import Foundation
import Testing

/// SplitMix64: a tiny deterministic generator, so that the same seed gives the same workload and
/// the same kill moments on every machine and every Swift version (the standard library's
/// `random(in:using:)` algorithms are not promised to stay the same).
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A number in `0..<1`.
    mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }
}

/// A deterministic school export, large enough for an import to take a while, and a changed
/// export of it that a sync import turns into thousands of inserts, updates and deletes.
///
/// The changed export drops the last course (a sync deletes it and its tasks), renames every
/// seventh course, omits about 4 % of the other tasks (deleted), changes about 30 % (a title,
/// due, priority, student or completion), adds one new task per 13 old ones and, when asked,
/// carries rows with an impossible date on existing task ids (rejected: exit 65, live rows kept).
/// Deletes stay under the default 10 % guard from 25 courses up. Titles hold commas, quotes and non-ASCII text,
/// dues every accepted form and none.
struct Workload: Sendable {
    var courseCount: Int
    var taskCount: Int
    var seed: UInt64 = 2026_11_29
    /// Rows of the changed tasks file that are rejected.
    var rejectedRows: Int = 0

    static let timeZones = ["America/New_York", "Europe/Berlin", "Asia/Tokyo", "Australia/Sydney", ""]
    static let priorities = ["low", "normal", "high", "hi", "urgent", "med", "", "lo"]
    static let completions = ["no", "yes", "", "x", "0", "1", "done", "open"]

    var insertedCount: Int { taskCount / 13 }
    var droppedCourse: Int { courseCount - 1 }

    static func padded(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    func courseID(_ c: Int) -> String { "c" + Self.padded(c, 3) }
    func taskID(_ i: Int) -> String { "T" + Self.padded(i, 7) }

    // MARK: - Files

    func baselineCourses() -> String { courses(changed: false) }
    func changedCourses() -> String { courses(changed: true) }

    private func courses(changed: Bool) -> String {
        var text = "course_id,title,code,term,teacher,timezone\n"
        for c in 0..<courseCount {
            if changed, c == droppedCourse { continue }
            let title = changed && c % 7 == 3 ? "Course \(c), revised" : "Course \(c)"
            text +=
                "\(courseID(c)),\(Self.field(title)),C \(Self.padded(c, 3)),2026/27,Teacher \(c % 9),\(Self.timeZones[c % Self.timeZones.count])\n"
        }
        return text
    }

    static let taskHeader = "task_id,course_id,title,student_id,due,priority,completed\n"

    func baselineTasks() -> String {
        var text = Self.taskHeader
        text.reserveCapacity(taskCount * 64)
        for i in 0..<taskCount { text += row(baseTask(i)) }
        return text
    }

    func changedTasks() -> String {
        var text = Self.taskHeader
        text.reserveCapacity(taskCount * 64)
        var changes = SeededGenerator(seed: seed ^ 0x00C0_FFEE)
        var rejected = 0
        for i in 0..<taskCount {
            var task = baseTask(i)
            let roll = changes.below(100)
            let kind = changes.below(5)
            if task.course == droppedCourse { continue }
            if rejected < rejectedRows, i % 101 == 50 {
                task.due = "2026-02-30"  // no such day: invalid_date, the live row is kept
                rejected += 1
                text += row(task)
                continue
            }
            if roll < 4 { continue }
            if roll < 35 {
                switch kind {
                case 0: task.title += " (v2)"
                case 1: task.due = task.due.isEmpty ? "2026-12-24" : ""
                case 2: task.priority = task.priority == "high" ? "low" : "high"
                case 3: task.student = "s" + Self.padded((i * 7) % 997, 4)
                default: task.completed = task.completed == "yes" ? "no" : "yes"
                }
            }
            text += row(task)
        }
        for n in 0..<insertedCount {
            let i = taskCount + n
            var task = baseTask(i)
            task.course = n % (courseCount - 1)
            text += row(task)
        }
        return text
    }

    // MARK: - Rows

    struct Task {
        var id: String
        var course: Int
        var title: String
        var student: String
        var due: String
        var priority: String
        var completed: String
    }

    /// Task `i` of the baseline: a function of the seed and `i` only.
    func baseTask(_ i: Int) -> Task {
        var g = SeededGenerator(seed: seed &+ UInt64(i) &* 0x1000_0001)
        let course = i % courseCount
        let titles = ["Worksheet \(i)", "Essay, part \(i % 12)", "Lab \"\(i % 40)\" report", "Übung \(i) – Lösung", "Quiz \(i)"]
        let title = titles[g.below(titles.count)]
        let month = [10, 11, 12, 1][g.below(4)]
        let year = month == 1 ? 2027 : 2026
        let day = 1 + g.below(28)
        let date = "\(year)-\(Self.padded(month, 2))-\(Self.padded(day, 2))"
        let due: String
        switch g.below(8) {
        case 0: due = ""
        case 1: due = date + "T" + Self.padded(g.below(24), 2) + ":30"
        case 2: due = date + "T09:15:00Z"
        case 3: due = date + " 17:45"
        default: due = date
        }
        return Task(
            id: taskID(i), course: course, title: title, student: "s" + Self.padded(g.below(997), 4), due: due,
            priority: Self.priorities[g.below(Self.priorities.count)], completed: Self.completions[g.below(Self.completions.count)])
    }

    func row(_ t: Task) -> String {
        "\(t.id),\(courseID(t.course)),\(Self.field(t.title)),\(t.student),\(t.due),\(t.priority),\(t.completed)\n"
    }

    /// A CSV field, quoted (RFC 4180) when it holds a comma or a quote.
    static func field(_ text: String) -> String {
        guard text.contains(",") || text.contains("\"") else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Writes `base/` (the baseline export) and `change/` (the changed one) into the sandbox.
    func write(into sandbox: Sandbox, base: String = "base", change: String = "change") throws {
        try sandbox.write(base + "/courses.csv", baselineCourses())
        try sandbox.write(base + "/tasks.csv", baselineTasks())
        try sandbox.write(change + "/courses.csv", changedCourses())
        try sandbox.write(change + "/tasks.csv", changedTasks())
    }
}

// MARK: - Looking at a database

/// What the reliability tests check in a database after every fault.
enum Consistency {
    /// `PRAGMA integrity_check` and `PRAGMA foreign_key_check`, together: "ok\n" when both pass.
    static func check(_ path: String) throws -> String {
        let integrity = try DatabaseSnapshot.lines(path, "PRAGMA integrity_check")
        let foreignKeys = try DatabaseSnapshot.lines(path, "PRAGMA foreign_key_check")
        return integrity + foreignKeys
    }

    /// Batch ids and statuses, in order (`1|committed\n2|failed\n`).
    static func batches(_ path: String) throws -> String {
        try DatabaseSnapshot.lines(path, "SELECT batch_id, status FROM batches ORDER BY batch_id")
    }

    static func runningBatches(_ path: String) throws -> Int {
        try DatabaseSnapshot.int(path, "SELECT count(*) FROM batches WHERE status = 'running'")
    }

    /// The courses and tasks without the batch numbers: what a retried import must give whatever
    /// the failed attempts before it were numbered.
    static func dataWithoutBatchIDs(_ path: String) throws -> String {
        let courses = try DatabaseSnapshot.lines(
            path, "SELECT course_id, code, title, term, teacher, timezone, deleted_batch IS NULL FROM courses ORDER BY 1")
        let tasks = try DatabaseSnapshot.lines(
            path,
            "SELECT task_id, course_id, title, student_id, due, priority, completed, deleted_batch IS NULL, bucket FROM tasks ORDER BY 1")
        return "courses:\n" + courses + "tasks:\n" + tasks
    }
}

/// Copies a database file to `destination`, first removing whatever database (and `-wal`,
/// `-shm`) was there: a stale `-wal` next to a fresh copy could be replayed into it.
func copyDatabase(_ source: String, to destination: String) throws {
    let fm = FileManager.default
    for suffix in ["", "-wal", "-shm", "-journal"] where fm.fileExists(atPath: destination + suffix) {
        try fm.removeItem(atPath: destination + suffix)
    }
    // A reader leaves an empty -wal behind; one with frames would be data the copy misses.
    if let size = try? fm.attributesOfItem(atPath: source + "-wal")[.size] as? Int, size > 0 {
        throw HarnessError("\(source)-wal holds \(size) bytes: copy only databases that were closed cleanly")
    }
    try fm.copyItem(atPath: source, toPath: destination)
}

/// Removes the empty `-wal` and the `-shm` a read-only connection leaves next to a database
/// (it may not delete them), so that the file looks as a writer that closed it cleanly left it.
func removeEmptyWAL(_ path: String) throws {
    let fm = FileManager.default
    guard let size = try? fm.attributesOfItem(atPath: path + "-wal")[.size] as? Int else { return }
    guard size == 0 else { throw HarnessError("\(path)-wal holds \(size) bytes; it is not a leftover of a reader") }
    try fm.removeItem(atPath: path + "-wal")
    if fm.fileExists(atPath: path + "-shm") { try fm.removeItem(atPath: path + "-shm") }
}

/// Seconds since `start`, for the figures the tests print.
func seconds(since start: Date) -> Double { Date().timeIntervalSince(start) }

func formatted(_ seconds: Double) -> String { String(format: "%.2f s", seconds) }

/// Prints one figure of the reliability suite on stdout, where `swift test` shows it.
func reportFigure(_ line: String) {
    print("reliability: " + line)
}

// MARK: - Shared databases

/// The 40,000-task school imported once, and the changed export imported over a copy of it:
/// the "before" and "after" every crash and concurrency test compares against. Made once per
/// test run (the first test that needs it pays ~6 s in a debug build).
final class ReliabilityFixture: @unchecked Sendable {
    /// Holds `base/`, `change/`, `baseline.sqlite` (before) and `after.sqlite`. Never written
    /// after `init`; tests copy from it.
    let sandbox: Sandbox
    let workload: Workload
    /// `DatabaseSnapshot.data` of the baseline and of the baseline after the sync import.
    let before: String
    let after: String
    /// The sync import run to its end on a copy of the baseline, and how long it took.
    let syncImport: CommandResult
    let syncSeconds: Double
    /// `import --mode sync change/` with the test's database.
    static let syncArguments = ["--db", "db.sqlite", "import", "--mode", "sync", "change/"]

    static let large: Result<ReliabilityFixture, HarnessError> = make(
        Workload(courseCount: 50, taskCount: taskCount(default: 15_000), rejectedRows: 3))

    /// `$RELIABILITY_TASKS` when set: a smaller run while working on the suite, a larger one to soak.
    static func taskCount(default value: Int) -> Int {
        ProcessInfo.processInfo.environment["RELIABILITY_TASKS"].flatMap { Int($0) } ?? value
    }

    private static func make(_ workload: Workload) -> Result<ReliabilityFixture, HarnessError> {
        do {
            let fixture = try ReliabilityFixture(workload: workload)
            FixtureCleanup.removeAtExit(fixture.sandbox.directory.deletingLastPathComponent().path)
            return .success(fixture)
        } catch let error as HarnessError {
            return .failure(error)
        } catch {
            return .failure(HarnessError("making the reliability fixture failed: \(error)"))
        }
    }

    private init(workload: Workload) throws {
        self.workload = workload
        sandbox = try Sandbox()
        try workload.write(into: sandbox)
        let baseline = try sandbox.run(["--db", "baseline.sqlite", "import", "base/"])
        guard baseline.exitCode == 0 else { throw HarnessError("the baseline import failed:\n\(baseline)") }
        before = try DatabaseSnapshot.data(sandbox.path("baseline.sqlite"))
        try copyDatabase(sandbox.path("baseline.sqlite"), to: sandbox.path("db.sqlite"))
        let started = Date()
        syncImport = try sandbox.run(Self.syncArguments)
        syncSeconds = seconds(since: started)
        let expected: Int32 = workload.rejectedRows > 0 ? 65 : 0
        guard syncImport.exitCode == expected else { throw HarnessError("the reference sync import failed:\n\(syncImport)") }
        try FileManager.default.moveItem(atPath: sandbox.path("db.sqlite"), toPath: sandbox.path("after.sqlite"))
        after = try DatabaseSnapshot.data(sandbox.path("after.sqlite"))
        guard after != before else { throw HarnessError("the changed export changed nothing") }
        reportFigure(
            "fixture: \(workload.taskCount) tasks in \(workload.courseCount) courses; sync import \(formatted(syncSeconds)): "
                + (syncImport.stderr.split(separator: "\n").last.map(String.init) ?? ""))
    }

    /// Copies the baseline (the state before the sync) into `sandbox` as `name`, with the
    /// `base/` and `change/` exports.
    func prepare(_ sandbox: Sandbox, database name: String = "db.sqlite") throws {
        for folder in ["base", "change"] {
            for file in ["courses.csv", "tasks.csv"] {
                try sandbox.write(folder + "/" + file, bytes: try self.sandbox.read(folder + "/" + file))
            }
        }
        try copyDatabase(self.sandbox.path("baseline.sqlite"), to: sandbox.path(name))
    }
}

/// The shared fixtures' directories, removed when the test process exits (a `static let` is
/// never deinitialized, so its `Sandbox` would otherwise stay behind).
enum FixtureCleanup {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths: [String] = []

    static func removeAtExit(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        if paths.isEmpty { atexit { FixtureCleanup.removeAll() } }
        paths.append(path)
    }

    private static func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
    }
}

// MARK: - A disk that fills up or turns read-only

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
