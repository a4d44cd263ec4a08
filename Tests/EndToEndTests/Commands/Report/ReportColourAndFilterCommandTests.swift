import Foundation
import Testing

/// `dashboard report` with the real binary on the shipped sample (imports/, as of
/// 2026-11-29T08:00:00Z): colour only on a terminal, `--sort-courses`, the due windows, their
/// refusals, a `--course` value that names nothing, and `--format md`.
@Suite struct ReportColourAndFilterCommandTests {
    static let asOf = ReportGoldenTests.asOf
    static let hasScript = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")

    /// `dashboard report ARGS` on the sample through a pseudo-terminal (`script`), `before` put
    /// in front of the program (`NO_COLOR=1`) and `after` behind it (`| cat`). The terminal ends
    /// lines with CR LF; they come back as LF.
    static func onATerminal(_ arguments: [String], in sandbox: Sandbox, before: String = "", after: String = "") throws
        -> CommandResult
    {
        let binary = try DashboardBinary.url().path
        let database = try sandbox.databaseArgument("db.sqlite")
        let command =
            "\(before)'\(binary)' --db '\(database)' --as-of \(asOf) " + arguments.map { "'\($0)'" }.joined(separator: " ") + after
        var result = try sandbox.runTool("script", ["-qec", command, "/dev/null"])
        result.stdout = result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        return result
    }

    /// `text` without its SGR sequences (`ESC [ digits and ; m`).
    static func withoutColour(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    // MARK: - Colour

    @Test(
        .enabled(if: hasScript, "needs /usr/bin/script (util-linux's script, in bsdutils on Debian) for a pseudo-terminal"),
        arguments: [["report", "grid", "--width", "80"], ["report", "list", "--width", "100"]])
    func onATerminalBucketsAreColouredAndTheTextIsTheSame(arguments: [String]) throws {
        let sandbox = try ReportGoldenTests.imported()
        let plain = try ReportGoldenTests.report(Array(arguments.dropFirst()), in: sandbox)
        let result = try Self.onATerminal(arguments, in: sandbox)
        #expect(result.exitCode == 0, "\(result)")
        #expect(Self.withoutColour(result.stdout) == plain)
        let expected =
            arguments[1] == "grid"
            ? [
                "\nBar:  \u{1B}[31m! overdue\u{1B}[0m  \u{1B}[33m* due today\u{1B}[0m  \u{1B}[32m+ upcoming\u{1B}[0m  "
                    + "\u{1B}[36m? no due date\u{1B}[0m  \u{1B}[2m. completed\u{1B}[0m\n",
                "\n\u{1B}[1;31mA card framed with = needs attention.\u{1B}[0m\n",
                "\n\u{1B}[1;31m+" + String(repeating: "=", count: 23) + "+\u{1B}[0m  \u{1B}[1;31m+",
                "\n| \u{1B}[1mBIO 101\u{1B}[0m               |  | \u{1B}[1mHIST 220\u{1B}[0m",
                "\n| \u{1B}[1;31mneeds attention:\u{1B}[0m      |",
                "\n| \u{1B}[1;31m3 overdue,\u{1B}[0m            |",
                "\n| \u{1B}[31m!!!\u{1B}[0m\u{1B}[33m***\u{1B}[0m\u{1B}[32m++++\u{1B}[0m\u{1B}[36m?\u{1B}[0m\u{1B}[2m..........\u{1B}[0m |",
                "\n| \u{1B}[31m! 3 overdue\u{1B}[0m           |",
                "\n| \u{1B}[33m* 3 today\u{1B}[0m             |",
                "\n| \u{1B}[2m. 9 of 20 completed\u{1B}[0m   |",
            ]
            : [
                "\n\u{1B}[1mBIO 101 — Introduction to Biology\u{1B}[0m\n",
                "\n  \u{1B}[31mOverdue (3)\u{1B}[0m\n",
                "\n  \u{1B}[33mDue today (3)\u{1B}[0m\n",
                "\n  \u{1B}[32mUpcoming (4)\u{1B}[0m\n",
                "\n  \u{1B}[36mNo due date (1)\u{1B}[0m\n",
                "  normal    \u{1B}[31m8 days late\u{1B}[0m\n",
                "  high      \u{1B}[33mdue today\u{1B}[0m\n",
                "  low       \u{1B}[32mupcoming\u{1B}[0m\n",
                "  normal    \u{1B}[36mno due date\u{1B}[0m\n",
            ]
        for piece in expected {
            #expect(result.stdout.contains(piece), "no \(piece.debugDescription) in\n\(result.stdout)")
        }
    }

    @Test(
        .enabled(if: hasScript, "needs /usr/bin/script (util-linux's script, in bsdutils on Debian) for a pseudo-terminal"),
        arguments: [
            ("NO_COLOR=1 ", [], ""), ("TERM=dumb ", [], ""), ("", ["--no-color"], ""), ("", [], " | cat"),
        ] as [(String, [String], String)])
    func noColourWithNoColorNoColorFlagDumbTerminalOrAPipe(before: String, flag: [String], after: String) throws {
        let sandbox = try ReportGoldenTests.imported()
        for arguments in [["report", "grid", "--width", "80"], ["report", "list", "--width", "100"]] {
            let plain = try ReportGoldenTests.report(Array(arguments.dropFirst()), in: sandbox)
            let result = try Self.onATerminal(flag + arguments, in: sandbox, before: before, after: after)
            #expect(result.exitCode == 0, "\(result)")
            #expect(!result.stdout.contains("\u{1B}"), "\(before)\(flag)\(arguments)\(after)")
            #expect(result.stdout == plain, "\(before)\(flag)\(arguments)\(after)")
        }
    }

    @Test(.enabled(if: hasScript, "needs /usr/bin/script (util-linux's script, in bsdutils on Debian) for a pseudo-terminal"))
    func anEmptyNoColorCountsAsUnset() throws {
        let sandbox = try ReportGoldenTests.imported()
        let result = try Self.onATerminal(["report", "grid", "--width", "80"], in: sandbox, before: "NO_COLOR= ")
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains("\u{1B}[31m! overdue\u{1B}[0m"))
    }

