import Foundation
import Testing

@testable import DashboardCore

/// `DueWindow` (`--due-within`, `--due-before`, `--due-after`): a task's due day is the local
/// date of its due in its course's zone; bounds are exclusive; `--due-within` never keeps an
/// overdue task; repeated values widen; and the pipeline applies it per course zone.
@Suite("Report pipeline: due windows", .storeIndependent)
struct DueWindowTests {
    static func day(_ text: String) -> CivilDate {
        guard case .date(let date)? = DueDate(storageText: text) else { return CivilDate(year: 1, month: 1, day: 1) }
        return date
    }

    static func local(_ instant: String, _ zone: String) -> LocalAsOf {
        let date = Timestamp.parse(instant, timeZone: ReportSample.utc) ?? Date(timeIntervalSince1970: 0)
        return LocalAsOf(asOf: date, timeZone: TimeZone(identifier: zone) ?? ReportSample.utc)
    }

    static func window(within: [Int] = [], before: [String] = [], after: [String] = []) -> DueWindow {
        var window = DueWindow()
        window.within = within
        window.before = before.map(day)
        window.after = after.map(day)
        return window
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let window: DueWindow
        let due: String
        let zone: String
        let asOf: String
        let allowed: Bool
        var testDescription: String { "\(due) in \(zone) as of \(asOf): \(allowed)" }

        init(_ window: DueWindow, _ due: String, _ allowed: Bool, zone: String = "UTC", asOf: String = "2026-11-29T08:00:00Z") {
            self.window = window
            self.due = due
            self.zone = zone
            self.asOf = asOf
            self.allowed = allowed
        }
    }

    static let before = window(before: ["2026-12-01"])
    static let after = window(after: ["2026-12-01"])
    static let december2 = window(before: ["2026-12-03"], after: ["2026-12-01"])
    static let today = window(within: [0])
    static let week = window(within: [7])

