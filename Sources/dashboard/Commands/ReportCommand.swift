import DashboardCore
import Foundation

/// `dashboard report grid|list`
enum ReportCommand: Command {
    static let spec = CommandSpec(
        name: "report",
        usage: "dashboard report grid|list [--search TEXT] [filters] [--sort KEY] [--limit N --page K] [--format F] [--out DIR]",
        abstract: "Write the per-course grid (one card per course) or task lists, in text, Markdown, HTML, JSON or CSV.",
        discussion: """
            The pipeline, in this order: search (every word must match the task title, course
            code or course title; case and accents ignored) → filter (--course, --teacher,
            --student, --bucket, --priority, --status, --late, --include-completed; each may repeat) → sort →
            group by course (by code) then bucket (overdue, today, upcoming, undated, completed)
            → paginate (--limit N --page K: tasks for a list, courses for a grid) → render.
            Buckets are computed as of --as-of in each course's time zone; manual overrides win.
            --format: text (the default, on a terminal or not; coloured on a terminal unless
            NO_COLOR or --no-color), markdown (or md), html, json, csv. The grid's cards come
            in order of need (--sort-courses attention: most overdue, then most due today, then
            code), or by code or title.
            --out DIR writes DIR/index.<ext> (the grid) and one list file per course (linked from
            the HTML index), whichever of grid or list is asked, with safe file names; files and
            the missing DIR and parents it creates get the umask's mode, never any bit for others
            (umask 022: files 0640, folders 0750; umask 077: 0600, 0700); a DIR that is a
            symbolic link or another user's folder, or is reached through a link that neither
            root nor this user owns, is refused (74), and so is one where a report file would
            replace the database, or where a name the set writes is a folder, a FIFO or a device
            (64): both before anything is written. Without --out, the report goes to stdout.
            """,
        examples: [
            "dashboard report grid",
            "dashboard report list --course MATH101 --bucket overdue --bucket today",
            "dashboard report list --search \"essay draft\" --sort priority --limit 20 --page 2",
            "dashboard report list --status submitted --late",
            "dashboard report grid --format html --out reports/2026-11-29",
            "dashboard --as-of 2026-11-30 report list --format csv > tasks.csv",
        ],
        verbs: [
            .init(name: "grid", arguments: nil, abstract: "One card per course: its counts per bucket and a bar.", options: options),
            .init(
                name: "list", arguments: nil, abstract: "Each course's tasks in sections by bucket; search, filters, sort, pages.",
                options: options),
        ])

    /// The options of both verbs: `--out` writes the grid and every course's list whichever is
    /// asked, so the list's options (sort, completed tasks) shape a grid's files too.
    static let options: [OptionSpec] =
        [
            .value(
                "format", "FORMAT", "text (the default), markdown (or md), html, json or csv",
                kind: .choice(ReportFormat.names)),
            .value("out", "DIR", "write index.<ext> and one file per course into DIR instead of stdout"),
            .flag(
                "by-teacher",
                "with --out: also DIR/teachers/<teacher>/, each teacher's grid and course pages, DIR/teachers/unassigned/ for the courses without a teacher, and an index of teachers"
            ),
        ] + selectionOptions + [
            .value(
                "sort", "KEY", "due (default), priority, title or student",
                kind: .choice(ReportSort.allCases.map(\.rawValue), wording: .list)),
            .value(
                "group-by", "WHAT",
                "list: bucket (default: each course's tasks in sections by bucket), assignment (one row per assignment of a course) or student (each student's tasks across courses)",
                kind: .choice(ReportGrouping.allCases.map(\.rawValue), wording: .list)),
            .value(
                "sort-courses", "KEY", "the grid's card order: attention (default: most overdue, then due today, then code), code or title",
                kind: .choice(CourseSort.allCases.map(\.rawValue), wording: .list)),
            .value("limit", "N", "N tasks (list) or courses (grid) per page", kind: .integer(1...100_000)),
            .value("page", "K", "the page to show (default 1)", kind: .integer(1...1_000_000_000)),
            .value("width", "COLUMNS", "text width (default: the terminal's, else 100)", kind: widthKind),
            .value(
                "language", "TAG",
                "the reports' language for this run (text, Markdown, HTML), a BCP 47 tag of en, de, fr, es or ja (default: each course's own, else settings language, else English)"
            ),
        ]

