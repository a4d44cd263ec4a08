import Foundation

/// One course of a teacher's morning digest: its card (counts, what changed overnight), the
/// zone its dues are read in, and its assignments' events (`CalendarEvents`: one per
/// assignment and due, with their tasks per bucket).
package struct DigestCourse: Sendable, Equatable {
    package var card: CourseCard
    package var zone: TimeZone
    package var events: [CalendarEvent]
    /// The address of the course's page in the teacher's folder, when there is a base URL.
    package var page: String?

    package init(card: CourseCard, zone: TimeZone, events: [CalendarEvent], page: String?) {
        self.card = card
        self.zone = zone
        self.events = events
        self.page = page
    }
}

/// A teacher's morning message: what needs them today, what changed overnight, and where their
/// pages are. Pure: the same report always makes the same words.
///
/// Policy (docs/reports.md, "The morning digest"):
/// - the subject says the day and the attention in numbers ("Your courses on 2026-12-04: 6
///   overdue, 2 due today"; "nothing overdue or due today"), and "(not updated tonight)" when
///   the night brought no new data (no export, a failed or held import);
/// - the body opens with the banner a teacher's page would show when the data is not
///   tonight's, then the attention over all their courses, then each course that needs
///   attention in the grid's order (most urgent first) with its assignments that have
///   overdue tasks or tasks due today, most overdue first, at most `assignmentsPerCourse`
///   (the rest counted, and on the course's page); the courses with nothing to do are named
///   in one line;
/// - then what changed overnight (`OvernightWords`: the same words as the grid's line and
///   each card's), then the links to the teacher's folder and calendar feed;
/// - the plain text and the HTML say the same; the text shows a control, bidi or invisible
///   character of a value as a visible escape (`VisibleText`, line by line), the HTML escapes
///   every value, and neither names a command, flag or batch (as teachers' pages,
///   `ReportWording.forReaders`);
/// - in the language of the teacher's index (`frame.query.lexicon`: the one their courses
///   share, else the database's default, else English; issue 29), its dates in the locale's words.
package struct MorningDigest: Sendable, Equatable {
    package var subject: String
    package var text: String
    package var html: String

    /// The assignments a course lists before "and N more".
    package static let assignmentsPerCourse = 5

    /// - Parameters:
    ///   - frame: the teacher's grid without its cards (as-of, banner, what changed overnight).
    ///   - courses: the teacher's courses in the grid's order.
    ///   - folder: where the teacher's pages are (an address with a base URL, else a path).
    ///   - calendar: the teacher's feed (an address or a path), when one is written.
    ///   - zone: the zone the message's own times are shown in.
    package static func compose(
        teacher: String, frame: Report, courses: [DigestCourse], folder: String, calendar: String?, zone: TimeZone
    ) -> MorningDigest {
        let lexicon = frame.query.lexicon
        let day = lexicon.day(LocalAsOf(asOf: frame.asOf, timeZone: zone).date)
        var counts = BucketCounts()
        var changes = CourseChanges()
        for course in courses {
            for bucket in Bucket.allCases { counts[bucket] += course.card.counts[bucket] }
            if let own = course.card.changes { changes = changes + own }
        }
        let attention = CardWords.attention(counts, lexicon)
        let stale = frame.stale
        var subject = lexicon(.digestSubject, day, attention ?? lexicon(.digestNothing))
        if let stale, stale.noExport || stale.failedBatch != nil || stale.held != nil { subject = lexicon(.digestNotUpdated, subject) }

        let greeting = lexicon(.goodMorning, teacher)
        var text: [String] = [greeting, ""]
        var html: [String] = []
        html.append("<h1>\(HTMLRenderer.escape(greeting))</h1>")
        if let stale {
            let note = stale.readerMessage(lexicon, in: zone, forMessage: true)
            text += [lexicon(.note) + " " + note, ""]
            html.append("<p class=\"note\"><strong>\(HTMLRenderer.escape(lexicon(.note)))</strong> \(HTMLRenderer.escape(note))</p>")
        }

        let needing = courses.filter { CourseAttention.needed($0.card.counts) }
        let calm = courses.filter { !CourseAttention.needed($0.card.counts) }
        let summary: String
        if courses.isEmpty {
            summary = lexicon(.digestNoCourses)
        } else if let attention {
            summary = lexicon.count(.digestNeedsYou, courses.count, attention, String(needing.count))
        } else {
            summary = lexicon.count(.digestCalm, courses.count)
        }
        text += [summary, ""]
        html.append("<p class=\"summary\">\(HTMLRenderer.escape(summary))</p>")
        // SPEC §11: how much submitted work waits for the teacher (only when some does).
        if counts[.toGrade] > 0 {
            let line = lexicon(.digestToGrade, ReportWords.count(counts[.toGrade], .toGrade, lexicon))
            text += [line, ""]
            html.append("<p class=\"to-grade\">\(HTMLRenderer.escape(line))</p>")
        }

        if !needing.isEmpty {
            html.append("<h2>\(HTMLRenderer.escape(lexicon(.needsYou)))</h2>")
            for course in needing {
                let lines = assignmentLines(course, lexicon)
                let attention = CardWords.attention(course.card.counts, lexicon) ?? ""
                let more = lexicon.count(.digestMore, lines.more)
                text.append(lexicon(.itemName, courseName(course.card.course), attention))
                text += lines.shown.map { "- " + $0 }
                if lines.more > 0 { text.append("- " + more) }
                if let page = course.page { text.append("  " + page) }
                text.append("")
                let title = HTMLRenderer.escape(courseName(course.card.course))
                let linked = course.page.map { "<a href=\"\(HTMLRenderer.escape($0))\">\(title)</a>" } ?? title
                let heading = lexicon.markup(
                    .itemName, linked, "<span class=\"attention\">\(HTMLRenderer.escape(attention))</span>", escape: HTMLRenderer.escape)
                html.append("<h3>\(heading)</h3>")
                var items = lines.shown.map { "<li>\(HTMLRenderer.escape($0))</li>" }
                if lines.more > 0 { items.append("<li>\(HTMLRenderer.escape(more))</li>") }
                if !items.isEmpty { html.append("<ul>" + items.joined() + "</ul>") }
            }
        }
        if !calm.isEmpty, !needing.isEmpty {
            let names = calm.map { courseName($0.card.course) }.joined(separator: "; ")
            let line = lexicon(.digestCalmIn, names)
            text += [line, ""]
            html.append("<p>\(HTMLRenderer.escape(line))</p>")
        }

        if let overnight = frame.overnight {
            let headline = OvernightWords.headline(overnight, total: changes, asOf: frame.asOf, zone: zone, lexicon)
            let perCourse = courses.compactMap { course in
                OvernightWords.card(course.card, frame).map { lexicon(.itemName, courseName(course.card.course), $0) }
            }
            text.append(lexicon(.whatChangedLine, headline))
            text += perCourse.map { "- " + $0 }
            text.append("")
            html.append("<h2>\(HTMLRenderer.escape(lexicon(.whatChanged)))</h2>")
            html.append("<p>\(HTMLRenderer.escape(headline))</p>")
            if !perCourse.isEmpty { html.append("<ul>" + perCourse.map { "<li>\(HTMLRenderer.escape($0))</li>" }.joined() + "</ul>") }
        }

        text.append(lexicon(.yourPagesLine, folder))
        html.append("<h2>\(HTMLRenderer.escape(lexicon(.yourPages)))</h2>")
        var links = ["<li><a href=\"\(HTMLRenderer.escape(folder))\">\(HTMLRenderer.escape(lexicon(.yourCourses)))</a></li>"]
        if let calendar {
            text.append(lexicon(.yourCalendarLine, calendar))
            links.append(
                "<li><a href=\"\(HTMLRenderer.escape(calendar))\">\(HTMLRenderer.escape(lexicon(.yourCalendar)))</a> \(HTMLRenderer.escape(lexicon(.subscribe)))</li>"
            )
        }
        html.append("<ul>" + links.joined() + "</ul>")
        let footer = lexicon(.digestFooter, lexicon.asOf(frame.asOf, in: zone))
        text += ["", footer]
        html.append("<p class=\"footer\">\(HTMLRenderer.escape(footer))</p>")
        return MorningDigest(
            subject: subject, text: text.map(VisibleText.of).joined(separator: "\n") + "\n",
            html: page(subject, body: html, language: lexicon.htmlLanguage))
    }

    /// "BIO 1 — Biology".
    static func courseName(_ course: CourseRecord) -> String {
        course.code == course.title ? course.title : course.code + " — " + course.title
    }

    /// A course's assignments that need attention, most overdue first, then most due today,
    /// then the earliest due: "Essay (due 2026-12-03 09:00): 3 of 20 overdue, 2 due today, 15
    /// completed"; at most `assignmentsPerCourse`, and how many more.
    static func assignmentLines(_ course: DigestCourse, _ lexicon: Lexicon = .english) -> (shown: [String], more: Int) {
        let needing = course.events.filter { $0.counts[.overdue] > 0 || $0.counts[.today] > 0 }
            .sorted {
                ($1.counts[.overdue], $1.counts[.today], $0.instant, $0.uid) < ($0.counts[.overdue], $0.counts[.today], $1.instant, $1.uid)
            }
        let prefix = course.card.course.code + ": "
        let lines = needing.prefix(assignmentsPerCourse).map { event in
            let title = event.summary.hasPrefix(prefix) ? String(event.summary.dropFirst(prefix.count)) : event.summary
            let row = AssignmentRow(
                assignmentID: "", title: title, firstDue: event.due, lastDue: event.due, students: 0, counts: event.counts,
                live: event.counts.total, daysLate: nil)
            let due = lexicon.due(event.due, zone: course.zone)
            return lexicon(
                .itemName, due.isEmpty ? title : lexicon(.withLate, title, lexicon(.dueOn, due)), RollUpWords.status(row, lexicon))
        }
        return (lines, needing.count - lines.count)
    }

    /// The HTML part: a whole document, its style inline (mail clients drop linked sheets),
    /// readable at 390 px and at 1280 px.
    static func page(_ title: String, body: [String], language: String = "en") -> String {
        """
        <!DOCTYPE html>
        <html lang="\(HTMLRenderer.escape(language))">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLRenderer.escape(title))</title>
        <style>
        body { margin: 0; padding: 16px; background: #ffffff; color: #1a1a1a; font: 16px/1.5 -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
        main { max-width: 640px; margin: 0 auto; }
        h1 { font-size: 22px; margin: 0 0 12px; }
        h2 { font-size: 18px; margin: 24px 0 8px; border-bottom: 1px solid #d0d0d0; padding-bottom: 4px; }
        h3 { font-size: 16px; margin: 16px 0 4px; }
        ul { margin: 4px 0 8px; padding-left: 20px; }
        li { margin: 2px 0; }
        a { color: #0b57d0; }
        .attention { color: #a3160c; }
        .note { background: #fff4ce; border-left: 4px solid #8a6d00; padding: 8px 12px; }
        .summary { font-weight: 600; }
        .footer { color: #4d4d4d; font-size: 14px; margin-top: 24px; }
        </style>
        </head>
        <body>
        <main>
        \(body.joined(separator: "\n"))
        </main>
        </body>
        </html>

        """
    }
}
