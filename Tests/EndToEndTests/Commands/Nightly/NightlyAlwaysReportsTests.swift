import Foundation
import Testing

/// Issue 13, item 5 and 7: the nightly job writes the night's reports whatever happened to the
/// import — a failed import, a held sync, a missing or empty drop folder — each with its own
/// banner in every format, and its documented exit code. HTML and Markdown pages speak to
/// teachers: no command, flag or batch, the administrator's details folded away in HTML.
@Suite struct NightlyAlwaysReportsTests {
    static let night = "2026-11-29T02:00:00Z"
    static let nextNight = "2026-11-30T02:00:00Z"

    /// A school imported the night before (`db.sqlite`, as of 2026-11-28 02:00), and a drop
    /// folder holding the same files.
    static func school() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("drop/courses.csv", Fixtures.courses)
        try sandbox.write("drop/tasks.csv", Fixtures.numberedTasks(20))
        let first = try sandbox.run(["--db", "db.sqlite", "--as-of", "2026-11-28T02:00:00Z", "import", "drop"])
        guard first.exitCode == 0 else { throw HarnessError("the first import failed:\n\(first)") }
        return sandbox
    }

    static func text(_ sandbox: Sandbox, _ name: String) throws -> String {
        String(decoding: try sandbox.read(name), as: UTF8.self)
    }

    /// The words of a page a reader sees, markup removed, without the folded details.
    static func visibleWords(ofHTML html: String) -> String {
        var text = html
        if let start = text.range(of: "<style>"), let end = text.range(of: "</style>") {
            text.removeSubrange(start.lowerBound..<end.upperBound)
        }
        if let start = text.range(of: "<details>"), let end = text.range(of: "</details>") {
            text.removeSubrange(start.lowerBound..<end.upperBound)
        }
        return text.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
    }

    /// The command line's words that teacher pages must not hold.
    static func expectNoCommandWords(_ page: String, _ name: String) {
        for word in ["dashboard ", " --", "batch ", "[unknown_", "[invalid_"] {
            #expect(!page.contains(word), "\(name) holds \"\(word)\":\n\(page)")
        }
    }

    @Test(arguments: ["missing", "empty"])
    func aNightWithoutAnExportWritesEveryReportWithItsBannerAndExits66(folder: String) throws {
        let sandbox = try Self.school()
        if folder == "empty" { try FileManager.default.createDirectory(atPath: sandbox.path("empty"), withIntermediateDirectories: false) }
        let result = try sandbox.run(["--db", "db.sqlite", "--as-of", Self.night, "nightly", "--imports", folder, "--reports", "reports"])
        #expect(result.exitCode == 66, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.contains("dashboard: nightly \(Self.night): no export arrived (66); "), "\(result)")
        // Issue 27: the fixture's courses name no teacher: their pages are in teachers/unassigned/.
        #expect(
            result.stderr.hasSuffix(
                "reports: 40 files in reports/2026-11-29; 2 courses have no teacher: their pages are in teachers/unassigned/\n"),
            "\(result)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.path("reports/latest")) == "2026-11-29")
        let reader = "No export arrived tonight; this page shows data as of 2026-11-28 02:00 UTC (24 hours old)."
        let html = try Self.text(sandbox, "reports/latest/index.html")
        #expect(html.contains("<p><strong>Note:</strong> \(reader)</p>"), "\(html)")
        #expect(try Self.text(sandbox, "reports/latest/index.md").contains("> **Note:** \(reader)\n"))
        let json = try Self.text(sandbox, "reports/latest/index.json")
        #expect(json.contains("\"no_export\": true"))
        #expect(
            json.contains(
                "\"message\": \"No export arrived tonight. Showing data as of 2026-11-28T02:00:00Z (24 hours old). Check that tonight's export reached the drop folder, then run the nightly import again.\""
            ), "\(json)")
        #expect(try Self.text(sandbox, "reports/latest/index.txt").contains("! No export arrived tonight. Showing data as of"))
        for name in try FileManager.default.contentsOfDirectory(atPath: sandbox.path("reports/latest")) where name.hasSuffix(".html") {
            #expect(try Self.text(sandbox, "reports/latest/" + name).contains(reader), "\(name) has no banner")
        }
        #expect(try Consistency.batches(sandbox.path("db.sqlite")) == "1|committed\n", "nothing was imported")
    }

    @Test func aHeldSyncShowsItsBannerUntilApprovalWritesTheReportsAgain() throws {
        let sandbox = try Self.school()
        // Tonight's export lost 15 of the 20 tasks: a sync over the 10 % guard is held.
        try sandbox.write("drop/tasks.csv", Fixtures.numberedTasks(5))
        let held = try sandbox.run([
            "--db", "db.sqlite", "--as-of", Self.night, "nightly", "--imports", "drop", "--reports", "reports", "--mode", "sync",
        ])
        #expect(held.exitCode == 65, "\(held)")
        // The held batch changed nothing: its counts say what it would do (issue 14, item 4).
        #expect(held.stderr.contains("would insert 0, would update 0, "), "\(held.stderr)")
        #expect(held.stderr.contains(" unchanged, would delete 15, 0 rejected"), "\(held.stderr)")
        let reader = "15 changes from a newer export wait for approval since "
        let html = try Self.text(sandbox, "reports/latest/index.html")
        #expect(html.contains(reader), "\(html)")
        #expect(html.contains("Your administrator has the details."))
        #expect(html.contains("<details><summary>Details for the administrator</summary><p>Batch 2 (held since "), "\(html)")
        Self.expectNoCommandWords(Self.visibleWords(ofHTML: html), "index.html")
        let markdown = try Self.text(sandbox, "reports/latest/index.md")
        #expect(markdown.contains("> **Note:** \(reader)"), "\(markdown)")
        Self.expectNoCommandWords(markdown, "index.md")
        let json = try Self.text(sandbox, "reports/latest/index.json")
        #expect(
            json.contains(
                "\"message\": \"Batch 2 (held since 2026-11-29T02:00:00Z) holds 15 changes that wait for approval. Showing data as of 2026-11-28T02:00:00Z (24 hours old). Review the held batch (dashboard batches show 2), then approve or discard it.\""
            ), "\(json)")
        #expect(
            markdown.contains(
                "wait for approval since 2026-11-29 02:00 UTC; this page shows data as of 2026-11-28 02:00 UTC (24 hours old)."))
        #expect(json.contains("\"held_batch\": 2,") && json.contains("\"held_changes\": 15,"), "\(json)")

        let approved = try sandbox.run([
            "--db", "db.sqlite", "--as-of", "2026-11-29T07:30:00Z", "batches", "approve", "2", "--reports", "reports",
        ])
        #expect(approved.exitCode == 0, "\(approved)")
        #expect(
            approved.stderr.contains(
                "reports: 40 files in reports/2026-11-29; 2 courses have no teacher: their pages are in teachers/unassigned/\n"),
            "\(approved)")
        #expect(!(try Self.text(sandbox, "reports/latest/index.html")).contains("class=\"banner\""))
        #expect(try Self.text(sandbox, "reports/latest/index.json").contains("\"stale\": null,"))
        // The approval deleted 15 tasks: the rewritten course page lists 5.
        #expect(try Self.text(sandbox, "reports/latest/index.json").contains("\"total\": 5"))
    }

    @Test func discardingAHeldBatchWithReportsRemovesTheBanner() throws {
        let sandbox = try Self.school()
        try sandbox.write("drop/tasks.csv", Fixtures.numberedTasks(5))
        _ = try sandbox.run(["--db", "db.sqlite", "--as-of", Self.night, "nightly", "--imports", "drop", "--mode", "sync"])
        #expect(try Self.text(sandbox, "reports/latest/index.json").contains("\"held_batch\": 2,"))
        let discarded = try sandbox.run(["--db", "db.sqlite", "--as-of", Self.night, "batches", "discard", "2", "--reports", "reports"])
        #expect(discarded.exitCode == 0, "\(discarded)")
        #expect(try Self.text(sandbox, "reports/latest/index.json").contains("\"stale\": null,"), "the data is 24 hours old: no banner")
        #expect(try Self.text(sandbox, "reports/latest/index.json").contains("\"total\": 20"))
    }

    @Test func keepWithoutReportsIsAUsageError() throws {
        let sandbox = try Self.school()
        let result = try sandbox.run(["--db", "db.sqlite", "batches", "discard", "1", "--keep", "3"])
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.stderr.hasPrefix("dashboard: error: --keep goes with --reports DIR\n"), "\(result)")
    }

    @Test func aFailedImportIsToldInTeachersWordsWithTheDetailsFoldedAway() throws {
        let sandbox = try Self.school()
        try sandbox.write("drop/tasks.csv", "task_id,course_id,title\nt01,bio,Worksheet 1\n\u{0}")
        let result = try sandbox.run(["--db", "db.sqlite", "--as-of", Self.night, "nightly", "--imports", "drop", "--reports", "reports"])
        #expect([65, 74].contains(result.exitCode), "\(result)")
        let html = try Self.text(sandbox, "reports/latest/index.html")
        #expect(
            html.contains(
                "<p><strong>Note:</strong> The last import failed; this page shows data as of <bdi>2026-11-28 02:00 UTC</bdi> (24 hours old). Your administrator has the details.</p>"
            )
                || html.contains(
                    "The last import failed; this page shows data as of 2026-11-28 02:00 UTC (24 hours old). Your administrator has the details."
                ),
            "\(html)")
        #expect(html.contains("<details><summary>Details for the administrator</summary><p>The last import (batch 2, "), "\(html)")
        Self.expectNoCommandWords(Self.visibleWords(ofHTML: html), "index.html")
        for name in try FileManager.default.contentsOfDirectory(atPath: sandbox.path("reports/latest")) where name.hasSuffix(".md") {
            Self.expectNoCommandWords(try Self.text(sandbox, "reports/latest/" + name), name)
        }
        // The administrator's files keep the batch and the next step.
        #expect(try Self.text(sandbox, "reports/latest/index.txt").contains("Fix the import (dashboard batches show 2) and run it again."))
    }
}

extension NightlyAlwaysReportsTests {
    /// The banner of a teacher's page shows its times in the page's zone, as the header does.
    @Test func theReaderBannerShowsTimesInTheJobsTimeZone() throws {
        let sandbox = try Self.school()
        let result = try sandbox.run([
            "--db", "db.sqlite", "--as-of", Self.night, "--timezone", "Europe/Berlin", "nightly", "--imports", "missing",
            "--reports", "reports",
        ])
        #expect(result.exitCode == 66, "\(result)")
        let html = try Self.text(sandbox, "reports/latest/index.html")
        #expect(html.contains("As of <time datetime=\"2026-11-29T02:00:00Z\">2026-11-29 03:00 Europe/Berlin</time>"), "\(html)")
        #expect(
            html.contains("No export arrived tonight; this page shows data as of 2026-11-28 03:00 Europe/Berlin (24 hours old)."),
            "\(html)")
    }
}