    static let rows: [Row] = [
        // --due-before 2026-12-01: due on a day before it, the day itself excluded.
        Row(before, "2026-11-30", true),
        Row(before, "2026-12-01", false),
        Row(before, "2026-11-30T23:59:59", true),
        Row(before, "2026-12-01T00:00:00", false),
        Row(before, "2026-11-01", true),
        // An instant is dated in the course's zone: 04:30Z on Dec 1 is Nov 30 in New York.
        Row(before, "2026-12-01T04:30:00Z", true, zone: "America/New_York"),
        Row(before, "2026-12-01T04:30:00Z", false),
        Row(before, "2026-11-30T15:30:00Z", false, zone: "Asia/Tokyo"),
        // --due-after 2026-12-01: due on a day after it, the day itself excluded.
        Row(after, "2026-12-01", false),
        Row(after, "2026-12-02", true),
        Row(after, "2026-12-01T23:59:59", false),
        Row(after, "2026-12-02T00:00:00", true),
        Row(after, "2026-12-02T04:30:00Z", false, zone: "America/New_York"),
        Row(after, "2026-12-02T04:30:00Z", true),
        Row(after, "2026-12-01T15:00:00Z", true, zone: "Asia/Tokyo"),
        // Both: only December 2.
        Row(december2, "2026-12-01", false),
        Row(december2, "2026-12-02", true),
        Row(december2, "2026-12-02T23:59:00", true),
        Row(december2, "2026-12-03", false),
        // --due-within 0d: due later today passes; passed earlier today, overdue or tomorrow fails.
        Row(today, "2026-11-29T10:00:00", true),
        Row(today, "2026-11-29T07:00:00", false),
        Row(today, "2026-11-29", true),
        Row(today, "2026-11-29T08:00:00Z", true),
        Row(today, "2026-11-29T07:59:59Z", false),
        Row(today, "2026-11-28", false),
        Row(today, "2026-11-30", false),
        Row(today, "2026-11-30T00:00:00", false),
        // 08:00Z is 03:00 in New York: 04:30Z the next day is 23:30 there, later today.
        Row(today, "2026-11-30T04:30:00Z", true, zone: "America/New_York"),
        Row(today, "2026-11-30T04:30:00Z", false),
        // --due-within 7d: to the end of the 7th local day after the as-of's, never overdue.
        Row(week, "2026-12-06", true),
        Row(week, "2026-12-06T23:59:59", true),
        Row(week, "2026-12-07", false),
        Row(week, "2026-12-07T00:00:00", false),
        Row(week, "2026-11-20", false),
        Row(week, "2026-11-29T07:00:00", false),
        // Across the end of summer time in Berlin (2026-10-25: 03:00 CEST becomes 02:00 CET).
        // As of 23:30 CEST on Oct 24, 1d reaches the end of Oct 25: 25 hours away, still in.
        Row(window(within: [1]), "2026-10-25T23:30:00", true, zone: "Europe/Berlin", asOf: "2026-10-24T21:30:00Z"),
        Row(window(within: [1]), "2026-10-26T00:00:00", false, zone: "Europe/Berlin", asOf: "2026-10-24T21:30:00Z"),
        // 22:30Z on Oct 25 is 23:30 CET (Oct 25) but 22:30Z on Oct 24 is 00:30 CEST (Oct 25).
        Row(window(within: [1]), "2026-10-25T22:30:00Z", true, zone: "Europe/Berlin", asOf: "2026-10-24T21:30:00Z"),
        Row(window(within: [1]), "2026-10-25T23:00:00Z", false, zone: "Europe/Berlin", asOf: "2026-10-24T21:30:00Z"),
        Row(window(within: [0]), "2026-10-24T21:59:59Z", true, zone: "Europe/Berlin", asOf: "2026-10-24T21:30:00Z"),
        Row(window(within: [0]), "2026-10-24T22:30:00Z", false, zone: "Europe/Berlin", asOf: "2026-10-24T21:30:00Z"),
        Row(window(before: ["2026-10-26"]), "2026-10-25T22:59:59Z", true, zone: "Europe/Berlin"),
        Row(window(before: ["2026-10-26"]), "2026-10-25T23:00:00Z", false, zone: "Europe/Berlin"),
        // Undated and unreadable dues pass no window.
        Row(before, "", false),
        Row(after, "", false),
        Row(today, "", false),
        Row(week, "someday", false),
        Row(before, "2026-13-45", false),
        // No window: every due passes, undated or not.
        Row(DueWindow(), "", true),
        Row(DueWindow(), "someday", true),
        Row(DueWindow(), "2026-11-01", true),
        // Repeated values: the widest wins (latest before, earliest after, longest within).
        Row(window(before: ["2026-12-01", "2026-12-05"]), "2026-12-04", true),
        Row(window(before: ["2026-12-05", "2026-12-01"]), "2026-12-04", true),
        Row(window(before: ["2026-12-05", "2026-12-01"]), "2026-12-05", false),
        Row(window(after: ["2026-12-05", "2026-12-01"]), "2026-12-02", true),
        Row(window(after: ["2026-12-01", "2026-12-05"]), "2026-12-01", false),
        Row(window(within: [0, 7]), "2026-12-06", true),
        Row(window(within: [7, 0]), "2026-12-06", true),
        Row(window(within: [7, 0]), "2026-12-07", false),
        // Different filters must all hold.
        Row(window(within: [7], before: ["2026-12-01"]), "2026-11-30", true),
        Row(window(within: [7], before: ["2026-12-01"]), "2026-12-02", false),
        Row(window(within: [7], after: ["2026-12-05"]), "2026-12-06", true),
        Row(window(within: [7], after: ["2026-12-05"]), "2026-12-08", false),
    ]

    @Test(arguments: rows) func aDueDayPassesTheWindowInItsCoursesZone(_ row: Row) {
        #expect(row.window.allows(due: row.due, at: Self.local(row.asOf, row.zone)) == row.allowed)
    }