    @Test func intoAFileTheReportHasNoColour() throws {
        let sandbox = try ReportGoldenTests.imported()
        for kind in ["grid", "list"] {
            let output = try ReportGoldenTests.report([kind, "--width", "80"], in: sandbox)
            #expect(!output.contains("\u{1B}"))
            #expect(output.hasPrefix(kind == "grid" ? "Courses as of 2026-11-29 08:00 UTC\n" : "Task lists as of 2026-11-29 08:00 UTC\n"))
        }
    }

    // MARK: - --sort-courses

    @Test(
        arguments: [
            // 3 overdue and 3 today, 2 and 1, 2 and 0 (ENG before JPN by code), then 1 and 2.
            ([String](), "attention", ["BIO 101", "HIST 220", "ENG 105", "JPN 150", "MAT 210"]),
            (["--sort-courses", "attention"], "attention", ["BIO 101", "HIST 220", "ENG 105", "JPN 150", "MAT 210"]),
            (["--sort-courses", "code"], "code", ["BIO 101", "ENG 105", "HIST 220", "JPN 150", "MAT 210"]),
            // Academic Writing, Australian History…, Introduction…, Lineare Algebra…, 日本語 I.
            (["--sort-courses", "title"], "title", ["ENG 105", "HIST 220", "BIO 101", "MAT 210", "JPN 150"]),
            // The counts the cards show: --bucket today keeps BIO (3), MAT (2) and HIST (1).
            (["--bucket", "today"], "attention", ["BIO 101", "MAT 210", "HIST 220"]),
            (["--bucket", "today", "--sort-courses", "code"], "code", ["BIO 101", "HIST 220", "MAT 210"]),
        ] as [([String], String, [String])])
    func theGridsCardsComeInTheAskedOrder(options: [String], echoed: String, codes: [String]) throws {
        let json = try JSON.object(try ReportGoldenTests.report(["grid", "--format", "json"] + options))
        #expect(JSON.objects(json["courses"]).map { $0["code"] as? String ?? "?" } == codes)
        #expect((json["query"] as? [String: Any])?["sort_courses"] as? String == echoed)
    }

