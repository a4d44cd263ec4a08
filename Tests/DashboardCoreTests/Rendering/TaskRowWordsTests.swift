import Foundation
import Testing

@testable import DashboardCore

/// `TaskRowWords`: how late an overdue task is (whole days in its course's zone), the words of
/// an override, the HTML anchor of a row, and `ReportWords.sectionHeading`.
@Suite(.storeIndependent) struct TaskRowWordsTests {
    static func zone(_ name: String) -> TimeZone { TimeZone(identifier: name) ?? .current }

    static func local(_ instant: String, _ zone: String) -> LocalAsOf {
        let date = Timestamp.parse(instant, timeZone: Self.zone("UTC")) ?? Date(timeIntervalSince1970: 0)
        return LocalAsOf(asOf: date, timeZone: Self.zone(zone))
    }

    static func task(due: String, bucket: Bucket = .overdue, completed: Bool = false, override: StoredOverride? = nil)
        -> ReportTask
    {
        ReportTask(
            task: TaskRecord(taskID: "T1", courseID: "C", title: "t", studentID: "s", due: due, priority: .normal, completed: completed),
            bucket: bucket, pinned: override != nil, override: override)
    }

    struct Late: Sendable, CustomTestStringConvertible {
        let due: String
        let zone: String
        let asOf: String
        let days: Int?
        var testDescription: String { "\(due) in \(zone) as of \(asOf)" }
    }

    static let lateness: [Late] = [
        // A date passes at the end of its local day: late from the next day on.
        Late(due: "2026-11-02", zone: "Europe/Berlin", asOf: "2026-11-03T09:00:00Z", days: 1),
        // Across the end of summer time (Oct 25 in Berlin): calendar days, not 24-hour spans.
        Late(due: "2026-10-20", zone: "Europe/Berlin", asOf: "2026-11-03T09:00:00Z", days: 14),
        Late(due: "2026-10-25T02:30:00", zone: "Europe/Berlin", asOf: "2026-11-03T09:00:00Z", days: 9),
        Late(due: "2026-10-24T23:30:00", zone: "Europe/Berlin", asOf: "2026-10-25T22:59:00Z", days: 1),
        Late(due: "2026-10-24T23:30:00", zone: "Europe/Berlin", asOf: "2026-10-25T23:00:00Z", days: 2),
        // Across the start of summer time (Mar 29, 2026 in Berlin).
        Late(due: "2026-03-28", zone: "Europe/Berlin", asOf: "2026-03-30T21:59:00Z", days: 2),
        // A timed due that passed earlier today: late today (0 days).
        Late(due: "2026-11-03T08:00:00", zone: "Europe/Berlin", asOf: "2026-11-03T09:00:00Z", days: 0),
        // An instant is dated in the course's zone: 04:30 UTC on Nov 2 is Nov 1 in New York
        // (2 days late on Nov 3), 14:00 UTC on Nov 2 is Nov 3 in Sydney (late today).
        Late(due: "2026-11-02T04:30:00Z", zone: "America/New_York", asOf: "2026-11-03T09:00:00Z", days: 2),
        Late(due: "2026-11-02T14:00:00Z", zone: "Australia/Sydney", asOf: "2026-11-03T09:00:00Z", days: 0),
        // Not late: not yet passed, undated, or an unreadable due.
        Late(due: "2026-11-03T18:00:00", zone: "Europe/Berlin", asOf: "2026-11-03T09:00:00Z", days: nil),
        Late(due: "", zone: "UTC", asOf: "2026-11-03T09:00:00Z", days: nil),
        Late(due: "someday", zone: "UTC", asOf: "2026-11-03T09:00:00Z", days: nil),
    ]

    @Test(arguments: lateness) func daysLateAreWholeCalendarDaysInTheCoursesZone(_ row: Late) {
        let local = Self.local(row.asOf, row.zone)
        #expect(TaskRowWords.daysLate(Self.task(due: row.due), at: local) == row.days)
    }

    @Test func onlyAnOverdueOpenTaskIsLate() {
        let local = Self.local("2026-11-03T09:00:00Z", "UTC")
        // Pinned to another bucket by an extension, or completed: not late.
        #expect(TaskRowWords.daysLate(Self.task(due: "2026-11-01", bucket: .upcoming), at: local) == nil)
        #expect(TaskRowWords.daysLate(Self.task(due: "2026-11-01", completed: true), at: local) == nil)
        // Pinned to overdue before its due: overdue, but not late.
        let pinned = Self.task(due: "2026-11-20", override: StoredOverride(bucket: "overdue"))
        #expect(TaskRowWords(pinned, at: local).late == nil)
        #expect(TaskRowWords(pinned, at: local).status == "overdue (set by hand)")
    }

