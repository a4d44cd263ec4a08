import Foundation

/// A big course's HTML pages in a report set (issue 29): one assignment's students one
/// disclosure away, pages of a bounded size.
///
/// Policy (docs/reports.md, "A big course's page"):
/// - a course page of a report set lists more than `bigCourseRows` tasks, and at most half as
///   many assignments (the roll-up's keys: `assignment_id`, else the title) as tasks: it opens
///   on the course's roll-up by assignment (the command line's `--group-by assignment` over the
///   tasks the page lists), each row linking to its assignment's section;
/// - each assignment's section says its status in the roll-up's words and holds its tasks (in
///   bucket order, then the report's sort) in a closed `<details>`, as the list's rows (anchors
///   and filters alike);
/// - the tasks are cut into pages of at most `pageRows` rows, in roll-up order: the first page
///   is `course-….html` and holds the roll-up, the others `course-…-p2.html` and on; an
///   assignment cut by a page's end goes on over the next ("tasks 501–1,000 of 1,505");
/// - the first assignment with an overdue task has the anchor `overdue` (and the first with a
///   task due today, `today`), so a card's link lands there as on a list.
extension HTMLRenderer {
    /// The fewest tasks a course page lists before it opens on its assignments.
    package static let bigCourseRows = 200
    /// The most task rows on one page of a big course.
    package static let pageRows = 500

    /// Whether `group` (with its roll-up beside, `ReportQuery.rollUpBeside`) gets pages of its own.
    package static func isBigCourse(_ group: CourseGroup) -> Bool {
        group.taskCount > bigCourseRows && !group.assignments.isEmpty && group.assignments.count * 2 <= group.taskCount
    }

    /// Where an assignment row's section is, as the page file and its anchor, and its tasks.
    struct AssignmentPart {
        var row: AssignmentRow
        var anchor: String
        var tasks: [ReportTask]
        /// The place (1-based) of the first task among the assignment's.
        var first: Int
        var total: Int
    }

    /// The pages of a big course: `report` holds its one group; `fileName(n)` names page n.
    /// - Returns: each page's HTML, and each assignment's place (`file#anchor`, the first page
    ///   that holds it), by the roll-up's key.
    package static func coursePages(_ report: Report, indexLink: String?, fileName: (Int) -> String) -> (
        pages: [String], places: [String: String]
    ) {
        guard let group = report.groups.first else { return ([], [:]) }
        // The assignments' tasks in bucket order, then the sort's.
        var tasksOf: [String: [ReportTask]] = [:]
        for section in group.sections {
            for task in section.tasks { tasksOf[AssignmentRollUp.key(task.task), default: []].append(task) }
        }
        // Cut into pages of at most `pageRows` rows.
        var pages: [[AssignmentPart]] = [[]]
        var room = pageRows
        var places: [String: String] = [:]
        for row in group.assignments {
            let key = AssignmentRollUp.key(row)
            let anchor = "a-" + HTMLRenderer.anchor(key)
            let tasks = tasksOf[key] ?? []
            var start = 0
            while start < tasks.count {
                if room == 0 {
                    pages.append([])
                    room = pageRows
                }
                let end = min(tasks.count, start + room)
                if start == 0 { places[key] = fileName(pages.count) + "#" + anchor }
                pages[pages.count - 1].append(
                    AssignmentPart(row: row, anchor: anchor, tasks: Array(tasks[start..<end]), first: start + 1, total: tasks.count))
                room -= end - start
                start = end
            }
        }
        let c = group.course
        let zone = zoneOf(c, report)
        let local = LocalAsOf(asOf: report.asOf, timeZone: zone)
        let lexicon = report.query.lexicon
        let title = lexicon(.courseTitle, c.code, c.title)
        let nav = backNav(indexLink, lexicon)
        var overdueAnchored = false
        var todayAnchored = false
        var html: [String] = []
        for (index, parts) in pages.enumerated() {
            let number = index + 1
            let body = stateAware(report) {
                var body = "<section aria-label=\"\(escape(c.code)) \(escape(c.title))\"\(courseData(c, local: local))>\n"
                body += aboutHTML(group, report: report, zone: zone)
                if number == 1 {
                    body += assignmentsHTML(group, level: 2, zone: zone, lexicon: lexicon) { places[AssignmentRollUp.key($0)] ?? "" }
                }
                body += pagesNav(number, of: pages.count, fileName: fileName, label: lexicon(.pagesLabel), lexicon: lexicon)
                let heading = lexicon(number == 1 ? .tasksByAssignment : .tasksByAssignmentContinued)
                body += "<h2 id=\"by-assignment\">\(escape(heading))</h2>\n"
                for part in parts {
                    let overdue = !overdueAnchored && part.tasks.contains { $0.bucket == .overdue }
                    let today = !todayAnchored && part.tasks.contains { $0.bucket == .today }
                    overdueAnchored = overdueAnchored || overdue
                    todayAnchored = todayAnchored || today
                    body += partHTML(
                        part, course: c, local: local, anchors: (overdue ? ["overdue"] : []) + (today ? ["today"] : []), lexicon: lexicon)
                }
                return body + pagesNav(number, of: pages.count, fileName: fileName, label: lexicon(.pagesLabelEnd), lexicon: lexicon)
                    + "</section>\n"
            }
            let pageTitle = pages.count == 1 ? title : lexicon(.coursePageTitle, title, String(number), String(pages.count))
            html.append(
                page(
                    title: pageTitle, heading: title, report: report, nav: nav, body: body,
                    script: report.state == .ok ? .list : nil))
        }
        return (html, places)
    }

