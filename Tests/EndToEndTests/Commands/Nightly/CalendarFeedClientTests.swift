import Foundation
import Testing

/// Issue 28, item 1: the calendar feeds `nightly` writes, read by what teachers' clients are
/// built on: two independent iCalendar parsers from PyPI (`icalendar`, `ics`, pinned in the
/// build's Python tools) and Debian's `khal`. Two nights: every assignment with a due appears
/// once, at the right local time on a DST day (Berlin's 25 October, New York's 1 November),
/// with a UID that the second night keeps, moved in place (SEQUENCE 1) when its due moved, gone
/// when its tasks were deleted, unchanged (SEQUENCE 0, same LAST-MODIFIED) otherwise.
@Suite struct CalendarFeedClientTests {
    static let courses = """
        course_id,title,code,teacher,timezone
        bio,Biology,BIO 1,Amaka Okafor,Europe/Berlin
        his,History,HIS 2,Amaka Okafor,America/New_York
        art,"Art, 美術 \\ design",ART 3,Tomás Reyes,

        """
    /// A1: due on Berlin's DST day (09:00 CET, 08:00Z); A2: all completed (no event); A3:
    /// undated (no event); A4: 23:30 on New York's DST day (EST, 04:30Z the next day); A5: a
    /// date-only due (all day); A6: an extension for one student (an event of its own); A7: a
    /// UTC course's title with a comma, a semicolon, a backslash, Japanese and an emoji, long
    /// enough to be folded.
    static let tasksNight1 = """
        task_id,course_id,title,student_id,due,completed,assignment_id
        b1,bio,Essay,s1,2026-10-25T09:00,,A1
        b2,bio,Essay,s2,2026-10-25T09:00,,A1
        b3,bio,Essay,s3,2026-10-25T09:00,yes,A1
        b4,bio,Lab,s1,2026-10-24T09:00,yes,A2
        b5,bio,Lab,s2,2026-10-24T09:00,yes,A2
        b6,bio,Reading,s1,,,A3
        h1,his,Source analysis,s1,2026-11-01T23:30,,A4
        h2,his,Source analysis,s2,2026-11-01T23:30,,A4
        h3,his,Timeline,s1,2026-11-02,,A5
        h4,his,Map,s1,2026-11-10T17:00,,A6
        h5,his,Map,s2,2026-11-10T17:00,,A6
        h6,his,Map,s3,2026-11-12T17:00,,A6
        a1,art,"Sketch; 写生, part 1 \\ 🎨 — a long title that runs past seventy-five octets of a line",s1,2026-11-05T10:00,,A7

        """
    /// Night 2: A1 moved a day (out of the DST day), A4 deleted; the rest as it was.
    static let tasksNight2 =
        tasksNight1
        .replacingOccurrences(of: "2026-10-25T09:00", with: "2026-10-26T09:00")
        .replacingOccurrences(of: "h1,his,Source analysis,s1,2026-11-01T23:30,,A4\n", with: "")
        .replacingOccurrences(of: "h2,his,Source analysis,s2,2026-11-01T23:30,,A4\n", with: "")

    static let okafor = "teachers/amaka-okafor-8a68922c"
    static let reyes = "teachers/tom-s-reyes-f079ce9b"

    /// One night: the export, then `nightly` as of 02:00 UTC of `date`.
    static func night(_ sandbox: Sandbox, tasks: String, date: String) throws {
        try sandbox.write("drop/courses.csv", courses)
        try sandbox.write("drop/tasks.csv", tasks)
        let result = try sandbox.run([
            "--db", "db.sqlite", "--as-of", date + "T02:00:00Z", "nightly", "--imports", "drop", "--reports", "reports", "--mode",
            "sync", "--max-delete", "100%",
        ])
        guard result.exitCode == 0 else { throw HarnessError("nightly failed:\n\(result)") }
    }

    /// Both parsers' reading of `files` (paths in the sandbox).
    static func parsed(_ sandbox: Sandbox, _ files: [String]) throws -> [String: [String: Any]] {
        let script = DashboardBinary.packageRoot.appendingPathComponent("Tests/Fixtures/Calendar/parse_feeds.py").path
        let result = try PythonTools.run([script] + files, in: sandbox)
        guard result.exitCode == 0 else { throw HarnessError("parse_feeds.py failed:\n\(result)") }
        return try JSON.object(result.stdout) as? [String: [String: Any]] ?? [:]
    }