    @Test func theTextGridAndItsPagesFollowTheOrderToo() throws {
        let sandbox = try ReportGoldenTests.imported()
        let text = try ReportGoldenTests.report(["grid", "--sort-courses", "title", "--width", "200"], in: sandbox)
        let row = text.components(separatedBy: "\n").first { $0.hasPrefix("| ENG 105") } ?? ""
        #expect(row.replacingOccurrences(of: " ", with: "") == "|ENG105||HIST220||BIO101||MAT210||JPN150|")
        let page = try JSON.object(
            try ReportGoldenTests.report(
                ["grid", "--format", "json", "--sort-courses", "title", "--limit", "2", "--page", "2"], in: sandbox))
        #expect(JSON.objects(page["courses"]).map { $0["code"] as? String ?? "?" } == ["BIO 101", "MAT 210"])
    }

    // MARK: - Due windows

    /// A task of the sample as the list JSON gives it.
    struct ListedTask {
        let id: String
        let completed: Bool
        /// The due's local date in the course's zone (the JSON writes times on the course's clock).
        let day: String?
        /// True when the due has passed as of the as-of: a date at the end of its local day, a
        /// time at its instant.
        let passed: Bool
        /// The as-of's local date in the course's zone.
        let today: String
    }

    /// Every live task of the sample, read from `report list --format json --include-completed`.
    static func listedTasks(_ sandbox: Sandbox) throws -> [ListedTask] {
        let json = try JSON.object(try ReportGoldenTests.report(["list", "--format", "json", "--include-completed"], in: sandbox))
        let asOf = ISO8601DateFormatter().date(from: Self.asOf) ?? Date.distantPast
        var tasks: [ListedTask] = []
        for course in JSON.objects(json["courses"]) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: course["times_in"] as? String ?? "") ?? TimeZone(secondsFromGMT: 0) ?? .current
            let today = dayText(calendar.dateComponents([.year, .month, .day], from: asOf))
            for section in JSON.objects(course["sections"]) {
                for task in JSON.objects(section["tasks"]) {
                    let due = task["due"] as? String
                    var passed = false
                    if let due {
                        passed = due.count == 10 ? due < today : (ISO8601DateFormatter().date(from: due) ?? .distantFuture) < asOf
                    }
                    tasks.append(
                        ListedTask(
                            id: task["task_id"] as? String ?? "?", completed: task["completed"] as? Bool ?? false,
                            day: due.map { String($0.prefix(10)) }, passed: passed, today: today))
                }
            }
        }
        return tasks
    }

    static func dayText(_ components: DateComponents) -> String {
        String(format: "%04d-%02d-%02d", components.year ?? 0, components.month ?? 0, components.day ?? 0)
    }

    /// `day` plus `days` calendar days.
    static func adding(_ days: Int, to day: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? .current
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])),
            let later = calendar.date(byAdding: .day, value: days, to: date)
        else { return day }
        return dayText(calendar.dateComponents([.year, .month, .day], from: later))
    }

    /// A due window and the rule that says, task by task, what it keeps.
    struct Window: Sendable, CustomTestStringConvertible {
        let options: [String]
        let keeps: @Sendable (ListedTask) -> Bool
        var testDescription: String { options.joined(separator: " ") }
    }

    static let windows: [Window] = [
        Window(options: ["--due-within", "0d"]) { task in task.day.map { !task.passed && $0 <= task.today } ?? false },
        Window(options: ["--due-within", "1d"]) { task in task.day.map { !task.passed && $0 <= adding(1, to: task.today) } ?? false },
        Window(options: ["--due-within", "7d"]) { task in task.day.map { !task.passed && $0 <= adding(7, to: task.today) } ?? false },
        Window(options: ["--due-within", "2w"]) { task in task.day.map { !task.passed && $0 <= adding(14, to: task.today) } ?? false },
        Window(options: ["--due-within", "1d", "--due-within", "3d"]) { task in
            task.day.map { !task.passed && $0 <= adding(3, to: task.today) } ?? false
        },
        Window(options: ["--due-before", "2026-11-29"]) { task in task.day.map { $0 < "2026-11-29" } ?? false },
        Window(options: ["--due-before", "2026-11-25", "--due-before", "2026-12-01"]) { task in task.day.map { $0 < "2026-12-01" } ?? false
        },
        Window(options: ["--due-after", "2026-12-09"]) { task in task.day.map { $0 > "2026-12-09" } ?? false },
        Window(options: ["--due-after", "2026-12-09", "--due-after", "2026-12-12"]) { task in task.day.map { $0 > "2026-12-09" } ?? false },
        Window(options: ["--due-after", "2026-12-01", "--due-before", "2026-12-03"]) { task in task.day == "2026-12-02" },
        Window(options: ["--due-within", "7d", "--due-after", "2026-12-01"]) { task in
            task.day.map { !task.passed && $0 <= adding(7, to: task.today) && $0 > "2026-12-01" } ?? false
        },
    ]

    @Test(arguments: windows) func aDueWindowSelectsExactlyTheTasksDueInItInEachCoursesZone(_ window: Window) throws {
        let sandbox = try ReportGoldenTests.imported()
        let tasks = try Self.listedTasks(sandbox)
        #expect(tasks.count == 98)
        for includeCompleted in [true, false] {
            let completed = includeCompleted ? ["--include-completed"] : []
            let expected = tasks.filter { window.keeps($0) && (includeCompleted || !$0.completed) }.map(\.id).sorted()
            #expect(!expected.isEmpty, "the window \(window.options) keeps no task of the sample: the case tests nothing")
            #expect(expected.count < tasks.count)
            let output = try ReportGoldenTests.report(["list", "--format", "json"] + completed + window.options, in: sandbox)
            let listed = ReportListCommandTests.tasks(try JSON.object(output)).map { $0["task_id"] as? String ?? "?" }.sorted()
            #expect(listed == expected, "\(window.options) \(completed)")
        }
    }

    @Test func theSampleDueWithinZeroDaysIsTheTasksStillDueLaterToday() throws {
        let output = try ReportGoldenTests.report(["list", "--format", "json", "--due-within", "0d", "--include-completed"])
        let listed = ReportListCommandTests.tasks(try JSON.object(output)).map { $0["task_id"] as? String ?? "?" }
        // 03:00 in New York: T1007 (18:00), T1077 (23:59), T1086 and the completed T1001 and
        // T1076 (dates); 19:00 in Sydney: T1051 (a date; the completed T1055 at 10:00 has
        // passed); 09:00 in Berlin: T1078 (10:00), T1083 (17:00) and the completed T1023 (14:00).
        #expect(listed.sorted() == ["T1001", "T1007", "T1023", "T1051", "T1076", "T1077", "T1078", "T1083", "T1086"])
    }

    @Test func theGridCountsOnlyTheTasksInTheWindow() throws {
        let json = try JSON.object(try ReportGoldenTests.report(["grid", "--format", "json", "--due-within", "0d"]))
        let cards = JSON.objects(json["courses"]).map { card -> String in
            let counts = card["counts"] as? [String: Any] ?? [:]
            return "\(card["code"] as? String ?? "?") \(counts["today"] as? Int ?? -1) today \(counts["completed"] as? Int ?? -1) done"
        }
        #expect(cards == ["BIO 101 3 today 2 done", "MAT 210 2 today 1 done", "HIST 220 1 today 0 done"])
        let query = json["query"] as? [String: Any] ?? [:]
        #expect(query["due_within_days"] as? [Int] == [0])
    }

    // MARK: - Refusals

    @Test(
        arguments: [
            (["--due-within", "7"], "--due-within must be a number of days or weeks (7d, 2w) from 0 to 3660 days, not \"7\""),
            (["--due-within", "9999d"], "--due-within must be a number of days or weeks (7d, 2w) from 0 to 3660 days, not \"9999d\""),
            (["--due-within", "3661d"], "--due-within must be a number of days or weeks (7d, 2w) from 0 to 3660 days, not \"3661d\""),
            (["--due-within", "523w"], "--due-within must be a number of days or weeks (7d, 2w) from 0 to 3660 days, not \"523w\""),
            (["--due-within", "7D"], "--due-within must be a number of days or weeks (7d, 2w) from 0 to 3660 days, not \"7D\""),
            (["--due-before", "2026-13-01"], "--due-before must be a date as YYYY-MM-DD (years 1900 to 2200), not \"2026-13-01\""),
            (["--due-before", "2026-02-30"], "--due-before must be a date as YYYY-MM-DD (years 1900 to 2200), not \"2026-02-30\""),
            (["--due-after", "2201-01-01"], "--due-after must be a date as YYYY-MM-DD (years 1900 to 2200), not \"2201-01-01\""),
            (
                ["--due-after", "2026-12-01T10:00"],
                "--due-after must be a date as YYYY-MM-DD (years 1900 to 2200), not \"2026-12-01T10:00\""
            ),
            (
                ["--due-after", "2026-12-02", "--due-before", "2026-12-03"],
                "no day is after 2026-12-02 and before 2026-12-03: --due-after must be at least two days before --due-before"
            ),
            (
                ["--due-before", "2026-12-03", "--due-after", "2026-12-05"],
                "no day is after 2026-12-05 and before 2026-12-03: --due-after must be at least two days before --due-before"
            ),
            (["--sort-courses", "size"], "--sort-courses must be attention, code or title, not \"size\""),
        ] as [([String], String)])
    func aRefusedValueExits64NamingItAndChangesNothing(options: [String], message: String) throws {
        let sandbox = try ReportGoldenTests.imported()
        let before = try DatabaseSnapshot.data(sandbox.db) + (try sandbox.auditLog())
        let files = try sandbox.listing()
        for kind in ["grid", "list"] {
            for out in [[], ["--out", "reports"]] {
                let result = try sandbox.run(["--db", "db.sqlite", "--as-of", Self.asOf, "report", kind] + options + out)
                #expect(
                    result
                        == CommandResult(
                            exitCode: 64, stdout: "",
                            stderr: "dashboard: error: \(message)\ndashboard: hint: see `dashboard report --help`\n"),
                    "report \(kind) \(options) \(out)")
            }
        }
        #expect(try DatabaseSnapshot.data(sandbox.db) + (try sandbox.auditLog()) == before)
        #expect(try sandbox.listing() == files)
    }

    @Test func theWidestAcceptedValuesRun() throws {
        let sandbox = try ReportGoldenTests.imported()
        for options in [
            ["--due-within", "3660d"], ["--due-within", "522w"], ["--due-after", "1900-01-01"], ["--due-before", "2200-12-31"],
        ] {
            let json = try JSON.object(try ReportGoldenTests.report(["list", "--format", "json"] + options, in: sandbox))
            #expect(json["state"] as? String == "ok", "\(options)")
        }
        // Two days apart: exactly one day between them.
        let december2 = try JSON.object(
            try ReportGoldenTests.report(
                ["list", "--format", "json", "--due-after", "2026-12-01", "--due-before", "2026-12-03"], in: sandbox))
        #expect(ReportListCommandTests.tasks(december2).map { $0["task_id"] as? String ?? "?" }.sorted() == ["T1038", "T1040", "T1080"])
    }

    // MARK: - A value that names nothing

    @Test func aCourseValueThatNamesNothingSaysSoWithTheNearestInTextAndJSON() throws {
        let sandbox = try ReportGoldenTests.imported()
        let text = try ReportGoldenTests.report(["list", "--course", "MAT201", "--width", "200"], in: sandbox)
        #expect(
            text == """
                Task lists as of 2026-11-29 08:00 UTC
                No task matches --course MAT201.
                No course has the id or code "MAT201" (the nearest: "MAT 210"). `dashboard report grid` lists the courses.

                """)
        let output = try ReportGoldenTests.report(["list", "--course", "MAT201", "--format", "json"], in: sandbox)
        let json = try JSON.object(output)
        #expect(json["state"] as? String == "no_match")
        #expect(
            json["message"] as? String
                == "No task matches --course MAT201. No course has the id or code \"MAT201\" (the nearest: \"MAT 210\"). "
                + "`dashboard report grid` lists the courses.")
        #expect(
            output.contains(
                """
                  "unmatched": [
                    {
                      "filter": "course",
                      "value": "MAT201",
                      "nearest": [
                        "MAT 210"
                      ]
                    }
                  ],

                """))
    }

    @Test func teacherAndStudentValuesThatNameNothingSaySoToo() throws {
        let sandbox = try ReportGoldenTests.imported()
        let text = try ReportGoldenTests.report(["list", "--teacher", "okafr", "--student", "s20O6", "--width", "300"], in: sandbox)
        #expect(
            text == """
                Task lists as of 2026-11-29 08:00 UTC
                No task matches --teacher okafr --student s20O6.
                No course's teacher is named "okafr" (the nearest: "Mr. David Okafor"). No task has the student id "s20O6" (the nearest: "s2006", "s2016" or "s2026"). These filters hide 54 tasks. To see them, run the report without --teacher and --student.

                """)
        let json = try JSON.object(try ReportGoldenTests.report(["grid", "--teacher", "okafr", "--format", "json"], in: sandbox))
        let unmatched = JSON.objects(json["unmatched"]).map { value in
            "\(value["filter"] as? String ?? "?") \(value["value"] as? String ?? "?") \(value["nearest"] as? [String] ?? [])"
        }
        #expect(unmatched == ["teacher okafr [\"Mr. David Okafor\"]"])
        // A value that names something is not listed, even when nothing matches.
        let matched = try JSON.object(
            try ReportGoldenTests.report(["list", "--teacher", "okafor", "--search", "zzz", "--format", "json"], in: sandbox))
        #expect(matched["state"] as? String == "no_match")
        #expect(JSON.objects(matched["unmatched"]).isEmpty)
    }

    // MARK: - --format md

    @Test(arguments: ["grid", "list"]) func formatMdIsMarkdown(kind: String) throws {
        let sandbox = try ReportGoldenTests.imported()
        let md = try ReportGoldenTests.report([kind, "--format", "md"], in: sandbox)
        let markdown = try ReportGoldenTests.report([kind, "--format", "markdown"], in: sandbox)
        #expect(md == markdown)
        #expect(md.hasPrefix(kind == "grid" ? "# Courses as of 2026-11-29 08:00 UTC\n" : "# Task lists as of 2026-11-29 08:00 UTC\n"))
        for (format, folder) in [("md", "out-md"), ("markdown", "out-markdown")] {
            let result = try sandbox.run(["--db", "db.sqlite", "--as-of", Self.asOf, "report", kind, "--format", format, "--out", folder])
            #expect(result.exitCode == 0, "\(result)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("out-md")).sorted()
        #expect(names == (try FileManager.default.contentsOfDirectory(atPath: sandbox.path("out-markdown")).sorted()))
        #expect(names.contains("index.md"))
        for name in names {
            #expect(try sandbox.read("out-md/" + name) == (try sandbox.read("out-markdown/" + name)), "\(name)")
        }
    }
}