    @Test(
        "a due's local day: a date or a local date-time is its own date, an instant is dated in the zone",
        arguments: [
            ("2026-11-02", "America/New_York", "2026-11-02"),
            ("2026-11-02T23:59:59", "Asia/Tokyo", "2026-11-02"),
            ("2026-11-02T04:30:00Z", "America/New_York", "2026-11-01"),
            ("2026-11-02T04:30:00Z", "UTC", "2026-11-02"),
            ("2026-11-02T15:00:00Z", "Asia/Tokyo", "2026-11-03"),
            ("2026-10-24T22:30:00Z", "Europe/Berlin", "2026-10-25"),
            ("2026-10-25T22:30:00Z", "Europe/Berlin", "2026-10-25"),
        ])
    func localDay(due: String, zone: String, expected: String) {
        let day = DueDate(storageText: due)?.localDay(in: TimeZone(identifier: zone) ?? ReportSample.utc)
        #expect(day?.isoText == expected)
    }

    @Test(
        "a window is contradictory when --due-after is on or after the day before --due-before",
        arguments: [
            (window(before: ["2026-12-03"], after: ["2026-12-01"]), false),
            (window(before: ["2026-12-03"], after: ["2026-12-02"]), true),
            (window(before: ["2026-12-03"], after: ["2026-12-03"]), true),
            (window(before: ["2026-12-03"], after: ["2026-12-09"]), true),
            (window(before: ["2027-01-01"], after: ["2026-12-30"]), false),
            (window(before: ["2027-01-01"], after: ["2026-12-31"]), true),
            // The widest values decide.
            (window(before: ["2026-12-03"], after: ["2026-12-02", "2026-11-30"]), false),
            (window(before: ["2026-12-02", "2026-12-04"], after: ["2026-12-02"]), false),
            (window(before: ["2026-12-02", "2026-12-03"], after: ["2026-12-02"]), true),
            // One bound alone never is.
            (window(before: ["2026-12-03"]), false),
            (window(after: ["2026-12-03"]), false),
            (window(within: [0], before: ["1900-01-01"]), false),
            (DueWindow(), false),
        ])
    func contradictory(window: DueWindow, expected: Bool) {
        #expect(window.isContradictory == expected)
    }

    @Test("a window is empty only without any value")
    func isEmpty() {
        #expect(DueWindow().isEmpty)
        #expect(!Self.window(within: [0]).isEmpty)
        #expect(!Self.window(before: ["2026-12-01"]).isEmpty)
        #expect(!Self.window(after: ["2026-12-01"]).isEmpty)
        #expect(ReportSample.query { $0.due.within = [3] }.narrows)
        #expect(ReportSample.query { $0.due.before = [Self.day("2026-12-01")] }.narrows)
        #expect(ReportSample.query { $0.due.after = [Self.day("2026-12-01")] }.narrows)
    }

    // MARK: - In the pipeline

    /// The same four dues in a course of each zone (as of 2026-11-29T08:00:00Z): an instant at
    /// 04:30Z on Nov 30 (Nov 29 in New York, Nov 30 elsewhere), a date on Nov 30, a local time
    /// on Nov 29 at 07:00 (passed in UTC, not yet in New York), and no due. The course without a
    /// zone uses the default zone.
    static func courses() -> [ReportCourse] {
        [("ny", "America/New_York"), ("tk", "Asia/Tokyo"), ("ut", "UTC"), ("df", "")].map { id, zone in
            ReportCourse(
                course: ReportSample.course(id, code: id.uppercased(), timezone: zone),
                tasks: [
                    ReportSample.task("\(id)-i", id, "Instant", due: "2026-11-30T04:30:00Z"),
                    ReportSample.task("\(id)-d", id, "Date", due: "2026-11-30"),
                    ReportSample.task("\(id)-l", id, "Local", due: "2026-11-29T07:00:00"),
                    ReportSample.task("\(id)-u", id, "Undated", bucket: .undated),
                ])
        }
    }