    @Test func lateWords() {
        #expect([0, 1, 2, 33].map { TaskRowWords.lateWords($0) } == ["late today", "1 day late", "2 days late", "33 days late"])
        // From two months on, how long ago too (issue 29): a term long past reads as such.
        #expect(
            [59, 60, 89, 90, 364, 365, 729, 730, 4425].map { TaskRowWords.lateWords($0) } == [
                "59 days late", "60 days late, due 2 months ago", "89 days late, due 2 months ago", "90 days late, due 3 months ago",
                "364 days late, due 12 months ago", "365 days late, due 1 year ago", "729 days late, due 1 year ago",
                "730 days late, due 2 years ago", "4425 days late, due 12 years ago",
            ])
    }

    @Test func theStatusOfALateRowAndOfAPinnedOne() {
        let local = Self.local("2026-11-03T09:00:00Z", "Europe/Berlin")
        let late = TaskRowWords(Self.task(due: "2026-11-01"), at: local)
        #expect(late.status == "2 days late")
        #expect(late.fullStatus == "overdue, 2 days late")
        #expect(late.details == ["2 days late"])
        let override = StoredOverride(bucket: "upcoming", until: "2026-12-06", reason: "extension granted", actor: "adams")
        let pinned = TaskRowWords(Self.task(due: "2026-11-01", bucket: .upcoming, override: override), at: local)
        #expect(pinned.status == "upcoming (set by hand)")
        #expect(pinned.override == "set by hand until 2026-12-06: extension granted")
        #expect(pinned.fullStatus == "upcoming (set by hand until 2026-12-06: extension granted)")
        let pinnedLate = TaskRowWords(Self.task(due: "2026-11-01", override: StoredOverride(bucket: "overdue", reason: "r")), at: local)
        #expect(pinnedLate.status == "overdue (set by hand), 2 days late")
        #expect(pinnedLate.fullStatus == "overdue (set by hand: r), 2 days late")
    }

    @Test func overrideWordsGiveTheEndInTheCoursesZoneAndTheReason() {
        let berlin = Self.zone("Europe/Berlin")
        #expect(TaskRowWords.overrideWords(StoredOverride(bucket: "today", reason: "ill"), zone: berlin) == "set by hand: ill")
        #expect(TaskRowWords.overrideWords(nil, zone: berlin) == "set by hand")
        #expect(TaskRowWords.overrideWords(StoredOverride(bucket: "today", reason: "  "), zone: berlin) == "set by hand")
        let timed = StoredOverride(bucket: "today", until: "2026-12-06T13:00:00Z", reason: "x")
        #expect(TaskRowWords.overrideWords(timed, zone: berlin) == "set by hand until 2026-12-06 14:00: x")
        // An end a hand edit made unreadable never ends: no end is shown.
        #expect(TaskRowWords.overrideWords(StoredOverride(bucket: "today", until: "soon", reason: "x"), zone: berlin) == "set by hand: x")
    }

    @Test func anchorsAreValidIdsAndNeverShared() {
        let ids = ["T1", "a b", "a_20b", "x#y", "ü", "u\u{308}", "_", "", "A", "a", "a.b-c", "\"<>&", "a/b?c=d"]
        let anchors = ids.map(TaskRowWords.anchor)
        #expect(Array(anchors.prefix(5)) == ["task-T1", "task-a_20b", "task-a_5F20b", "task-x_23y", "task-_C3_BC"])
        #expect(Set(anchors).count == ids.count)
        for anchor in anchors { #expect(anchor.wholeMatch(of: /task-[A-Za-z0-9._-]*/) != nil, "\(anchor)") }
    }

    @Test func aSectionHeadingGivesTheWholeCountAndThePlacesShown() {
        let tasks = [Self.task(due: ""), Self.task(due: "")]
        #expect(ReportWords.sectionHeading(BucketSection(bucket: .today, tasks: tasks)) == "Due today (2)")
        #expect(ReportWords.sectionHeading(BucketSection(bucket: .today, tasks: tasks, total: 3)) == "Due today (3) — showing 1–2 of 3")
        #expect(
            ReportWords.sectionHeading(BucketSection(bucket: .overdue, tasks: tasks, total: 5, first: 3))
                == "Overdue (5) — showing 3–4 of 5")
        #expect(
            ReportWords.sectionHeading(BucketSection(bucket: .upcoming, tasks: [tasks[0]], total: 3, first: 3))
                == "Upcoming (3) — showing 3 of 3")
    }

    @Test func aPageOfTheLoadedPipelineKeepsEachSectionsWholeCount() {
        let tasks = (1...5).map { Self.task(due: "", bucket: $0 <= 3 ? .overdue : .today) }
        let group = CourseGroup(
            course: CourseRecord(courseID: "C", code: "C", title: ""),
            sections: [
                BucketSection(bucket: .overdue, tasks: Array(tasks.prefix(3))),
                BucketSection(bucket: .today, tasks: Array(tasks.suffix(2))),
            ])
        let page = ReportPipeline.paginateTasks([group], limit: 2, page: 2).groups
        #expect(page.first?.sections.map { "\($0.bucket) \($0.total) \($0.first)–\($0.last)" } == ["overdue 3 3–3", "today 2 1–1"])
    }
}
