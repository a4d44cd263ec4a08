/// Writes an XML document that can be too large for memory, a piece at a time.
///
/// Policy (bounded memory, docs/reliability.md): like `JSONStreamWriter`, nothing that grows
/// with the data is built whole; elements are written as they come and the text is handed to
/// `sink` in pieces of about 64 KiB. The document is always well-formed XML 1.0 whatever the
/// text it is given:
/// - `&`, `<` and `>` are escaped in text and attributes (so `]]>` never appears), `"` in
///   attributes (which are always double-quoted);
/// - TAB, LF and CR are written as character references in attributes (a parser would turn
///   them into spaces) and CR in text (a parser would turn it into LF);
/// - a character XML 1.0 does not allow at all, even as a reference (the C0 controls other
///   than TAB, LF and CR, U+FFFE, U+FFFF), is shown as its visible escape (`VisibleText`:
///   `␛`, `<U+FFFE>`). Callers make user data visible first (`VisibleText.of`), so this is the
///   writer's own guarantee, not the place where data is made readable.
///
/// Elements are indented by two spaces per level; an element without content is written
/// `<name …/>`, and an element with text keeps its text exactly (no indentation inside it).
package final class XMLStreamWriter {
    /// Buffered text is handed to the sink once it reaches this many bytes.
    package static let flushThreshold = ChunkedText.threshold

    private var buffer: ChunkedText
    /// The open elements, innermost last, with whether each has content yet.
    private var open: [(name: String, hasChildren: Bool, hasText: Bool)] = []
    /// The start tag of the innermost element still lacks its `>` (it may yet end as `/>`).
    private var startTagPending = false

    /// Writes the XML declaration (`<?xml version="1.0" encoding="UTF-8"?>`).
    package init(sink: @escaping (String) throws -> Void) {
        buffer = ChunkedText(sink: sink)
        buffer.text += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
    }

    /// Opens `<name attributes…>` on a new line; close it with `end()`.
    package func start(_ name: String, _ attributes: [(String, String)] = []) throws {
        closePendingStartTag()
        if !open.isEmpty { open[open.count - 1].hasChildren = true }
        buffer.text += "\n" + String(repeating: "  ", count: open.count) + "<" + name
        for (key, value) in attributes {
            buffer.text += " " + key + "=\""
            Self.escape(value, attribute: true, into: &buffer.text)
            buffer.text += "\""
        }
        open.append((name, false, false))
        startTagPending = true
        try buffer.flushIfFull()
    }

    /// Writes `text` as content of the innermost open element, exactly (escaped).
    package func text(_ text: String) throws {
        guard !text.isEmpty, !open.isEmpty else { return }
        closePendingStartTag()
        open[open.count - 1].hasText = true
        Self.escape(text, attribute: false, into: &buffer.text)
        try buffer.flushIfFull()
    }

    /// Closes the innermost open element: `/>` when it has no content, its end tag on a line of
    /// its own when it has child elements, right after its text otherwise.
    package func end() throws {
        guard let element = open.popLast() else { return }
        if startTagPending {
            buffer.text += "/>"
            startTagPending = false
        } else if element.hasChildren && !element.hasText {
            buffer.text += "\n" + String(repeating: "  ", count: open.count) + "</" + element.name + ">"
        } else {
            buffer.text += "</" + element.name + ">"
        }
        try buffer.flushIfFull()
    }

    /// `<name attributes…>text</name>` (or `<name attributes…/>` for empty text).
    package func element(_ name: String, _ attributes: [(String, String)] = [], text: String = "") throws {
        try start(name, attributes)
        try self.text(text)
        try end()
    }

    /// Closes every element still open, ends the document with a newline and hands everything
    /// left to the sink.
    package func finish() throws {
        while !open.isEmpty { try end() }
        buffer.text += "\n"
        try buffer.flush()
    }

    // MARK: - Escaping

    /// True for a character XML 1.0 allows in a document (production `Char`).
    package static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// Appends `text` escaped for an attribute value (`attribute`) or element content.
    ///
    /// Works on the UTF-8 bytes: runs of bytes that need nothing are appended whole (a report
    /// of a million rows is mostly such runs). Every byte that needs escaping is ASCII, except
    /// U+FFFE and U+FFFF (`EF BF BE`, `EF BF BF`), so a run always ends on a character boundary.
    package static func escape(_ text: String, attribute: Bool, into out: inout String) {
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                var width = 1
                let replacement: String
                switch byte {
                case 0x26: replacement = "&amp;"
                case 0x3C: replacement = "&lt;"
                case 0x3E: replacement = "&gt;"
                case 0x22 where attribute: replacement = "&quot;"
                case 0x09 where attribute: replacement = "&#9;"
                case 0x0A where attribute: replacement = "&#10;"
                case 0x0D: replacement = "&#13;"
                case 0x09, 0x0A:
                    index += 1
                    continue
                case 0..<0x20:
                    replacement = VisibleText.escape(Unicode.Scalar(byte))
                case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE:
                    width = 3
                    let scalar: Unicode.Scalar = bytes[index + 2] == 0xBE ? "\u{FFFE}" : "\u{FFFF}"
                    replacement = escaped(VisibleText.escape(scalar), attribute: attribute)
                default:
                    index += 1
                    continue
                }
                if runStart < index { out += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self) }
                out += replacement
                index += width
                runStart = index
            }
            if runStart < bytes.count { out += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart...]), as: UTF8.self) }
        }
    }

    /// `text` escaped for element content (tests and small values).
    package static func escaped(_ text: String, attribute: Bool = false) -> String {
        var out = ""
        escape(text, attribute: attribute, into: &out)
        return out
    }

    private func closePendingStartTag() {
        if startTagPending {
            buffer.text += ">"
            startTagPending = false
        }
    }
}