    /// The events a parser found in a file, by summary (each summary once: else the test fails).
    static func events(_ reading: [String: Any]?, _ parser: String) -> [String: [String: Any]] {
        let list = JSON.objects((reading?[parser] as? [String: Any])?["events"])
        var bySummary: [String: [String: Any]] = [:]
        for event in list {
            let summary = event["summary"] as? String ?? ""
            let key = bySummary[summary] == nil ? summary : summary + " (again)"
            bySummary[key] = event
        }
        return bySummary
    }

    static let essay = "BIO 1: Essay"
    static let source = "HIS 2: Source analysis"
    static let timeline = "HIS 2: Timeline"
    static let map = "HIS 2: Map"
    static let sketch = "ART 3: Sketch; 写生, part 1 \\ 🎨 — a long title that runs past seventy-five octets of a line"

    @Test func twoParsersReadEachAssignmentOnceAtItsLocalTimeAcrossTwoNights() throws {
        let sandbox = try Sandbox()
        try Self.night(sandbox, tasks: Self.tasksNight1, date: "2026-10-20")
        let night1 = "reports/2026-10-20/"
        let feeds1 = [night1 + Self.okafor + "/calendar.ics", night1 + Self.reyes + "/calendar.ics"]
        let first = try Self.parsed(sandbox, feeds1.map(sandbox.path))
        let okafor1 = first[sandbox.path(feeds1[0])]
        for parser in ["icalendar", "ics"] {
            let events = Self.events(okafor1, parser)
            // A1, A4, A5 and A6's two dues; not A2 (all completed), not A3 (undated).
            #expect(events.keys.sorted() == [Self.essay, Self.map, Self.map + " (again)", Self.source, Self.timeline], "\(parser)")
            #expect(events[Self.essay]?["start_utc"] as? String == "2026-10-25T08:00:00Z", "\(parser): 09:00 CET on the DST day")
            #expect(events[Self.essay]?["local"] as? String == "2026-10-25T09:00:00", "\(parser)")
            #expect(events[Self.essay]?["offset"] as? String == "+01:00", "\(parser)")
            #expect(events[Self.source]?["start_utc"] as? String == "2026-11-02T04:30:00Z", "\(parser): 23:30 EST")
            #expect(events[Self.source]?["offset"] as? String == "-05:00", "\(parser)")
            #expect(events[Self.timeline]?["all_day"] as? Bool == true, "\(parser)")
            #expect(events[Self.timeline]?["date"] as? String == "2026-11-02", "\(parser)")
            #expect(events[Self.essay]?["description"] as? String == "2 of 3 upcoming, 1 completed\nBIO 1 — Biology", "\(parser)")
        }
        let ical1 = Self.events(okafor1, "icalendar")
        // Each VTIMEZONE alone places its events where the zone database does.
        for summary in [Self.essay, Self.source, Self.map] {
            #expect(ical1[summary]?["vtimezone_utc"] as? String == ical1[summary]?["start_utc"] as? String, "\(summary)")
        }
        #expect(Set([ical1[Self.map]?["uid"] as? String, ical1[Self.map + " (again)"]?["uid"] as? String]).count == 2)
        #expect(ical1.values.allSatisfy { $0["sequence"] as? Int == 0 && $0["transparent"] as? Bool == true })
        let reyes1 = Self.events(first[sandbox.path(feeds1[1])], "icalendar")
        #expect(reyes1.keys.sorted() == [Self.sketch])
        #expect(reyes1[Self.sketch]?["start_utc"] as? String == "2026-11-05T10:00:00Z")
        #expect(Self.events(first[sandbox.path(feeds1[1])], "ics")[Self.sketch]?["start_utc"] as? String == "2026-11-05T10:00:00Z")

        try Self.night(sandbox, tasks: Self.tasksNight2, date: "2026-10-21")
        let feed2 = "reports/2026-10-21/" + Self.okafor + "/calendar.ics"
        let second = try Self.parsed(sandbox, [sandbox.path(feed2)])[sandbox.path(feed2)]
        let ical2 = Self.events(second, "icalendar")
        #expect(ical2.keys.sorted() == [Self.essay, Self.map, Self.map + " (again)", Self.timeline], "A4's tasks were deleted")
        #expect(Self.events(second, "ics").keys.sorted() == ical2.keys.sorted())
        // A1 moved: the same event, in place.
        #expect(ical2[Self.essay]?["uid"] as? String == ical1[Self.essay]?["uid"] as? String)
        #expect(ical2[Self.essay]?["start_utc"] as? String == "2026-10-26T08:00:00Z")
        #expect(ical2[Self.essay]?["sequence"] as? Int == 1)
        #expect(ical2[Self.essay]?["last_modified"] as? String == "2026-10-21T02:00:00Z")
        // A5 did not change: its sequence and last-modified are the first night's.
        #expect(ical2[Self.timeline]?["uid"] as? String == ical1[Self.timeline]?["uid"] as? String)
        #expect(ical2[Self.timeline]?["sequence"] as? Int == 0)
        #expect(ical2[Self.timeline]?["last_modified"] as? String == "2026-10-20T02:00:00Z")
    }

