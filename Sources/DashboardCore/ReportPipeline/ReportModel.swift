import Foundation

/// A bucket's tasks inside one course: on a page, the part of the section the page shows,
/// with the section's whole count (SPEC §7: section counts are always whole).
public struct BucketSection: Sendable, Equatable {
    public var bucket: Bucket
    /// The tasks shown (on a page, only the page's).
    public var tasks: [ReportTask]
    /// The section's whole count, every page together (the heading's number).
    public var total: Int
    /// The place (1-based) of the first shown task in the whole section: 1 unless the
    /// section began on an earlier page.
    public var first: Int

    /// - Parameter total: the whole count; `tasks.count` when not given (the whole section).
    package init(bucket: Bucket, tasks: [ReportTask], total: Int? = nil, first: Int = 1) {
        self.bucket = bucket
        self.tasks = tasks
        self.total = total ?? tasks.count
        self.first = first
    }

    /// The place (1-based) of the last shown task in the whole section.
    public var last: Int { first + tasks.count - 1 }
    /// True when the page shows every task of the section.
    public var isWhole: Bool { first == 1 && tasks.count == total }
}

/// One course with its tasks grouped by bucket.
public struct CourseGroup: Sendable, Equatable {
    public var course: CourseRecord
    public var sections: [BucketSection]
    /// Every live task of the course, before search, filters and paging.
    public var liveTasks: Int = 0
    /// A roll-up by assignment: the rows shown (on a page, the page's), the course's whole
    /// number of rows, and the place (1-based) of the first shown row among them. A roll-up's
    /// group has no sections.
    package var assignments: [AssignmentRow] = []
    package var assignmentTotal = 0
    package var assignmentFirst = 1
    /// Its calendar events (`CalendarEvents`), when the query asks for them
    /// (`ReportQuery.calendarEvents`).
    package var events: [CalendarEvent] = []

    public var taskCount: Int { sections.reduce(0) { $0 + $1.tasks.count } }
    /// Whether the course lists work handed in or excused (SPEC §11's places): its own page's
    /// chips offer them (`Report.listsStates`).
    package var listsStates: Bool { sections.contains { Bucket.added.contains($0.bucket) } }
}

/// A grid card: one course's counts.
public struct CourseCard: Sendable, Equatable {
    /// What changed in the course since the previous import (`Overnight`); nil when the report
    /// has no window (no data, a first import).
    package var changes: CourseChanges?
    /// Its changes in words ("since yesterday: 3 new, 2 now overdue"), when it has any.
    package var changesWords: String?
    public var course: CourseRecord
    /// Tasks per bucket after search and filters (completed included in the counts).
    public var counts: BucketCounts
    /// Every live task of the course, before search and filters.
    public var total: Int

    public var shown: Int { counts.total }
    public func count(_ bucket: Bucket) -> Int { counts[bucket] }
}

/// Which page of how many.
public struct PageInfo: Sendable, Equatable {
    public var page: Int
    public var pageCount: Int
    public var limit: Int?
    public var totalItems: Int
    /// 1-based index of the first and last item on the page (0 when the page is empty).
    public var firstItem: Int
    public var lastItem: Int
}

/// The distinct states SPEC §7 names, each with its own words and next step.
public enum ReportState: String, Sendable, Equatable {
    /// Courses and tasks to show.
    case ok
    /// No data has been imported yet.
    case noData = "no_data"
    /// The reader's database role (PostgreSQL, `dashboard access`) sees no course: no grant of
    /// it names a course's teacher. Not "nothing needs attention": nothing is shown at all.
    case noCourses = "no_courses"
    /// Search and filters hide every task.
    case noMatch = "no_match"
}

/// The finished report, ready to render: the outcome of every pipeline stage.
public struct Report: Sendable {
    public enum Kind: String, Sendable { case grid, list }
    public var kind: Kind
    public var asOf: Date
    package var generatedAsOf: String { Timestamp.text(asOf) }
    public var defaultTimeZone: TimeZone
    public var query: ReportQuery
    public var state: ReportState
    public var stale: StaleNotice?
    /// Grid: the cards of this page.
    public var cards: [CourseCard]
    /// Grid: the sums over every card the grid shows, every page together (its totals line).
    package var gridTotals = GridTotals()
    /// A teacher's index (HTML): the assignments that need them today, most urgent first
    /// (`AttentionItem`); empty elsewhere.
    package var attention: [AttentionItem] = []
    /// List: the groups of this page (grouped by bucket or by assignment).
    public var groups: [CourseGroup]
    /// List grouped by student: the students of this page.
    package var students: [StudentGroup] = []
    /// List: whether it lists work handed in or excused (SPEC §11) on any page: its HTML
    /// page's chips then offer those places (`PageScript.script`).
    package var listsStates = false
    public var page: PageInfo
    /// Live tasks before search and filters (completed included).
    public var totalTasks: Int
    /// Tasks left after search and filters.
    public var matchingTasks: Int
    /// Tasks the search and filters hide (completed tasks hidden by default are not counted),
    /// over every course read (`--course` reads only its courses; `--teacher` reads them all).
    public var hiddenTasks: Int
    /// The reader's scope (docs/reports.md, "The reader's scope"): the courses the report is
    /// about, those of the database the reader may read (a teacher's folder: that teacher's
    /// courses; a PostgreSQL teacher role: its teacher's) that `--course` and `--teacher` keep.
    public var scopeCourses = 0
    /// The scope's tasks the report shows with no search and no filter of tasks (completed ones
    /// in a grid, or in a list when asked): the N of "Showing k of N tasks".
    public var scopeTasks = 0
    /// Completed tasks per course id that match the search and filters (lists leave them out
    /// unless asked); only courses with at least one (a missing course has none).
    public var completedByCourse: [String: Int] = [:]
    /// Completed tasks that match the search and filters over every course (the sum of
    /// `completedByCourse` over every course, which a report flat in courses never holds).
    public var completedMatchingTasks = 0
    /// When nothing matches: the `--course`, `--teacher` and `--student` values that match
    /// nothing in the database at all, with the nearest that do (`ReportSuggestions`).
    package var unmatched: [UnmatchedValue] = []
    /// Live tasks read for the report that hold a stored value a hand edit made invalid (each
    /// is shown as invalid; `dashboard verify` lists them).
    package var invalidTasks = 0
    /// With state `noCourses`: the role that sees no course.
    package var roleWithoutCourses = ""
    /// What changed since the previous import (`Overnight`), when the data has a window.
    package var overnight: Overnight?
}