    /// The search and filters that select tasks: the report's, and bulk `reclassify`'s (the same
    /// options select the same tasks; `selection(_:)` reads them).
    static let selectionOptions: [OptionSpec] = [
        .value("search", "TEXT", "only tasks matching every word (title, course code or title)"),
        .value("course", "ID", "only this course (id or code; repeatable)", repeatable: true),
        .value("teacher", "NAME", "only courses whose teacher's name has these words (any case or accent; repeatable)", repeatable: true),
        .value("student", "ID", "only tasks of this student (repeatable)", repeatable: true),
        .value(
            "bucket", "BUCKET", "only overdue, today, upcoming, undated, completed, to_grade or excused (repeatable)",
            repeatable: true, kind: .choice(Bucket.allCases.map(\.rawValue))),
        .value(
            "priority", "P", "only low, normal or high (repeatable)", repeatable: true,
            kind: .choice(Priority.allCases.map(\.rawValue), wording: .list, ignoringCase: true)),
        .value(
            "status", "STATE", "only tasks in this submission state: open, submitted, completed or excused (repeatable)",
            repeatable: true, kind: .choice(SubmissionState.allCases.map(\.rawValue), wording: .list, ignoringCase: true)),
        .flag("late", "only work handed in after its due (submitted or completed)"),
        .flag("include-completed", "list completed tasks too (the grid always counts them)"),
        .value(
            "due-within", "DAYS", "only tasks not yet due that are due by the as-of date plus DAYS (7d, 2w; repeatable)",
            repeatable: true, kind: OptionValueKind.dueWithin),
        .value("due-before", "DATE", "only tasks due on a day before DATE (course's zone; repeatable)", repeatable: true, kind: .date),
        .value("due-after", "DATE", "only tasks due on a day after DATE (course's zone; repeatable)", repeatable: true, kind: .date),
    ]

    /// Text widths: narrower cards cannot show a course code and its counts, wider lines
    /// only cost memory.
    static let widthRange = 20...1_000
    static let widthKind = OptionValueKind.integer(widthRange)

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let args = invocation.arguments
        // `dashboard report` alone is the grid (SPEC §7).
        let kindName = args.positionals.first ?? Report.Kind.grid.rawValue
        guard let kind = Report.Kind(rawValue: kindName), args.positionals.count <= 1 else {
            throw CommandError.usage("say which report: `dashboard report grid` or `dashboard report list`", command: spec.name)
        }
        let console = invocation.console
        // Text by default, on a terminal or not (a pipe to `less` reads text too); JSON only
        // when asked for.
        let format = ReportFormat.named(format(invocation)) ?? .text
        var query = try query(args)
        // The reader's --timezone shows the report's times; it never moves a bucket.
        query.displayTimeZone = invocation.global.timeZone
        var forcedLanguage: LanguageTag?
        if let given = args.value("language") {
            switch ReportLanguage.tag(given) {
            case .success(let tag): forcedLanguage = tag
            case .failure(let refusal):
                throw CommandError(.usage, "--language \"\(VisibleText.of(given))\" \(refusal.reason)", hint: LanguageRefusal.hint)
            }
        }
        let out = args.value("out")
        if out != nil, args.value("limit") != nil || args.value("page") != nil {
            throw CommandError.usage(
                "--out writes every task of every course: it cannot be combined with --limit or --page", command: spec.name)
        }
        if query.groupBy != .bucket {
            if kind == .grid {
                throw CommandError.usage(
                    "--group-by shapes a list: `dashboard report list --group-by \(query.groupBy.rawValue)`", command: spec.name)
            }
            if out != nil {
                throw CommandError.usage(
                    "--out writes one page per course, grouped by bucket: --group-by \(query.groupBy.rawValue) goes to standard output",
                    command: spec.name)
            }
        }
        if out == nil, args.has("by-teacher") {
            throw CommandError.usage("--by-teacher writes folders: give --out DIR too", command: spec.name)
        }
        let width = args.integer("width") ?? Terminal.columns(within: widthRange) ?? 100