    @Test func everyFeedIsCRLFFoldedAt75OctetsAndSaysTheCourse() throws {
        let sandbox = try Sandbox()
        try Self.night(sandbox, tasks: Self.tasksNight1, date: "2026-10-20")
        let folder = sandbox.path("reports/2026-10-20")
        var feeds: [String] = []
        let walker = FileManager.default.enumerator(atPath: folder)
        while let name = walker?.nextObject() as? String {
            if name.hasSuffix(".ics") { feeds.append(name) }
        }
        // Three courses at the school's level and in their teachers' folders; one feed per
        // teacher's folder.
        #expect(feeds.filter { $0.hasSuffix("calendar.ics") }.count == 2, "\(feeds)")
        #expect(feeds.filter { !$0.hasSuffix("calendar.ics") }.count == 6, "\(feeds)")
        for feed in feeds {
            let bytes = [UInt8](try sandbox.read("reports/2026-10-20/" + feed))
            let lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
            #expect(lines.last?.isEmpty == true, "\(feed) ends with CRLF")
            for line in lines.dropLast() {
                #expect(line.last == 13, "\(feed): a line without CR")
                #expect(line.count - 1 <= 75, "\(feed): a line of \(line.count - 1) octets")
                #expect(String(validating: line.dropLast(), as: UTF8.self) != nil, "\(feed): a fold cut a character")
            }
        }
        let art = try Self.parsed(sandbox, [folder + "/" + Self.reyes + "/calendar.ics"])
        let sketch = Self.events(art.values.first, "icalendar")[Self.sketch]
        #expect(sketch?["description"] as? String == "1 of 1 upcoming\nART 3 — Art, 美術 \\ design")
    }

