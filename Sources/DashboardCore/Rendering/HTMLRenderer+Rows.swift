import Foundation

/// A list's section in HTML: its heading with the whole count, and one row per task with its
/// anchor, id, lateness and override.
extension HTMLRenderer {
    /// The section's heading (`<h2>` on a course's own page, else `<h3>`) with its whole count
    /// and, on a page that shows part of it, the places shown; then its table. Each row has the
    /// anchor `id="task-…"` (`TaskRowWords.anchor`), so `page.html#task-…` opens at it. The
    /// status cell holds the bucket's word in its badge, then how late and "set by hand until
    /// …: reason" as text that wraps (never cut).
    /// `idPrefix` starts the heading's id (`overdue` on a course's own page, so a card links to
    /// `course-….html#overdue`; the course's anchor and `-` before it on a page of several).
    static func sectionHTML(
        _ section: BucketSection, course c: CourseRecord, level: Int, local: LocalAsOf, idPrefix: String = "", lexicon: Lexicon = .english
    ) -> String {
        let title = escape(ReportWords.title(section.bucket, lexicon))
        let showing = ReportWords.showing(section, lexicon)
        var html = "<h\(level) id=\"\(idPrefix)\(section.bucket.rawValue)\">\(title) <span class=\"count\">(\(section.total))</span>"
        if let showing { html += " <span class=\"showing\">— \(escape(showing))</span>" }
        html += "</h\(level)>\n"
        let tasks = lexicon.count(.tasksCount, section.total) + (showing.map { lexicon(.listSeparator) + $0 } ?? "")
        let caption = lexicon.markup(
            .sectionCaption, value(c.code), escape(ReportWords.word(section.bucket, lexicon)), escape(tasks), escape: escape)
        html += "<div class=\"scroll\"><table class=\"tasks\">\n<caption>\(caption)</caption>\n"
        html += taskTableHead(lexicon)
        for t in section.tasks { html += taskRowHTML(t, local: local, lexicon: lexicon) }
        return html + "</tbody>\n</table></div>\n"
    }

    /// The head of a table of tasks.
    static func taskTableHead(_ lexicon: Lexicon) -> String {
        let columns: [Phrase] = [.colID, .colTitle, .colStudent, .colDue, .colPriority, .colStatus]
        return "<thead><tr>" + columns.map { "<th scope=\"col\">\(escape(lexicon($0)))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
    }

    /// One task's row: its anchor and what the page's script filters it by, then its cells
    /// (their `data-label`, the column's name on a phone, in the page's words).
    static func taskRowHTML(_ t: ReportTask, local: LocalAsOf, lexicon: Lexicon = .english) -> String {
        let zone = local.timeZone
        let words = TaskRowWords(t, at: local, lexicon: lexicon)
        let due =
            t.task.due.isEmpty
            ? "<span class=\"none\">\(escape(lexicon(.none)))</span>"
            : "<time datetime=\"\(escape(ReportWords.isoDue(t.task.due, zone: zone)))\">\(escape(lexicon.due(t.task.due, zone: zone)))</time>"
        var status = statusBadge(t.bucket, words.bucket)
        for detail in words.details { status += " <span class=\"detail\">\(value(detail))</span>" }
        let label = { (phrase: Phrase) in escape(lexicon(phrase)) }
        return
            "<tr id=\"\(TaskRowWords.anchor(t.task.taskID))\"\(rowData(t, local: local))><td data-label=\"\(label(.colID))\"><code>\(value(t.task.taskID))</code></td><th scope=\"row\">\(value(t.task.title))</th><td data-label=\"\(label(.colStudent))\">\(value(t.task.studentID))</td><td data-label=\"\(label(.colDue))\">\(due)</td><td data-label=\"\(label(.colPriority))\">\(escape(ReportWords.priority(t, lexicon)))</td><td data-label=\"\(label(.colStatus))\">\(status)</td></tr>\n"
    }

    /// What the page's script filters a row by (`PageScript`), as the command line decides it:
    /// `data-b` its bucket; `data-s` its title's fold (`ReportPipeline.fold`) unless the title is
    /// printable ASCII, whose fold is its lower case; `data-st` its student and `data-a` its
    /// assignment when it has them; `data-day` its due's day minus the as-of's day in the
    /// course's zone and `data-past` when that due had passed at the as-of (what `--due-within`
    /// refuses), for a readable due.
    static func rowData(_ t: ReportTask, local: LocalAsOf) -> String {
        var data = " data-b=\"\(t.bucket.rawValue)\""
        let title = t.task.title
        if !title.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { data += " data-s=\"\(escape(ReportPipeline.fold(title)))\"" }
        if !t.task.studentID.isEmpty { data += " data-st=\"\(escape(t.task.studentID))\"" }
        if !t.task.assignmentID.isEmpty { data += " data-a=\"\(escape(t.task.assignmentID))\"" }
        if !t.task.due.isEmpty, let due = DueDate(storageText: t.task.due) {
            data += " data-day=\"\(due.localDay(in: local.timeZone).daysSinceEpoch - local.date.daysSinceEpoch)\""
            if BucketPolicy.computed(due: due, state: .open, at: local) == .overdue { data += " data-past" }
        }
        return data
    }

    /// What the page's script searches a course by, and the weekday of its as-of (1 Monday to
    /// 7 Sunday, ISO 8601) for "this week".
    static func courseData(_ c: CourseRecord, local: LocalAsOf) -> String {
        let weekday = ((local.date.daysSinceEpoch % 7 + 7) % 7 + 3) % 7 + 1
        return " data-c=\"\(escape(ReportPipeline.fold(c.code + " " + c.title)))\" data-wd=\"\(weekday)\""
    }
}

extension HTMLRenderer {
    /// A bucket's word as its badge (`.status` in the bucket's colour). SPEC §11's places
    /// (`Bucket.added`) have no colour in the pages' style (a new rule would change every
    /// page's style and its hash): their word is plain text in the page's own colour, never
    /// the badge's light text on no background.
    static func statusBadge(_ bucket: Bucket, _ word: String) -> String {
        Bucket.added.contains(bucket)
            ? "<span class=\"state\">\(escape(word))</span>"
            : "<span class=\"status b-\(bucket.rawValue)\">\(escape(word))</span>"
    }
}
