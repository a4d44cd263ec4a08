import Foundation
import Testing

/// `check --format junit` and `import --format junit`: a JUnit XML report on stdout, valid
/// against the JUnit schema CI systems read (Jenkins xunit's junit-10.xsd, vendored in
/// Tests/Fixtures/JUnit/ and checked with xmllint), with the command's exit code and its
/// one-line summary on stderr as in every other format.
@Suite struct JUnitReportTests {
    /// The shipped sample folder, copied into the sandbox as `imports/` so that the report names
    /// the files as a user in the project's folder would (`imports/tasks.csv`).
    static func copySample(into sandbox: Sandbox) throws {
        let folder = DashboardBinary.packageRoot.appendingPathComponent("imports")
        for name in ["courses.csv", "tasks.csv"] {
            try sandbox.write("imports/" + name, bytes: try Data(contentsOf: folder.appendingPathComponent(name)))
        }
    }

    /// Runs the command, expects its report to be valid against the schema and returns it.
    static func report(
        _ sandbox: Sandbox, _ arguments: [String], exitCode: Int32, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CommandResult {
        let result = try sandbox.run(arguments)
        #expect(result.exitCode == exitCode, "\(result)", sourceLocation: sourceLocation)
        let validation = try JUnitDocument.validate(result.stdout, in: sandbox)
        #expect(
            validation == CommandResult(exitCode: 0, stdout: "", stderr: "report.xml validates\n"), "\(validation)",
            sourceLocation: sourceLocation)
        return result
    }

    static let xmlHeader = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

    // MARK: - Goldens

