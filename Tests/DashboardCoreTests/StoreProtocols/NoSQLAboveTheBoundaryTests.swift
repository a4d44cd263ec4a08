import Foundation
import Testing

/// The code above the store boundary (docs/architecture.md, "The store boundary") writes no
/// SQL and names no SQLite type: the report pipeline, the categorizer's decisions, the nightly
/// job, the store protocols and every command reach the store through the protocols of
/// `StoreProtocols/` only (read side: `ReportReading`, `BatchReading`, `AuditReading`; write
/// side: `ImportWriting`, `BucketWriting`, `AuditWriting`, `StoreVerifying`). Only
/// `Sources/dashboard/CLI/StoreFactory.swift` names the SQLite store, to open it.
@Suite("Store boundary: no SQL above it")
struct NoSQLAboveTheBoundaryTests {
    /// The repository's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Folders and files above the boundary.
    static let folders = [
        "Sources/DashboardCore/CSVReading", "Sources/DashboardCore/Normalizing", "Sources/DashboardCore/BucketPolicy",
        "Sources/DashboardCore/ReportPipeline", "Sources/DashboardCore/Rendering", "Sources/DashboardCore/StoreProtocols",
        "Sources/DashboardCore/Categorizing", "Sources/DashboardCore/Nightly", "Sources/dashboard/Commands",
    ]
    static let files = ["Sources/dashboard/CLI/Invocation.swift", "Sources/dashboard/CLI/Dashboard.swift"]

    /// SQL, and the names of the SQLite layer (a word followed by `:` is a label or text,
    /// such as status's "Database: …" line); matched in code, not in comments.
    static var forbidden: [NSRegularExpression] {
        [
            #"\b(SELECT|INSERT INTO|DELETE FROM|CREATE (TEMP )?(TABLE|INDEX)|DROP TABLE|ORDER BY|LEFT JOIN)\b"#,
            #"\.database\b"#,
            #"\b(Database|Statement|SQLBindable|SQLiteError|BatchLog|AuditLog|inTransaction|Store|Importer|Verifier|StagingArea|LiveRows|ChangeHistory|CategorizePass|BucketChanges)\b(?!:)"#,
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
        #expect(paths.contains("Sources/DashboardCore/Categorizing/Categorizer.swift"))
        #expect(paths.contains("Sources/DashboardCore/Nightly/NightlyJob.swift"))
        for command in ["Import", "Categorize", "Reclassify", "Revert", "Batches", "Verify", "Nightly", "Check"] {
            #expect(paths.contains("Sources/dashboard/Commands/\(command)Command.swift"))
        }
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
        #expect(Self.violations("let store = try Store(path: path)").count == 1)
        #expect(Self.violations("try Importer(store: store).run(files: files)").count == 1)
        #expect(Self.violations("try CategorizePass.run(database, plan: plan)").count == 1)
        #expect(Self.violations("throw CommandError.store(StoreError.busy)").isEmpty)
        #expect(Self.violations("let path = global.databasePath; print(\"Database: x\")").isEmpty)
    }
}
