import Foundation
import Testing

/// Faults of the machine: a full disk, a read-only file system, missing or unreadable input, a
/// directory where the database should be. Each ends with its documented exit code and message
/// and leaves the data exactly as it was (whole dumps compared, integrity checked).
///
/// The disk faults mount a small tmpfs, which needs root: they fail (never skip) when the mount
/// is refused.
@Suite(.serialized) struct ReliabilityFaultTests {
    /// Writes `small/` (1,500 tasks of the large school's courses) and `base/` (the large
    /// school) into the sandbox, mounts a tmpfs and imports `small/` into a database on it.
    /// The caller unmounts the disk.
    static func smallSchoolOnDisk(_ sandbox: Sandbox, megabytes: Int) throws -> (disk: ScratchDisk, db: String) {
        let fixture = try ReliabilityFixture.large.get()
        try fixture.prepare(sandbox, database: "unused.sqlite")
        let small = Workload(courseCount: fixture.workload.courseCount, taskCount: 1_500)
        try sandbox.write("small/courses.csv", small.baselineCourses())
        try sandbox.write("small/tasks.csv", small.baselineTasks())
        let disk = try ScratchDisk(sandbox, megabytes: megabytes)
        let db = disk.name + "/db.sqlite"
        let imported = try sandbox.run(["--db", db, "import", "small/"])
        guard imported.exitCode == 0 else {
            disk.unmount()
            throw HarnessError("importing the small school onto the tmpfs failed:\n\(imported)")
        }
        return (disk, db)
    }

    /// A small imported school in the sandbox (`db.sqlite`), for the faults that need no disk.
    static func smallSchool(_ sandbox: Sandbox) throws -> String {
        try Fixtures.writeValidSet(sandbox)
        let imported = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"])
        guard imported.exitCode == 0 else { throw HarnessError("importing the fixture failed:\n\(imported)") }
        return sandbox.path("db.sqlite")
    }

    // MARK: - The disk

    /// Nearly full (512 KiB left: the import fails while writing) and completely full (nothing
    /// left: it fails as it opens the database).
    @Test(.sqliteFiles, arguments: [512 * 1024, 0])
    func fullDiskExits74SaysTheDiskIsFullAndChangesNothing(leaving freeBytes: Int) throws {
        let sandbox = try Sandbox()
        let (disk, db) = try Self.smallSchoolOnDisk(sandbox, megabytes: 16)
        defer { disk.unmount() }
        let path = sandbox.path(db)
        let before = try DatabaseSnapshot.data(path)
        // As the last dashboard left it: the read above leaves an empty -wal and a -shm behind.
        try removeEmptyWAL(path)
        try disk.fill(leaving: freeBytes)
        let free = disk.freeBytes

        let started = Date()
        let result = try sandbox.run(["--db", db, "import", "base/"])
        let elapsed = seconds(since: started)
        // SQLITE_FULL while writing says SQLite's words; a full disk met while opening (the -shm
        // file cannot grow) says the system's.
        let reason = freeBytes == 0 ? "No space left on device" : "database or disk is full"
        #expect(
            result
                == CommandResult(
                    exitCode: 74, stdout: "",
                    stderr: """
                        dashboard: error: the disk (or database) is full: \(reason)
                        dashboard: hint: free some space; nothing was changed

                        """))
        // Looked at with room again: a reader of a WAL database needs space for its -shm file.
        try disk.removeFiller()
        #expect(try Consistency.check(path) == "ok\n")
        #expect(try DatabaseSnapshot.data(path) == before)
        #expect(try Consistency.runningBatches(path) == 0)
        // The failed run is recorded when there is room for the record; never as committed.
        let batches = try Consistency.batches(path)
        #expect(batches == "1|committed\n" || batches == "1|committed\n2|failed\n", "batches: \(batches)")

