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
            let key = rowKey(row)
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
        let title = "\(c.code) — \(c.title)"
        let nav = indexLink.map { "<nav aria-label=\"Breadcrumb\"><a href=\"\(escape($0))\">All courses</a></nav>\n" }
        var overdueAnchored = false
        var todayAnchored = false
        var html: [String] = []
        for (index, parts) in pages.enumerated() {
            let number = index + 1
            let pageNav = pagesNav(number, of: pages.count, fileName: fileName)
            let body = stateAware(report) {
                var body = "<section aria-label=\"\(escape(c.code)) \(escape(c.title))\"\(courseData(c, local: local))>\n"
                body += aboutHTML(group, report: report, zone: zone)
                if number == 1 {
                    body += assignmentsHTML(group, level: 2, zone: zone) { places[rowKey($0)] ?? "" }
                }
                body += pageNav
                for part in parts {
                    let overdue = !overdueAnchored && part.tasks.contains { $0.bucket == .overdue }
                    let today = !todayAnchored && part.tasks.contains { $0.bucket == .today }
                    overdueAnchored = overdueAnchored || overdue
                    todayAnchored = todayAnchored || today
                    body += partHTML(part, course: c, local: local, anchors: (overdue ? ["overdue"] : []) + (today ? ["today"] : []))
                }
                return body + (pages.count > 1 ? pageNav : "") + "</section>\n"
            }
            let pageTitle = pages.count == 1 ? title : "\(title) (page \(number) of \(pages.count))"
            html.append(
                page(
                    title: pageTitle, heading: title, report: report, nav: nav, body: body,
                    script: report.state == .ok ? .list : nil))
        }
        return (html, places)
    }

    /// The roll-up's key of a row (`AssignmentRollUp.key` of its tasks).
    static func rowKey(_ row: AssignmentRow) -> String {
        row.assignmentID.isEmpty ? "t\u{0}" + row.title : "a\u{0}" + row.assignmentID
    }

    /// "Page 2 of 3" with a link to every other page, when there are several.
    static func pagesNav(_ number: Int, of count: Int, fileName: (Int) -> String) -> String {
        guard count > 1 else { return "" }
        var html = "<nav class=\"pager\" aria-label=\"Pages of this course\"><p>Page \(number) of \(count):"
        for other in 1...count {
            html +=
                other == number
                ? " <strong>\(other)</strong>"
                : " <a href=\"\(escape(fileName(other)))\">\(other)</a>"
        }
        return html + "</p></nav>\n"
    }

    /// One assignment's section (or the part of it a page holds).
    static func partHTML(_ part: AssignmentPart, course c: CourseRecord, local: LocalAsOf, anchors: [String]) -> String {
        let row = part.row
        var html = "<section id=\"\(part.anchor)\" aria-labelledby=\"h-\(part.anchor)\">\n"
        let id = row.assignmentID.isEmpty ? "" : " <span class=\"title\">(<code>\(value(row.assignmentID))</code>)</span>"
        html += "<h3 id=\"h-\(part.anchor)\">\(value(row.title))\(id)</h3>\n"
        var words = RollUpWords.status(row)
        if let due = RollUpWords.due(row, zone: local.timeZone) { words += " · due " + due }
        // The page's `overdue` and `today` anchors, when this is their assignment: on its
        // status line and its disclosure (an element holds one id).
        let ids = anchors.map { " id=\"\($0)\"" }
        html += "<p class=\"detail\"\(ids.first ?? "")>\(escape(words))</p>\n"
        let whole = part.first == 1 && part.tasks.count == part.total
        let places = whole ? "" : ", tasks \(part.first)–\(part.first + part.tasks.count - 1) of \(part.total)"
        let count = "\(part.tasks.count) task\(part.tasks.count == 1 ? "" : "s")"
        html += "<details\(ids.count > 1 ? ids[1] : "")>\n<summary>Tasks of its students <span class=\"count\">(\(part.tasks.count))</span>"
        if !whole { html += " <span class=\"showing\">— \(escape(String(places.dropFirst(2))))</span>" }
        html += "</summary>\n<div class=\"scroll\"><table class=\"tasks\">\n"
        html += "<caption>\(value(c.code)): \(value(row.title)), \(count)\(escape(places))</caption>\n" + taskTableHead
        for task in part.tasks { html += taskRowHTML(task, local: local) }
        return html + "</tbody>\n</table></div>\n</details>\n</section>\n"
    }
}
