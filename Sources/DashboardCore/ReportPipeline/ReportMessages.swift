/// The words of every report state, shared by every format so they never drift apart.
package enum ReportMessages {
    package static let noData = "No data imported yet."
    package static func noDataNext(_ wording: ReportWording) -> String {
        if wording.forReaders { return "Your administrator imports the course and task files; this page fills in after the next import." }
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

    /// "No task matches --search "essay" --bucket overdue."; inside a scope that holds a course,
    /// the scope first: "No task in 1 course (--teacher okafor) matches --search zzz."
    package static func noMatch(_ report: Report) -> String {
        let query = report.query
        guard query.scoped, query.narrowsTasks, report.scopeCourses > 0 else { return "No task matches \(query.describedNarrowing)." }
        return "No task in \(courses(report.scopeCourses)) (\(query.describedScope)) matches \(query.describedFilters)."
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

    /// "Showing 3 of 98 tasks: --bucket overdue" over a report that a search or a filter
    /// narrows, in the reader's scope: with `--course` or `--teacher`, the tasks of their
    /// courses ("Showing 2 of 11 tasks in 1 course (--teacher okafor), filtered by --bucket
    /// overdue"; "Showing 11 tasks in 1 course (--teacher okafor)" when nothing else narrows
    /// it), never the database's. nil when nothing narrows the report. The words go through
    /// `prose`, the search and filters through `value` (HTML escapes the one and codes the other).
    package static func showing(_ report: Report, prose: (String) -> String = { $0 }, value: (String) -> String = { $0 })
        -> String?
    {
        let query = report.query
        guard query.narrows else { return nil }
        let shown = report.matchingTasks
        guard query.scoped, report.scopeCourses > 0 else {
            return prose("Showing \(shown) of \(tasks(report.scopeTasks)): ") + value(query.describedNarrowing)
        }
        let scope = prose("in \(courses(report.scopeCourses)) (") + value(query.describedScope) + prose(")")
        guard query.narrowsTasks else { return prose("Showing \(tasks(shown)) ") + scope }
        return prose("Showing \(shown) of \(tasks(report.scopeTasks)) ") + scope + prose(", filtered by ") + value(query.describedFilters)
    }

    static func tasks(_ count: Int) -> String { "\(count) task\(count == 1 ? "" : "s")" }
    static func courses(_ count: Int) -> String { "\(count) course\(count == 1 ? "" : "s")" }

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
            (.priority, !query.priorities.isEmpty), (.dueWithin, !query.due.within.isEmpty), (.dueBefore, !query.due.before.isEmpty),
            (.dueAfter, !query.due.after.isEmpty),
        ]
        let flags = given.filter(\.1).map { query.wording.words(.filter($0.0)) }
        if flags.count <= 1 { return flags.first ?? "filters" }
        return flags.dropLast().joined(separator: ", ") + " and " + (flags.last ?? "")
    }

    /// A course that has no task at all. The course id goes through `value` and the words
    /// through `prose` (HTML escapes the words and isolates the id).
    package static func courseWithoutTasks(
        _ course: CourseRecord, forReaders: Bool = false, prose: (String) -> String = { $0 }, value: (String) -> String = { $0 }
    ) -> String {
        if forReaders { return prose("No tasks yet for this course.") }
        return prose("No tasks yet for this course. If you expected some, check that tasks.csv uses course_id ") + value(course.courseID)
            + prose(".")
    }

    /// A course whose tasks are all completed (completed tasks are not listed by default).
    package static func allCompleted(_ group: CourseGroup, wording: ReportWording) -> String {
        let all = "All \(group.liveTasks) task\(group.liveTasks == 1 ? " is" : "s are") completed."
        if wording.forReaders { return all }
        return
            "All \(group.liveTasks) task\(group.liveTasks == 1 ? " is" : "s are") completed. Add \(wording.words(.includeCompleted)) to list them."
    }

    /// Lists leave completed tasks out unless asked: say how many, so the grid's "9 of 20
    /// completed" and a list of 11 tasks never look like a contradiction. nil when none is left out.
    package static func completedNotShown(_ group: CourseGroup, report: Report) -> String? {
        guard report.kind == .list, !report.query.includeCompleted, !report.query.buckets.contains(.completed) else { return nil }
        let hidden = report.completedByCourse[group.course.courseID] ?? 0
        guard hidden > 0, !group.sections.isEmpty else { return nil }
        if report.query.wording.forReaders { return "\(hidden) completed task\(hidden == 1 ? " is" : "s are") not listed." }
        return
            "\(hidden) completed task\(hidden == 1 ? " is" : "s are") not listed (\(report.query.wording.words(.includeCompleted)) lists them)."
    }

    /// `Page 1 of 3 (tasks 1–25 of 60). Next: --page 2` on the command line; empty for a single page.
    package static func page(_ report: Report) -> String {
        let info = report.page
        let words = report.query.wording.words
        guard info.limit != nil else { return "" }
        let noun = report.kind == .grid ? "courses" : report.query.groupBy == .assignment ? "assignments" : "tasks"
        if info.firstItem == 0 {
            return
                "Page \(info.page) of \(info.pageCount) is empty (\(info.totalItems) \(noun) in all). Use \(words(.page(1))) to \(words(.page(info.pageCount)))."
        }
        var text = "Page \(info.page) of \(info.pageCount) (\(noun) \(info.firstItem)–\(info.lastItem) of \(info.totalItems))."
        if info.page < info.pageCount { text += " Next: \(words(.page(info.page + 1)))." }
        return text
    }
}
