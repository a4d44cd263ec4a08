import Foundation

/// Reports as self-contained HTML pages: no script, nothing loaded from the network; landmarks,
/// headings, captioned tables with header scopes, `<time>` elements, status in words, a print
/// style and a dark-mode style. Every value is escaped.
package enum HTMLRenderer {
    /// The grid as the index page. `link` gives the file of each course's list page, if any.
    package static func gridPage(_ report: Report, link: (CourseRecord) -> String?) -> String {
        let body = stateAware(report) {
            gridBody(report, cards: report.cards.map { cardHTML($0, link: link($0.course), report: report) }.joined())
        }
        return page(
            title: gridTitle(report), heading: RollUpWords.reportName(report), report: report, nav: nil, body: body,
            script: script(report, .grid))
    }

    /// "Courses as of 2026-12-04 08:00 UTC", in the report's words.
    static func gridTitle(_ report: Report) -> String {
        let lexicon = report.query.lexicon
        return lexicon(.titleAsOf, RollUpWords.reportName(report), lexicon.asOf(report.asOf, in: report.query.displayTimeZone))
    }

    /// The breadcrumb back to the index.
    static func backNav(_ indexLink: String?, _ lexicon: Lexicon) -> String? {
        indexLink.map {
            "<nav aria-label=\"\(escape(lexicon(.breadcrumb)))\"><a href=\"\(escape($0))\">\(escape(lexicon(.allCourses)))</a></nav>\n"
        }
    }

    /// Task lists: every group of the report on one page (or one course, when `report.groups`
    /// holds one), with a link back to the index when `indexLink` is given.
    package static func listPage(_ report: Report, title: String, indexLink: String?) -> String {
        let body = stateAware(report) {
            if report.query.groupBy == .student { return studentsHTML(report) }
            let single = report.groups.count == 1
            return report.groups.map { groupHTML($0, report: report, underPageHeading: single) }.joined()
        }
        return page(
            title: title, heading: title, report: report, nav: backNav(indexLink, report.query.lexicon), body: body,
            script: script(report, .list))
    }

    /// The page's script: `kind` for a page with something to filter (cards, or task rows in
    /// bucket sections), nil otherwise (an empty state, a roll-up).
    static func script(_ report: Report, _ kind: PageScript.Kind) -> PageScript.Kind? {
        guard report.state == .ok else { return nil }
        return kind == .grid || report.query.groupBy == .bucket ? kind : nil
    }

    // MARK: - Pieces

    /// The banner, then either the state's words (no data, nothing matches) or what narrows the
    /// report, the `content` and the page line: the same frame for every page.
    static func stateAware(_ report: Report, content: () -> String) -> String {
        var body = banner(report)
        let lexicon = report.query.lexicon
        switch report.state {
        case .noData:
            body += stateBox(ReportMessages.noData(lexicon), ReportMessages.noDataNext(report.query.wording, lexicon), lexicon)
        case .noCourses: body += stateBox(ReportMessages.noCourses(report), ReportMessages.noCoursesNext(report), lexicon)
        case .noMatch: body += stateBox(ReportMessages.noMatch(report), ReportMessages.noMatchNext(report), lexicon)
        case .ok: body += narrowing(report) + content() + pageInfo(report)
        }
        return body
    }

    /// A whole page. `script`: the kind of filtering the page offers (`PageScript`), nil for a
    /// page without script; either way the page's Content-Security-Policy allows its one style
    /// and its one script by their hashes, and nothing else.
    static func page(title: String, heading: String, report: Report, nav: String?, body: String, script: PageScript.Kind? = nil)
        -> String
    {
        let lexicon = report.query.lexicon
        // SPEC §11's places on the page: a list's sections or chips, a grid's cards and bars.
        let states =
            report.listsStates || report.groups.contains(where: \.listsStates)
            || (report.kind == .grid && Bucket.added.contains { report.gridTotals.counts[$0] > 0 })
        let assets = PageAssets.of(script, lexicon, states: states)
        let asOf = lexicon.markup(
            .asOfHeader,
            "<time datetime=\"\(report.generatedAsOf)\">\(escape(lexicon.asOf(report.asOf, in: report.query.displayTimeZone)))</time>",
            escape: escape)
        return """
            <!DOCTYPE html>
            <html lang="\(escape(lexicon.htmlLanguage))">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(assets.policy)">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="dashboard">
            <title>\(escape(title))</title>
            <style>\(assets.style)</style>
            </head>
            <body>
            <header>
            \(nav ?? "")<h1>\(value(heading))</h1>
            <p class="asof">\(asOf)</p>
            </header>
            <main>
            \(body)</main>
            <footer><p>\(escape(footer(report)))</p></footer>
            \(assets.script.map { "<script>\($0)</script>\n" } ?? "")</body>
            </html>

            """
    }

    /// When the page was made, and when a change made since shows: the next night's page for a
    /// teacher's (`nightly` remakes them), the next run for the administrator's.
    static func footer(_ report: Report) -> String {
        let lexicon = report.query.lexicon
        let when = lexicon.asOf(report.asOf, in: report.query.displayTimeZone)
        return report.query.wording.forReaders ? lexicon(.footerReader, when) : lexicon(.footerAdmin, when)
    }

    static func banner(_ report: Report) -> String {
        let lexicon = report.query.lexicon
        guard let stale = report.stale else { return "" }
        guard report.query.wording.forReaders else {
            return
                "<div class=\"banner\" role=\"status\"><p><strong>Warning:</strong> \(stale.message(prose: escape, value: value))</p><p>\(escape(stale.nextStep(report.query.wording)))</p></div>\n"
        }
        // A teacher's page: what it means for them; the batch, its reason and the next step
        // fold away for the administrator (in the command line's words, which these pages
        // do not know: the batch and the reason are enough to find it).
        return
            "<div class=\"banner\" role=\"status\"><p><strong>\(escape(lexicon(.note)))</strong> \(stale.readerMessage(lexicon, in: report.query.displayTimeZone, prose: escape, value: value))</p><details><summary>\(escape(lexicon(.detailsForAdmin)))</summary><p>\(stale.message(prose: escape, value: value))</p></details></div>\n"
    }

    static func stateBox(_ message: String, _ next: String, _ lexicon: Lexicon = .english) -> String {
        "<section class=\"state\" aria-label=\"\(escape(lexicon(.nothingToShow)))\"><h2>\(escape(message))</h2><p>\(escape(next))</p></section>\n"
    }

    static func narrowing(_ report: Report) -> String {
        guard let showing = ReportMessages.showing(report, prose: escape, value: { "<code>" + value($0) + "</code>" }) else { return "" }
        return "<p class=\"narrowed\">\(showing)</p>\n"
    }

    static func pageInfo(_ report: Report) -> String {
        let text = ReportMessages.page(report)
        return text.isEmpty ? "" : "<p class=\"pages\">\(escape(text))</p>\n"
    }

    /// The grid's totals over its cards (every page together), then its cards (`cards`, the
    /// cards' HTML: a streamed grid writes them one by one in its place).
    static func gridBody(_ report: Report, cards: String) -> String {
        "<p class=\"totals\">\(escape(CardWords.totals(report.gridTotals, query: report.query)))</p>\n"
            + (OvernightWords.headline(report).map { "<p class=\"changes\">\(escape($0))</p>\n" } ?? "") + "<ul class=\"cards\">\n" + cards
            + "</ul>\n" + attentionHTML(report.attention, report.query.lexicon)
    }

    /// One card. A card that needs attention says so in words ("Needs attention: 6 overdue,
    /// 2 due today") and is framed in the overdue colour; the bar draws open buckets strong and
    /// completed tasks muted; the counts table has a row per counted bucket
    /// (`CardWords.cardCounted`: to grade too when the card has work to grade), then the card's summary ("9 of 20 completed", "6 overdue
    /// of 20 tasks").
    /// - Parameter report: the grid (its query, and its window of what changed overnight).
    static func cardHTML(_ card: CourseCard, link: String?, report: Report) -> String {
        let query = report.query
        let c = card.course
        let code = value(c.code)
        let heading = link.map { "<a href=\"\(escape($0))\">\(code)</a>" } ?? code
        let lexicon = query.lexicon
        let attention = CardWords.attention(card.counts, lexicon)
        var html =
            "<li class=\"card\(attention == nil ? "" : " attention")\" data-s=\"\(escape(ReportPipeline.fold(c.code + " " + c.title)))\">\n<article aria-labelledby=\"c-\(anchor(c.courseID))\">\n"
        html += "<h2 id=\"c-\(anchor(c.courseID))\">\(heading) <span class=\"title\">\(value(c.title))</span></h2>\n"
        if !c.teacher.isEmpty { html += "<p class=\"teacher\">\(value(c.teacher))</p>\n" }
        if card.total == 0 {
            html += "<p>\(escape(lexicon(.noTasksYet)))</p>\n"
            if let changes = OvernightWords.card(card, report) { html += "<p class=\"changes\">\(escape(changes))</p>\n" }
            html += "</article>\n</li>\n"
            return html
        }
        if let attention {
            // The words link to the first section that needs attention on the course's page.
            let words = link.map { "<a href=\"\(escape($0))#\(card.count(.overdue) > 0 ? "overdue" : "today")\">\(escape(attention))</a>" }
            html += "<p class=\"needs\"><strong>\(escape(lexicon(.needsAttention)))</strong> \(words ?? escape(attention))</p>\n"
        }
        let total = max(1, CardWords.barScale(card, query: query))
        html += "<div class=\"bar\" aria-hidden=\"true\">"
        for bucket in Bucket.inReportOrder where card.count(bucket) > 0 {
            let share = min(100, Int((Double(card.count(bucket)) * 100 / Double(total)).rounded()))
            html += "<div class=\"b-\(bucket.rawValue) w\(share)\"></div>"
        }
        html += "</div>\n<table class=\"counts\">\n<caption>\(lexicon.markup(.tasksByStatus, code, escape: escape))</caption>\n<tbody>\n"
        for bucket in CardWords.cardCounted(card, query) {
            html +=
                "<tr><th scope=\"row\" class=\"k-\(bucket.rawValue)\">\(escape(ReportWords.title(bucket, lexicon)))</th><td>\(card.count(bucket))</td></tr>\n"
        }
        html += "</tbody>\n</table>\n<p class=\"summary\">\(escape(CardWords.summary(card, query: query)))</p>\n"
        if let changes = OvernightWords.card(card, report) { html += "<p class=\"changes\">\(escape(changes))</p>\n" }
        html += "</article>\n</li>\n"
        return html
    }

    /// One course's sections. On a course's own page (`underPageHeading`) the page's `<h1>`
    /// names the course and bucket headings are `<h2>`; on a page of several courses each
    /// course has an `<h2>` and its buckets `<h3>`.
    static func groupHTML(_ group: CourseGroup, report: Report, underPageHeading: Bool) -> String {
        let c = group.course
        let zone = zoneOf(c, report)
        let level = underPageHeading ? 2 : 3
        let local = LocalAsOf(asOf: report.asOf, timeZone: zone)
        var html = "<section aria-label=\"\(escape(c.code)) \(escape(c.title))\"\(courseData(c, local: local))>\n"
        if !underPageHeading {
            html += "<h2 id=\"g-\(anchor(c.courseID))\">\(value(c.code)) <span class=\"title\">\(value(c.title))</span></h2>\n"
        }
        html += aboutHTML(group, report: report, zone: zone)
        if report.query.groupBy == .assignment, !group.assignments.isEmpty {
            return html + assignmentsHTML(group, level: level, zone: zone, lexicon: report.query.lexicon) + "</section>\n"
        }
        if group.sections.isEmpty {
            let lexicon = report.query.lexicon
            let forReaders = report.query.wording.forReaders
            let message =
                group.liveTasks == 0
                ? ReportMessages.courseWithoutTasks(c, forReaders: forReaders, prose: escape, value: value, lexicon: lexicon)
                : escape(ReportMessages.allCompleted(group, wording: report.query.wording, lexicon: lexicon))
            html += "<p class=\"empty\">\(message)</p>\n"
        }
        let prefix = underPageHeading ? "" : anchor(c.courseID) + "-"
        for section in group.sections {
            html += sectionHTML(section, course: c, level: level, local: local, idPrefix: prefix, lexicon: report.query.lexicon)
        }
        html += "</section>\n"
        return html
    }

    /// What a course's section says first: its teacher, term and zone, the completed tasks it
    /// does not list, what changed overnight.
    static func aboutHTML(_ group: CourseGroup, report: Report, zone: TimeZone) -> String {
        let c = group.course
        let lexicon = report.query.lexicon
        var about: [String] = []
        if !c.teacher.isEmpty { about.append(lexicon.markup(.teacherIs, value(c.teacher), escape: escape)) }
        if !c.term.isEmpty { about.append(lexicon.markup(.termIs, value(c.term), escape: escape)) }
        about.append(escape(lexicon(.timesIn, ReportWords.zoneName(zone))))
        var html = "<p class=\"about\">\(about.joined(separator: " · "))</p>\n"
        if let note = ReportMessages.completedNotShown(group, report: report) { html += "<p class=\"note\">\(escape(note))</p>\n" }
        if let changes = OvernightWords.course(group.course.courseID, report) { html += "<p class=\"changes\">\(escape(changes))</p>\n" }
        return html
    }

    /// An id attribute value made from any course id (letters, digits and `-` only, plus a hash).
    static func anchor(_ id: String) -> String {
        ReportFileNames.slug(id) + "-" + ReportFileNames.shortHash(id)
    }

    static let style = """
        :root { color-scheme: light dark; --fg: #1b1f23; --bg: #ffffff; --muted: #57606a; --line: #d0d7de; --card: #f6f8fa;
          --overdue: #b42318; --today: #9a6700; --upcoming: #1a7f37; --undated: #57606a; --completed: #0969da; --done: #c9d1d9; --warn-bg: #fff8c5; }
        @media (prefers-color-scheme: dark) {
          :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9da7b3; --line: #30363d; --card: #161b22;
            --overdue: #ff7b72; --today: #e3b341; --upcoming: #56d364; --undated: #9da7b3; --completed: #79c0ff; --done: #484f58; --warn-bg: #3d2e00; }
        }
        * { box-sizing: border-box; }
        body { margin: 0 auto; max-width: 90rem; padding: 1rem; font: 1rem/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
        h1 { font-size: 1.6rem; margin: 0.2rem 0; } h2 { font-size: 1.2rem; margin: 1.5rem 0 0.3rem; } h3 { font-size: 1rem; margin: 1rem 0 0.3rem; }
        a { color: var(--completed); } .asof, .about, .teacher, .pages, footer { color: var(--muted); }
        .title { font-weight: normal; } code { overflow-wrap: anywhere; } .tasks code, .rollup code { white-space: nowrap; overflow-wrap: normal; }
        .banner { border: 2px solid var(--today); background: var(--warn-bg); padding: 0.5rem 1rem; margin: 1rem 0; }
        .state { border: 1px dashed var(--line); padding: 1rem; margin: 1rem 0; }
        .cards { list-style: none; padding: 0; display: grid; gap: 1rem; grid-template-columns: repeat(auto-fill, minmax(min(100%, 17rem), 1fr)); }
        .card article { border: 1px solid var(--line); border-radius: 6px; background: var(--card); padding: 0.75rem; height: 100%; }
        .card h2 { margin: 0 0 0.3rem; overflow-wrap: anywhere; }
        .card.attention article { border: 2px solid var(--overdue); border-left-width: 0.5rem; }
        .needs { color: var(--overdue); margin: 0.3rem 0; } .totals { font-weight: 600; } .summary { color: var(--muted); margin: 0.3rem 0 0; }
        .bar { display: flex; height: 0.75rem; border-radius: 3px; overflow: hidden; background: var(--line); margin: 0.5rem 0; }
        .bar div { min-width: 2px; }
        .b-overdue { background: var(--overdue); } .b-today { background: var(--today); } .b-upcoming { background: var(--upcoming); }
        .b-undated { background: var(--undated); } .b-completed { background: var(--done); }
        .counts th::before { content: ""; display: inline-block; width: 0.7em; height: 0.7em; border-radius: 50%; margin-right: 0.4em; }
        .k-overdue::before { background: var(--overdue); } .k-today::before { background: var(--today); }
        .k-upcoming::before { background: var(--upcoming); } .k-undated::before { background: var(--undated); }
        .k-completed::before { background: var(--done); }
        table { border-collapse: collapse; width: 100%; } caption { text-align: left; color: var(--muted); font-size: 0.9rem; }
        th, td { text-align: left; padding: 0.25rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        .counts td { text-align: right; } .tasks th[scope=row] { font-weight: normal; overflow-wrap: break-word; }
        .scroll { overflow-x: auto; }
        .tasks { table-layout: auto; } .tasks th:nth-child(1) { width: 11%; } .tasks th:nth-child(2) { width: 31%; }
        .tasks th:nth-child(3) { width: 11%; } .tasks th:nth-child(4) { width: 17%; } .tasks th:nth-child(5) { width: 9%; }
        .tasks th:nth-child(6) { width: 21%; } .tasks td { overflow-wrap: anywhere; }
        .detail { display: block; font-size: 0.9rem; } .showing { font-weight: normal; color: var(--muted); }
        .rollup td.n, .rollup th.n { text-align: right; } .rollup .words { overflow-wrap: anywhere; } .rollup time { white-space: nowrap; }
        .student-tasks th:nth-child(1) { width: 12%; } .student-tasks th:nth-child(2) { width: 12%; }
        .student-tasks th:nth-child(3) { width: 28%; } .student-tasks th:nth-child(4) { width: 16%; }
        .student-tasks th:nth-child(5) { width: 9%; } .student-tasks th:nth-child(6) { width: 23%; }
        @media (max-width: 40rem) {
          .tasks caption { display: block; }
          .tasks thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
          .tasks, .tasks tbody, .tasks tr, .tasks th, .tasks td { display: block; width: 100%; }
          .tasks tr { border-bottom: 1px solid var(--line); padding: 0.4rem 0; }
          .tasks th, .tasks td { border: none; padding: 0.1rem 0; }
          .tasks th[scope=row] { font-weight: bold; width: 100%; }
          .tasks td::before { content: attr(data-label) ": "; color: var(--muted); }
        }
        .status { color: var(--bg); padding: 0 0.4em; border-radius: 3px; white-space: nowrap; font-size: 0.9rem; }
        .status.b-completed { color: var(--fg); }
        .none { color: var(--muted); }
        @media print {
          :root { --fg: #000; --bg: #fff; --muted: #333; --line: #999; --card: #fff; }
          body { max-width: none; padding: 0; } a { color: #000; text-decoration: none; }
          .banner { border: 2px solid #000; background: #fff; } .bar { display: none; }
          .status { color: #000; background: none; border: 1px solid #000; }
          section, .card { break-inside: avoid; } nav, footer { display: none; }
        }
        """
}
