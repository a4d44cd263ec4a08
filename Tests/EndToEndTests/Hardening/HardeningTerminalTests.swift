import Foundation
import Testing

/// Issue 11, class 6: terminals and readers cannot be spoofed. Control characters (ESC
/// sequences, CR, BEL), bidi controls and zero-width characters of user data (CSV values, file
/// names, `--reason`, `--actor`, everything read back from the database) are shown as visible
/// escapes in every human-readable output; JSON and CSV keep the exact value.
@Suite struct HardeningTerminalTests {
    /// Sets the terminal's window title.
    static let osc = "\u{1B}]0;pwned\u{07}"
    /// Clears the screen.
    static let cls = "\u{1B}[2J"

    static let courses =
        "course_id,title,code,teacher\n\"bio\(osc)\",\"Bio\(cls)logy\u{202E}evil\",\"BIO\u{1B}[31m\",\"Ms\(osc) A\u{200B}dams\"\n"
    /// Task 1 is valid (its student id holds a CR and an ESC: control characters, not the
    /// invisible format characters an id may not hold); task 2 has a bad due, so it is rejected
    /// with its value quoted in the message. The CR in task 1 makes task 2 line 4.
    static let tasks =
        "task_id,course_id,title,student_id,due,priority\n"
        + "\"t\(osc)1\",\"bio\(osc)\",\"Lab\(cls) re\u{202E}port\u{200B}\",\"s\r\u{1B}1\",2026-12-01,high\n"
        + "t2,\"bio\(osc)\",x,s2,\"not\(osc)a\rdate\(cls)\",low\n"

    static let taskID = "t\(osc)1"

    /// The characters that must never reach a reader raw, by code point: C0 controls but the
    /// line feeds of our own layout, DEL, C1, bidi controls and zero-width characters.
    static func rawControls(_ text: String) -> [String] {
        var found: [String] = []
        for scalar in text.unicodeScalars {
            let v = scalar.value
            let hidden =
                (v < 0x20 && v != 0x0A) || (0x7F...0x9F).contains(v) || [0x061C, 0x200E, 0x200F, 0xFEFF, 0x2060].contains(v)
                || (0x200B...0x200D).contains(v) || (0x2028...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            if hidden { found.append("U+" + String(v, radix: 16, uppercase: true)) }
        }
        return found
    }

    /// Fails with the output when it holds a raw control, bidi or zero-width character.
    static func expectVisible(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let found = rawControls(text)
        #expect(found.isEmpty, "\(what) holds raw \(found):\n\(text)", sourceLocation: sourceLocation)
    }

    /// The hostile files imported into db.sqlite (one row rejected: exit 65).
    static func imported() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", courses)
        try sandbox.write("tasks.csv", tasks)
        let result = try sandbox.dashboard(["import", "courses.csv", "tasks.csv"])
        guard result.exitCode == 65 else { throw HarnessError("the hostile import did not reject one row\n\(result)") }
        return sandbox
    }

    // MARK: - check and import

