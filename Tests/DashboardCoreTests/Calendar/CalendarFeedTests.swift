import Foundation
import Testing

@testable import DashboardCore

/// Issue 28, item 1: the iCalendar text rules (folding, escaping), the events of a course and
/// the feed's SEQUENCE/LAST-MODIFIED carried from the feed before. Pure.
@Suite(.storeIndependent) struct CalendarFeedTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let course = CourseRecord(courseID: "bio", code: "BIO 1", title: "Biology", timezone: "Europe/Berlin")

    static func task(_ id: String, _ due: String, assignment: String = "A1", title: String = "Essay", bucket: Bucket = .upcoming)
        -> ReportTask
    {
        ReportTask(
            task: TaskRecord(
                taskID: id, courseID: "bio", title: title, studentID: "s" + id, due: due, completed: bucket == .completed,
                assignmentID: assignment),
            bucket: bucket, pinned: false)
    }

    @Test func foldingKeepsEveryPhysicalLineWithin75OctetsAndNeverCutsACharacter() {
        for value in [String(repeating: "a", count: 200), String(repeating: "写", count: 60), String(repeating: "🎨x", count: 40), "short"] {
            let folded = ICalendarText.line("SUMMARY", value)
            #expect(folded.hasSuffix("\r\n"))
            let physical = folded.dropLast(2).components(separatedBy: "\r\n")
            for (index, line) in physical.enumerated() {
                #expect(line.utf8.count <= 75, "\(line.utf8.count) octets")
                if index > 0 { #expect(line.hasPrefix(" ")) }
            }
            #expect(ICalendarText.unfold(folded) == ["SUMMARY:" + value])
        }
    }

    @Test func textValuesEscapeCommasSemicolonsBackslashesAndLineBreaks() {
        #expect(ICalendarText.text("a,b;c\\d\ne") == "a\\,b\\;c\\\\d\\ne")
        #expect(ICalendarText.text("tab\tok\r") == "tab\tok")
        // A control or bidi character of user data shows as a visible escape.
        #expect(ICalendarText.text("x\u{7}y\u{202E}z") == "x" + VisibleText.escape("\u{7}") + "y" + VisibleText.escape("\u{202E}") + "z")
    }

    @Test func oneEventPerAssignmentAndDueWithTheMainDueKeyedByTheAssignmentAlone() {
        let tasks = [
            Self.task("1", "2026-11-10T17:00:00"), Self.task("2", "2026-11-10T17:00:00"), Self.task("3", "2026-11-12T17:00:00"),
            Self.task("4", "2026-11-20", assignment: "A2", title: "Lab", bucket: .completed),
            Self.task("5", "", assignment: "A3", title: "Reading"),
        ]
        let events = CalendarEvents.events(course: Self.course, tasks: tasks, zone: Self.berlin)
        #expect(events.map(\.summary) == ["BIO 1: Essay", "BIO 1: Essay"])
        #expect(events[0].uid == CalendarEvents.uid(course: "bio", assignment: "a\u{0}A1", due: nil))
        #expect(events[1].uid == CalendarEvents.uid(course: "bio", assignment: "a\u{0}A1", due: "2026-11-12T17:00:00"))
        #expect(events[0].start == .local(CivilDate(year: 2026, month: 11, day: 10), hour: 17, minute: 0, second: 0, zone: "Europe/Berlin"))
        #expect(events[0].description == "2 of 2 upcoming\nBIO 1 — Biology")
        // The whole assignment moved: the main due keeps its UID.
        let moved = [Self.task("1", "2026-11-11T17:00:00"), Self.task("2", "2026-11-11T17:00:00"), Self.task("3", "2026-11-12T17:00:00")]
        #expect(CalendarEvents.events(course: Self.course, tasks: moved, zone: Self.berlin).first?.uid == events[0].uid)
    }

    @Test func instantsAndLocalTimesInAGapAreShownAtTheZonesWallClock() {
        // 02:30 does not exist in Berlin on 2026-03-29: read as the buckets read it (03:30).
        let gap = CalendarEvents.start("2026-03-29T02:30:00", zone: Self.berlin)
        #expect(gap == .local(CivilDate(year: 2026, month: 3, day: 29), hour: 3, minute: 30, second: 0, zone: "Europe/Berlin"))
        let instant = CalendarEvents.start("2026-10-25T08:00:00Z", zone: Self.berlin)
        #expect(instant == .local(CivilDate(year: 2026, month: 10, day: 25), hour: 9, minute: 0, second: 0, zone: "Europe/Berlin"))
        #expect(CalendarEvents.start("2026-11-02", zone: Self.berlin) == .day(CivilDate(year: 2026, month: 11, day: 2)))
        let utc = CalendarEvents.start("2026-11-05T10:00:00", zone: TimeZone(identifier: "UTC")!)
        #expect(utc == .utc(Date(timeIntervalSince1970: 1_793_872_800)))
    }

    static let asOf1 = Date(timeIntervalSince1970: 1_792_461_600)  // 2026-10-20T02:00:00Z
    static let asOf2 = Date(timeIntervalSince1970: 1_792_548_000)  // 2026-10-21T02:00:00Z

    static func sequences(_ feed: String) -> [String: (Int, String)] {
        CalendarFeed.previousEvents(feed).mapValues { ($0.sequence, $0.lastModified) }
    }

    @Test func sequenceAndLastModifiedMoveOnlyWhenAnEventChanges() {
        let tasks = [Self.task("1", "2026-11-10T17:00:00"), Self.task("2", "2026-11-20", assignment: "A2", title: "Lab")]
        let events = CalendarEvents.events(course: Self.course, tasks: tasks, zone: Self.berlin)
        let first = CalendarFeed.render(name: "Feed", events: events, asOf: Self.asOf1, previous: nil)
        #expect(first.contains("DTSTAMP:20261020T020000Z\r\n"))
        // The same events the next night: nothing moves but DTSTAMP.
        let same = CalendarFeed.render(name: "Feed", events: events, asOf: Self.asOf2, previous: first)
        #expect(Self.sequences(same).mapValues(\.0) == Self.sequences(first).mapValues(\.0))
        #expect(Self.sequences(same).values.allSatisfy { $0 == (0, "20261020T020000Z") })
        #expect(same.replacingOccurrences(of: "DTSTAMP:20261021T020000Z", with: "DTSTAMP:20261020T020000Z") == first)
        // The essay moved: its sequence is 1 and it was modified on night 2; the lab is as it was.
        let movedTasks = [Self.task("1", "2026-11-11T17:00:00"), Self.task("2", "2026-11-20", assignment: "A2", title: "Lab")]
        let moved = CalendarFeed.render(
            name: "Feed", events: CalendarEvents.events(course: Self.course, tasks: movedTasks, zone: Self.berlin), asOf: Self.asOf2,
            previous: first)
        let after = Self.sequences(moved)
        #expect(after[events[0].uid]! == (1, "20261021T020000Z"))
        #expect(after[events[1].uid]! == (0, "20261020T020000Z"))
        // A feed that is not ours, or damaged: every event starts again.
        let fresh = CalendarFeed.render(name: "Feed", events: events, asOf: Self.asOf2, previous: "garbage\r\nBEGIN:VEVENT\r\nUID:x")
        #expect(Self.sequences(fresh).values.allSatisfy { $0 == (0, "20261021T020000Z") })
    }

    @Test func theTimeZoneComponentGivesEachEventTheOffsetTheZoneDatabaseGives() {
        let component = CalendarTimeZone.component(Self.berlin, years: 2026...2026)
        let lines = ICalendarText.unfold(component)
        #expect(lines.first == "BEGIN:VTIMEZONE")
        #expect(lines.contains("TZID:Europe/Berlin"))
        // The year's start (CET), then spring forward at 02:00 CET and fall back at 03:00 CEST.
        #expect(
            lines.filter { $0.hasPrefix("DTSTART:") } == ["DTSTART:20260101T000000", "DTSTART:20260329T020000", "DTSTART:20261025T030000"])
        #expect(lines.filter { $0.hasPrefix("TZOFFSETTO:") } == ["TZOFFSETTO:+0100", "TZOFFSETTO:+0200", "TZOFFSETTO:+0100"])
        let tokyo = ICalendarText.unfold(CalendarTimeZone.component(TimeZone(identifier: "Asia/Tokyo")!, years: 2013...2026))
        #expect(tokyo.filter { $0.hasPrefix("BEGIN:STANDARD") || $0.hasPrefix("BEGIN:DAYLIGHT") } == ["BEGIN:STANDARD"])
        #expect(ICalendarText.offset(-18_000) == "-0500")
        #expect(ICalendarText.offset(20_700) == "+0545")
    }
}
