import Foundation
import Testing

/// The manifest of the hostile-input corpus (Tests/Corpus/hostile/MANIFEST.tsv), read once:
/// what each file's import must do.
extension HostileCorpusTests {
    /// What an import is allowed to change: this many new rows, every other row byte for byte
    /// the same.
    struct DataChange: Equatable, Sendable, CustomStringConvertible {
        var courses = 0
        var tasks = 0

        var description: String {
            let parts = [(courses, "courses"), (tasks, "tasks")].filter { $0.0 != 0 }.map { "+\($0.0) \($0.1)" }
            return parts.isEmpty ? "none" : parts.joined(separator: " ")
        }

        /// Reads `none`, `+3 tasks`, `+6 courses` or `+1 courses +2 tasks`.
        init(_ text: String) throws {
            guard text != "none" else { return }
            let words = text.split(separator: " ")
            guard words.count % 2 == 0, !words.isEmpty else { throw HarnessError("data change \"\(text)\" is not `none` or `+N tasks`") }
            for index in stride(from: 0, to: words.count, by: 2) {
                guard words[index].hasPrefix("+"), let count = Int(words[index].dropFirst()) else {
                    throw HarnessError("data change \"\(text)\": \(words[index]) is not +N")
                }
                switch words[index + 1] {
                case "tasks": tasks = count
                case "courses": courses = count
                default: throw HarnessError("data change \"\(text)\": \(words[index + 1]) is neither tasks nor courses")
                }
            }
        }
    }

    /// One line of MANIFEST.tsv.
    struct Entry: CustomTestStringConvertible, Sendable {
        let file: String
        let exitCode: Int32
        /// Sorted problem codes, repeats included.
        let codes: [String]
        let change: DataChange
        /// Sorted `code@line` of every problem, or nil when lines are not checked.
        let lines: [String]?
        let description: String

        var generatedAtTestTime: Bool { description.hasPrefix("generated at test time") }
        var testDescription: String { file }

        /// Reads one tab-separated line: file, exit, codes, change, lines, description.
        init(_ line: Substring, number: Int) throws {
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cells.count == 6, let exit = Int32(cells[1]) else {
                throw HarnessError("MANIFEST.tsv line \(number): expected 6 tab-separated cells with a numeric exit code: \(line)")
            }
            file = cells[0]
            exitCode = exit
            codes = Self.expand(cells[2])
            change = try DataChange(cells[3])
            lines = cells[4] == "-" ? nil : Self.expand(cells[4])
            description = cells[5]
        }

        /// `code@line` items sorted by code, then by line as a number.
        static func sortedByCodeAndLine(_ items: [String]) -> [String] {
            func key(_ item: String) -> (String, Int) {
                let parts = item.split(separator: "@", maxSplits: 1)
                return (String(parts.first ?? ""), parts.count > 1 ? Int(parts[1]) ?? -1 : -1)
            }
            return items.sorted { key($0) < key($1) }
        }

        /// `a,b*3` → `[a, b, b, b]`; `-` → `[]`.
        static func expand(_ cell: String) -> [String] {
            guard cell != "-" else { return [] }
            return cell.split(separator: ",").flatMap { item -> [String] in
                if let star = item.lastIndex(of: "*"), let count = Int(item[item.index(after: star)...]) {
                    return Array(repeating: String(item[..<star]), count: count)
                }
                return [String(item)]
            }
        }
    }

    static let corpusDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Hardening
        .deletingLastPathComponent()  // EndToEndTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Corpus")
    static let hostileDirectory = corpusDirectory.appendingPathComponent("hostile")
    static let generator = corpusDirectory.appendingPathComponent("make_hostile.py")

    static let manifest: Result<[Entry], HarnessError> = Result {
        let url = hostileDirectory.appendingPathComponent("MANIFEST.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw HarnessError("cannot read \(url.path): run `python3 Tests/Corpus/make_hostile.py`")
        }
        return try text.split(separator: "\n").enumerated()
            .filter { !$0.element.hasPrefix("#") }
            .map { try Entry($0.element, number: $0.offset + 1) }
    }.mapError { $0 as? HarnessError ?? HarnessError("\($0)") }

    static var entries: [Entry] { (try? manifest.get()) ?? [] }
}