    /// "Page 2 of 3" with a link to every other page, when there are several.
    /// `label` names the navigation landmark (each of a page's two has its own).
    static func pagesNav(_ number: Int, of count: Int, fileName: (Int) -> String, label: String, lexicon: Lexicon) -> String {
        guard count > 1 else { return "" }
        var html = "<nav class=\"pager\" aria-label=\"\(escape(label))\"><p>\(escape(lexicon(.pageOf, String(number), String(count))))"
        for other in 1...count {
            html +=
                other == number
                ? " <strong>\(other)</strong>"
                : " <a href=\"\(escape(fileName(other)))\">\(other)</a>"
        }
        return html + "</p></nav>\n"
    }

    /// One assignment's section (or the part of it a page holds).
    static func partHTML(_ part: AssignmentPart, course c: CourseRecord, local: LocalAsOf, anchors: [String], lexicon: Lexicon) -> String {
        let row = part.row
        var html = "<section id=\"\(part.anchor)\" aria-labelledby=\"h-\(part.anchor)\">\n"
        let id = row.assignmentID.isEmpty ? "" : " <span class=\"title\">(<code>\(value(row.assignmentID))</code>)</span>"
        html += "<h3 id=\"h-\(part.anchor)\">\(value(row.title))\(id)</h3>\n"
        var words = RollUpWords.status(row, lexicon)
        if let due = RollUpWords.due(row, zone: local.timeZone, lexicon) { words += lexicon(.statusSeparator) + lexicon(.dueOn, due) }
        // The page's `overdue` and `today` anchors, when this is their assignment: on its
        // status line and its disclosure (an element holds one id).
        let ids = anchors.map { " id=\"\($0)\"" }
        html += "<p class=\"detail\"\(ids.first ?? "")>\(escape(words))</p>\n"
        let whole = part.first == 1 && part.tasks.count == part.total
        let places = lexicon(.tasksRange, String(part.first), String(part.first + part.tasks.count - 1), String(part.total))
        html +=
            "<details\(ids.count > 1 ? ids[1] : "")>\n<summary>\(escape(lexicon(.tasksOfStudents))) <span class=\"count\">(\(part.tasks.count))</span>"
        if !whole { html += " <span class=\"showing\">— \(escape(places))</span>" }
        html += "</summary>\n<div class=\"scroll\"><table class=\"tasks\">\n"
        let count = lexicon.count(.tasksCount, part.tasks.count) + (whole ? "" : ", " + places)
        html += "<caption>\(lexicon.markup(.sectionCaption, value(c.code), value(row.title), escape(count), escape: escape))</caption>\n"
        html += taskTableHead(lexicon)
        for task in part.tasks { html += taskRowHTML(task, local: local, lexicon: lexicon) }
        return html + "</tbody>\n</table></div>\n</details>\n</section>\n"
    }
}
