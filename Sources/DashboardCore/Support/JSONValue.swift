/// A JSON value with ordered object keys, rendered deterministically (the same value gives
/// the same bytes), for the outputs test suites read.
package indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.rendered() == rhs.rendered()
    }

    /// The value as JSON text; `indent` spaces per level, or compact with `indent` 0.
    package func rendered(indent: Int = 2) -> String {
        rendered(indent: indent, level: 0)
    }

    /// The value as it appears nested `level` deep (for `JSONStreamWriter`).
    func rendered(indent: Int, level: Int) -> String {
        var out = ""
        write(into: &out, indent: indent, level: level)
        return out
    }

    private func write(into out: inout String, indent: Int, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .string(let s): JSONValue.escape(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                newline(&out, indent: indent, level: level + 1)
                item.write(into: &out, indent: indent, level: level + 1)
            }
            newline(&out, indent: indent, level: level)
            out += "]"
        case .object(let pairs):
            if pairs.isEmpty { out += "{}"; return }
            out += "{"
            for (i, pair) in pairs.enumerated() {
                if i > 0 { out += "," }
                newline(&out, indent: indent, level: level + 1)
                JSONValue.escape(pair.0, into: &out)
                out += indent > 0 ? ": " : ":"
                pair.1.write(into: &out, indent: indent, level: level + 1)
            }
            newline(&out, indent: indent, level: level)
            out += "}"
        }
    }

    private func newline(_ out: inout String, indent: Int, level: Int) {
        guard indent > 0 else { return }
        out += "\n"
        out += String(repeating: " ", count: indent * level)
    }

    /// Appends `s` as a JSON string literal: the exact value, with every control character
    /// (C0, DEL, C1), bidi control, invisible format character and line or paragraph separator
    /// written as `\uXXXX` (the characters `VisibleText` escapes for people), so the bytes of a
    /// JSON output never act on a terminal or a viewer; `<`, `>` and `&` escaped too so the text
    /// is safe inside HTML.
    package static func escape(_ s: String, into out: inout String) {
        // Fast path: most values are printable ASCII that needs no escape at all, and are
        // appended whole (one scan of their UTF-8 bytes instead of one append per scalar: audit
        // and problem lists of millions of entries spend most of their time here). Anything
        // else, every non-ASCII byte included (C1 controls, bidi and format characters are
        // spread over many lead bytes), takes the scalar-by-scalar path.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F || $0 == 0x22 || $0 == 0x5C || $0 == 0x3C || $0 == 0x3E || $0 == 0x26 }) {
            out += "\""
            out += s
            out += "\""
            return
        }
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            default:
                if VisibleText.needsEscape(scalar) {
                    // Beyond the BMP (the tag characters U+E0000…) as a UTF-16 surrogate pair,
                    // as JSON requires.
                    let value = scalar.value
                    if value > 0xFFFF {
                        let v = value - 0x10000
                        out += utf16Escape(0xD800 + (v >> 10)) + utf16Escape(0xDC00 + (v & 0x3FF))
                    } else {
                        out += utf16Escape(value)
                    }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// `\uXXXX` for one UTF-16 code unit, four lowercase hex digits.
    static func utf16Escape(_ unit: UInt32) -> String {
        let hex = String(unit, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
