import Foundation
import Testing

/// Issue 28, item 2: `nightly --digest --send` through a real sendmail interface (Debian's
/// `msmtp`, configured for the test's server) to a real SMTP server on loopback (Python's
/// `aiosmtpd`, `Tests/Fixtures/Mail/smtp_sink.py`); each message read back with Python's own
/// `email` package (`read_messages.py`). One message per teacher with an address, to exactly
/// their addresses; none to a teacher without one; a server that refuses leaves the night's
/// import and reports whole and says so in the summary, the exit code and the metrics.
@Suite struct DigestDeliveryTests {
    static let courses = """
        course_id,title,code,teacher,timezone,teacher e-mail
        bio,Biology,BIO 1,Amaka Okafor,Europe/Berlin,amaka.okafor@school.example
        his,History,HIS 2,Amaka Okafor,America/New_York,a.okafor@school.example
        art,"Art, 美術",ART 3,Tomás Reyes,,tomas.reyes@school.example
        geo,Geography,GEO 4,Lee Chen,,

        """
    /// As of 2026-12-04 02:00 UTC: BIO's essay overdue for 2 of 3 (and 1 more on night 2), its
    /// lab due today for 1 of 2; HIS upcoming; ART's sketch overdue; GEO's map overdue.
    static let tasks = """
        task_id,course_id,title,student_id,due,completed,assignment_id
        b1,bio,Essay,s1,2026-12-02T09:00,,A1
        b2,bio,Essay,s2,2026-12-02T09:00,,A1
        b3,bio,Essay,s3,2026-12-02T09:00,yes,A1
        b4,bio,Lab report,s1,2026-12-04,,A2
        b5,bio,Lab report,s2,2026-12-04,yes,A2
        h1,his,Source analysis,s1,2026-12-10,,A4
        a1,art,Sketch; 写生,s1,2026-12-01,,A7
        g1,geo,Map,s1,2026-12-01,,M1

        """
    static let okafor = "teachers/amaka-okafor-8a68922c"
    static let reyes = "teachers/tom-s-reyes-f079ce9b"