    @Test func aCleanCheckHasOneSuitePerFileAndEveryRulePasses() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let result = try Self.report(
            sandbox, ["--db", "db.sqlite", "check", "--format", "junit", "courses.csv", "tasks.csv"], exitCode: 0)
        GoldenFile.expectMatch(result.stdout, golden: "junit/clean.xml")
        #expect(
            result.stderr
                == "dashboard: check dry run (merge), nothing written: 5 rows read, would insert 5, would update 0, 0 unchanged, would delete 0, 0 rejected, 0 warnings\n"
        )
        let document = try JUnitDocument.parse(result.stdout)
        #expect(document.attributes == ["name": "dashboard check", "tests": "51", "failures": "0", "errors": "0", "time": "0"])
        #expect(document.suites.map(\.name) == ["courses.csv", "tasks.csv"])
        #expect(document.suites.map { $0.cases.map(\.name) } == [Self.courseRules, Self.taskRules])
        #expect(document.suites.allSatisfy { $0.cases.allSatisfy { $0.outcomes.isEmpty && $0.systemOut.isEmpty } })
    }

    static let fileRules = [
        "unreadable_file", "empty_file", "invalid_encoding", "unterminated_quote", "field_too_large", "too_many_columns",
        "unknown_file_kind", "missing_column", "duplicate_column", "mismatched_header",
    ]
    static let warningRules = ["unknown_column", "blank_row", "repeated_header", "duplicate_row"]
    static let courseRules =
        fileRules + [
            "missing_value", "wrong_field_count", "malformed_quote", "value_too_long", "invisible_character", "invalid_timezone",
            "invalid_email", "invalid_language", "duplicate_id",
        ]
        + warningRules
    static let taskRules =
        fileRules + [
            "missing_value", "wrong_field_count", "malformed_quote", "value_too_long", "invisible_character", "invalid_date",
            "ambiguous_date", "implausible_date", "invalid_priority", "invalid_boolean", "invalid_status", "conflicting_status",
            "duplicate_id", "unknown_course",
        ] + warningRules

    @Test func theSampleFolderHasOneFailurePerRejectedRowUnderItsRule() throws {
        let sandbox = try Sandbox()
        try Self.copySample(into: sandbox)
        let result = try Self.report(sandbox, ["--db", "db.sqlite", "check", "--format", "junit", "imports/"], exitCode: 65)
        GoldenFile.expectMatch(result.stdout, golden: "junit/sample-imports.xml")
        // The summary on stderr is the one of every format but text (which lists the problems too).
        #expect(
            result.stderr
                == "dashboard: check dry run (merge), nothing written: 111 rows read, would insert 103, would update 0, 0 unchanged, would delete 0, 7 rejected, 3 warnings\n"
        )
        let tasks = try #require(try JUnitDocument.parse(result.stdout).suite("imports/tasks.csv"))
        let failed = tasks.cases.filter { !$0.failures.isEmpty }.map { "\($0.name) \($0.failures.count)" }
        #expect(
            failed == [
                "invalid_date 1", "ambiguous_date 1", "implausible_date 1", "invalid_priority 1", "invalid_boolean 1", "duplicate_id 1",
                "unknown_course 1",
            ])
        let date = try #require(tasks.testCase("invalid_date")?.failures.first)
        #expect(
            date.attributes == [
                "type": "invalid_date",
                "message": "imports/tasks.csv:65: due: \"2026-02-30\" is not a date: month 2 of 2026 has 28 days [invalid_date]",
            ])
        #expect(
            date.text == """
                imports/tasks.csv:65: due: "2026-02-30" is not a date: month 2 of 2026 has 28 days [invalid_date]
                hint: use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] (course time) or add Z / ±HH:MM for an exact instant
                file: imports/tasks.csv
                line: 65
                row: 63
                column: due
                code: invalid_date
                value: "2026-02-30"

                """)
        #expect(tasks.attributes["tests"] == "28" && tasks.attributes["failures"] == "7" && tasks.attributes["skipped"] == "0")
        #expect(tasks.property("status") == "dry_run" && tasks.property("file.rejects") == "7" && tasks.property("file.warnings") == "2")
    }

    @Test func warningsPassTheirRuleAndAreListedInItsOutput() throws {
        let sandbox = try Sandbox()
        try Self.copySample(into: sandbox)
        let result = try Self.report(sandbox, ["--db", "db.sqlite", "check", "--format", "junit", "imports/"], exitCode: 65)
        let document = try JUnitDocument.parse(result.stdout)
        let blank = try #require(document.suite("imports/tasks.csv")?.testCase("blank_row"))
        #expect(blank.outcomes.isEmpty)
        #expect(
            blank.systemOut == """
                imports/tasks.csv:70: warning: line 70 is blank and was skipped [blank_row]
                    hint: remove blank lines from the export, or ignore this warning

                """)
        let room = try #require(document.suite("imports/courses.csv")?.testCase("unknown_column"))
        #expect(room.outcomes.isEmpty)
        #expect(room.systemOut.hasPrefix("imports/courses.csv:1: warning: Room: column \"Room\" is not used by a courses file"))
    }

    @Test func aRepeatedHeaderPassesItsRuleAndAnInvisibleCharacterFailsItsOwn() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write("tasks.csv", "task_id,course_id,title\nt1,bio,Essay\n\u{FEFF}task_id,course_id,title\nt\u{200B}2,bio,Lab\n")
        let result = try Self.report(
            sandbox, ["--db", "db.sqlite", "check", "--format", "junit", "courses.csv", "tasks.csv"], exitCode: 65)
        let tasks = try #require(try JUnitDocument.parse(result.stdout).suite("tasks.csv"))
        let repeated = try #require(tasks.testCase("repeated_header"))
        #expect(repeated.outcomes.isEmpty)
        #expect(
            repeated.systemOut == """
                tasks.csv:3: warning: line 3 repeats the header (line 1) and was skipped [repeated_header]
                    hint: exports joined into one file (cat a.csv b.csv) repeat their header: remove the line, or ignore this warning

                """)
        let invisible = try #require(tasks.testCase("invisible_character"))
        #expect(invisible.outcomes.map(\.element) == ["failure"])
        #expect(
            invisible.outcomes.first?.attributes["message"]
                == "tasks.csv:4: task_id: task_id holds an invisible character: U+200B (ZERO WIDTH SPACE) at position 2 "
                + "[invisible_character] value: \"t<U+200B>2\"")
        #expect(tasks.attributes["failures"] == "1" && tasks.property("file.warnings") == "1")
    }

    @Test func aHeaderOfAnotherLayoutFailsItsFileRuleAndStopsTheRun() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write("tasks.csv", "task_id,course_id,title\nt1,bio,Essay\ncourse_id,title\nbio,Biology\n")
        let result = try Self.report(
            sandbox, ["--db", "db.sqlite", "check", "--format", "junit", "courses.csv", "tasks.csv"], exitCode: 65)
        let tasks = try #require(try JUnitDocument.parse(result.stdout).suite("tasks.csv"))
        #expect(tasks.cases.map(\.name) == Self.fileRules)
        #expect(
            tasks.cases.map { $0.outcomes.map(\.element) } == Self.fileRules.map { $0 == "mismatched_header" ? ["failure"] : ["skipped"] })
        #expect(
            tasks.testCase("mismatched_header")?.outcomes.first?.attributes["message"]
                == "tasks.csv:3: line 3 is the header of a courses file (course_id, title) inside a tasks file: the rows after it "
                + "cannot be read with the header on line 1 (task_id, course_id, title) [mismatched_header] value: \"course_id,title\"")
    }

    @Test func aFileLevelErrorIsOneFailureOfItsRuleAndEveryOtherRuleIsSkipped() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write("tasks.csv", bytes: Data("task_id,course_id,title\nt1,bio,Caf".utf8) + Data([0xE9, 0x0A]))
        let result = try Self.report(
            sandbox, ["--db", "db.sqlite", "check", "--format", "junit", "courses.csv", "tasks.csv"], exitCode: 65)
        GoldenFile.expectMatch(result.stdout, golden: "junit/file-error.xml")
        // stderr is the text format's: the error and its hint.
        let text = try sandbox.run(["--db", "db.sqlite", "check", "courses.csv", "tasks.csv"])
        #expect(result.stderr == text.stderr)
        let document = try JUnitDocument.parse(result.stdout)
        #expect(document.attributes["failures"] == "1")
        let tasks = try #require(document.suite("tasks.csv"))
        #expect(tasks.cases.map(\.name) == Self.fileRules)
        #expect(
            tasks.cases.map { $0.outcomes.map(\.element) } == Self.fileRules.map { $0 == "invalid_encoding" ? ["failure"] : ["skipped"] })
        #expect(
            tasks.testCase("empty_file")?.outcomes.first?.attributes
                == ["message": "not reported: reading this file stopped at line 2 (invalid_encoding)"])
        let courses = try #require(document.suite("courses.csv"))
        #expect(
            courses.cases.allSatisfy {
                $0.outcomes.map(\.attributes) == [["message": "not reported: the run stopped at tasks.csv:2 (invalid_encoding)"]]
            })
        #expect(courses.property("status") == "failed" && courses.attributes["skipped"] == "10")
    }

    /// A database that cannot be opened is not the data's fault: one suite named after the
    /// command, one test case `run` with the `<error>` stderr shows, valid against the schema,
    /// and the same facts in `--format json`; the exit code is 74 and the file is left as it was.
    @Test(.sqliteFiles, arguments: ["check", "import"])
    func aDatabaseThatCannotBeOpenedIsOneRunErrorTheSchemaAccepts(command: String) throws {
        let sandbox = try Sandbox()
        try Self.copySample(into: sandbox)
        let garbage = String(repeating: "not a database ", count: 20)
        try sandbox.write("bad.sqlite", garbage)
        let result = try Self.report(
            sandbox, ["--db", "bad.sqlite", "--as-of", "2026-11-29T08:00:00Z", command, "--format", "junit", "imports/"], exitCode: 74)
        let message = "bad.sqlite is not a dashboard database (not an SQLite file)"
        #expect(
            result.stdout == Self.xmlHeader + """
                <testsuites name="dashboard \(command)" tests="1" failures="0" errors="1" time="0">
                  <testsuite name="dashboard \(command)" tests="1" failures="0" errors="1" skipped="0" time="0" timestamp="2026-11-29T08:00:00Z">
                    <properties>
                      <property name="command" value="\(command)"/>
                      <property name="status" value="failed"/>
                      <property name="mode" value="merge"/>
                      <property name="as_of" value="2026-11-29T08:00:00Z"/>
                      <property name="reason" value="\(message)"/>
                    </properties>
                    <testcase name="run" classname="dashboard \(command)" time="0">
                      <error type="run_failed" message="\(message)">\(message)
                hint: point --db (or DASHBOARD_DB) at a database file
                </error>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
        #expect(result.stderr == "dashboard: error: \(message)\ndashboard: hint: point --db (or DASHBOARD_DB) at a database file\n")
        let json = try sandbox.run(["--db", "bad.sqlite", command, "--format", "json", "imports/"])
        #expect(json.exitCode == 74, "\(json)")
        #expect(
            json.stdout == """
                {
                  "schema": 1,
                  "batch_id": null,
                  "status": "failed",
                  "reason": "\(message)",
                  "file_error": null
                }

                """)
        #expect(try sandbox.read("bad.sqlite") == Data(garbage.utf8))
    }

    /// A busy database ran nothing: no report at all (75), as in `--format json`.
    @Test func aBusyDatabaseWritesNoReport() throws {
        let sandbox = try Sandbox()
        try Self.copySample(into: sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "imports/"]).exitCode == 65)
        let lock = try LockingTests.WriteLockHolder(database: sandbox.path("db.sqlite"), directory: sandbox.directory)
        let result = try sandbox.run(["--db", "db.sqlite", "import", "--format", "junit", "imports/"])
        lock.release()
        #expect(result.exitCode == 75, "\(result)")
        #expect(result.stdout == "")
    }

    @Test func xmlHostileValuesAreEscapedAndControlCharactersShownVisibly() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        // A due date that closes a CDATA section and starts a terminal escape; a priority with a
        // bidi override, a bell and U+FFFF, which XML 1.0 does not allow even as a reference;
        // one with markup, an entity, a CDATA end and both quotes.
        try sandbox.write(
            "a&b <tasks> \"q\".csv",
            "task_id,course_id,title,due,priority\n"
                + "t1,bio,Lab,2026-13-01]]>\u{1B}[31m,high\n"
                + "t2,bio,Essay,,\"\u{202E}urgent\u{07}\u{FFFF}\"\n"
                + "t3,bio,Quiz,,\"<b>&amp; ]]> \"\"q\"\" 's\"\n")
        let result = try Self.report(
            sandbox, ["--db", "db.sqlite", "check", "--format", "junit", "courses.csv", "a&b <tasks> \"q\".csv"], exitCode: 65)
        GoldenFile.expectMatch(result.stdout, golden: "junit/hostile.xml")
        #expect(!result.stdout.contains("]]>") && !result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{202E}"))
        let suite = try #require(try JUnitDocument.parse(result.stdout).suite("a&b <tasks> \"q\".csv"))
        #expect(suite.cases.allSatisfy { $0.attributes["classname"] == "a&b <tasks> \"q\".csv" })
        let due = try #require(suite.testCase("invalid_date")?.failures.first)
        #expect(due.attributes["message"]?.hasPrefix("a&b <tasks> \"q\".csv:2: due: \"2026-13-01]]>␛[31m\" is not a date") == true)
        #expect(due.text.contains("\nvalue: \"2026-13-01]]>␛[31m\"\n"))
        let priority = try #require(suite.testCase("invalid_priority")?.failures.first)
        #expect(priority.text.contains("\nvalue: \"<U+202E>urgent␇<U+FFFF>\"\n"))
        let markup = try #require(suite.testCase("invalid_priority")?.failures.last)
        #expect(
            markup.attributes["message"]
                == "a&b <tasks> \"q\".csv:4: priority: \"<b>&amp; ]]> \"q\" 's\" is not a priority [invalid_priority]")
        #expect(markup.text.hasSuffix("\nvalue: \"<b>&amp; ]]> \"q\" 's\"\n"))
    }

    // MARK: - Outcomes of the run

    @Test func aHeldSyncFailsTheDeleteGuardOfTheKindItWouldDeleteFrom() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        try sandbox.write("tasks.csv", "task_id,course_id,title\nt1,bio,Lab report\n")
        let result = try Self.report(
            sandbox, ["--db", "db.sqlite", "import", "--format", "junit", "--mode", "sync", "courses.csv", "tasks.csv"], exitCode: 65)
        GoldenFile.expectMatch(result.stdout, golden: "junit/held-sync.xml")
        let document = try JUnitDocument.parse(result.stdout)
        let tasks = try #require(document.suite("tasks.csv"))
        let reason =
            "sync would delete 2 of 3 tasks (67%), more than --max-delete 10%; nothing was changed. Review it with `dashboard batches show 2`, then `dashboard batches approve 2` or `dashboard batches discard 2`"
        #expect(tasks.property("status") == "held" && tasks.property("batch_id") == "2" && tasks.property("reason") == reason)
        #expect(tasks.property("counts.tasks.deleted") == "2")
        #expect(
            tasks.testCase("max_delete")?.outcomes
                == [
                    JUnitDocument.Failure(
                        element: "failure", attributes: ["type": "max_delete", "message": reason],
                        text: reason
                            + "\nhint: approve the batch only if these deletions are expected (dashboard batches approve 2); otherwise discard it and fix the export\n"
                    )
                ])
        // The courses lose nothing: their guard passes.
        #expect(document.suite("courses.csv")?.testCase("max_delete")?.outcomes == [])
        #expect(document.attributes["failures"] == "1")
    }

    @Test func aCheckOfASyncThatWouldBeHeldFailsTheDeleteGuardToo() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        try sandbox.write("tasks.csv", "task_id,course_id,title\nt1,bio,Lab report\n")
        let result = try Self.report(
            sandbox, ["--db", "db.sqlite", "check", "--format", "junit", "--mode", "sync", "tasks.csv"], exitCode: 65)
        let guardCase = try #require(try JUnitDocument.parse(result.stdout).suite("tasks.csv")?.testCase("max_delete"))
        #expect(
            guardCase.failures.map(\.attributes) == [
                [
                    "type": "max_delete",
                    "message": "a real import would be held: sync would delete 2 of 3 tasks (67%), more than --max-delete 10%",
                ]
            ])
    }

    @Test func importWritesTheReportOfTheBatchItCommitted() throws {
        let sandbox = try Sandbox()
        try Self.copySample(into: sandbox)
        let result = try Self.report(sandbox, ["--db", "db.sqlite", "import", "--format", "junit", "imports/"], exitCode: 65)
        let document = try JUnitDocument.parse(result.stdout)
        #expect(document.attributes["name"] == "dashboard import")
        let tasks = try #require(document.suite("imports/tasks.csv"))
        #expect(
            tasks.properties.prefix(5).map { "\($0.name)=\($0.value)" } == [
                "command=import", "status=committed", "mode=merge", "as_of=2026-11-29T08:00:00Z", "batch_id=1",
            ])
        #expect(tasks.attributes["timestamp"] == "2026-11-29T08:00:00Z")
        #expect(tasks.property("counts.tasks.inserted") == "98")
        #expect(tasks.cases.filter { !$0.failures.isEmpty }.count == 7)
    }

    // MARK: - The numbers agree with JSON

    /// Rejected rows of each (file, code) and warnings of each (file, code) in the JSON result.
    static func jsonCounts(_ stdout: String) throws -> (rejects: [String: Int], warnings: [String: Int]) {
        let json = try JSON.object(stdout)
        func tally(_ key: String) -> [String: Int] {
            JSON.objects(json[key]).reduce(into: [:]) { counts, item in
                counts["\(item["file"] as? String ?? "") \(item["code"] as? String ?? "")", default: 0] += 1
            }
        }
        return (tally("rejects"), tally("warnings"))
    }

    /// The same, read from the report: `<failure>`s of each rule, and warning lines in each
    /// rule's output (a warning is its line and its hint's).
    static func junitCounts(_ document: JUnitDocument) -> (rejects: [String: Int], warnings: [String: Int]) {
        var rejects: [String: Int] = [:]
        var warnings: [String: Int] = [:]
        for suite in document.suites {
            for testCase in suite.cases {
                if !testCase.failures.isEmpty { rejects["\(suite.name) \(testCase.name)"] = testCase.failures.count }
                let lines = testCase.systemOut.split(separator: "\n").filter { !$0.hasPrefix("    hint: ") }
                if !lines.isEmpty { warnings["\(suite.name) \(testCase.name)"] = lines.count }
            }
        }
        return (rejects, warnings)
    }

    /// The suite's and the root's numbers are its test cases'.
    static func expectConsistentTotals(_ document: JUnitDocument, sourceLocation: SourceLocation = #_sourceLocation) {
        var totals = (tests: 0, failures: 0, errors: 0)
        for suite in document.suites {
            let failures = suite.cases.filter { $0.outcomes.contains { $0.element == "failure" } }.count
            let errors = suite.cases.filter { $0.outcomes.contains { $0.element == "error" } }.count
            let skipped = suite.cases.filter { $0.outcomes.contains { $0.element == "skipped" } }.count
            #expect(
                [suite.attributes["tests"], suite.attributes["failures"], suite.attributes["errors"], suite.attributes["skipped"]]
                    == ["\(suite.cases.count)", "\(failures)", "\(errors)", "\(skipped)"], sourceLocation: sourceLocation)
            totals = (totals.tests + suite.cases.count, totals.failures + failures, totals.errors + errors)
        }
        #expect(
            [document.attributes["tests"], document.attributes["failures"], document.attributes["errors"]]
                == ["\(totals.tests)", "\(totals.failures)", "\(totals.errors)"], sourceLocation: sourceLocation)
    }

    /// The sample (many codes and warnings), a file of every row rule at once, and 1,500
    /// rejected rows (more than the spool keeps in memory: the problems are then read from its
    /// temporary database, rule by rule).
    @Test(arguments: ["sample", "every row rule", "spooled"])
    func failuresPerRuleAreTheRejectsOfThatCodeInTheJSONOfTheSameCheck(files: String) throws {
        let sandbox = try Sandbox()
        var arguments: [String]
        switch files {
        case "sample":
            try Self.copySample(into: sandbox)
            arguments = ["imports/"]
        case "every row rule":
            try sandbox.write(
                "courses.csv",
                "course_id,title,timezone,room\nbio,Biology,America/New_York,1\nmar,Mars,Mars/Olympus,1\n,History,,2\nbio,Botany,,3\n"
                    + "bio,Botany,,3\n\nart,\"Art\"x,,4\nmus,Music\n")
            try sandbox.write(
                "tasks.csv",
                "task_id,course_id,title,due,priority,completed\n"
                    + "t1,bio,A,2026-02-30,asap,maybe\nt2,zzz,B,12/04/2026,,\nt3,bio,C,3026-01-01,,\n"
                    + "t4,bio,\(String(repeating: "x", count: 5000)),,,\nt5,bio\n,,,,,\nt6,bio,E,,,\nt6,bio,E,,,\nt6,bio,F,,,\n")
            arguments = ["courses.csv", "tasks.csv"]
        default:
            try sandbox.write("courses.csv", Fixtures.courses)
            var tasks = "task_id,course_id,title,priority\n"
            for i in 1...1_500 { tasks += "t\(i),\(i % 3 == 0 ? "nope" : "bio"),Task \(i),\(i % 2 == 0 ? "asap" : "high")\n" }
            try sandbox.write("tasks.csv", tasks)
            arguments = ["courses.csv", "tasks.csv"]
        }
        let json = try sandbox.run(["--db", "db.sqlite", "check", "--format", "json"] + arguments)
        let junit = try Self.report(sandbox, ["--db", "db.sqlite", "check", "--format", "junit"] + arguments, exitCode: json.exitCode)
        let document = try JUnitDocument.parse(junit.stdout)
        let expected = try Self.jsonCounts(json.stdout)
        let actual = Self.junitCounts(document)
        #expect(actual.rejects == expected.rejects)
        #expect(actual.warnings == expected.warnings)
        #expect(!expected.rejects.isEmpty && junit.stderr == json.stderr)
        Self.expectConsistentTotals(document)
        for suite in document.suites {
            let rejects = expected.rejects.filter { $0.key.hasPrefix(suite.name + " ") }.values.reduce(0, +)
            #expect(suite.property("file.rejects") == "\(rejects)")
        }
        if files == "every row rule" {
            let failing = Set(expected.rejects.keys.map { String($0.split(separator: " ").last ?? "") })
            #expect(
                failing == [
                    "invalid_timezone", "missing_value", "duplicate_id", "malformed_quote", "wrong_field_count", "invalid_date",
                    "invalid_priority", "invalid_boolean", "unknown_course", "ambiguous_date", "implausible_date", "value_too_long",
                ])
        }
    }
}
