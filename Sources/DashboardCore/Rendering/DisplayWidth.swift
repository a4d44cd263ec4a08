import Foundation

/// Terminal display width: what a monospaced terminal shows, not bytes or characters.
///
/// Combining marks and zero-width characters take no column; East Asian wide and full-width
/// characters and emoji take two; everything else one.
package enum DisplayWidth {
    /// The columns `text` takes. An SGR sequence (`ESC [ … m`, a colour of `TextStyle`) takes
    /// none: only the renderers put a raw ESC in a line (the data's are shown as `␛` by
    /// `VisibleText` before anything is measured).
    package static func of(_ text: String) -> Int {
        // ASCII without an ESC: a column a byte (most of a report's lines; the property lookups
        // below were a sixth of a 20,000-course grid's time).
        if let columns = text.utf8.withContiguousStorageIfAvailable({ bytes -> Int? in
            for byte in bytes where byte >= 0x80 || byte == 0x1B || byte == 0 { return nil }
            return bytes.count
        }), let columns {
            return columns
        }
        var total = 0
        var inSequence = false
        for scalar in text.unicodeScalars {
            if inSequence {
                if scalar == "m" { inSequence = false }
                continue
            }
            if scalar == "\u{1B}" {
                inSequence = true
                continue
            }
            total += width(scalar)
        }
        return total
    }

    package static func width(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v == 0 { return 0 }
        // ASCII: one column (no mark, format character or emoji among it: `DisplayWidthTests`).
        if v < 0x80 { return 1 }
        return propertyWidth(scalar)
    }

    /// `width` from the scalar's Unicode properties and the wide ranges.
    static func propertyWidth(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v == 0 { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if v == 0x200B || (0xFE00...0xFE0F).contains(v) { return 0 }
        if (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v)
            || (0x1F900...0x1F9FF).contains(v) || (0x20000...0x3FFFD).contains(v)
            // Every other emoji shown as emoji by default (🚀, 🫠, ⚡, ✅), but not the regional
            // indicators that pair into flags.
            || (scalar.properties.isEmojiPresentation && !(0x1F1E6...0x1F1FF).contains(v))
        {
            return 2
        }
        return 1
    }

    /// Lays `parts` out on lines of at most `width` columns, `separator` between parts on a
    /// line, breaking only between parts (a part wider than a line is wrapped on its own).
    package static func flow(_ parts: [String], separator: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for part in parts {
            let candidate = current.isEmpty ? part : current + separator + part
            if of(candidate) <= width {
                current = candidate
                continue
            }
            if !current.isEmpty { lines.append(current) }
            if of(part) <= width {
                current = part
            } else {
                let pieces = wrap(part, to: width)
                lines += pieces.dropLast()
                current = pieces.last ?? ""
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// `flow`, with the lines as even as they can be on the fewest lines: the narrowest width
    /// that needs no more lines than `width` does ("a  b  c" and "d  e", not "a  b  c  d" and
    /// a lone "e").
    package static func balancedFlow(_ parts: [String], separator: String, width: Int) -> [String] {
        let lines = flow(parts, separator: separator, width: width)
        guard lines.count > 1 else { return lines }
        let widest = parts.map(of).max() ?? 0
        var narrowest = width
        while narrowest > widest, flow(parts, separator: separator, width: narrowest - 1).count == lines.count { narrowest -= 1 }
        return flow(parts, separator: separator, width: narrowest)
    }

    /// `text` cut to at most `width` columns, ending in `…` when something was cut.
    package static func truncate(_ text: String, to width: Int) -> String {
        if of(text) <= width { return text }
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let w = of(String(character))
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }

    /// `text` padded with spaces to `width` columns (never cut).
    package static func pad(_ text: String, to width: Int) -> String {
        let w = of(text)
        return w >= width ? text : text + String(repeating: " ", count: width - w)
    }

    /// Breaks `text` into lines of at most `width` columns without cutting anything: words
    /// move to the next line, and a word longer than a line is split. A line may break at a
    /// space (which the break removes) or after the ideographic comma, full stop, colon or
    /// semicolon of Japanese text (which stays at the end of its line), never inside a
    /// no-break space: "期限切れ 10 件、今日が期限 6 件" breaks after "、".
    package static func wrap(_ text: String, to width: Int) -> [String] {
        let limit = max(1, width)
        if of(text) <= limit { return [text] }
        var lines: [String] = []
        var line = ""
        for (joiner, word) in words(of: text) {
            var word = word
            let candidate = line.isEmpty ? word : line + joiner + word
            if of(candidate) <= limit {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = ""
            while of(word) > limit {
                var head = ""
                var rest = Substring(word)
                while let c = rest.first, of(head + String(c)) <= limit {
                    head.append(c)
                    rest = rest.dropFirst()
                }
                if head.isEmpty, let c = rest.first {
                    head = String(c)
                    rest = rest.dropFirst()
                }
                lines.append(head)
                word = String(rest)
            }
            line = word
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// The characters after which Japanese text may break without a space.
    static let breaksAfter: Set<Character> = ["、", "。", "：", "；", "，", "）"]

    /// The words of `text` between its break opportunities, each with what joins it to the
    /// word before on one line: a space, or nothing after an ideographic mark.
    static func words(of text: String) -> [(joiner: String, word: String)] {
        var result: [(joiner: String, word: String)] = []
        for (index, spaced) in text.split(separator: " ", omittingEmptySubsequences: true).enumerated() {
            var joiner = index == 0 ? "" : " "
            var word = ""
            for character in spaced {
                word.append(character)
                if breaksAfter.contains(character) {
                    result.append((joiner, word))
                    joiner = ""
                    word = ""
                }
            }
            if !word.isEmpty { result.append((joiner, word)) }
        }
        return result
    }
}