        let global = invocation.global
        let outputs = OutputPathGuard(database: global.databasePath, inputs: [])
        if let out {
            // Every name the set writes, before anything is read: nothing partial is ever left.
            let layout = ReportSetLayout(formats: [format], byTeacher: args.has("by-teacher"))
            try outputs.checkReportFolder(
                "--out", out, writing: out, extensions: layout.allExtensions,
                names: layout.byTeacher ? [CalendarFolder.setFeed] : [])
            try outputs.checkReportNames("--out", out, writing: out, layout: layout) {
                Self.cannotWrite(out, ReportWriteError($0))
            }
        }
        // Streamed (docs/reports.md, "Memory"): a grid keeps one tally per course, a list page
        // is paged in SQL, a whole list and --out are read one course at a time.
        // The report reaches the store through its read protocols only (docs/architecture.md).
        let store: (any ReportReading & BatchReading & SettingsReading & TeacherReading & RoleReading)? = try openExistingStore(invocation)
        // Buckets in the database's default zone, never the reader's (SPEC §6): every reader
        // gets the same buckets; --timezone only changes how times are shown.
        let zone = try store.map { try defaultZone($0, invocation) } ?? global.timeZone
        // The pages' words: --language for all, else each course's language, else the database's.
        query.speak(forced: forcedLanguage, databaseDefault: try store?.defaultLanguage())
        var facts = try store.map { try ReportSource.facts($0) } ?? ReportFacts(hasData: false, dataAsOf: nil, lastFailure: nil)
        // What changed since the previous import (the grid's cards, the list's courses, JSON).
        if let store, facts.hasData { facts.overnight = try Overnight.read(store, asOf: global.asOf) }
        // A teacher's role whose grants match no course: its own state, never an empty all-clear.
        if let role = try store?.restrictedRole(), role.liveCourses == 0 { facts.roleWithoutCourses = role.name }
        // Tasks with a stored value a hand edit made invalid: each shows it; the count is warned.
        var invalid = 0
        if let out {
            do {
                var written: WrittenReports
                var unassigned = 0
                if let store {
                    let files = LocalReportFileSystem(protecting: outputs.protectedFiles, modes: invocation.fileModes)
                    // A per-teacher set writes calendar feeds, carrying on from the ones it replaces.
                    let calendar =
                        args.has("by-teacher")
                        ? CalendarSettings(
                            baseURL: try store.setting(.baseURL), linksPages: format == .html, previous: FolderPreviousFeeds(root: out))
                        : nil
                    written = try ReportSetStream.write(
                        store, facts: facts, query: query, asOf: global.asOf, defaultTimeZone: zone, formats: [format],
                        width: width, to: out, fileSystem: files, calendar: calendar?.folder("", name: nil))
                    if let calendar {
                        // Teachers' pages: in their words (no command, flag or batch), as nightly's.
                        let teachers = try ReportTeacherSets.write(
                            store, facts: facts, query: query, asOf: global.asOf, defaultTimeZone: zone, formats: [format],
                            width: width, to: out, fileSystem: files, readerWording: .readers, calendar: calendar)
                        written.count += teachers.files
                        written.calendars += teachers.calendars
                        unassigned = teachers.unassignedCourses
                    }
                } else {
                    let (grid, list) = (Self.empty(.grid, facts, query, global), Self.empty(.list, facts, query, global))
                    let names = try ReportSet.write(
                        grid: grid, list: list, format: format, width: width, to: out,
                        fileSystem: LocalReportFileSystem(protecting: outputs.protectedFiles, modes: invocation.fileModes))
                    written = WrittenReports(count: names.count, indexes: Array(names.prefix(1)))
                }
                let index = written.indexes.first ?? ReportFileNames.index(format.fileExtension)
                var note = "wrote \(written.count) \(format.rawValue) file\(written.count == 1 ? "" : "s")"
                if written.calendars > 0 {
                    note += " and \(written.calendars) calendar feed\(written.calendars == 1 ? "" : "s")"
                }
                note += " to \(out) (open \(out)/\(index))"
                if unassigned > 0 { note += "; " + NightlyCommand.unassignedWords(unassigned, in: PathText.join(out, TeacherIndex.folder)) }
                console.note(note)
            } catch let error as ReportWriteError {
                throw Self.cannotWrite(out, error)
            }
        } else if let store {
            invalid = try ReportOutput.write(
                kind, reader: store, facts: facts, query: query, format: format, width: width, asOf: global.asOf,
                defaultTimeZone: zone, console: console
            ).invalidTasks
        } else {
            console.out(
                format.render(Self.empty(kind, facts, query, global), width: width, style: console.stdoutColour ? .terminal : .plain))
        }
        if !facts.hasData {
            console.note("no data imported yet; next step: dashboard import imports/")
        } else if let role = facts.roleWithoutCourses {
            warnNoCourses(role, invocation)
        }
        if let stale = facts.staleNotice(asOf: global.asOf) { console.warning(stale.message) }
        if invalid > 0 {
            console.warning(
                "\(invalid) task\(invalid == 1 ? " holds" : "s hold") a stored value a hand edit made invalid (shown as invalid); `dashboard verify` lists them"
            )
        }
        return .success
    }

    /// A teacher's role (PostgreSQL) that sees no course: said on stderr, with who fixes it.
    static func warnNoCourses(_ role: String, _ invocation: Invocation) {
        invocation.console.warning(
            "role \(VisibleText.of(role)) sees no course in \(invocation.global.databaseDisplay): no grant of it names a course's teacher; the administrator grants it: `dashboard access grant-teacher \(VisibleText.of(role)) --teacher \"YOUR NAME\"`"
        )
    }

    /// `cannot write reports to OUT: …` (74): a folder's own problems name the component at
    /// fault, a file's name the file.
    static func cannotWrite(_ out: String, _ error: ReportWriteError) -> CommandError {
        let detail = error.path == out || error.reason.hasPrefix(error.path) ? error.reason : "\(error.path): \(error.reason)"
        return CommandError(.ioError, "cannot write reports to \(out): \(detail)", hint: error.hint)
    }

    /// The report of a database that does not exist yet: no data.
    static func empty(_ kind: Report.Kind, _ facts: ReportFacts, _ query: ReportQuery, _ global: GlobalOptions) -> Report {
        ReportBuilder.build(kind, courses: [], facts: facts, query: query, asOf: global.asOf, defaultTimeZone: global.timeZone)
    }

    static func query(_ args: ParsedArguments) throws -> ReportQuery {
        var query = try selection(args)
        if let sort = args.choice("sort", as: ReportSort.self) { query.sort = sort }
        if let order = args.choice("sort-courses", as: CourseSort.self) { query.courseSort = order }
        if let grouping = args.choice("group-by", as: ReportGrouping.self) {
            query.groupBy = grouping
            // A roll-up by assignment counts completed tasks too ("6 of 20 overdue, 14 completed").
            if grouping == .assignment { query.includeCompleted = true }
        }
        query.limit = args.integer("limit")
        if let page = args.integer("page") {
            guard query.limit != nil else { throw CommandError.usage("--page needs --limit N (how many per page)", command: spec.name) }
            query.page = page
        }
        return query
    }

    /// The search and filters of `selectionOptions`, as a query in the command line's words.
    static func selection(_ args: ParsedArguments) throws -> ReportQuery {
        var query = ReportQuery()
        query.wording = .commandLine
        query.search = args.value("search") ?? ""
        query.courses = args.all("course")
        query.teachers = args.all("teacher")
        query.students = args.all("student")
        // Buckets and priorities are choices the parser has checked.
        query.buckets = args.choices("bucket", as: Bucket.self)
        query.priorities = args.choices("priority", as: Priority.self)
        query.statuses = args.choices("status", as: SubmissionState.self)
        query.late = args.has("late")
        query.includeCompleted = args.has("include-completed")
        // Checked by the parser (`OptionValueKind.days`, `.date`): none is dropped here.
        query.due.within = args.all("due-within").compactMap(OptionValueKind.dayCount)
        query.due.before = args.all("due-before").compactMap(OptionValueKind.calendarDate)
        query.due.after = args.all("due-after").compactMap(OptionValueKind.calendarDate)
        if query.due.isContradictory, let before = query.due.before.max(), let after = query.due.after.min() {
            throw CommandError.usage(
                "no day is after \(after.isoText) and before \(before.isoText): --due-after must be at least two days before --due-before",
                command: spec.name)
        }
        return query
    }
}

/// The terminal's width, when stdout is one.
enum Terminal {
    /// `$COLUMNS` (digits only), else the terminal's width, clamped into `range`; nil when
    /// neither gives a width. A `COLUMNS` that is not a whole number is ignored.
    static func columns(within range: ClosedRange<Int>) -> Int? {
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let value = OptionValueKind.wholeNumber(text), value > 0 {
            return min(max(value, range.lowerBound), range.upperBound)
        }
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return min(max(Int(size.ws_col), range.lowerBound), range.upperBound)
    }
}
