import Foundation
import Testing

/// The code above the store boundary (docs/architecture.md, "The store boundary") writes no
/// SQL and names no SQLite type: the report pipeline, the store protocols, and the read-only
/// commands reach the store through `ReportReading`, `BatchReading` and `AuditReading` only.
@Suite("Store boundary: no SQL above it")
struct NoSQLAboveTheBoundaryTests {
    /// The repository's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Folders and files above the boundary.
    static let folders = [
        "Sources/DashboardCore/CSVReading", "Sources/DashboardCore/Normalizing", "Sources/DashboardCore/BucketPolicy",
        "Sources/DashboardCore/ReportPipeline", "Sources/DashboardCore/Rendering", "Sources/DashboardCore/StoreProtocols",
    ]
    static let files = [
        "Sources/dashboard/Commands/ReportCommand.swift", "Sources/dashboard/Commands/ReportOutput.swift",
        "Sources/dashboard/Commands/StatusCommand.swift", "Sources/dashboard/Commands/AuditCommand.swift",
    ]

    /// SQL, and the names of the SQLite layer (a word followed by `:` is a label or text,
    /// such as status's "Database: …" line); matched in code, not in comments.
    static var forbidden: [NSRegularExpression] {
        [
            #"\b(SELECT|INSERT INTO|DELETE FROM|CREATE (TEMP )?(TABLE|INDEX)|DROP TABLE|ORDER BY|LEFT JOIN)\b"#,
            #"\.database\b"#,
            #"\b(Database|Statement|SQLBindable|SQLiteError|BatchLog|AuditLog|inTransaction)\b(?!:)"#,
        ].compactMap { try? NSRegularExpression(pattern: $0) }
    }

    /// The forbidden patterns `code` contains.
    static func violations(_ code: String) -> [String] {
        forbidden.compactMap { pattern in
            pattern.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) == nil ? nil : pattern.pattern
        }
    }

    static func sources() throws -> [String] {
        var paths = files
        for folder in folders {
            let names = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            paths += names.filter { $0.hasSuffix(".swift") }.map { folder + "/" + $0 }
        }
        return paths.sorted()
    }

    /// The lines of `text` that are code (doc and line comments dropped).
    static func codeLines(_ text: String) -> [(Int, String)] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { number, line in
            let code = line.components(separatedBy: "//").first ?? ""
            return code.trimmingCharacters(in: .whitespaces).isEmpty ? nil : (number + 1, code)
        }
    }

    @Test("the files above the boundary are found")
    func found() throws {
        let paths = try Self.sources()
        try #require(paths.count >= 20)
        #expect(paths.contains("Sources/DashboardCore/ReportPipeline/ReportSource.swift"))
        #expect(paths.contains("Sources/DashboardCore/StoreProtocols/ReportReading.swift"))
    }

    @Test("no SQL text and no SQLite type above the boundary")
    func noSQL() throws {
        var found: [String] = []
        for path in try Self.sources() {
            let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            for (number, code) in Self.codeLines(text) {
                for pattern in Self.violations(code) { found.append("\(path):\(number): \(pattern)") }
            }
        }
        #expect(found.isEmpty, "SQL above the store boundary:\n\(found.joined(separator: "\n"))")
    }

    @Test("the check sees SQL in code and not in comments")
    func checkCanFail() {
        #expect(Self.forbidden.count == 3)
        let lines = Self.codeLines("/// SELECT 1 in a comment\nlet sql = \"SELECT 1\"\n// DROP TABLE too\n")
        #expect(lines.map(\.0) == [2])
        #expect(Self.violations(lines[0].1).count == 1)
        #expect(Self.violations("try store.database.run(x)").count == 1)
        #expect(Self.violations("let db: Database = open()").count == 1)
        #expect(Self.violations("let path = global.databasePath; print(\"Database: x\")").isEmpty)
    }
}
