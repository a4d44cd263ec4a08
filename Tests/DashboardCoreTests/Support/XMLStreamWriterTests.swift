import Foundation
import Testing

@testable import DashboardCore

/// `XMLStreamWriter`: well-formed XML 1.0 whatever the text, indented, in pieces.
@Suite(.storeIndependent) struct XMLStreamWriterTests {
    static func written(_ build: (XMLStreamWriter) throws -> Void) throws -> (text: String, pieces: Int) {
        var text = ""
        var pieces = 0
        let writer = XMLStreamWriter { piece in
            text += piece
            pieces += 1
        }
        try build(writer)
        try writer.finish()
        return (text, pieces)
    }

    @Test func elementsAreIndentedEmptyOnesCloseThemselvesAndTextIsKeptExactly() throws {
        let got = try Self.written { xml in
            try xml.start("a", [("n", "1")])
            try xml.element("empty")
            try xml.start("b")
            try xml.element("c", [("x", "y"), ("z", "")], text: "line 1\n  line 2\n")
            try xml.start("d")
            try xml.text("one ")
            try xml.text("two")
            try xml.end()
            try xml.end()
            try xml.start("left-open")
        }
        #expect(
            got.text == """
                <?xml version="1.0" encoding="UTF-8"?>
                <a n="1">
                  <empty/>
                  <b>
                    <c x="y" z="">line 1
                  line 2
                </c>
                    <d>one two</d>
                  </b>
                  <left-open/>
                </a>

                """)
    }

    @Test(arguments: [
        // (text, in element content, in an attribute value)
        ("plain text, ünïcödé, 日本語, ｱ", "plain text, ünïcödé, 日本語, ｱ", "plain text, ünïcödé, 日本語, ｱ"),
        ("a < b & c > d", "a &lt; b &amp; c &gt; d", "a &lt; b &amp; c &gt; d"),
        ("]]>", "]]&gt;", "]]&gt;"),
        ("\"double\" 'single'", "\"double\" 'single'", "&quot;double&quot; 'single'"),
        ("tab\tLF\nCR\r", "tab\tLF\nCR&#13;", "tab&#9;LF&#10;CR&#13;"),
        ("esc\u{1B}[31m bel\u{07} nul\u{00}", "esc␛[31m bel␇ nul␀", "esc␛[31m bel␇ nul␀"),
        ("not chars: \u{FFFE} \u{FFFF}", "not chars: &lt;U+FFFE&gt; &lt;U+FFFF&gt;", "not chars: &lt;U+FFFE&gt; &lt;U+FFFF&gt;"),
        ("allowed: \u{FFFD} \u{EFBF} \u{10FFFF}", "allowed: \u{FFFD} \u{EFBF} \u{10FFFF}", "allowed: \u{FFFD} \u{EFBF} \u{10FFFF}"),
    ])
    func textIsEscapedForElementsAndAttributes(text: String, content: String, attribute: String) {
        #expect(XMLStreamWriter.escaped(text) == content)
        #expect(XMLStreamWriter.escaped(text, attribute: true) == attribute)
    }

    @Test func noEscapedTextHoldsACharacterXMLForbids() {
        var every = ""
        for value in UInt32(0)...0x2FF { if let scalar = Unicode.Scalar(value) { every.unicodeScalars.append(scalar) } }
        for value in UInt32(0xFFF0)...0x1_0010 { if let scalar = Unicode.Scalar(value) { every.unicodeScalars.append(scalar) } }
        for attribute in [false, true] {
            let escaped = XMLStreamWriter.escaped(every, attribute: attribute)
            #expect(escaped.unicodeScalars.allSatisfy(XMLStreamWriter.isAllowed))
            #expect(!escaped.contains("<") && !escaped.contains("]]>"))
        }
    }

    @Test func aLargeDocumentIsHandedOnInPiecesOfAbout64KiB() throws {
        let got = try Self.written { xml in
            try xml.start("list")
            for i in 0..<20_000 { try xml.element("item", [("i", String(i))], text: "value \(i)") }
        }
        #expect(got.pieces > 5)
        #expect(got.text.hasSuffix("  <item i=\"19999\">value 19999</item>\n</list>\n"))
    }
}