    @Test func checkAndImportQuoteAHostileValueVisibly() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Self.courses)
        try sandbox.write("tasks.csv", Self.tasks)
        for command in ["check", "import"] {
            let result = try sandbox.dashboard([command, "courses.csv", "tasks.csv"])
            #expect(result.exitCode == 65)
            Self.expectVisible(result.stderr, "\(command)'s stderr")
            #expect(
                result.stderr.hasPrefix(
                    "tasks.csv:4: error: due: \"not␛]0;pwned␇a␍date␛[2J\" is not a date: it does not start with a date [invalid_date]\n"
                ))
        }
    }

    /// On a terminal the problem's label is still coloured by our own codes, while the ESC of
    /// the data next to it is shown as `␛`. `script` gives the run a pseudo-terminal.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func onATerminalOurColoursStayAndTheDataIsStillVisible() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Self.courses)
        try sandbox.write("tasks.csv", Self.tasks)
        let binary = try DashboardBinary.url().path
        let result = try sandbox.runTool("script", ["-qc", "'\(binary)' --db db.sqlite check courses.csv tasks.csv", "/dev/null"])
        let ours = ["\u{1B}[31m", "\u{1B}[33m", "\u{1B}[0m"]
        #expect(result.stdout.contains("tasks.csv:4: \u{1B}[31merror\u{1B}[0m: due: \"not␛]0;pwned␇a␍date␛[2J\" is not a date"))
        let withoutOurs = ours.reduce(result.stdout) { $0.replacingOccurrences(of: $1, with: "") }
        // The pseudo-terminal ends lines with CR LF: only those CRs are ours.
        Self.expectVisible(withoutOurs.replacingOccurrences(of: "\r\n", with: "\n"), "check on a terminal")
    }

    // MARK: - What reads the database back

    @Test func statusBatchesAndAuditShowStoredValuesVisibly() throws {
        let sandbox = try Self.imported()
        for arguments in [["status"], ["batches", "list"], ["batches", "show", "1"], ["audit", "--task", Self.taskID]] {
            let result = try sandbox.dashboard(arguments)
            #expect(result.exitCode == 0, "\(arguments)\n\(result)")
            Self.expectVisible(result.stdout + result.stderr, arguments.joined(separator: " "))
        }
        let show = try sandbox.dashboard(["batches", "show", "1"]).stdout
        #expect(show.contains("tasks.csv:4: error: due: \"not␛]0;pwned␇a␍date␛[2J\" is not a date"))
        // The import stored no entry (births are not moves): its task shows in its derived birth line.
        #expect(try sandbox.dashboard(["audit"]).stdout == "No audit entries match.\n")
        let audit = try sandbox.dashboard(["audit", "--task", Self.taskID]).stdout
        #expect(audit.contains("  t␛]0;pwned␇1  Lab␛[2J re<U+202E>port<U+200B>  bio␛]0;pwned␇  -     upcoming  import  "))
    }

    // MARK: - Reports

    @Test func everyHumanReportShowsValuesVisiblyAndHTMLIsolatesThem() throws {
        let sandbox = try Self.imported()
        var outputs: [String: String] = [:]
        for kind in ["grid", "list"] {
            for format in ["text", "markdown", "html"] {
                let result = try sandbox.dashboard(["report", kind, "--format", format, "--width", "100"])
                #expect(result.exitCode == 0, "\(kind) \(format)\n\(result)")
                Self.expectVisible(result.stdout + result.stderr, "report \(kind) --format \(format)")
                outputs["\(kind).\(format)"] = result.stdout
            }
        }
        let listText = outputs["list.text"] ?? ""
        #expect(listText.contains("\nBIO␛[31m — Bio␛[2Jlogy<U+202E>evil\nteacher Ms␛]0;pwned␇ A<U+200B>dams, times in UTC\n"))
        #expect(listText.contains("    t␛]0;pwned␇1  Lab␛[2J re<U+202E>port<U+200B>  s␍␛1     2026-12-01  high      upcoming\n"))
        #expect((outputs["grid.text"] ?? "").contains("| Bio␛[2Jlogy<U+202E>evil"))
        #expect(
            (outputs["grid.markdown"] ?? "").contains(
                "| BIO␛\\[31m | Bio␛\\[2Jlogy\\<U\\+202E\\>evil | — | 0 | 0 | 1 | 0 | 0 of 1 completed |\n"))
        let listHTML = outputs["list.html"] ?? ""
        #expect(listHTML.contains("</td><th scope=\"row\"><bdi>Lab␛[2J re&lt;U+202E&gt;port&lt;U+200B&gt;</bdi></th>"))
        // The row's anchor encodes the id's every byte outside letters, digits, - and . (ESC, ], ;, BEL).
        #expect(listHTML.contains("<tr id=\"task-t_1B_5D0_3Bpwned_071\" data-b=\"upcoming\" "))
        #expect(listHTML.contains("<p class=\"about\">Teacher: <bdi>Ms␛]0;pwned␇ A&lt;U+200B&gt;dams</bdi> · Times in UTC</p>"))
        #expect((outputs["grid.html"] ?? "").contains("<span class=\"title\"><bdi>Bio␛[2Jlogy&lt;U+202E&gt;evil</bdi></span>"))
    }

    @Test func jsonAndCSVKeepTheExactValues() throws {
        let sandbox = try Self.imported()
        let listText = try sandbox.dashboard(["report", "list", "--format", "json"]).stdout
        // The JSON text itself never carries the raw characters: each is a \u escape.
        Self.expectVisible(listText, "report list --format json")
        #expect(listText.contains("\"title\": \"Lab\\u001b[2J re\\u202eport\\u200b\","))
        let list = try JSON.object(listText)
        let course = JSON.objects(list["courses"]).first
        #expect(course?["title"] as? String == "Bio\(Self.cls)logy\u{202E}evil")
        #expect(course?["teacher"] as? String == "Ms\(Self.osc) A\u{200B}dams")
        let task = ReportListCommandTests.tasks(list).first
        #expect(task?["task_id"] as? String == Self.taskID)
        #expect(task?["title"] as? String == "Lab\(Self.cls) re\u{202E}port\u{200B}")
        #expect(task?["student_id"] as? String == "s\r\u{1B}1")
        let csv = try sandbox.dashboard(["report", "list", "--format", "csv"]).stdout
        #expect(
            csv.hasSuffix(
                "\r\nbio\(Self.osc),BIO\u{1B}[31m,\(Self.taskID),Lab\(Self.cls) re\u{202E}port\u{200B},\"s\r\u{1B}1\",2026-12-01,high,false,upcoming,upcoming,,,,,,open,,false\r\n"
            ))
        let check = try sandbox.dashboard(["check", "courses.csv", "tasks.csv", "--format", "json"])
        let rejects = JSON.objects(try JSON.object(check.stdout)["rejects"])
        #expect(rejects.first?["value"] as? String == "not\(Self.osc)a\rdate\(Self.cls)")
        Self.expectVisible(check.stdout, "check --format json")
        #expect(check.stdout.contains("not\\u001b]0;pwned\\u0007a\\rdate\\u001b[2J"))
    }

    // MARK: - A file name

    @Test func aFileNameWithEscapesIsShownVisiblyInErrorsStatusAndTheStaleBanner() throws {
        let sandbox = try Self.imported()
        try sandbox.write("bad/t\(Self.osc)asks.csv", "task_id,course_id\nx,bio\n")
        let failed = try sandbox.dashboard(["import", "bad"])
        #expect(failed.exitCode == 65)
        Self.expectVisible(failed.stderr, "import's stderr")
        #expect(
            failed.stderr.hasPrefix(
                "dashboard: error: bad/t␛]0;pwned␇asks.csv:1: the tasks file has no title column [missing_column]; nothing was imported (recorded as failed batch 2)\n"
            ))
        let reason = "bad/t␛]0;pwned␇asks.csv:1: error: title: the tasks file has no title column [missing_column]"
        let status = try sandbox.dashboard(["status"])
        Self.expectVisible(status.stdout, "status")
        #expect(status.stdout.contains("\n  Failed because: \(reason) Hint: "))
        let show = try sandbox.dashboard(["batches", "show", "2"])
        Self.expectVisible(show.stdout, "batches show")
        #expect(show.stdout.contains("\nReason: \(reason)"))
        for format in ["text", "markdown", "html"] {
            let report = try sandbox.dashboard(["report", "grid", "--format", format, "--width", "400"])
            Self.expectVisible(report.stdout + report.stderr, "report grid --format \(format)")
            #expect(report.stderr.contains("dashboard: warning: The last import (batch 2, "))
        }
        let text = try sandbox.dashboard(["report", "grid", "--format", "text", "--width", "400"]).stdout
        #expect(text.contains("\n! The last import (batch 2, "))
        #expect(text.contains(") failed: \(reason) Hint: "))
        let html = try sandbox.dashboard(["report", "grid", "--format", "html"]).stdout
        #expect(html.contains(") failed: <bdi>\(reason) Hint: "))
        // JSON keeps the exact reason.
        let json = try JSON.object(try sandbox.dashboard(["report", "grid", "--format", "json"]).stdout)
        let stale = json["stale"] as? [String: Any]
        #expect((stale?["failure_reason"] as? String)?.hasPrefix("bad/t\(Self.osc)asks.csv:1: error: title:") == true)
    }

    // MARK: - --reason and --actor

    @Test func reasonActorAndIdsAreVisibleInNotesAndTheAuditLogButExactInJSON() throws {
        let sandbox = try Self.imported()
        let pin = try sandbox.dashboard([
            "reclassify", Self.taskID, "--to", "today", "--reason", "why\(Self.cls)\u{202E}x", "--actor", "ad\rams",
        ])
        #expect(
            pin
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr: "dashboard: entry 1: task t␛]0;pwned␇1 pinned to today (was upcoming); undo with `dashboard revert 1`\n"))
        let revert = try sandbox.dashboard(["revert", "1", "--actor", "x\(Self.osc)"])
        #expect(revert.exitCode == 0, "\(revert)")
        Self.expectVisible(revert.stderr, "revert's note")
        let audit = try sandbox.dashboard(["audit"])
        Self.expectVisible(audit.stdout, "audit")
        #expect(audit.stdout.contains("  override  ad␍ams       -      -      why␛[2J<U+202E>x"))
        #expect(audit.stdout.contains("  x␛]0;pwned␇  "))
        let entries = JSON.objects(try JSON.object(try sandbox.dashboard(["audit", "--format", "json"]).stdout)["entries"])
        #expect(entries.first { $0["entry_id"] as? Int == 1 }?["actor"] as? String == "ad\rams")
        #expect(entries.first { $0["entry_id"] as? Int == 1 }?["reason"] as? String == "why\(Self.cls)\u{202E}x")
        #expect(entries.first { $0["entry_id"] as? Int == 2 }?["actor"] as? String == "x\(Self.osc)")
        let csv = try sandbox.dashboard(["audit", "--format", "csv"]).stdout
        #expect(csv.contains(",override,\"ad\rams\",why\(Self.cls)\u{202E}x,"))
    }

    // MARK: - Errors that quote an argument

    @Test func errorsQuoteAHostileArgumentVisibly() throws {
        let sandbox = try Self.imported()
        let missing = try sandbox.dashboard(["reclassify", "nope\(Self.cls)", "--to", "today", "--reason", "r"])
        #expect(missing.stderr.hasPrefix("dashboard: error: there is no task \"nope␛[2J\"\n"))
        let cases: [[String]] = [
            ["report", "list", "--format", "x\(Self.cls)"], ["import", "--mode", "m\(Self.osc)", "tasks.csv"],
            ["frob\u{202E}nicate"], ["import", "no\rsuch\u{200B}.csv"],
        ]
        for arguments in cases {
            let result = try sandbox.dashboard(arguments)
            #expect(result.exitCode != 0)
            Self.expectVisible(result.stderr, "\(arguments)")
        }
        let unknown = try sandbox.dashboard(["frob\u{202E}nicate"])
        #expect(unknown.stderr.hasPrefix("dashboard: error: unknown command \"frob<U+202E>nicate\"\n"))
    }

    // MARK: - The hostile corpus

    @Test func theCorpusFileOfTerminalEscapesIsImportedExactlyAndShownVisibly() throws {
        let sandbox = try AuditSetup.imported()
        let corpus = HostileCorpusTests.hostileDirectory.appendingPathComponent("terminal-spoofing.csv")
        try sandbox.write("spoof.csv", bytes: try Data(contentsOf: corpus))
        let imported = try sandbox.dashboard(["import", "spoof.csv"])
        #expect(imported.exitCode == 65)
        Self.expectVisible(imported.stderr, "import's stderr")
        #expect(imported.stderr.hasPrefix("spoof.csv:6: error: due: \"2026␛[2J-12-01\" is not a date"))
        for arguments in [["report", "list", "--format", "text"], ["report", "list", "--format", "markdown"], ["audit"]] {
            let result = try sandbox.dashboard(arguments)
            Self.expectVisible(result.stdout + result.stderr, arguments.joined(separator: " "))
        }
        let list = try sandbox.dashboard(["report", "list", "--format", "text", "--width", "120"]).stdout
        #expect(list.contains("    s1␛]0;pwned␇  Title␛[2J␇ with<U+202E>evil<U+200B><U+2066>  s␇1       2026-12-01  high      upcoming\n"))
        #expect(
            list.contains("    s2            Carriage return                              st2␍␛[1A  -           low       no due date\n"))
        #expect(
            try DatabaseSnapshot.lines(sandbox.db, "SELECT \(StoreUnderTest.hex("task_id")) FROM tasks WHERE task_id LIKE 's1%'")
                == "73311B5D303B70776E656407\n")
    }

    // MARK: - nightly

    @Test func nightlyMessagesAndEveryWrittenReportShowValuesVisibly() throws {
        let sandbox = try Sandbox()
        try sandbox.write("imports/courses.csv", Self.courses)
        try sandbox.write("imports/tasks.csv", Self.tasks)
        let result = try sandbox.dashboard(["nightly", "--imports", "imports", "--reports", "re\(Self.osc)ports"])
        #expect(result.exitCode == 65, "\(result)")
        Self.expectVisible(result.stderr, "nightly's stderr")
        #expect(result.stderr.contains("reports: "))
        let root = sandbox.directory.appendingPathComponent("re\(Self.osc)ports")
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        var checked = 0
        for name in files where [".txt", ".md", ".html"].contains(where: { name.hasSuffix($0) }) {
            let text = String(decoding: try Data(contentsOf: root.appendingPathComponent(name)), as: UTF8.self)
            Self.expectVisible(text, name)
            checked += 1
        }
        #expect(checked >= 3)
    }
}