    /// A school after night 1 (no digest), with the sender and the base URL set, and night 2's
    /// export (one more essay) in the drop folder.
    static func school() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("drop/courses.csv", courses)
        try sandbox.write("drop/tasks.csv", tasks)
        let first = try sandbox.run([
            "--db", "db.sqlite", "--as-of", "2026-12-03T02:00:00Z", "nightly", "--reports", "reports", "--imports", "drop",
        ])
        guard first.exitCode == 0 else { throw HarnessError("night 1 failed:\n\(first)") }
        for setting in [["mail-from", "dashboard@school.example"], ["base-url", "https://reports.school.example/"]] {
            let set = try sandbox.run(["--db", "db.sqlite", "settings"] + setting)
            guard set.exitCode == 0 else { throw HarnessError("settings failed:\n\(set)") }
        }
        try sandbox.write("drop/tasks.csv", tasks + "b6,bio,Essay,s4,2026-12-02T09:00,,A1\n")
        return sandbox
    }

    /// The test's SMTP server, its port, and the folder it writes what it receives to.
    final class SMTPServer {
        let running: RunningCommand
        let port: Int
        let inbox: String

        init(_ sandbox: Sandbox, refuse: Bool = false) throws {
            inbox = sandbox.path("inbox")
            let script = DashboardBinary.packageRoot.appendingPathComponent("Tests/Fixtures/Mail/smtp_sink.py").path
            running = try RunningCommand(
                executable: PythonTools.python, arguments: [script, sandbox.path("smtp.port"), inbox] + (refuse ? ["--refuse"] : []),
                directory: sandbox.directory, environment: Sandbox.baseEnvironment, stdin: nil, ioDirectory: sandbox.directory,
                timeout: 120)
            let deadline = Date().addingTimeInterval(30)
            var port: Int?
            while port == nil, Date() < deadline {
                port = (try? String(contentsOfFile: sandbox.path("smtp.port"), encoding: .utf8)).flatMap { Int($0) }
                if port == nil { usleep(50_000) }
            }
            guard let port else {
                kill(running.process.processIdentifier, SIGKILL)
                throw HarnessError("the SMTP server did not start:\n\((try? running.finish()).map { "\($0)" } ?? "")")
            }
            self.port = port
        }

        func stop() {
            kill(running.process.processIdentifier, SIGKILL)
            _ = try? running.finish()
        }

        /// The messages received, in order: their files.
        func received() -> [String] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: inbox)) ?? []
            return names.filter { $0.hasSuffix(".eml") }.sorted { Int($0.dropLast(4)) ?? 0 < Int($1.dropLast(4)) ?? 0 }
                .map { inbox + "/" + $0 }
        }
    }

    /// A sendmail for the test: Debian's msmtp with a configuration for `server` (no TLS, no
    /// authentication: loopback), the wrapper's path.
    static func sendmail(_ sandbox: Sandbox, port: Int) throws -> String {
        let config = try sandbox.write(
            "msmtprc",
            """
            defaults
            auth off
            tls off
            account test
            host 127.0.0.1
            port \(port)
            from msmtp-default@localhost
            account default : test

            """)
        chmod(sandbox.path("msmtprc"), 0o600)
        let wrapper = try sandbox.write("sendmail", "#!/bin/sh\nexec /usr/bin/msmtp -C '\(config)' \"$@\"\n")
        chmod(wrapper, 0o755)
        return wrapper
    }

    static func read(_ sandbox: Sandbox, _ files: [String]) throws -> [String: [String: Any]] {
        let script = DashboardBinary.packageRoot.appendingPathComponent("Tests/Fixtures/Mail/read_messages.py").path
        let result = try PythonTools.run([script] + files, in: sandbox)
        guard result.exitCode == 0 else { throw HarnessError("read_messages.py failed:\n\(result)") }
        return try JSON.object(result.stdout) as? [String: [String: Any]] ?? [:]
    }

    static func night2(_ sandbox: Sandbox, sendmail: String, metrics: Bool = true) throws -> CommandResult {
        try sandbox.run(
            [
                "--db", "db.sqlite", "--as-of", "2026-12-04T02:00:00Z", "nightly", "--reports", "reports", "--imports", "drop",
                "--digest", "--send", "--sendmail", sendmail,
            ] + (metrics ? ["--metrics", "night.prom"] : []))
    }

    @Test func eachTeacherWithAnAddressGetsOneMessageToTheirAddressesOnly() throws {
        let sandbox = try Self.school()
        let server = try SMTPServer(sandbox)
        defer { server.stop() }
        let result = try Self.night2(sandbox, sendmail: try Self.sendmail(sandbox, port: server.port))
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.hasSuffix("; digests: 2 written, 2 sent; 1 teacher has no address\n"), "\(result)")

        let received = server.received()
        #expect(received.count == 2, "\(received)")
        var envelopes: [[String]] = []
        for file in received {
            let envelope = try JSON.object(String(contentsOfFile: file.dropLast(4) + ".json", encoding: .utf8))
            envelopes.append((envelope["rcpt_tos"] as? [String] ?? []).sorted())
            #expect(envelope["mail_from"] as? String == "dashboard@school.example")
        }
        #expect(
            Set(envelopes)
                == [["a.okafor@school.example", "amaka.okafor@school.example"], ["tomas.reyes@school.example"]], "\(envelopes)")

        let messages = try Self.read(sandbox, received)
        let byTeacher = Dictionary(uniqueKeysWithValues: messages.values.map { (($0["to_names"] as? [String])?.first ?? "", $0) })
        let okafor = try #require(byTeacher["Amaka Okafor"])
        #expect(okafor["subject"] as? String == "Your courses on 2026-12-04: 3 overdue, 1 due today")
        #expect(okafor["from"] as? String == "Course dashboard <dashboard@school.example>")
        #expect(okafor["to_addresses"] as? [String] == ["a.okafor@school.example", "amaka.okafor@school.example"])
        #expect(okafor["date"] as? String == "Fri, 04 Dec 2026 02:00:00 +0000")
        #expect(okafor["auto_submitted"] as? String == "auto-generated")
        #expect(okafor["content_type"] as? String == "multipart/alternative")
        #expect(okafor["defects"] as? [String] == [] && okafor["part_defects"] as? [String] == [])
        #expect(okafor["seven_bit"] as? Bool == true)
        #expect((okafor["longest_line"] as? Int ?? 99) <= 78)
        let text = okafor["text"] as? String ?? ""
        #expect(
            text.contains(
                """
                BIO 1 — Biology: 3 overdue, 1 due today
                - Essay (due 2026-12-02 09:00): 3 of 4 overdue, 1 completed
                - Lab report (due 2026-12-04): 1 of 2 due today, 1 completed
                  https://reports.school.example/\(Self.okafor)/course-bio-05320182.html
                """), "\(text)")
        #expect(text.contains("Nothing overdue or due today in: HIS 2 — History."), "\(text)")
        #expect(text.contains("What changed: Since yesterday: 1 new.\n- BIO 1 — Biology: since yesterday: 1 new\n"), "\(text)")
        #expect(text.contains("Your pages: https://reports.school.example/\(Self.okafor)/\n"), "\(text)")
        #expect(text.contains("Your calendar of due dates: https://reports.school.example/\(Self.okafor)/calendar.ics\n"), "\(text)")
        let html = okafor["html"] as? String ?? ""
        #expect(html.contains("<a href=\"https://reports.school.example/\(Self.okafor)/\">Your courses, in order of need</a>"), "\(html)")
        #expect(html.contains("<li>Essay (due 2026-12-02 09:00): 3 of 4 overdue, 1 completed</li>"), "\(html)")

        // A name and a title in other scripts, decoded from encoded words and quoted-printable.
        let reyes = try #require(byTeacher["Tomás Reyes"])
        #expect(reyes["to"] as? [String] == ["Tomás Reyes <tomas.reyes@school.example>"])
        #expect(reyes["subject"] as? String == "Your courses on 2026-12-04: 1 overdue")
        #expect((reyes["text"] as? String ?? "").contains("ART 3 — Art, 美術: 1 overdue\n- Sketch; 写生 (due 2026-12-01): 1 of 1 overdue\n"))
        // No message holds another teacher's address or name, in its bytes or decoded.
        for (teacher, other) in [("Amaka Okafor", "tomas.reyes"), ("Tomás Reyes", "okafor")] {
            let (file, message) = try #require(messages.first { ($0.value["to_names"] as? [String])?.first == teacher })
            #expect(!String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self).contains(other))
            #expect(!(message["text"] as? String ?? other).contains(other) && !(message["html"] as? String ?? other).contains(other))
        }
        // No other file of the night (pages, feeds, JSON, CSV of the school and of every
        // teacher) holds an address: only each teacher's own digest.eml does.
        let night = sandbox.path("reports/2026-12-04")
        let files = try #require(FileManager.default.subpaths(atPath: night))
        var read = 0
        for name in files where !name.hasSuffix("/" + "digest.eml") {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: night + "/" + name, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: night + "/" + name))
            #expect(!String(decoding: bytes, as: UTF8.self).contains("okafor@school.example"), "\(name)")
            #expect(!String(decoding: bytes, as: UTF8.self).contains("reyes@school.example"), "\(name)")
            read += 1
        }
        #expect(read > 60)
        // The files in the folders are the messages sent (CRLF on disk, LF handed over).
        let onDisk = try Self.read(sandbox, [sandbox.path("reports/latest/\(Self.okafor)/digest.eml")])
        #expect(onDisk.values.first?["crlf"] as? Bool == true)
        #expect(onDisk.values.first?["text"] as? String == text)
        let chen = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("reports/latest/teachers")).filter {
            $0.hasPrefix("lee-chen")
        }
        #expect(chen.count == 1)
        #expect(!sandbox.exists("reports/latest/teachers/\(chen.first ?? "")/digest.eml"), "Lee Chen has no address")
        let metrics = String(decoding: try sandbox.read("night.prom"), as: UTF8.self)
        for sample in [
            "dashboard_last_run_digests{outcome=\"written\"} 2", "dashboard_last_run_digests{outcome=\"sent\"} 2",
            "dashboard_last_run_digests{outcome=\"failed\"} 0", "dashboard_last_run_digests{outcome=\"no_address\"} 1",
            "dashboard_digest_sender_set 1",
        ] {
            #expect(metrics.contains(sample + "\n"), "\(sample)")
        }
    }

    @Test func aServerThatRefusesLeavesTheNightWholeAndSaysSoInTheSummaryTheCodeAndTheMetrics() throws {
        let sandbox = try Self.school()
        let server = try SMTPServer(sandbox, refuse: true)
        defer { server.stop() }
        let result = try Self.night2(sandbox, sendmail: try Self.sendmail(sandbox, port: server.port))
        #expect(result.exitCode == 74, "\(result)")
        #expect(result.stderr.contains("dashboard: warning: the morning digest for Amaka Okafor was not sent: "), "\(result)")
        #expect(result.stderr.contains("dashboard: warning: the morning digest for Tomás Reyes was not sent: "), "\(result)")
        #expect(result.stderr.hasSuffix("; digests: 2 written, 0 sent, 2 not sent; 1 teacher has no address\n"), "\(result)")
        #expect(server.received().isEmpty)
        // The import committed and the night is published, digests included.
        #expect(try Consistency.batches(sandbox.path("db.sqlite")) == "1|committed\n2|committed\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.path("reports/latest")) == "2026-12-04")
        #expect(sandbox.exists("reports/latest/\(Self.okafor)/digest.eml"))
        #expect(sandbox.exists("reports/latest/\(Self.okafor)/index.html"))
        let metrics = String(decoding: try sandbox.read("night.prom"), as: UTF8.self)
        #expect(metrics.contains("dashboard_last_run_digests{outcome=\"failed\"} 2\n"), "\(metrics)")
        #expect(metrics.contains("dashboard_last_run_digests{outcome=\"sent\"} 0\n"), "\(metrics)")
        #expect(metrics.contains("dashboard_last_run_outcome{outcome=\"committed\"} 1\n"), "\(metrics)")
    }

    @Test func noSenderWritesNoDigestWarnsAndIs74WithTheNightWhole() throws {
        let sandbox = try Sandbox()
        try sandbox.write("drop/courses.csv", Self.courses)
        try sandbox.write("drop/tasks.csv", Self.tasks)
        let result = try sandbox.run([
            "--db", "db.sqlite", "--as-of", "2026-12-03T02:00:00Z", "nightly", "--reports", "reports", "--imports", "drop", "--digest",
            "--metrics", "night.prom",
        ])
        #expect(result.exitCode == 74, "\(result)")
        #expect(
            result.stderr.contains(
                "dashboard: warning: no morning digest was written: the database has no sender; set one with `dashboard settings mail-from ADDRESS`\n"
            ), "\(result)")
        #expect(result.stderr.hasSuffix("; digests: none written (no sender set)\n"), "\(result)")
        #expect(try Consistency.batches(sandbox.path("db.sqlite")) == "1|committed\n")
        #expect(!sandbox.exists("reports/latest/\(Self.okafor)/digest.eml"))
        #expect(String(decoding: try sandbox.read("night.prom"), as: UTF8.self).contains("dashboard_digest_sender_set 0\n"))
    }

    @Test func aMissingSendmailIsAWarningAndA74() throws {
        let sandbox = try Self.school()
        let result = try sandbox.run([
            "--db", "db.sqlite", "--as-of", "2026-12-04T02:00:00Z", "nightly", "--reports", "reports", "--imports", "drop", "--quiet",
            "--digest", "--send", "--sendmail", sandbox.path("no-such-sendmail"),
        ])
        #expect(result.exitCode == 74, "\(result)")
        // --quiet says nothing of a good night, but this one was not: its summary is there.
        #expect(result.stderr.hasSuffix("; digests: 2 written, 0 sent, 2 not sent; 1 teacher has no address\n"), "\(result)")
        #expect(
            result.stderr.contains(
                "dashboard: warning: the morning digest for Amaka Okafor was not sent: \(sandbox.path("no-such-sendmail")) is not an executable program"
            ),
            "\(result)")
        #expect(try Consistency.batches(sandbox.path("db.sqlite")) == "1|committed\n2|committed\n")
    }

    @Test(arguments: [
        (["--send"], "--send hands over the morning digests: add --digest"),
        (["--digest", "--sendmail", "/usr/sbin/sendmail"], "--sendmail names the program --send runs: add --digest --send"),
    ])
    func sendWithoutDigestIsAUsageError(flags: [String], message: String) throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["--db", "db.sqlite", "nightly"] + flags)
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.stderr.hasPrefix("dashboard: error: \(message)\n"), "\(result)")
        #expect(!sandbox.exists("db.sqlite"))
    }
}
