import Foundation

/// Renders reports for a terminal: plain text, no line wider than the width, status in words.
public enum TextRenderer {
    /// The narrowest a grid card may be.
    public static let minimumCardWidth = 24
    /// The widest a grid card gets, however wide the terminal.
    public static let maximumCardWidth = 44
    static let gap = 2

    public static func render(_ report: Report, width: Int) -> String {
        let width = max(20, width)
        var lines: [String] = []
        let header = report.kind == .grid ? "Courses" : "Task lists"
        lines += shown("\(header) as of \(ReportWords.asOf(report.asOf, in: report.query.displayTimeZone))", to: width)
        if let stale = report.stale {
            lines += shown("! " + stale.message + " " + stale.nextStep(report.query.wording), to: width)
        }
        switch report.state {
        case .noData:
            lines += shown(ReportMessages.noData, to: width)
            lines += shown(ReportMessages.noDataNext(report.query.wording), to: width)
            return lines.joined(separator: "\n") + "\n"
        case .noMatch:
            lines += shown(ReportMessages.noMatch(report), to: width)
            lines += shown(ReportMessages.noMatchNext(report), to: width)
            return lines.joined(separator: "\n") + "\n"
        case .ok:
            break
        }
        if report.query.narrows {
            lines += shown(
                "Showing \(report.matchingTasks) of \(report.matchingTasks + report.hiddenTasks) tasks: \(report.query.describedNarrowing)",
                to: width)
        }
        lines.append("")
        switch report.kind {
        case .grid: lines += grid(report.cards, width: width)
        case .list: lines += list(report.groups, report: report, width: width)
        }
        while lines.last == "" { lines.removeLast() }
        let page = ReportMessages.page(report)
        if !page.isEmpty { lines += [""] + shown(page, to: width) }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Grid

    static func grid(_ cards: [CourseCard], width: Int) -> [String] {
        var lines = DisplayWidth.flow(
            ["Bar:", "! overdue", "* today", "+ upcoming", "? no due date", "# completed"], separator: "  ", width: width)
        lines.append("")
        let layout = gridLayout(cards: cards.count, width: width)
        var index = 0
        while index < cards.count {
            lines += gridRow(cards[index..<min(cards.count, index + layout.columns)], cardWidth: layout.cardWidth)
            lines.append("")
            index += layout.columns
        }
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
    static func gridRow(_ cards: ArraySlice<CourseCard>, cardWidth: Int) -> [String] {
        var row = cards.map { card(for: $0, width: cardWidth) }
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

    /// One card: every line exactly `width` columns.
    static func card(for card: CourseCard, width: Int) -> [String] {
        let inner = max(1, width - 4)
        func line(_ text: String) -> String { "| " + DisplayWidth.pad(text, to: inner) + " |" }
        var lines = ["+" + String(repeating: "-", count: width - 2) + "+"]
        lines += shown(card.course.code, to: inner).map(line)
        lines += shown(card.course.title, to: inner).map(line)
        if card.total == 0 {
            lines += shown("no tasks yet", to: inner).map(line)
        } else {
            lines.append(line(bar(card, width: inner)))
            let parts = Bucket.allCases.filter { $0 != .completed }.map { "\(ReportWords.mark($0)) \(card.count($0)) \(shortName($0))" }
            lines += DisplayWidth.flow(parts, separator: "  ", width: inner).map(line)
            lines += shown("# \(card.count(.completed))/\(card.total) completed", to: inner).map(line)
        }
        lines.append("+" + String(repeating: "-", count: width - 2) + "+")
        return lines
    }

    static func shortName(_ bucket: Bucket) -> String {
        bucket == .undated ? "no date" : bucket.rawValue
    }

    /// The bucket mix as marks, proportional to the counts (each non-empty bucket gets at least
    /// one mark), filling `width`.
    static func bar(_ card: CourseCard, width: Int) -> String {
        let shown = card.shown
        guard shown > 0, width > 0 else { return String(repeating: ".", count: max(0, width)) }
        let buckets = Bucket.allCases.filter { card.count($0) > 0 }
        var lengths = buckets.map { max(1, Int((Double(card.count($0)) / Double(shown) * Double(width)).rounded(.down))) }
        // Hand out what rounding left (or take back an excess) from the largest bucket.
        while lengths.reduce(0, +) < width, let i = lengths.indices.max(by: { lengths[$0] < lengths[$1] }) { lengths[i] += 1 }
        while lengths.reduce(0, +) > width, let i = lengths.indices.max(by: { lengths[$0] < lengths[$1] }), lengths[i] > 1 {
            lengths[i] -= 1
        }
        return zip(buckets, lengths).map { String(repeating: ReportWords.mark($0), count: $1) }.joined()
    }

    // MARK: - List

    static func list(_ groups: [CourseGroup], report: Report, width: Int) -> [String] {
        var lines: [String] = []
        for group in groups {
            let course = group.course
            let zone = zoneOf(course, report)
            lines += shown("\(course.code) — \(course.title)", to: width)
            var about: [String] = []
            if !course.teacher.isEmpty { about.append("teacher \(VisibleText.of(course.teacher))") }
            if !course.term.isEmpty { about.append("term \(VisibleText.of(course.term))") }
            about.append("times in \(ReportWords.zoneName(zone))")
            lines += DisplayWidth.flow(about, separator: ", ", width: width)
            if let note = ReportMessages.completedNotShown(group, report: report) { lines += shown(note, to: width) }
            if group.sections.isEmpty {
                let message =
                    group.liveTasks == 0
                    ? ReportMessages.courseWithoutTasks(course) : ReportMessages.allCompleted(group, wording: report.query.wording)
                lines += shown(message, to: width - 2).map { "  " + $0 }
                lines.append("")
                continue
            }
            // One table for the course, cut into sections, so columns line up across buckets.
            let local = LocalAsOf(asOf: report.asOf, timeZone: zone)
            let table = table(group.sections.flatMap(\.tasks), zone: zone, local: local, width: width - 4)
            var next = 0
            for section in group.sections {
                lines.append("")
                lines += shown(ReportWords.sectionHeading(section), to: width - 2).map { "  " + $0 }
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
    /// follows its row on lines of its own, indented and wrapped, never cut.
    static func table(_ tasks: [ReportTask], zone: TimeZone, local: LocalAsOf, width: Int) -> (header: [String], rows: [[String]]) {
        let header = ["ID", "TITLE", "STUDENT", "DUE", "PRIORITY", "STATUS"]
        let titleColumn = 1
        var notes: [String?] = []
        let cells = tasks.map { task in
            let words = TaskRowWords(task, at: local)
            notes.append(words.override)
            return [
                VisibleText.of(task.task.taskID), VisibleText.of(task.task.title),
                task.task.studentID.isEmpty ? "-" : VisibleText.of(task.task.studentID),
                task.task.due.isEmpty ? "-" : ReportWords.due(task.task.due, zone: zone), ReportWords.priority(task), words.status,
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
                return shown(title, to: width)
                    + DisplayWidth.flow(rest, separator: " · ", width: width - 2).map { "  " + $0 } + note(index, indent: 2)
            }
            return ([], rows)
        }
        widths[titleColumn] = min(widths[titleColumn], width - others)
        func line(_ row: [String]) -> String {
            var row = row
            row[titleColumn] = DisplayWidth.truncate(row[titleColumn], to: widths[titleColumn])
            let padded = row.enumerated().map { i, cell in i == row.count - 1 ? cell : DisplayWidth.pad(cell, to: widths[i]) }
            return trailingTrimmed(padded.joined(separator: "  "))
        }
        // The override's lines start under the title (at most a third of the width in).
        let noteIndent = min(widths[0] + 2, max(2, width / 3))
        return ([line(header)], cells.enumerated().map { [line($1)] + note($0, indent: noteIndent) })
    }

    /// `text` with the data's control, bidi and invisible characters made visible, then wrapped
    /// to `width`: every line of the report goes through here or through a table cell made
    /// visible, so no character of the data acts on the terminal.
    static func shown(_ text: String, to width: Int) -> [String] {
        DisplayWidth.wrap(VisibleText.of(text), to: width)
    }

    static func trailingTrimmed(_ text: String) -> String {
        var result = text
        while result.last == " " { result.removeLast() }
        return result
    }
}
