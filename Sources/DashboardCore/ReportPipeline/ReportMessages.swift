/// The words of every report state, shared by every format so they never drift apart, in the
/// report's lexicon (`ReportQuery.lexicon`: English for machines). The next steps that name a
/// command or a flag (`noDataNext`, `noCourses…`, `noMatchNext` for whoever runs the program)
/// stay English, as the command line does (docs/reports.md, "The teacher's language").
package enum ReportMessages {
    package static func noData(_ lexicon: Lexicon = .english) -> String { lexicon(.noDataImported) }
    package static func noDataNext(_ wording: ReportWording, _ lexicon: Lexicon = .english) -> String {
        if wording.forReaders { return lexicon(.noDataNextReader) }
        return "Next step: import the course and task files with \(wording.words(.importFiles)), then run this report again."
    }

    package static func noCourses(_ report: Report) -> String {
        "This role (\(report.roleWithoutCourses)) sees no course: no course's teacher is granted to it."
    }
    package static func noCoursesNext(_ report: Report) -> String {
        let words = report.query.wording.words(.grantCourses(role: report.roleWithoutCourses))
        if report.query.wording.forReaders { return "Ask your administrator for \(words); this page fills in then." }
        return "Next step: ask the administrator for \(words), then run this report again."
    }

    /// "No task matches" and the search and filters in the wording's words (the command line's
    /// flags), then a full stop; inside a scope that holds a course, the scope first: "No task
    /// in 1 course (" and the teacher filter ") matches" and the search.
    package static func noMatch(_ report: Report) -> String {
        let query = report.query
        let lexicon = query.lexicon
        guard query.scoped, query.narrowsTasks, report.scopeCourses > 0 else {
            return lexicon(.noTaskMatches, query.describedNarrowing)
        }
        return lexicon(
            .noTaskInMatches, lexicon.count(.coursesCount, report.scopeCourses), query.describedScope, query.describedFilters)
    }

    /// What to do when nothing matches: first each filter value that matches nothing at all,
    /// with the nearest existing values (`Report.unmatched`); then what the filters hide and how
    /// to see it.
    package static func noMatchNext(_ report: Report) -> String {
        let words = report.query.wording.words
        var sentences = report.unmatched.map(unmatchedWords)
        if report.unmatched.contains(where: { $0.filter == .course }) { sentences.append("\(words(.listCourses)) lists the courses.") }
        // No course to read at all: what the filters hide says nothing more.
        if report.totalTasks == 0, !report.query.courses.isEmpty, !sentences.isEmpty { return sentences.joined(separator: " ") }
        var text = hiddenWords(report)
        if !sentences.isEmpty { text = sentences.joined(separator: " ") + " " + text }
        let completed = report.completedMatchingTasks
        if report.kind == .list, !report.query.includeCompleted, !report.query.buckets.contains(.completed), completed > 0 {
            text +=
                " \(completed) completed task\(completed == 1 ? " matches" : "s match"): add \(words(.includeCompleted)) to list \(completed == 1 ? "it" : "them")."
        }
        return text
    }

    /// What hides the tasks of a report nothing matches, and how to see them. Inside a scope
    /// (`--course`, `--teacher` keep some course): the scope's own tasks, and only the search
    /// and filters of tasks to drop, never the scope ("These filters hide all 11 tasks in 1
    /// course (--teacher okafor). To see them, run the report without --search."). Without one,
    /// or when the scope holds no course: what every filter hides, and every flag.
    static func hiddenWords(_ report: Report) -> String {
        let query = report.query
        guard query.scoped, report.scopeCourses > 0 else {
            let hidden = report.hiddenTasks
            return hidden == 0
                ? "There is no open task to search."
                : "These filters hide \(hidden) task\(hidden == 1 ? "" : "s"). To see them, run the report without \(flagNames(query))."
        }
        let scope = "in \(courses(report.scopeCourses)) (\(query.describedScope))"
        let tasks = report.scopeTasks
        guard tasks > 0, query.narrowsTasks else {
            let open = report.kind == .list && !query.includeCompleted && !query.buckets.contains(.completed)
            return "There is no \(open ? "open " : "")task \(scope)."
        }
        var inside = query
        inside.courses = []
        inside.teachers = []
        let all = tasks == 1 ? "the 1 task" : "all \(tasks) tasks"
        return "These filters hide \(all) \(scope). To see \(tasks == 1 ? "it" : "them"), run the report without \(flagNames(inside))."
    }

    /// "Showing 3 of 98 tasks: " and the bucket filter, over a report that a search or a filter
    /// narrows, in the reader's scope: with a course or teacher filter, the tasks of their
    /// courses ("Showing 2 of 11 tasks in 1 course (" and the teacher filter "), filtered by"
    /// and the bucket filter; "Showing 11 tasks in 1 course (" and the teacher filter ")" when
    /// nothing else narrows it), never the database's. nil when nothing narrows the report. The words go through
    /// `prose`, the search and filters through `value` (HTML escapes the one and codes the other).
    package static func showing(_ report: Report, prose: (String) -> String = { $0 }, value: (String) -> String = { $0 })
        -> String?
    {
        let query = report.query
        guard query.narrows else { return nil }
        let lexicon = query.lexicon
        let shown = prose(String(report.matchingTasks))
        let all = prose(lexicon.count(.tasksCount, report.scopeTasks))
        guard query.scoped, report.scopeCourses > 0 else {
            return lexicon.markup(.showingOf, shown, all, value(query.describedNarrowing), escape: prose)
        }
        let courses = prose(lexicon.count(.coursesCount, report.scopeCourses))
        guard query.narrowsTasks else {
            return lexicon.markup(
                .showingScope, prose(lexicon.count(.tasksCount, report.matchingTasks)), courses, value(query.describedScope),
                escape: prose)
        }
        return lexicon.markup(
            .showingScopeFiltered, shown, all, courses, value(query.describedScope), value(query.describedFilters), escape: prose)
    }

    static func courses(_ count: Int) -> String { "\(count) course\(count == 1 ? "" : "s")" }

    /// "3 completed tasks are not listed." for readers; for the command line with the flag that
    /// lists them.
    static func completedNotListed(_ hidden: Int, _ query: ReportQuery) -> String {
        guard !query.wording.forReaders else { return query.lexicon.count(.completedNotListed, hidden) }
        return query.lexicon.count(.completedNotListedAdmin, hidden, query.wording.words(.includeCompleted))
    }

    /// `No course has the id or code "MAT201" (the nearest: "MAT 210").`
    static func unmatchedWords(_ value: UnmatchedValue) -> String {
        let quoted = "\"\(value.value)\""
        let what: String
        switch value.filter {
        case .course: what = "No course has the id or code \(quoted)"
        case .teacher: what = "No course's teacher is named \(quoted)"
        default: what = "No task has the student id \(quoted)"
        }
        guard !value.nearest.isEmpty else { return what + "." }
        let nearest = value.nearest.map { "\"\($0)\"" }
        let listed = nearest.count == 1 ? nearest[0] : nearest.dropLast().joined(separator: ", ") + " or " + (nearest.last ?? "")
        return what + " (the nearest: \(listed))."
    }

    /// `--search and --bucket` on the command line: the searches and filters to drop.
    static func flagNames(_ query: ReportQuery) -> String {
        let given: [(ReportFilter, Bool)] = [
            (.search, !query.search.trimmingUnicodeWhitespace().isEmpty), (.course, !query.courses.isEmpty),
            (.teacher, !query.teachers.isEmpty), (.student, !query.students.isEmpty), (.bucket, !query.buckets.isEmpty),
            (.priority, !query.priorities.isEmpty), (.status, !query.statuses.isEmpty), (.late, query.late),
            (.dueWithin, !query.due.within.isEmpty), (.dueBefore, !query.due.before.isEmpty),
            (.dueAfter, !query.due.after.isEmpty),
        ]
        let flags = given.filter(\.1).map { query.wording.words(.filter($0.0)) }
        if flags.count <= 1 { return flags.first ?? "filters" }
        return flags.dropLast().joined(separator: ", ") + " and " + (flags.last ?? "")
    }

    /// A course that has no task at all. The course id goes through `value` and the words
    /// through `prose` (HTML escapes the words and isolates the id).
    package static func courseWithoutTasks(
        _ course: CourseRecord, forReaders: Bool = false, prose: (String) -> String = { $0 }, value: (String) -> String = { $0 },
        lexicon: Lexicon = .english
    ) -> String {
        if forReaders { return prose(lexicon(.noTasksForCourse)) }
        return lexicon.markup(.noTasksForCourseAdmin, value(course.courseID), escape: prose)
    }

    /// A course whose tasks are all completed (completed tasks are not listed by default).
    package static func allCompleted(_ group: CourseGroup, wording: ReportWording, lexicon: Lexicon = .english) -> String {
        if wording.forReaders { return lexicon.count(.allCompleted, group.liveTasks) }
        return lexicon.count(.allCompletedAdmin, group.liveTasks, wording.words(.includeCompleted))
    }

    /// Lists leave completed tasks out unless asked: say how many, so the grid's "9 of 20
    /// completed" and a list of 11 tasks never look like a contradiction. nil when none is left out.
    package static func completedNotShown(_ group: CourseGroup, report: Report) -> String? {
        guard report.kind == .list, !report.query.includeCompleted, !report.query.buckets.contains(.completed) else { return nil }
        let hidden = report.completedByCourse[group.course.courseID] ?? 0
        guard hidden > 0, !group.sections.isEmpty else { return nil }
        return completedNotListed(hidden, report.query)
    }

    /// `Page 1 of 3 (tasks 1–25 of 60). Next: --page 2` on the command line; empty for a single page.
    package static func page(_ report: Report) -> String {
        let info = report.page
        let words = report.query.wording.words
        let lexicon = report.query.lexicon
        guard info.limit != nil else { return "" }
        let (count, range): (Phrase, Phrase) =
            report.kind == .grid
            ? (.coursesCount, .coursesRange)
            : report.query.groupBy == .assignment ? (.assignmentsCount, .assignmentsRange) : (.tasksCount, .tasksRange)
        let (page, pages) = (String(info.page), String(info.pageCount))
        if info.firstItem == 0 {
            return lexicon(
                .pageEmpty, page, pages, lexicon.count(count, info.totalItems), words(.page(1)), words(.page(info.pageCount)))
        }
        var text = lexicon(
            .pageLine, page, pages, lexicon(range, String(info.firstItem), String(info.lastItem), String(info.totalItems)))
        if info.page < info.pageCount { text += " " + lexicon(.pageNext, words(.page(info.page + 1))) }
        return text
    }
}
