import Foundation
import Testing

/// Golden files under Tests/EndToEndTests/Goldens/: expected outputs compared byte for byte.
///
/// Policy: with `UPDATE_GOLDENS=1` in the environment a check writes the actual output into
/// its golden and still fails ("golden updated, re-run without UPDATE_GOLDENS"), so every
/// change to a golden goes through `git diff` and a second, clean run.
enum GoldenFile {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // EndToEndTests
        .appendingPathComponent("Goldens")

    static var updating: Bool { ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1" }

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Expects `actual` to be exactly the bytes of `Goldens/name` (or writes them there when
    /// updating).
    static func expectMatch(_ actual: Data, golden name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = url(name)
        let expected = try? Data(contentsOf: url)
        if updating {
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try actual.write(to: url)
                let change = expected == actual ? "unchanged" : (expected == nil ? "created" : "changed")
                Issue.record("golden updated, re-run without UPDATE_GOLDENS: Goldens/\(name) (\(change))", sourceLocation: sourceLocation)
            } catch {
                Issue.record("cannot write Goldens/\(name): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected else {
            Issue.record(
                "no golden Goldens/\(name) yet: run the tests with UPDATE_GOLDENS=1, read the new file, then run them again",
                sourceLocation: sourceLocation)
            return
        }
        if expected != actual {
            let message =
                "output differs from Goldens/\(name): \(firstDifference(expected, actual))\n"
                + "If the change is intended, run with UPDATE_GOLDENS=1 and review `git diff`."
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
    }

    static func expectMatch(_ actual: String, golden name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectMatch(Data(actual.utf8), golden: name, sourceLocation: sourceLocation)
    }

    /// The names of the files in `Goldens/folder`, sorted (empty when there is no such folder).
    static func listing(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url(folder).path)) ?? []).sorted()
    }

    /// When updating, removes the goldens of `folder` that are not in `keep`, so the folder
    /// mirrors the output exactly.
    static func pruneWhenUpdating(_ folder: String, keep: [String]) {
        guard updating else { return }
        for name in listing(folder) where !keep.contains(name) {
            try? FileManager.default.removeItem(at: url(folder).appendingPathComponent(name))
        }
    }

    /// The first line that differs, both versions shown with escapes (`\r`, `\t`) visible.
    static func firstDifference(_ expected: Data, _ actual: Data) -> String {
        // Split the bytes, not the String: "\r\n" is one Character and would hide CR changes.
        let old = Array(expected).split(separator: 0x0A, omittingEmptySubsequences: false)
        let new = Array(actual).split(separator: 0x0A, omittingEmptySubsequences: false)
        func shown(_ line: ArraySlice<UInt8>) -> String { String(decoding: line, as: UTF8.self).debugDescription }
        for index in 0..<max(old.count, new.count) {
            let a = index < old.count ? shown(old[index]) : "(end of file)"
            let b = index < new.count ? shown(new[index]) : "(end of file)"
            if index >= old.count || index >= new.count || old[index] != new[index] {
                return "line \(index + 1)\n  golden: \(a)\n  actual: \(b)"
            }
        }
        return "the same lines, different bytes (\(expected.count) vs \(actual.count))"
    }
}

/// Columns a monospaced terminal gives text: combining marks and format characters take none,
/// East Asian wide and full-width characters (and emoji) take two, everything else one.
enum TerminalColumns {
    static func of(_ text: some StringProtocol) -> Int { text.unicodeScalars.reduce(0) { $0 + of($1) } }

    static func of(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(scalar.value) } ? 2 : 1
    }

    /// The part of `line` that a terminal shows in columns `start..<end` (0-based).
    static func slice(_ line: some StringProtocol, _ columns: Range<Int>) -> String {
        var column = 0
        var out = ""
        for character in line {
            if column >= columns.lowerBound, column < columns.upperBound { out.append(character) }
            column += of(String(character))
        }
        return out
    }

    /// The column where `needle` starts in `line`, or nil.
    static func column(of needle: String, in line: String) -> Int? {
        guard let range = line.range(of: needle) else { return nil }
        return of(line[..<range.lowerBound])
    }
}

/// The cards of a text grid, read back from the output: each card's inner lines (between
/// `| ` and ` |`), and whether every line of it ends at the card's right edge.
struct TextGridCard {
    var lines: [String] = []
    var misaligned: [String] = []

    /// Reads cards row by row: a border line (`+---+  +---+`) opens a row of cards at the
    /// columns of its `+…+` runs, the next border line closes it.
    static func parse(_ output: String) -> [TextGridCard] {
        var cards: [TextGridCard] = []
        var open: [(span: Range<Int>, card: TextGridCard)]? = nil
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let spans = borderSpans(line)
            if !spans.isEmpty {
                if let row = open {
                    cards += row.map(\.card)
                    open = nil
                } else {
                    open = spans.map { ($0, TextGridCard()) }
                }
                continue
            }
            guard var row = open else { continue }
            for i in row.indices {
                let piece = TerminalColumns.slice(line, row[i].span)
                if piece.hasPrefix("| "), piece.hasSuffix(" |"), TerminalColumns.of(piece) == row[i].span.count {
                    var inner = String(piece.dropFirst(2).dropLast(2))
                    while inner.last == " " { inner.removeLast() }
                    row[i].card.lines.append(inner)
                } else {
                    row[i].card.misaligned.append(line)
                }
            }
            open = row
        }
        return cards
    }

    /// The column ranges of the `+---…+` runs of a border line (`+===…+` for a card that needs
    /// attention); empty for any other line.
    static func borderSpans(_ line: String) -> [Range<Int>] {
        guard line.hasPrefix("+-") || line.hasPrefix("+="), line.allSatisfy({ "+-= ".contains($0) }) else { return [] }
        return line.matches(of: /\+(?:-+|=+)\+/).map { match in
            let start = line.distance(from: line.startIndex, to: match.range.lowerBound)
            return start..<(start + match.output.count)
        }
    }
}

/// RFC 4180 records read back from CSV text (quoted fields, doubled quotes, CRLF line ends),
/// to check what a spreadsheet would see.
enum CSVRecords {
    static func parse(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var characters = Array(text.unicodeScalars)[...]
        while let c = characters.popFirst() {
            if quoted {
                if c == "\"" {
                    if characters.first == "\"" {
                        field.unicodeScalars.append(c)
                        characters = characters.dropFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                record.append(field)
                field = ""
            } else if c == "\r", characters.first == "\n" {
                characters = characters.dropFirst()
                records.append(record + [field])
                record = []
                field = ""
            } else {
                field.unicodeScalars.append(c)
            }
        }
        if !field.isEmpty || !record.isEmpty { records.append(record + [field]) }
        return records
    }
}