    @Test func aBaseURLLinksEachEventToItsCoursePageInTheTeachersFolder() throws {
        let sandbox = try Sandbox()
        try sandbox.write("drop/courses.csv", Self.courses)
        try sandbox.write("drop/tasks.csv", Self.tasksNight1)
        let set = try sandbox.run(["--db", "db.sqlite", "import", "drop"])
        #expect(set.exitCode == 0, "\(set)")
        let url = try sandbox.run(["--db", "db.sqlite", "settings", "base-url", "https://reports.school.example/night"])
        #expect(url.exitCode == 0, "\(url)")
        #expect(url.stderr.contains("base url: not set → https://reports.school.example/night/"), "\(url)")
        let out = try sandbox.run([
            "--db", "db.sqlite", "--as-of", "2026-10-20T02:00:00Z", "report", "grid", "--format", "html", "--out", "out", "--by-teacher",
        ])
        #expect(out.exitCode == 0, "\(out)")
        let feed = sandbox.path("out/" + Self.reyes + "/calendar.ics")
        let reading = try Self.parsed(sandbox, [feed])[feed]
        let page = "https://reports.school.example/night/\(Self.reyes)/course-art-\(try ByTeacherReportTests.hash("art")).html"
        let sketch = Self.events(reading, "icalendar")[Self.sketch]
        #expect(sketch?["url"] as? String == page)
        #expect((sketch?["description"] as? String)?.hasSuffix("\n" + page) == true)
        // The page is there.
        #expect(
            FileManager.default.fileExists(
                atPath: sandbox.path("out/" + String(page.dropFirst("https://reports.school.example/night/".count)))))
        // A bad address changes nothing.
        for bad in ["ftp://x.example/", "https://user:pw@x.example/", "https://x.example/?a=1", "https://x.example/a b", ""] {
            let refused = try sandbox.run(["--db", "db.sqlite", "settings", "base-url", bad])
            #expect(refused.exitCode == 64, "\(bad): \(refused)")
        }
        let show = try sandbox.run(["--db", "db.sqlite", "settings", "show"])
        #expect(show.stdout.contains("base url: https://reports.school.example/night/\n"), "\(show)")
        let cleared = try sandbox.run(["--db", "db.sqlite", "settings", "base-url", "--clear"])
        #expect(cleared.exitCode == 0, "\(cleared)")
        #expect(try sandbox.run(["--db", "db.sqlite", "settings", "show"]).stdout.contains("base url: not set"))
    }

    /// khal (Debian's), configured in the sandbox with a throwaway calendar in Berlin's zone.
    static func khal(_ sandbox: Sandbox, _ arguments: [String]) throws -> CommandResult {
        let config = """
            [calendars]
            [[school]]
            path = \(sandbox.path("khal/calendar"))
            type = calendar
            [locale]
            timeformat = %H:%M
            dateformat = %Y-%m-%d
            longdateformat = %Y-%m-%d
            datetimeformat = %Y-%m-%d %H:%M
            longdatetimeformat = %Y-%m-%d %H:%M
            local_timezone = Europe/Berlin
            default_timezone = Europe/Berlin
            [default]
            default_calendar = school
            [sqlite]
            path = \(sandbox.path("khal/khal.db"))

            """
        try sandbox.write("khal/config", config)
        try FileManager.default.createDirectory(atPath: sandbox.path("khal/calendar"), withIntermediateDirectories: true)
        let result = try sandbox.runProgram(URL(fileURLWithPath: "/usr/bin/khal"), ["-c", sandbox.path("khal/config")] + arguments)
        guard result.exitCode == 0 else { throw HarnessError("khal \(arguments) failed:\n\(result)") }
        return result
    }

    /// khal's list of `days` days from `date`: one line per event, "start title uid".
    static func khalDays(_ sandbox: Sandbox, from date: String, days: Int) throws -> [String] {
        try khal(sandbox, ["list", "--format", "{start} {title} {uid}", "--day-format", "", date, "\(days)d"]).stdout
            .split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    @Test func khalImportsEachAssignmentOnceAtItsLocalTimeAndUpdatesItInPlace() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/khal") else {
            throw HarnessError("khal is not installed: `make test` installs Debian's khal")
        }
        let sandbox = try Sandbox()
        try Self.night(sandbox, tasks: Self.tasksNight1, date: "2026-10-20")
        let feed1 = sandbox.path("reports/2026-10-20/" + Self.okafor + "/calendar.ics")
        _ = try Self.khal(sandbox, ["import", "--batch", "-a", "school", feed1])
        let first = try Self.khalDays(sandbox, from: "2026-10-20", days: 30)
        let uid = { (summary: String, lines: [String]) in
            lines.first { $0.contains(" " + summary + " ") }.map { String($0.split(separator: " ").last ?? "") } ?? ""
        }
        let essayUID = uid("BIO 1: Essay", first)
        // Berlin's DST day at 09:00 (CET); New York's 23:30 EST is 05:30 in Berlin; an all-day due.
        #expect(
            first == [
                "2026-10-25 09:00 BIO 1: Essay \(essayUID)",
                "2026-11-02 HIS 2: Timeline \(uid("HIS 2: Timeline", first))",
                "2026-11-02 05:30 HIS 2: Source analysis \(uid("HIS 2: Source analysis", first))",
                "2026-11-10 23:00 HIS 2: Map \(uid("HIS 2: Map", first))",
                "2026-11-12 23:00 HIS 2: Map \(uid("HIS 2: Map", Array(first.suffix(1))))",
            ], "\(first)")
        #expect(!essayUID.isEmpty)
        // Night 2 imported over it: the essay moved in place (one event with its UID), nothing doubled.
        try Self.night(sandbox, tasks: Self.tasksNight2, date: "2026-10-21")
        let feed2 = sandbox.path("reports/2026-10-21/" + Self.okafor + "/calendar.ics")
        _ = try Self.khal(sandbox, ["import", "--batch", "-a", "school", feed2])
        let second = try Self.khalDays(sandbox, from: "2026-10-20", days: 30)
        #expect(second.filter { $0.contains("BIO 1: Essay") } == ["2026-10-26 09:00 BIO 1: Essay \(essayUID)"], "\(second)")
        #expect(second.count == first.count, "\(second)")
        // A subscription is the feed itself: read afresh, the deleted assignment is gone.
        try FileManager.default.removeItem(atPath: sandbox.path("khal"))
        _ = try Self.khal(sandbox, ["import", "--batch", "-a", "school", feed2])
        let fresh = try Self.khalDays(sandbox, from: "2026-10-20", days: 30)
        #expect(fresh.count == 4 && !fresh.contains { $0.contains("Source analysis") }, "\(fresh)")
    }
}
