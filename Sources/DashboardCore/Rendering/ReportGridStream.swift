import Foundation

/// A whole grid written card by card (pieces of `chunk` cards), so that the output of tens of
/// thousands of courses is never held at once; the cards come one at a time from the store
/// (`ReportCourseStream.GridCards`) or from a report. The bytes are those of
/// `ReportFormat.render` on the whole grid (a test holds it); text is written one row of cards
/// at a time. A paged grid and a grid with a state other than `ok` are rendered whole (a page
/// holds at most its limit of cards).
package enum ReportGridStream {
    /// Writes a grid held whole.
    /// - Parameter link: the file of each course's list page, for the HTML index.
    package static func write(
        _ report: Report, format: ReportFormat, width: Int, link: (CourseRecord) -> String? = { _ in nil }, chunk: Int = 256,
        style: TextStyle = .plain, emit: (String) -> Void
    ) throws {
        var frame = report
        frame.cards = []
        let source = HeldCards(cards: report.cards, links: report.cards.map { link($0.course) })
        try write(
            frame: frame, count: report.cards.count, source: source, format: format, width: width, chunk: chunk, style: style,
            emit: emit)
    }

    /// Writes the grid whose cards the store reads back one at a time.
    /// - Parameter link: the file of a course's list page when the course has one (the Bool).
    package static func write(
        _ cards: ReportCourseStream.GridCards, format: ReportFormat, width: Int,
        link: @escaping (CourseRecord, Bool) -> String? = { _, _ in nil }, chunk: Int = 256, style: TextStyle = .plain,
        emit: (String) -> Void
    ) throws {
        let source = StoredCards(cards: cards, link: link)
        try write(
            frame: cards.frame, count: cards.count, source: source, format: format, width: width, chunk: chunk, style: style,
            emit: emit)
    }

    /// Writes a grid of `count` cards that `source` gives one by one, each with its link.
    static func write(
        frame: Report, count: Int, source: some GridCardSource, format: ReportFormat, width: Int, chunk: Int, style: TextStyle,
        emit: (String) -> Void
    ) throws {
        let frame = frame.worded(for: format)
        func cards(_ body: (CourseCard, String?) -> Void) throws { try source.forEachCard(body) }
        guard frame.kind == .grid, frame.state == .ok, frame.page.limit == nil, count > 1 else {
            var report = frame
            var links: [String: String] = [:]
            try cards { card, link in
                report.cards.append(card)
                if let link { links[card.course.courseID] = link }
            }
            emit(format.render(report, width: width, link: { links[$0.courseID] }, style: style))
            return
        }
        var piece = frame
        let empty = format.render(frame, width: width, style: style)
        let size = max(1, chunk)
        switch format {
        case .text:
            // The frame ends with the bar's legend; each row of cards follows an empty line, and
            // the layout depends on the number of cards only (`TextRenderer.gridLayout`).
            let layout = TextRenderer.gridLayout(cards: count, width: max(20, width))
            emit(empty)
            var row: [CourseCard] = []
            func flush() {
                guard !row.isEmpty else { return }
                emit(
                    "\n"
                        + TextRenderer.gridRow(row[...], cardWidth: layout.cardWidth, report: frame, style: style).joined(
                            separator: "\n") + "\n")
                row = []
            }
            try cards { card, _ in
                row.append(card)
                if row.count == layout.columns { flush() }
            }
            flush()
        case .csv, .markdown:
            // The cards' rows follow the frame, and nothing comes after them (no page line).
            emit(empty)
            var links: [String: String] = [:]
            func flush() {
                guard !piece.cards.isEmpty else { return }
                emit(String(format.render(piece, width: width, link: { links[$0.courseID] }).dropFirst(empty.count)))
                piece.cards = []
                links = [:]
            }
            try cards { card, link in
                piece.cards.append(card)
                if let link { links[card.course.courseID] = link }
                if piece.cards.count == size { flush() }
            }
            flush()
        case .json:
            // `"courses": []` is the frame's last member; each card 4 spaces deeper.
            emit(String(empty.dropLast("[]\n}\n".count)) + "[")
            var first = true
            try cards { card, _ in
                var bytes = Array((first ? "\n    " : ",\n    ").utf8)
                first = false
                for byte in JSONReportRenderer.cardJSON(card, query: frame.query).rendered().utf8 {
                    bytes.append(byte)
                    if byte == 10 { bytes += [32, 32, 32, 32] }
                }
                emit(String(decoding: bytes, as: UTF8.self))
            }
            emit("\n  ]\n}\n")
        case .html:
            let marker = "\u{1}cards\u{1}"
            let body = HTMLRenderer.stateAware(frame) { HTMLRenderer.gridBody(frame, cards: marker) }
            let page = HTMLRenderer.page(
                title: HTMLRenderer.gridTitle(frame), heading: RollUpWords.reportName(frame), report: frame,
                nav: nil, body: body, script: HTMLRenderer.script(frame, .grid))
            let parts = page.components(separatedBy: marker)
            emit(parts.first ?? "")
            try cards { card, link in emit(HTMLRenderer.cardHTML(card, link: link, report: frame)) }
            emit(parts.count == 2 ? parts[1] : "")
        }
    }
}

/// Cards given one at a time, each with its link (none when nil).
protocol GridCardSource {
    func forEachCard(_ body: (CourseCard, String?) -> Void) throws
}

/// The cards of a grid held whole.
struct HeldCards: GridCardSource {
    let cards: [CourseCard]
    let links: [String?]

    func forEachCard(_ body: (CourseCard, String?) -> Void) throws {
        for (card, link) in zip(cards, links) { body(card, link) }
    }
}

/// The cards the store reads back.
struct StoredCards: GridCardSource {
    let cards: ReportCourseStream.GridCards
    let link: (CourseRecord, Bool) -> String?

    func forEachCard(_ body: (CourseCard, String?) -> Void) throws {
        try cards.forEachCard { card, linked in body(card, link(card.course, linked)) }
    }
}
