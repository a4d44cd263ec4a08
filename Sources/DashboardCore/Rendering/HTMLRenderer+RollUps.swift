import Foundation

/// The roll-ups in HTML: a course's assignments as a table; each student's tasks as a section.
extension HTMLRenderer {
    /// A course's rows: a heading with their number (and the places a page shows), then a
    /// captioned table with a count per bucket and the status in words.
    /// - Parameter place: where each row's title links to (a big course's page: its section).
    static func assignmentsHTML(
        _ group: CourseGroup, level: Int, zone: TimeZone, lexicon: Lexicon = .english, place: ((AssignmentRow) -> String)? = nil
    ) -> String {
        let code = value(group.course.code)
        let id = place == nil ? "" : " id=\"assignments\""
        let label = { (phrase: Phrase) in escape(lexicon(phrase)) }
        var html = "<h\(level)\(id)>\(escape(RollUpWords.assignmentsHeading(group, lexicon)))</h\(level)>\n"
        html +=
            "<div class=\"scroll\"><table class=\"rollup\">\n<caption>\(lexicon.markup(.assignmentsCaption, code, escape: escape))</caption>\n<thead><tr>"
        html +=
            "<th scope=\"col\">\(label(.colID))</th><th scope=\"col\">\(label(.colAssignment))</th><th scope=\"col\">\(label(.colDue))</th><th scope=\"col\" class=\"n\">\(label(.colStudents))</th>"
        // The columns of the first version; to grade and excused are in the status words.
        for bucket in Bucket.original { html += "<th scope=\"col\" class=\"n\">\(escape(ReportWords.title(bucket, lexicon)))</th>" }
        html += "<th scope=\"col\">\(label(.colStatus))</th></tr></thead>\n<tbody>\n"
        for row in group.assignments {
            // One `<time>` per due: the first, and the last when it differs.
            func time(_ due: String) -> String {
                "<time datetime=\"\(escape(ReportWords.isoDue(due, zone: zone)))\">\(escape(lexicon.due(due, zone: zone)))</time>"
            }
            let due: String
            if row.firstDue.isEmpty {
                due = "<span class=\"none\">\(label(.none))</span>"
            } else if lexicon.due(row.firstDue, zone: zone) == lexicon.due(row.lastDue, zone: zone) {
                due = time(row.firstDue)
            } else {
                due = time(row.firstDue) + " – " + time(row.lastDue)
            }
            html += "<tr><td>\(row.assignmentID.isEmpty ? "<span class=\"none\">—</span>" : "<code>\(value(row.assignmentID))</code>")</td>"
            let title = place.map { "<a href=\"\(escape($0(row)))\">\(value(row.title))</a>" } ?? value(row.title)
            html += "<th scope=\"row\">\(title)</th><td>\(due)</td><td class=\"n\">\(row.students)</td>"
            for bucket in Bucket.original { html += "<td class=\"n\">\(row.counts[bucket])</td>" }
            let urgent = RollUpWords.urgent(row.counts)
            html +=
                "<td class=\"words\">\(statusBadge(urgent, ReportWords.word(urgent, lexicon))) <span class=\"detail\">\(escape(RollUpWords.status(row, lexicon)))</span></td></tr>\n"
        }
        return html + "</tbody>\n</table></div>\n"
    }

    /// Every student of the page: a heading with their counts, then their tasks (each row
    /// with its anchor, its course and its due in the course's zone).
    static func studentsHTML(_ report: Report) -> String {
        studentsHead(report) + report.students.map { studentHTML($0, report) }.joined()
    }

    /// What comes before the students: the note on times (when there is a task to list).
    static func studentsHead(_ report: Report) -> String {
        RollUpWords.studentNotes(report).map { "<p class=\"note\">\(escape($0))</p>\n" }.joined()
    }

    /// One student's section.
    static func studentHTML(_ group: StudentGroup, _ report: Report) -> String {
        var html = ""
        let lexicon = report.query.lexicon
        let name = RollUpWords.student(group, lexicon)
        html += "<section aria-label=\"\(escape(name))\">\n<h2>\(value(name))</h2>\n"
        html += "<p class=\"about\">\(escape(RollUpWords.studentSummary(group, lexicon)))</p>\n"
        let caption = lexicon.markup(.tasksOfStudent, value(name), escape: escape)
        html += "<div class=\"scroll\"><table class=\"tasks student-tasks\">\n<caption>\(caption)</caption>\n"
        let columns: [Phrase] = [.colID, .colCourse, .colTitle, .colDue, .colPriority, .colStatus]
        let label = columns.map { escape(lexicon($0)) }
        html += "<thead><tr>" + label.map { "<th scope=\"col\">\($0)</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for item in group.tasks {
            let zone = zoneOf(item.course, report)
            let t = item.task
            let words = TaskRowWords(t, at: LocalAsOf(asOf: report.asOf, timeZone: zone), lexicon: lexicon)
            let due =
                t.task.due.isEmpty
                ? "<span class=\"none\">\(escape(lexicon(.none)))</span>"
                : "<time datetime=\"\(escape(ReportWords.isoDue(t.task.due, zone: zone)))\">\(escape(lexicon.due(t.task.due, zone: zone)))</time>"
            var status = statusBadge(t.bucket, words.bucket)
            for detail in words.details { status += " <span class=\"detail\">\(value(detail))</span>" }
            html +=
                "<tr id=\"\(TaskRowWords.anchor(t.task.taskID))\"><td data-label=\"\(label[0])\"><code>\(value(t.task.taskID))</code></td><td data-label=\"\(label[1])\">\(value(item.course.code))</td><th scope=\"row\">\(value(t.task.title))</th><td data-label=\"\(label[3])\">\(due)</td><td data-label=\"\(label[4])\">\(escape(ReportWords.priority(t, lexicon)))</td><td data-label=\"\(label[5])\">\(status)</td></tr>\n"
        }
        html += "</tbody>\n</table></div>\n</section>\n"

        return html
    }
}
