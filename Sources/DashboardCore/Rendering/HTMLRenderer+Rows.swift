import Foundation

/// A list's section in HTML: its heading with the whole count, and one row per task with its
/// anchor, id, lateness and override.
extension HTMLRenderer {
    /// The section's heading (`<h2>` on a course's own page, else `<h3>`) with its whole count
    /// and, on a page that shows part of it, the places shown; then its table. Each row has the
    /// anchor `id="task-…"` (`TaskRowWords.anchor`), so `page.html#task-…` opens at it. The
    /// status cell holds the bucket's word in its badge, then how late and "set by hand until
    /// …: reason" as text that wraps (never cut).
    static func sectionHTML(_ section: BucketSection, course c: CourseRecord, level: Int, local: LocalAsOf) -> String {
        let zone = local.timeZone
        let title = ReportWords.title(section.bucket)
        let showing = ReportWords.showing(section)
        var html = "<h\(level)>\(title) <span class=\"count\">(\(section.total))</span>"
        if let showing { html += " <span class=\"showing\">— \(escape(showing))</span>" }
        html += "</h\(level)>\n"
        let tasks = "\(section.total) task\(section.total == 1 ? "" : "s")"
        html +=
            "<div class=\"scroll\"><table class=\"tasks\">\n<caption>\(value(c.code)): \(title.lowercased()), \(tasks)\(showing.map { ", " + escape($0) } ?? "")</caption>\n"
        html +=
            "<thead><tr><th scope=\"col\">ID</th><th scope=\"col\">Title</th><th scope=\"col\">Student</th><th scope=\"col\">Due</th><th scope=\"col\">Priority</th><th scope=\"col\">Status</th></tr></thead>\n<tbody>\n"
        for t in section.tasks {
            let words = TaskRowWords(t, at: local)
            let due =
                t.task.due.isEmpty
                ? "<span class=\"none\">none</span>"
                : "<time datetime=\"\(escape(ReportWords.isoDue(t.task.due, zone: zone)))\">\(escape(ReportWords.due(t.task.due, zone: zone)))</time>"
            var status = "<span class=\"status b-\(t.bucket.rawValue)\">\(escape(words.bucket))</span>"
            for detail in words.details { status += " <span class=\"detail\">\(value(detail))</span>" }
            html +=
                "<tr id=\"\(TaskRowWords.anchor(t.task.taskID))\"><td data-label=\"ID\"><code>\(value(t.task.taskID))</code></td><th scope=\"row\">\(value(t.task.title))</th><td data-label=\"Student\">\(value(t.task.studentID))</td><td data-label=\"Due\">\(due)</td><td data-label=\"Priority\">\(ReportWords.priority(t))</td><td data-label=\"Status\">\(status)</td></tr>\n"
        }
        return html + "</tbody>\n</table></div>\n"
    }
}