    static func filtered(defaultZone: TimeZone = ReportSample.utc, _ change: (inout ReportQuery) -> Void) -> [String] {
        ReportSample.summary(
            ReportPipeline.filter(Self.courses(), ReportSample.query(change), asOf: ReportSample.asOf, defaultTimeZone: defaultZone))
    }

    @Test("the filter stage decides each due window in the task's course zone")
    func pipelineFilterPerCourseZone() {
        // Tokyo's as-of is 17:00 on Nov 29: its 07:00 has passed too; New York's is 03:00.
        #expect(Self.filtered { $0.due.within = [0] } == ["ny: ny-i ny-l", "tk:", "ut:", "df:"])
        #expect(Self.filtered { $0.due.within = [1] } == ["ny: ny-i ny-d ny-l", "tk: tk-i tk-d", "ut: ut-i ut-d", "df: df-i df-d"])
        #expect(Self.filtered { $0.due.before = [Self.day("2026-11-30")] } == ["ny: ny-i ny-l", "tk: tk-l", "ut: ut-l", "df: df-l"])
        #expect(
            Self.filtered { $0.due.after = [Self.day("2026-11-29")] } == ["ny: ny-d", "tk: tk-i tk-d", "ut: ut-i ut-d", "df: df-i df-d"])
        // Undated tasks pass no window, and a window keeps every course (with no task left).
        #expect(Self.filtered { $0.due.before = [Self.day("2026-11-29")] } == ["ny:", "tk:", "ut:", "df:"])
    }

    @Test("a course without a zone decides its due window in the default zone")
    func pipelineFilterDefaultZone() {
        let newYork = TimeZone(identifier: "America/New_York") ?? ReportSample.utc
        #expect(Self.filtered(defaultZone: newYork) { $0.due.within = [0] } == ["ny: ny-i ny-l", "tk:", "ut:", "df: df-i df-l"])
    }

    @Test("the report builder applies the due window to lists and grids, and names it when nothing matches")
    func builder() {
        let list = ReportBuilder.build(
            .list, courses: Self.courses(), facts: ReportSample.freshFacts, query: ReportSample.query { $0.due.within = [0] },
            asOf: ReportSample.asOf, defaultTimeZone: ReportSample.utc)
        #expect(list.state == .ok)
        // Sorted by due instant: 07:00 in New York (12:00Z on Nov 29) before 04:30Z on Nov 30.
        #expect(ReportSample.summary(list.groups) == ["ny upcoming: ny-l ny-i"])
        #expect(list.matchingTasks == 2)
        #expect(list.hiddenTasks == 14)
        let grid = ReportBuilder.build(
            .grid, courses: Self.courses(), facts: ReportSample.freshFacts,
            query: ReportSample.query { $0.due.after = [Self.day("2026-11-29")] }, asOf: ReportSample.asOf,
            defaultTimeZone: ReportSample.utc)
        // Nothing overdue or due today: the cards by code.
        #expect(grid.cards.map(\.course.courseID) == ["df", "ny", "tk", "ut"])
        #expect(grid.cards.map(\.shown) == [2, 1, 2, 2])
        #expect(grid.cards.map(\.total) == [4, 4, 4, 4])
        let none = ReportBuilder.build(
            .list, courses: Self.courses(), facts: ReportSample.freshFacts,
            query: ReportSample.query {
                $0.due.within = [0]; $0.due.before = [Self.day("2026-11-29")]
            }, asOf: ReportSample.asOf, defaultTimeZone: ReportSample.utc)
        #expect(none.state == .noMatch)
        #expect(ReportMessages.noMatch(none) == "No task matches --due-within 0d --due-before 2026-11-29.")
        #expect(
            ReportMessages.noMatchNext(none)
                == "These filters hide 16 tasks. To see them, run the report without --due-within and --due-before.")
    }
}