        // The same import now goes through and gives what it gives on a roomy disk.
        let retried = try sandbox.run(["--db", db, "import", "base/"])
        #expect(retried.exitCode == 0, "\(retried)")
        #expect(try sandbox.run(["--db", "reference.sqlite", "import", "small/"]).exitCode == 0)
        #expect(try sandbox.run(["--db", "reference.sqlite", "import", "base/"]).exitCode == 0)
        #expect(try Consistency.dataWithoutBatchIDs(path) == Consistency.dataWithoutBatchIDs(sandbox.path("reference.sqlite")))
        #expect(try Consistency.check(path) == "ok\n")
        reportFigure(
            "fault disk full: \(free / 1024) KiB free on a 16 MiB tmpfs, import → exit \(result.exitCode) in \(formatted(elapsed)) "
                + "(\(result.stderr.split(separator: "\n").first ?? "")), data unchanged, batches "
                + batches.split(separator: "\n").joined(separator: " ") + "; after freeing space → exit \(retried.exitCode)")
    }

    @Test(.sqliteFiles) func readOnlyFileSystemExits74AndChangesNothing() throws {
        let sandbox = try Sandbox()
        let (disk, db) = try Self.smallSchoolOnDisk(sandbox, megabytes: 8)
        defer { disk.unmount() }
        let path = sandbox.path(db)
        let before = try DatabaseSnapshot.data(path)
        let batchesBefore = try Consistency.batches(path)
        try disk.remount(readOnly: true)
        let result = try sandbox.run(["--db", db, "import", "base/"])
        try disk.remount(readOnly: false)
        #expect(result.exitCode == 74, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("dashboard: error: cannot write the database"), "\(result)")
        #expect(result.stderr.contains("\ndashboard: hint: "), "\(result)")
        #expect(try Consistency.check(path) == "ok\n")
        #expect(try DatabaseSnapshot.data(path) == before)
        #expect(try Consistency.batches(path) == batchesBefore)
        reportFigure("fault read-only file system: import → exit \(result.exitCode): \(result.stderr.split(separator: "\n").first ?? "")")
    }

    @Test func nightlyWhoseReportsCannotBeWrittenExits74() throws {
        let fixture = try NightlyFixture.shared.get()
        let sandbox = try Sandbox()
        try fixture.prepare(sandbox)
        let disk = try ScratchDisk(sandbox, megabytes: 4)
        defer { disk.unmount() }
        try FileManager.default.createDirectory(atPath: disk.path + "/reports", withIntermediateDirectories: false)
        try disk.remount(readOnly: true)
        let arguments = ["--db", "db.sqlite", "nightly", "--imports", "drop", "--reports", "disk/reports", "--mode", "sync"]
        let result = try sandbox.run(arguments)
        #expect(result.exitCode == 74, "\(result)")
        #expect(
            result.stderr.hasPrefix(
                "dashboard: error: the import and categorize committed, but the reports could not be written: cannot write disk/reports/2026-11-29: "
            ), "\(result)")
        #expect(result.stderr.contains("\ndashboard: hint: check that disk/reports can be written"), "\(result)")
        // As documented: the import did commit; only the reports are missing.
        let db = sandbox.path("db.sqlite")
        #expect(try DatabaseSnapshot.data(db) == fixture.after)
        #expect(try Consistency.check(db) == "ok\n")
        reportFigure("fault nightly reports on a read-only file system → exit \(result.exitCode), the import committed as documented")
    }

    // MARK: - Input and paths

    @Test func missingInputExits66AndChangesNothing() throws {
        let sandbox = try Sandbox()
        let db = try Self.smallSchool(sandbox)
        let before = try DatabaseSnapshot.data(db)
        let result = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "missing.csv"])
        #expect(
            result
                == CommandResult(
                    exitCode: 66, stdout: "",
                    stderr: """
                        dashboard: error: missing.csv does not exist
                        dashboard: hint: check the path; give a CSV file or a folder of them

                        """))
        #expect(try DatabaseSnapshot.data(db) == before)
        // The nightly job still categorizes and writes the night's reports, with the banner
        // that no export arrived (issue 13), and exits 66; it imports nothing.
        let nightly = try sandbox.run(["--db", "db.sqlite", "--as-of", "2026-11-29T02:00:00Z", "nightly", "--imports", "nowhere"])
        #expect(nightly.exitCode == 66 && nightly.stdout == "", "\(nightly)")
        #expect(
            nightly.stderr.hasPrefix(
                """
                dashboard: error: nowhere does not exist
                dashboard: hint: check the path; give a CSV file or a folder of them
                dashboard: nightly 2026-11-29T02:00:00Z: no export arrived (66); 
                """), "\(nightly)")
        #expect(try Consistency.batches(db) == "1|committed\n", "a night without an export records no batch")
        #expect(sandbox.exists("reports/latest/index.html"))
        reportFigure("fault missing input: import → exit \(result.exitCode), nightly → exit \(nightly.exitCode); data unchanged")
    }

    @Test(.sqliteFiles) func directoryGivenAsTheDatabaseExits74() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        try FileManager.default.createDirectory(atPath: sandbox.path("store"), withIntermediateDirectories: false)
        let result = try sandbox.run(["--db", "store", "import", "courses.csv", "tasks.csv"])
        #expect(
            result
                == CommandResult(
                    exitCode: 74, stdout: "",
                    stderr: """
                        dashboard: error: store is a directory, not a database file
                        dashboard: hint: point --db (or DASHBOARD_DB) at a database file

                        """))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("store")) == [])
        reportFigure("fault directory as the database: import → exit \(result.exitCode)")
    }

    @Test func unreadableDropFolderMakesNightlyExit66WithAHint() throws {
        let sandbox = try Sandbox()
        let db = try Self.smallSchool(sandbox)
        try sandbox.write("drop/tasks.csv", Fixtures.tasks.replacingOccurrences(of: "Lab report", with: "Lab report v2"))
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: sandbox.path("drop"))
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: sandbox.path("drop")) }
        let result = try runWithoutFileCapabilities(sandbox, ["--db", "db.sqlite", "nightly", "--imports", "drop"])
        #expect(result.exitCode == 66, "\(result)")
        #expect(result.stdout == "")
        #expect(
            result.stderr.hasPrefix(
                "dashboard: error: cannot list the folder drop: Permission denied\ndashboard: hint: check the folder's permissions for this user\ndashboard: nightly "
            ),
            "\(result)")
        // Every error comes with a hint (SPEC §8: "dashboard: error: … with a hint").
        #expect(result.stderr.contains("\ndashboard: hint: "), "the error has no hint line:\n\(result)")
        #expect(try Consistency.batches(db) == "1|committed\n")
        #expect(sandbox.exists("reports/latest/index.html"), "the night's reports are written all the same")
        reportFigure("fault unreadable drop folder: nightly → exit \(result.exitCode): \(result.stderr.split(separator: "\n").first ?? "")")
    }

    @Test func unreadableInputFileExits66AndChangesNothing() throws {
        let sandbox = try Sandbox()
        let db = try Self.smallSchool(sandbox)
        let before = try DatabaseSnapshot.data(db)
        try sandbox.write("locked.csv", Fixtures.tasks)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: sandbox.path("locked.csv"))
        let result = try runWithoutFileCapabilities(sandbox, ["--db", "db.sqlite", "import", "locked.csv"])
        #expect(
            result
                == CommandResult(
                    exitCode: 66, stdout: "",
                    stderr: """
                        dashboard: error: locked.csv is not readable
                        dashboard: hint: check the file's permissions

                        """))
        #expect(try DatabaseSnapshot.data(db) == before)
        #expect(try Consistency.batches(db) == "1|committed\n")
        reportFigure("fault unreadable input file: import → exit \(result.exitCode)")
    }
}
