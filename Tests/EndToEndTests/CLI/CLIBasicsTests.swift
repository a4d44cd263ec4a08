import DashboardCore
import Foundation
import Testing

/// The command line itself: help, version, usage errors, exit codes, and which stream gets what.
@Suite struct CLIBasicsTests {
    // MARK: - Help and version

    @Test func versionPrintsOneLineOnStdout() throws {
        let result = try Sandbox().run(["--version"])
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        #expect(result.stdout.wholeMatch(of: /dashboard \d+\.\d+\.\d+\n/) != nil, "\(result)")
    }

    /// The commands `dashboard --help` lists, read from its `Commands:` section.
    static func listedCommands(_ help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "Commands:") else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test func helpListsTheCommandsAndExitCodes() throws {
        let result = try Sandbox().run(["--help"])
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        #expect(
            Self.listedCommands(result.stdout) == [
                "import", "check", "categorize", "reclassify", "revert", "audit", "report", "status", "batches", "nightly", "verify",
                "settings", "copy", "access", "schema", "help", "completions",
            ])
        #expect(
            result.stdout.contains(
                "Exit codes: 0 success, 64 usage, 65 data errors, 66 input missing, 70 internal error,\n74 I/O error, 75 locked/busy."))
    }

    @Test func everyListedCommandHasHelpWithExamples() throws {
        let sandbox = try Sandbox()
        let commands = Self.listedCommands(try sandbox.run(["--help"]).stdout)
        #expect(commands.count >= 4)
        for command in commands {
            let help = try sandbox.run([command, "--help"])
            #expect(help.exitCode == 0, "\(command): \(help)")
            #expect(help.stderr == "", "\(command)")
            #expect(help.stdout.contains("Usage: dashboard \(command)"), "\(command)")
            #expect(help.stdout.contains("\nExamples:\n  dashboard "), "\(command) --help shows no examples")
            #expect(help.stdout.contains("--db PATH"), "\(command) --help omits the global options")
            #expect(try sandbox.run(["help", command]) == help, "`dashboard help \(command)` differs from `\(command) --help`")
        }
    }

    @Test(arguments: [
        ("import", "  dashboard import imports/\n"), ("check", "  dashboard check imports/\n"), ("status", "  dashboard status\n"),
        ("batches", "  dashboard batches approve 7 --actor alice\n"),
    ])
    func commandHelpMentionsItsExamples(_ command: String, _ example: String) throws {
        let result = try Sandbox().run([command, "--help"])
        #expect(result.exitCode == 0)
        let examples = result.stdout.components(separatedBy: "\nExamples:\n")
        #expect(examples.count == 2)
        #expect(examples.last?.contains(example) == true, "\(command) --help lacks the example \(example)")
    }

    // MARK: - Usage errors (64)

    @Test func noArgumentsIsAUsageError() throws {
        let result = try Sandbox().run([])
        #expect(
            result
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr: "dashboard: error: no command given\ndashboard: hint: run `dashboard --help` for the list of commands\n"))
    }

    @Test func unknownOptionOfACommandIsAUsageError() throws {
        let result = try Sandbox().run(["import", "--bogus", "x.csv"])
        #expect(
            result
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr:
                        "dashboard: error: unknown option --bogus for `dashboard import`\ndashboard: hint: see `dashboard import --help`\n")
        )
    }

    @Test func unknownOptionWithoutACommandIsNamed() throws {
        let result = try Sandbox().run(["--bogus"])
        #expect(result.exitCode == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("dashboard: error: unknown option --bogus"), "\(result)")
    }

    @Test(arguments: [
        ["frobnicate"], ["import"], ["import", "--db"], ["import", "--format", "xml", "x.csv"], ["import", "--mode", "replace", "x.csv"],
        ["import", "--max-delete", "lots", "x.csv"], ["--as-of", "yesterday", "status"], ["--timezone", "Mars/Olympus", "status"],
        ["batches"], ["batches", "show", "seven"], ["status", "extra"], ["--db", "a.sqlite", "--db", "b.sqlite", "status"],
    ])
    func usageErrorsExit64WithTheMessageOnStderr(_ arguments: [String]) throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(arguments)
        #expect(result.exitCode == 64, "\(arguments): \(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("dashboard: error: "))
        #expect(result.stderr.contains("\ndashboard: hint: "))
        #expect(try sandbox.listing().isEmpty, "a usage error must not create files")
    }

    // MARK: - Input missing (66) and I/O errors (74)

    @Test func missingInputPathExits66AndCreatesNoDatabase() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["--db", "db.sqlite", "import", "nope.csv"])
        #expect(
            result
                == CommandResult(
                    exitCode: 66, stdout: "",
                    stderr:
                        "dashboard: error: nope.csv does not exist\ndashboard: hint: check the path; give a CSV file or a folder of them\n")
        )
        #expect(!sandbox.exists("db.sqlite"))
    }

    @Test func folderWithoutCSVFilesExits66() throws {
        let sandbox = try Sandbox()
        try sandbox.write("drop/readme.txt", "nothing here")
        let result = try sandbox.run(["--db", "db.sqlite", "import", "drop"])
        #expect(result.exitCode == 66)
        #expect(result.stderr.hasPrefix("dashboard: error: drop holds no *.csv file\n"))
    }

    @Test(.sqliteFiles) func statusWithoutADatabaseSaysSoAndExits66() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["--db", "db.sqlite", "status"])
        #expect(
            result
                == CommandResult(
                    exitCode: 66, stdout: "No data imported yet: db.sqlite does not exist.\nNext step: dashboard import imports/\n",
                    stderr: ""))
        #expect(!sandbox.exists("db.sqlite"))
    }

    @Test(.sqliteFiles) func databasePathThatIsADirectoryExits74() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        try FileManager.default.createDirectory(atPath: sandbox.path("store"), withIntermediateDirectories: false)
        let result = try sandbox.run(["--db", "store", "import", "courses.csv"])
        #expect(
            result
                == CommandResult(
                    exitCode: 74, stdout: "",
                    stderr:
                        "dashboard: error: store is a directory, not a database file\ndashboard: hint: point --db (or DASHBOARD_DB) at a database file\n"
                ))
    }

    @Test(.sqliteFiles) func databaseInAMissingFolderExits74() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let result = try sandbox.run(["--db", "no/such/dir/db.sqlite", "import", "courses.csv"])
        #expect(result.exitCode == 74, "\(result)")
        #expect(result.stdout == "")
    }

    @Test(.sqliteFiles) func fileThatIsNotADatabaseIsRefusedUnchanged() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        try sandbox.write("db.sqlite", "just some text\n")
        let result = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv"])
        #expect(result.exitCode == 74, "\(result)")
        #expect(try sandbox.read("db.sqlite") == Data("just some text\n".utf8))
    }

    @Test(.sqliteFiles, arguments: [["import", "courses.csv"], ["batches", "approve", "1"]])
    func databaseFromANewerVersionIsRefusedAndLeftByteForByte(_ command: [String]) throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv"]).exitCode == 0)
        do {
            let database = try Database(path: sandbox.path("db.sqlite"), mode: .readWrite)
            try database.execute("PRAGMA user_version = 99")
        }
        let bytes = try sandbox.read("db.sqlite")
        let listing = try sandbox.listing()
        try sandbox.write("courses.csv", Fixtures.courses.replacingOccurrences(of: "Biology", with: "Botany"))
        let result = try sandbox.run(["--db", "db.sqlite"] + command)
        #expect(
            result
                == CommandResult(
                    exitCode: 74, stdout: "",
                    stderr: """
                        dashboard: error: db.sqlite has schema version 99, but this dashboard knows versions up to 14; it was left unchanged
                        dashboard: hint: use the newer dashboard that wrote this file

                        """))
        #expect(try sandbox.read("db.sqlite") == bytes)
        #expect(try sandbox.listing() == listing)
    }

    @Test(.sqliteFiles) func readingCommandsRefuseANewerDatabaseToo() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv"]).exitCode == 0)
        do {
            let database = try Database(path: sandbox.path("db.sqlite"), mode: .readWrite)
            try database.execute("PRAGMA user_version = 99")
        }
        let bytes = try sandbox.read("db.sqlite")
        for command in [["status"], ["batches", "list"], ["check", "courses.csv"]] {
            let result = try sandbox.run(["--db", "db.sqlite"] + command)
            #expect(result.exitCode == 74, "\(command): \(result)")
            #expect(result.stdout == "")
        }
        #expect(try sandbox.read("db.sqlite") == bytes)
    }

    // MARK: - stdout is data, stderr is messages

    @Test func statusAndBatchesWriteDataOnStdoutOnly() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "--quiet", "import", "courses.csv", "tasks.csv"]).exitCode == 0)

        let status = try sandbox.run(["--db", "db.sqlite", "status"])
        #expect(status.exitCode == 0)
        #expect(status.stderr == "")
        let lines = status.stdout.split(separator: "\n").map(String.init)
        // PostgreSQL's schema is at 13: it keeps everything SQLite's 14 keeps but the titles'
        // folds of SQLite's 10 (docs/postgresql.md, docs/formats.md).
        let schema = StoreUnderTest.isPostgres ? 13 : 14
        #expect(
            lines.prefix(3) == ["Database: db.sqlite (schema \(schema))", "Courses:  2 live, 0 deleted", "Tasks:    3 live, 0 deleted"])
        #expect(lines.count == 5)
        #expect(lines[3].hasPrefix("Data as of: 2026-11-29T08:00:00Z (batch 1, committed "))
        #expect(lines[4].hasSuffix(": 5 read, 5 inserted, 0 updated, 0 deleted, 0 rejected"))

        let json = try sandbox.run(["--db", "db.sqlite", "status", "--format", "json"])
        #expect(json.exitCode == 0)
        #expect(json.stderr == "")
        let object = try JSON.object(json.stdout)
        #expect(object["courses"] as? Int == 2)
        #expect(object["tasks"] as? Int == 3)
        #expect(JSON.duplicateKeys(json.stdout) == [])

        let list = try sandbox.run(["batches", "list", "--db", "db.sqlite"])
        #expect(list.exitCode == 0)
        #expect(list.stderr == "")
        #expect(list.stdout.hasPrefix("ID  COMMAND  STATUS     MODE   AS OF"))
    }

    @Test func globalOptionsWorkBeforeAndAfterTheCommand() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let before = try sandbox.run(["--db", "one.sqlite", "--as-of", "2026-12-01T00:00:00Z", "import", "courses.csv"])
        let after = try sandbox.run(["import", "courses.csv", "--db", "two.sqlite", "--as-of", "2026-12-01T00:00:00Z"])
        #expect(before == after)
        #expect(try DatabaseSnapshot.lines(sandbox.path("two.sqlite"), "SELECT as_of FROM batches") == "2026-12-01T00:00:00Z\n")
    }

    @Test func databaseDefaultsToDASHBOARD_DB() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let result = try sandbox.run(["import", "courses.csv"], environment: ["DASHBOARD_DB": "env.sqlite"])
        #expect(result.exitCode == 0)
        #expect(sandbox.exists("env.sqlite"))
        #expect(!sandbox.exists("dashboard.sqlite"))
    }
}
