import Foundation
import PostgresTestSupport
import Testing

/// One writer at a time: a second writer exits 75 at once, or waits with `--wait`.
@Suite struct LockingTests {
    /// Holds SQLite's write lock on a database from another process: the `sqlite3` shell inside
    /// `BEGIN IMMEDIATE`, kept open through its standard input until `release()`.
    final class WriteLockHolder {
        private let process = Process()
        private let input = Pipe()
        private let output = Pipe()

        /// In the PostgreSQL pass (`StoreUnderTest`): `psql` holding the writers' advisory lock
        /// in an open transaction, as a dashboard writer does.
        init(database: String, directory: URL) throws {
            if StoreUnderTest.isPostgres, let uri = StoreUnderTest.knownURI(forPath: database) {
                process.executableURL = URL(fileURLWithPath: PostgresTestServer.binaries + "/psql")
                process.arguments = ["-X", "-q", "-A", "-t", uri]
            } else {
                let candidates = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/bin/sqlite3"]
                guard let shell = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
                    throw HarnessError("the sqlite3 shell is not installed; `make deps` (apt-get install sqlite3) installs it")
                }
                process.executableURL = URL(fileURLWithPath: shell)
                process.arguments = [database]
            }
            process.currentDirectoryURL = directory
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let begin =
                StoreUnderTest.isPostgres
                ? "BEGIN;\nSELECT pg_advisory_xact_lock(\(StoreUnderTest.writerLock));\nSELECT 'locked';\n"
                : "BEGIN IMMEDIATE;\nSELECT 'locked';\n"
            input.fileHandleForWriting.write(Data(begin.utf8))
            // Wait until the shell says it holds the lock.
            var seen = ""
            let deadline = Date().addingTimeInterval(20)
            while !seen.contains("locked") {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty || Date() > deadline { throw HarnessError("sqlite3 did not take the write lock: \(seen)") }
                seen += String(decoding: chunk, as: UTF8.self)
            }
        }

        /// Ends the shell (its transaction rolls back) and so releases the lock.
        func release() {
            guard process.isRunning else { return }
            input.fileHandleForWriting.write(Data("ROLLBACK;\n".utf8))
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }

        deinit { release() }
    }

    func importedSandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv"]).exitCode == 0)
        return sandbox
    }

    @Test func aSecondWriterExits75AtOnceAndChangesNothing() throws {
        let sandbox = try importedSandbox()
        let db = sandbox.path("db.sqlite")
        let before = try DatabaseSnapshot.data(db)
        let lock = try WriteLockHolder(database: db, directory: sandbox.directory)
        let started = Date()
        let result = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"])
        let elapsed = Date().timeIntervalSince(started)
        lock.release()
        #expect(
            result
                == CommandResult(
                    exitCode: 75, stdout: "",
                    stderr: """
                        dashboard: error: another dashboard process is writing to db.sqlite
                        dashboard: hint: try again later, or pass --wait SECONDS to wait for it

                        """))
        #expect(elapsed < 2, "without --wait the import must not wait (took \(elapsed) s)")
        #expect(try DatabaseSnapshot.data(db) == before)
    }

    @Test func jsonModeStillSaysWhyOnStderr() throws {
        let sandbox = try importedSandbox()
        let lock = try WriteLockHolder(database: sandbox.path("db.sqlite"), directory: sandbox.directory)
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--format", "json", "tasks.csv"])
        lock.release()
        #expect(result.exitCode == 75)
        #expect(result.stderr.hasPrefix("dashboard: error: another dashboard process is writing to db.sqlite\n"))
    }

    @Test func waitLetsTheImportThroughOnceTheLockIsReleased() throws {
        let sandbox = try importedSandbox()
        let db = sandbox.path("db.sqlite")
        let lock = try WriteLockHolder(database: db, directory: sandbox.directory)
        let started = Date()
        let running = try sandbox.launch(["--db", "db.sqlite", "import", "--wait", "3", "tasks.csv"])
        Thread.sleep(forTimeInterval: 1)
        lock.release()
        let result = try running.finish()
        let elapsed = Date().timeIntervalSince(started)
        #expect(
            result
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr:
                        "dashboard: import batch 2 committed (merge): 3 rows read, 3 inserted, 0 updated, 0 unchanged, 0 deleted, 0 rejected, 0 warnings\n"
                ))
        #expect(elapsed >= 1 && elapsed < 3.5, "the import should finish soon after the lock is released (took \(elapsed) s)")
        #expect(
            try DatabaseSnapshot.dump(db, table: "tasks")
                == Fixtures.storedTasks.replacingOccurrences(of: "|NULL|1|", with: "|NULL|2|").replacingOccurrences(
                    of: "||1|", with: "||2|"))
    }

    @Test func readersAreNotBlockedByAWriter() throws {
        let sandbox = try importedSandbox()
        let lock = try WriteLockHolder(database: sandbox.path("db.sqlite"), directory: sandbox.directory)
        let status = try sandbox.run(["--db", "db.sqlite", "status"])
        let check = try sandbox.run(["--db", "db.sqlite", "check", "tasks.csv"])
        lock.release()
        #expect(status.exitCode == 0)
        #expect(status.stdout.contains("Courses:  2 live, 0 deleted\n"))
        #expect(check.exitCode == 0)
    }
}
