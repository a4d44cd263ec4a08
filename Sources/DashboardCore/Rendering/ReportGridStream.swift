import Foundation

/// A whole grid written in pieces of `chunk` cards, so that the output of tens of thousands of
/// courses is never held at once (the cards themselves are: one per course). The bytes are
/// those of `ReportFormat.render` on the whole grid (a test holds it); text is written one row
/// of cards at a time. A paged grid and a grid with a state other than `ok` are rendered whole.
public enum ReportGridStream {
    /// - Parameter link: the file of each course's list page, for the HTML index.
    public static func write(
        _ report: Report, format: ReportFormat, width: Int, link: (CourseRecord) -> String? = { _ in nil }, chunk: Int = 256,
        emit: (String) -> Void
    ) {
        guard report.kind == .grid, report.state == .ok, report.page.limit == nil, report.cards.count > 1 else {
            emit(format.render(report, width: width, link: link))
            return
        }
        var frame = report
        frame.cards = []
        let empty = format.render(frame, width: width)
        let size = max(1, chunk)
        let pieces = stride(from: 0, to: report.cards.count, by: size).map { report.cards[$0..<min(report.cards.count, $0 + size)] }
        switch format {
        case .text:
            // The frame ends with the bar's legend; each row of cards follows an empty line, and
            // the layout depends on the number of cards only (`TextRenderer.gridLayout`).
            let textWidth = max(20, width)
            let layout = TextRenderer.gridLayout(cards: report.cards.count, width: textWidth)
            emit(empty)
            var index = 0
            while index < report.cards.count {
                let row = report.cards[index..<min(report.cards.count, index + layout.columns)]
                emit("\n" + TextRenderer.gridRow(row, cardWidth: layout.cardWidth).joined(separator: "\n") + "\n")
                index += layout.columns
            }
        case .csv, .markdown:
            // The cards' rows follow the frame, and nothing comes after them (no page line).
            emit(empty)
            for piece in pieces {
                frame.cards = Array(piece)
                emit(String(format.render(frame, width: width).dropFirst(empty.count)))
            }
        case .json:
            // `"courses": []` is the frame's last member; each card 4 spaces deeper.
            emit(String(empty.dropLast("[]\n}\n".count)) + "[")
            var first = true
            for piece in pieces {
                var bytes: [UInt8] = []
                for card in piece {
                    bytes += Array((first ? "\n    " : ",\n    ").utf8)
                    first = false
                    for byte in JSONReportRenderer.cardJSON(card).rendered().utf8 {
                        bytes.append(byte)
                        if byte == 10 { bytes += [32, 32, 32, 32] }
                    }
                }
                emit(String(decoding: bytes, as: UTF8.self))
            }
            emit("\n  ]\n}\n")
        case .html:
            let marker = "\u{1}cards\u{1}"
            let body = HTMLRenderer.stateAware(frame) { "<ul class=\"cards\">\n" + marker + "</ul>\n" }
            let page = HTMLRenderer.page(
                title: "Courses as of \(ReportWords.asOf(report.asOf, in: report.query.displayTimeZone))", heading: "Courses",
                report: frame, nav: nil, body: body)
            let parts = page.components(separatedBy: marker)
            guard parts.count == 2 else {
                emit(format.render(report, width: width, link: link))
                return
            }
            emit(parts[0])
            for piece in pieces { emit(piece.map { HTMLRenderer.cardHTML($0, link: link($0.course)) }.joined()) }
            emit(parts[1])
        }
    }
}
