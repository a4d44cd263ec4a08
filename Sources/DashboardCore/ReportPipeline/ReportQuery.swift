import Foundation

/// How tasks are ordered inside each course and bucket.
public enum ReportSort: String, Sendable, CaseIterable {
    /// Dated tasks by due instant, then priority high→low, then title, then id; undated last.
    case due
    /// Priority high→low, then due, then title, then id.
    case priority
    /// Title in natural order (`Task 2` before `Task 10`), then due, then id.
    case title
    /// Student id in natural order, then due, then title, then id.
    case student
}

/// Everything that shapes a report: the search, the filters, the order and the page.
public struct ReportQuery: Sendable, Equatable {
    /// Every word must match the task title, the course code or the course title
    /// (case- and diacritic-insensitive).
    public var search = ""
    public var courses: [String] = []
    public var teachers: [String] = []
    public var students: [String] = []
    public var buckets: [Bucket] = []
    public var priorities: [Priority] = []
    /// `--status`: the submission states kept (SPEC §11; values are alternatives).
    public var statuses: [SubmissionState] = []
    /// `--late`: only work handed in after its due (SPEC §11's late; submitted or completed).
    public var late = false
    /// Completed tasks are left out unless asked for (or `--bucket completed` is given).
    public var includeCompleted = false
    /// `--due-within`, `--due-before`, `--due-after`, in each course's zone.
    public var due = DueWindow()
    public var sort: ReportSort = .due
    /// The grid's card order (`--sort-courses`); lists keep courses in code order.
    public var courseSort: CourseSort = .attention
    /// How a list groups its rows (`--group-by`): by course and bucket, or a roll-up by
    /// assignment or by student. A grid ignores it.
    package var groupBy: ReportGrouping = .bucket
    /// Items per page (tasks for a list, courses for a grid); nil for all.
    public var limit: Int?
    /// 1-based page.
    public var page = 1
    /// How the report words its hints (`ReportHint`); the shell that asks for the report sets it.
    package var wording = ReportWording.unworded
    /// The zone the report's own times are shown in (the reader's `--timezone`); nil: UTC. It
    /// never changes a bucket: courses without a zone use the database's default zone.
    package var displayTimeZone: TimeZone?
    /// The report's own set of courses, exactly by id (a teacher's folder: `--by-teacher`,
    /// `nightly`); nil: every course. Not a user filter: a course outside it is not read at all
    /// (no card, no page, not in any count), so nothing of another teacher's courses shows.
    package var courseSet: Set<String>?
    /// What the grid of the report's own set is called in its header, when not "Courses"
    /// ("Courses without a teacher": the folder of the courses that name none).
    package var courseSetName: String?
    /// A report set that writes calendar feeds (`--by-teacher`, `nightly`): each course's group
    /// also carries its events (`CourseGroup.events`), made from every live task of the course
    /// whatever the search and filters (a feed is the course's calendar). Not a user filter.
    package var calendarEvents = false
    /// A report set's course pages (HTML): a list by bucket whose course's groups also carry
    /// the course's roll-up by assignment over the tasks they list (`CourseGroup.assignments`),
    /// for a big course's page and a teacher's "what needs you today" (issue 29). Not a user
    /// filter.
    package var rollUpBeside = false
    /// The words of the pages that speak the reader's language (issue 29: HTML pages so far;
    /// `Lexicon`). Machine formats never use it (`Report.forMachines`).
    package var lexicon = Lexicon.english
    /// True when `--language` chose `lexicon` for every page; false: a course's page speaks the
    /// course's language, a set's index the one its courses share, else `defaultLanguage`.
    package var languageForced = false
    /// The database's default language (`settings language`), nil: English.
    package var defaultLanguage: LanguageTag?
    /// The teacher whose own set this is (`ReportTeacherSets`): the grid is "Courses of NAME" in
    /// the page's words.
    package var courseSetTeacher: String?

    /// The lexicon of `course`'s own page: `--language`'s, else the course's language, else the
    /// database's default, else English.
    package func lexicon(of course: CourseRecord) -> Lexicon {
        languageForced ? lexicon : Lexicon(ReportLanguage.resolved(course: course.language, databaseDefault: defaultLanguage))
    }

    /// Sets the report's languages: `forced` (`--language`) for every page, else the
    /// database's default where no course names one.
    package mutating func speak(forced: LanguageTag?, databaseDefault: LanguageTag?) {
        defaultLanguage = databaseDefault
        languageForced = forced != nil
        lexicon = Lexicon(forced ?? databaseDefault ?? .english)
    }

    public init() {}

    /// True when a search or a filter can hide tasks.
    package var narrows: Bool {
        !search.trimmingUnicodeWhitespace().isEmpty || !courses.isEmpty || !teachers.isEmpty || !students.isEmpty
            || !buckets.isEmpty || !priorities.isEmpty || !due.isEmpty
    }

    /// True when a search or a filter can hide some tasks of a course it keeps (not only whole
    /// courses, as `--course` and `--teacher` do).
    package var narrowsTasks: Bool {
        !search.trimmingUnicodeWhitespace().isEmpty || !students.isEmpty || !buckets.isEmpty || !priorities.isEmpty || !due.isEmpty
    }

    /// The search and filters in words, as the user wrote them (on the command line, the search
    /// and bucket flags with their values): the wording's.
    package var describedNarrowing: String { wording.words(.narrowing(self)) }

    /// True when `--course` or `--teacher` choose the report's courses: they set its scope, the
    /// courses whose tasks the report's "of N" counts (docs/reports.md, "The reader's scope").
    package var scoped: Bool { !courses.isEmpty || !teachers.isEmpty }

    /// The course selectors alone (`--course`, `--teacher`): the scope, in the wording's words.
    package var describedScope: String {
        var scope = ReportQuery()
        scope.courses = courses
        scope.teachers = teachers
        scope.wording = wording
        return wording.words(.narrowing(scope))
    }

    /// The search and the filters of tasks alone (everything but `--course` and `--teacher`):
    /// what narrows the report inside its scope, in the wording's words.
    package var describedFilters: String {
        var inside = self
        inside.courses = []
        inside.teachers = []
        return wording.words(.narrowing(inside))
    }
}
