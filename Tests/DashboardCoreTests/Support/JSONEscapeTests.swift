import Foundation
import Testing

@testable import DashboardCore

/// JSON keeps the exact value but never carries a raw control, bidi or invisible character:
/// each is a `\uXXXX` escape (a surrogate pair beyond the BMP), and parsing gives the value back.
@Suite("JSON escapes: every character VisibleText escapes, exact on parsing", .storeIndependent)
struct JSONEscapeTests {
    static let cases: [(String, String)] = [
        ("plain ASCII", "\"plain ASCII\""),
        ("é 東京 🧪", "\"é 東京 🧪\""),
        ("del\u{7F}", "\"del\\u007f\""),
        ("c1\u{85}", "\"c1\\u0085\""),
        ("arabic mark\u{061C}", "\"arabic mark\\u061c\""),
        ("bom\u{FEFF}", "\"bom\\ufeff\""),
        ("soft\u{AD}hyphen", "\"soft\\u00adhyphen\""),
        ("mongolian\u{180E}", "\"mongolian\\u180e\""),
        ("tag\u{E0041}", "\"tag\\udb40\\udc41\""),
        ("filler\u{3164}", "\"filler\\u3164\""),
        ("rlo\u{202E}", "\"rlo\\u202e\""),
        ("<&>", "\"\\u003c\\u0026\\u003e\""),
    ]

    @Test(arguments: cases)
    func escapedAndExact(value: String, literal: String) throws {
        var out = ""
        JSONValue.escape(value, into: &out)
        #expect(out == literal)
        let parsed = try JSONSerialization.jsonObject(with: Data("[\(out)]".utf8)) as? [String]
        #expect(parsed == [value])
    }
}
