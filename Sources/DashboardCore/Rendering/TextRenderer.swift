import Foundation

/// Renders reports for a terminal: plain text, no line wider than the width, status in words.
package enum TextRenderer {
    /// The narrowest a grid card may be.
    package static let minimumCardWidth = 24
    /// The widest a grid card gets, however wide the terminal.
    package static let maximumCardWidth = 44
    static let gap = 2

    package static func render(_ report: Report, width: Int, style: TextStyle = .plain) -> String {
        let width = max(20, width)
        var lines: [String] = []
        let lexicon = report.query.lexicon
        let header = RollUpWords.reportName(report)
        lines += shown(lexicon(.titleAsOf, header, lexicon.asOf(report.asOf, in: report.query.displayTimeZone)), to: width)
        if let stale = report.stale {
            lines += shown("! " + stale.message + " " + stale.nextStep(report.query.wording), to: width)
        }
        switch report.state {
        case .noData:
            lines += shown(ReportMessages.noData(lexicon), to: width)
            lines += shown(ReportMessages.noDataNext(report.query.wording, lexicon), to: width)
            return lines.joined(separator: "\n") + "\n"
        case .noCourses:
            lines += shown(ReportMessages.noCourses(report), to: width)
            lines += shown(ReportMessages.noCoursesNext(report), to: width)
            return lines.joined(separator: "\n") + "\n"
        case .noMatch:
            lines += shown(ReportMessages.noMatch(report), to: width)
            lines += shown(ReportMessages.noMatchNext(report), to: width)
            return lines.joined(separator: "\n") + "\n"
        case .ok:
            break
        }
        if let showing = ReportMessages.showing(report) { lines += shown(showing, to: width) }
        if report.kind == .list { lines.append("") }
        switch report.kind {
        case .grid: lines += grid(report, width: width, style: style)
        case .list where report.query.groupBy == .student:
            // The note is the frame's (a streamed list writes the students after it).
            let notes = RollUpWords.studentNotes(report)
            for note in notes { lines += shown(note, to: width) }
            if !notes.isEmpty { lines.append("") }
            lines += students(report.students, report: report, width: width, style: style)
        case .list: lines += list(report.groups, report: report, width: width, style: style)
        }
        while lines.last == "" { lines.removeLast() }
        let page = ReportMessages.page(report)
        if !page.isEmpty { lines += [""] + shown(page, to: width) }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Grid

    /// The grid after its header: the totals over its cards, the bar's legend, then the rows of
    /// cards (none in a streamed grid's frame: `ReportGridStream` writes them).
    static func grid(_ report: Report, width: Int, style: TextStyle) -> [String] {
        var lines = shown(CardWords.totals(report.gridTotals, query: report.query), to: width)
        if let headline = OvernightWords.headline(report) { lines += shown(headline, to: width) }
        lines.append("")
        lines += legend(
            attention: report.gridTotals.needingAttention > 0, others: !report.query.buckets.isEmpty, width: width, style: style,
            lexicon: report.query.lexicon, added: Bucket.added.filter { report.gridTotals.counts[$0] > 0 })
        lines.append("")
        let cards = report.cards
        let layout = gridLayout(cards: cards.count, width: width)
        var index = 0
        while index < cards.count {
            lines += gridRow(
                cards[index..<min(cards.count, index + layout.columns)], cardWidth: layout.cardWidth, report: report, style: style)
            lines.append("")
            index += layout.columns
        }
        return lines
    }

    /// The marks of the bar (`-` for the tasks a `--bucket` filter leaves out, when `others`;
    /// excused work is `/`, so that the two never share a mark),
    /// and what a card framed with `=` means when one is. The places SPEC §11 added have a
    /// mark only when the grid has such tasks (`added`), after those of the first version.
    static func legend(
        attention: Bool, others: Bool, width: Int, style: TextStyle, lexicon: Lexicon = .english, added: [Bucket] = []
    ) -> [String] {
        let marks = (Bucket.original + added).map {
            coloured("\(ReportWords.mark($0)) \(ReportWords.word($0, lexicon))", $0, within: width, style: style)
        }
        let other = others ? ["- " + lexicon(.textOtherTasks)] : []
        // With §11's marks the legend is one or two marks longer than 80 columns hold: balanced,
        // so that no mark stands alone on a line. Without them it reads as it always has.
        let parts = [lexicon(.textBar)] + marks + other
        var lines =
            added.isEmpty
            ? DisplayWidth.flow(parts, separator: "  ", width: width) : DisplayWidth.balancedFlow(parts, separator: "  ", width: width)
        if attention { lines += shown(lexicon(.textFramed), to: width).map(style.attention) }
        return lines
    }

    /// As many columns as fit (but no more than there are cards); cards share the width, up to
    /// a comfortable maximum. Depends on the number of cards only, so a grid can be written
    /// row by row (`ReportGridStream`).
    static func gridLayout(cards: Int, width: Int) -> (columns: Int, cardWidth: Int) {
        let columns = max(1, min(max(1, cards), (width + gap) / (minimumCardWidth + gap)))
        return (columns, min(width, maximumCardWidth, (width - gap * (columns - 1)) / columns))
    }

    /// The lines of one row of cards side by side.
    static func gridRow(_ cards: ArraySlice<CourseCard>, cardWidth: Int, report: Report, style: TextStyle) -> [String] {
        var row = cards.map { card(for: $0, width: cardWidth, report: report, style: style) }
        // Cards of a row share one height: shorter ones get empty lines above their bottom edge.
        let height = row.map(\.count).max() ?? 0
        let blank = "|" + String(repeating: " ", count: cardWidth - 2) + "|"
        for i in row.indices where row[i].count < height {
            row[i].insert(contentsOf: Array(repeating: blank, count: height - row[i].count), at: row[i].count - 1)
        }
        return (0..<height).map { lineIndex in
            trailingTrimmed(row.map { $0[lineIndex] }.joined(separator: String(repeating: " ", count: gap)))
        }
    }

    /// One card: every line exactly `width` columns. The code is never cut (a long one wraps);
    /// the title takes one line on every card, cut with `…` when longer. A card that needs
    /// attention is framed with `=` and says so in words under its title; the counts follow
    /// (with a `--bucket` filter, only the card's summary: "6 overdue of 20 tasks").
    static func card(for card: CourseCard, width: Int, report: Report, style: TextStyle) -> [String] {
        let query = report.query
        let inner = max(1, width - 4)
        let lexicon = query.lexicon
        func line(_ text: String) -> String { "| " + DisplayWidth.pad(text, to: inner) + " |" }
        let attention = CardWords.attention(card.counts, lexicon)
        let edge = "+" + String(repeating: attention == nil ? "-" : "=", count: width - 2) + "+"
        let frame = attention == nil ? edge : style.attention(edge)
        var lines = [frame]
        lines += shown(card.course.code, to: inner).map { line(style.strong($0)) }
        lines.append(line(DisplayWidth.truncate(VisibleText.of(card.course.title), to: inner)))
        if card.total == 0 {
            lines += shown(lexicon(.textNoTasksYet), to: inner).map(line)
        } else {
            if let attention {
                // "needs attention:" then the counts, broken between them first.
                let separator = lexicon(.listSeparator)
                let counts = attention.components(separatedBy: separator)
                let mark = separator.trimmingCharacters(in: .whitespaces)
                let parts = [lexicon(.textNeedsAttention)] + counts.enumerated().map { $0 < counts.count - 1 ? $1 + mark : $1 }
                lines += DisplayWidth.flow(parts, separator: " ", width: inner).map { line(style.attention($0)) }
            }
            lines.append(line(bar(card, width: inner, scale: CardWords.barScale(card, query: query), style: style)))
            if query.buckets.isEmpty {
                let parts = CardWords.openCounted(card.counts).map {
                    coloured("\(ReportWords.mark($0)) \(card.count($0)) \(shortName($0, lexicon))", $0, within: inner, style: style)
                }
                lines += DisplayWidth.flow(parts, separator: "  ", width: inner).map(line)
                let summary = CardWords.summary(card, query: query)
                lines += shown("\(ReportWords.mark(.completed)) " + summary, to: inner).map { line(style.muted($0)) }
            } else {
                lines += shown(CardWords.summary(card, query: query), to: inner).map(line)
            }
        }
        if let changes = OvernightWords.card(card, report) {
            lines += DisplayWidth.flow(changes.components(separatedBy: " "), separator: " ", width: inner).map(line)
        }
        lines.append(frame)
        return lines
    }

    static func shortName(_ bucket: Bucket, _ lexicon: Lexicon = .english) -> String {
        switch bucket {
        case .overdue: return lexicon(.shortOverdue)
        case .today: return lexicon(.shortToday)
        case .upcoming: return lexicon(.shortUpcoming)
        case .undated: return lexicon(.shortUndated)
        case .completed: return ReportWords.word(.completed, lexicon)
        case .toGrade: return ReportWords.word(.toGrade, lexicon)
        case .excused: return ReportWords.word(.excused, lexicon)
        }
    }

    /// The bucket mix as marks, proportional to the counts (each non-empty bucket gets at least
    /// one mark), each bucket's marks in its colour. The bar's whole `width` stands for `scale`
    /// tasks (the card's shown tasks, or every task of the course with a `--bucket` filter:
    /// `CardWords.barScale`); the part no shown task takes is drawn with `-`.
    static func bar(_ card: CourseCard, width: Int, scale: Int? = nil, style: TextStyle = .plain) -> String {
        let shown = card.shown
        let scale = max(shown, scale ?? shown)
        guard shown > 0, width > 0 else { return String(repeating: "-", count: max(0, width)) }
        let buckets = Bucket.inReportOrder.filter { card.count($0) > 0 }
        var lengths = buckets.map { max(1, Int((Double(card.count($0)) / Double(scale) * Double(width)).rounded(.down))) }
        // The width the shown tasks fill (all of it unless the scale holds other tasks).
        let filled =
            scale == shown ? width : min(width, max(lengths.reduce(0, +), Int((Double(shown) / Double(scale) * Double(width)).rounded())))
        // Hand out what rounding left (or take back an excess) from the largest bucket.
        while lengths.reduce(0, +) < filled, let i = lengths.indices.max(by: { lengths[$0] < lengths[$1] }) { lengths[i] += 1 }
        while lengths.reduce(0, +) > filled, let i = lengths.indices.max(by: { lengths[$0] < lengths[$1] }), lengths[i] > 1 {
            lengths[i] -= 1
        }
        let marks = zip(buckets, lengths).map { style.bucket(String(repeating: ReportWords.mark($0), count: $1), $0) }.joined()
        return marks + String(repeating: "-", count: max(0, width - lengths.reduce(0, +)))
    }

    // MARK: - List

    static func list(_ groups: [CourseGroup], report: Report, width: Int, style: TextStyle = .plain) -> [String] {
        var lines: [String] = []
        for group in groups {
            let course = group.course
            let zone = zoneOf(course, report)
            let lexicon = report.query.lexicon
            lines += shown(lexicon(.courseTitle, course.code, course.title), to: width).map(style.strong)
            var about: [String] = []
            if !course.teacher.isEmpty { about.append(lexicon(.textTeacher, VisibleText.of(course.teacher))) }
            if !course.term.isEmpty { about.append(lexicon(.textTerm, VisibleText.of(course.term))) }
            about.append(lexicon(.textTimesIn, ReportWords.zoneName(zone)))
            lines += DisplayWidth.flow(about, separator: lexicon(.listSeparator), width: width)
            if let note = ReportMessages.completedNotShown(group, report: report) { lines += shown(note, to: width) }
            if let changes = OvernightWords.course(course.courseID, report) { lines += shown(changes, to: width) }
            if report.query.groupBy == .assignment, !group.assignments.isEmpty {
                lines.append("")
                lines += shown(RollUpWords.assignmentsHeading(group, lexicon), to: width - 2).map { "  " + $0 }
                lines += assignmentTable(group, zone: zone, width: width - 4, style: style, lexicon: lexicon).map { "    " + $0 }
                lines.append("")
                continue
            }
            if group.sections.isEmpty {
                let message =
                    group.liveTasks == 0
                    ? ReportMessages.courseWithoutTasks(course, lexicon: lexicon)
                    : ReportMessages.allCompleted(group, wording: report.query.wording, lexicon: lexicon)
                lines += shown(message, to: width - 2).map { "  " + $0 }
                lines.append("")
                continue
            }
            // One table for the course, cut into sections, so columns line up across buckets.
            let local = LocalAsOf(asOf: report.asOf, timeZone: zone)
            let table = table(
                group.sections.flatMap(\.tasks), zone: zone, local: local, width: width - 4, style: style, lexicon: lexicon)
            var next = 0
            for section in group.sections {
                lines.append("")
                lines += shown(ReportWords.sectionHeading(section, lexicon), to: width - 2).map {
                    "  " + style.bucket($0, section.bucket)
                }
                let slice = table.rows[next..<(next + section.tasks.count)].flatMap { $0 }
                next += section.tasks.count
                lines += (table.header + slice).map { "    " + $0 }
            }
            lines.append("")
        }
        return lines
    }

    /// Aligned columns ID TITLE STUDENT DUE PRIORITY STATUS: a header line and each task's
    /// lines. Only titles are cut (with …), and only when the other columns would not fit; when
    /// even that leaves too little room, each task takes two lines (its title, then the other
    /// cells) and nothing is cut. A pinned task's override ("set by hand until …: reason")
    /// follows its row on lines of its own, indented and wrapped, never cut. With colour, the
    /// status (always in words) is in its bucket's colour.
    static func table(
        _ tasks: [ReportTask], zone: TimeZone, local: LocalAsOf, width: Int, style: TextStyle = .plain, lexicon: Lexicon = .english
    ) -> (header: [String], rows: [[String]]) {
        let header = header([.colID, .colTitle, .colStudent, .colDue, .colPriority, .colStatus], lexicon)
        let titleColumn = 1
        var notes: [String?] = []
        let cells = tasks.map { task in
            let words = TaskRowWords(task, at: local, lexicon: lexicon)
            notes.append(words.override)
            return [
                VisibleText.of(task.task.taskID), VisibleText.of(task.task.title),
                task.task.studentID.isEmpty ? "-" : VisibleText.of(task.task.studentID),
                task.task.due.isEmpty ? "-" : lexicon.due(task.task.due, zone: zone), ReportWords.priority(task, lexicon),
                words.status,
            ]
        }
        func note(_ index: Int, indent: Int) -> [String] {
            guard let text = notes[index] else { return [] }
            return shown(text, to: width - indent).map { String(repeating: " ", count: indent) + $0 }
        }
        var widths = header.map(DisplayWidth.of)
        for row in cells {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], DisplayWidth.of(cell)) }
        }
        let others = widths.reduce(0, +) - widths[titleColumn] + 2 * (widths.count - 1)
        if width - others < 12 {
            let rows = cells.enumerated().map { index, row in
                var rest = row
                let title = rest.remove(at: titleColumn)
                let status = rest.removeLast()
                return shown(title, to: width)
                    + flow(rest, status: status, bucket: tasks[index].bucket, width: width - 2, style: style).map { "  " + $0 }
                    + note(index, indent: 2)
            }
            return ([], rows)
        }
        widths[titleColumn] = min(widths[titleColumn], width - others)
        func line(_ row: [String], _ bucket: Bucket?) -> String {
            var row = row
            row[titleColumn] = DisplayWidth.truncate(row[titleColumn], to: widths[titleColumn])
            let padded = row.enumerated().map { i, cell in i == row.count - 1 ? cell : DisplayWidth.pad(cell, to: widths[i]) }
            let last = padded.last ?? ""
            return trailingTrimmed(padded.dropLast().joined(separator: "  ") + "  " + (bucket.map { style.bucket(last, $0) } ?? last))
        }
        // The override's lines start under the title (at most a third of the width in).
        let noteIndent = min(widths[0] + 2, max(2, width / 3))
        return ([line(header, nil)], cells.enumerated().map { [line($1, tasks[$0].bucket)] + note($0, indent: noteIndent) })
    }

    /// A table's header: the columns' names in capitals ("ID", "TITLE"; "FÄLLIG"; Japanese as it is).
    static func header(_ columns: [Phrase], _ lexicon: Lexicon) -> [String] {
        columns.map { lexicon($0).uppercased(with: Locale(identifier: lexicon.tag.description)) }
    }

    /// `text` with the data's control, bidi and invisible characters made visible, then wrapped
    /// to `width`: every line of the report goes through here or through a table cell made
    /// visible, so no character of the data acts on the terminal.
    static func shown(_ text: String, to width: Int) -> [String] {
        DisplayWidth.wrap(VisibleText.of(text), to: width)
    }

    /// `parts` then `status` laid out as `DisplayWidth.flow` lays them out (" · " between
    /// them), the status in its bucket's colour on each line it takes: coloured after the
    /// layout, so a status wrapped over two lines opens and closes its colour on each.
    static func flow(_ parts: [String], status: String, bucket: Bucket, width: Int, style: TextStyle) -> [String] {
        var lines = DisplayWidth.flow(parts, separator: " · ", width: width)
        if let last = lines.last, DisplayWidth.of(last + " · " + status) <= width {
            lines[lines.count - 1] = last + " · " + style.bucket(status, bucket)
        } else if DisplayWidth.of(status) <= width {
            lines.append(style.bucket(status, bucket))
        } else {
            lines += DisplayWidth.wrap(status, to: width).map { style.bucket($0, bucket) }
        }
        return lines
    }

    /// `text` in `bucket`'s colour when it fits on a line of `width` (a layout never breaks it
    /// then), else plain: a colour never spans two lines.
    static func coloured(_ text: String, _ bucket: Bucket, within width: Int, style: TextStyle) -> String {
        DisplayWidth.of(text) <= width ? style.bucket(text, bucket) : text
    }

    static func trailingTrimmed(_ text: String) -> String {
        var result = text
        while result.last == " " { result.removeLast() }
        return result
    }
}
