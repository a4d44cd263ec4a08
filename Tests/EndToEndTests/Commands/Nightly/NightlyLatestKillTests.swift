import Foundation
import Testing

/// Issue 13, item 4: `latest` never points at a half-written night. A nightly run that writes
/// the same night again is killed (SIGKILL) at random moments while it writes; after each kill
/// `latest` still resolves to a whole folder: the same files as a run alone writes, each whole.
/// What it proves is the report folders' (a rename of `latest`, hidden folders): it runs in the
/// SQLite pass only; a night killed while it writes to PostgreSQL is `NightlyStopSignalTests`'
/// and `ReliabilityCrashTests`' on both stores.
@Suite(.serialized, .reportFoldersOnly) struct NightlyLatestKillTests {
    @Test func latestAlwaysPointsAtAWholeNightWhateverMomentTheRunIsKilled() throws {
        let fixture = try NightlyFixture.shared.get()
        let sandbox = try Sandbox()
        try fixture.prepare(sandbox)
        let first = try sandbox.run(NightlyFixture.arguments + ["--as-of", "2026-11-29T02:00:00Z"])
        #expect(first.exitCode == 0, "\(first)")
        // How long a whole run of the same night takes here: the kills fall inside it.
        let measuring = Date()
        let again = try sandbox.run(NightlyFixture.arguments + ["--as-of", "2026-11-29T02:00:00Z"])
        #expect(again.exitCode == 0, "\(again)")
        let duration = max(0.05, Date().timeIntervalSince(measuring))
        var generator = SystemRandomNumberGenerator()
        var killedWhileRunning = 0
        // The measured run may have been slowed by other work on the machine: when a run ends
        // before its kill, later kills fall earlier (half the window each time), so that the
        // kills keep landing inside the runs on a busy machine too.
        var window = duration
        var published = ["2026-11-29"]
        for round in 0..<8 {
            // Even rounds write a new night (a new dated folder), odd ones the newest night
            // again (its folder is replaced).
            let day = 30 + round / 2
            let date = day <= 30 ? "2026-11-\(day)" : "2026-12-0\(day - 30)"
            let running = try sandbox.launch(NightlyFixture.arguments + ["--as-of", date + "T02:00:00Z"])
            usleep(UInt32(Double.random(in: 0...window, using: &generator) * 1_000_000))
            if running.process.isRunning { killedWhileRunning += 1 } else { window /= 2 }
            Foundation.kill(running.process.processIdentifier, SIGKILL)
            running.process.waitUntilExit()
            let target = try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.path("reports/latest"))
            if target == date, !published.contains(date) { published.append(date) }
            #expect(target == published.last, "round \(round): latest → \(target), the newest whole night is \(published.last ?? "")")
            try fixture.expectWholeFolder(sandbox, "reports/latest")
            for night in published { try fixture.expectWholeFolder(sandbox, "reports/" + night) }
        }
        #expect(killedWhileRunning >= 4, "too few kills fell inside a run (\(killedWhileRunning) of 8): the test proves little")
        // A finished run afterwards publishes the night again; the killed runs' hidden folders
        // are left for a later night (they are less than a day old).
        #expect(try sandbox.run(NightlyFixture.arguments + ["--as-of", "2026-12-05T02:00:00Z"]).exitCode == 0)
        try fixture.expectWholeFolder(sandbox, "reports/latest")
        let visible = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("reports")).filter { !$0.hasPrefix(".") }
        #expect(Set(visible) == Set(published + ["2026-12-05", "latest"]), "a killed run leaves no visible folder")
    }
}

extension NightlyFixture {
    /// `folder` holds exactly the files a nightly alone writes, each whole.
    func expectWholeFolder(_ sandbox: Sandbox, _ folder: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.path(folder)).filter { $0 != "teachers" }.sorted()
        #expect(sandbox.exists(folder + "/teachers/index.html"), "\(folder) has no teachers' index", sourceLocation: sourceLocation)
        #expect(names == reportNames, "\(folder) holds other files than a whole night", sourceLocation: sourceLocation)
        for name in names {
            let bytes = try sandbox.read(folder + "/" + name)
            let text = String(decoding: bytes, as: UTF8.self)
            switch name.split(separator: ".").last ?? "" {
            case "html": #expect(text.hasSuffix("</html>\n"), "\(name) is cut short", sourceLocation: sourceLocation)
            case "json":
                #expect((try? JSONSerialization.jsonObject(with: bytes)) != nil, "\(name) does not parse", sourceLocation: sourceLocation)
            case "csv": #expect(text.hasSuffix("\r\n"), "\(name) is cut short", sourceLocation: sourceLocation)
            case "ics": #expect(text.hasSuffix("END:VCALENDAR\r\n"), "\(name) is cut short", sourceLocation: sourceLocation)
            default: #expect(text.hasSuffix("\n"), "\(name) is cut short", sourceLocation: sourceLocation)
            }
        }
    }
}
