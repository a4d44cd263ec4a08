import Foundation
import Testing

/// Issue 32: what the engines say differently lives in the per-engine SQL files
/// (`Store/EngineSQL/`, `StoreSQL`), so no other file of the library branches on the engine or
/// defines a temporary table. The connection layer (`SQL/`) holds the engine and is left out.
/// The same check as docs/architecture.md's `grep`, made a test so it cannot rot.
@Suite("No engine branch and no temporary table outside the per-engine SQL files")
struct EngineBranchesTests {
    /// The checkout's root: the folder above this file that holds Package.swift.
    static var root: URL {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path), folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        return folder
    }

    static let pattern = try! NSRegularExpression(pattern: #"dialect (==|!=)|switch database\.dialect|CREATE TEMP TABLE"#)

    /// `path: line` of each line of `text` the pattern finds.
    static func findings(_ text: String, path: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            let line = String(line)
            let range = NSRange(line.startIndex..., in: line)
            return pattern.firstMatch(in: line, range: range) == nil ? nil : "\(path):\(index + 1): \(line)"
        }
    }

    @Test("the pattern finds what it must")
    func patternFinds() {
        #expect(Self.findings("a\n  if database.dialect == .postgres {", path: "x").count == 1)
        #expect(Self.findings("try database.execute(\"CREATE TEMP TABLE t (x TEXT)\")", path: "x").count == 1)
        #expect(Self.findings("switch database.dialect {", path: "x").count == 1)
        #expect(Self.findings("let dialect = resource.dialect", path: "x").isEmpty)
    }

    @Test("DashboardCore's files outside Store/EngineSQL/ and SQL/ hold none")
    func noneOutsideTheEngineFiles() throws {
        let core = Self.root.appendingPathComponent("Sources/DashboardCore")
        let walker = try #require(FileManager.default.enumerator(at: core, includingPropertiesForKeys: nil))
        var scanned = 0
        var found: [String] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let relative = String(url.path.dropFirst(core.path.count + 1))
            if relative.hasPrefix("Store/EngineSQL/") || relative.hasPrefix("SQL/") { continue }
            scanned += 1
            found += Self.findings(try String(contentsOf: url, encoding: .utf8), path: relative)
        }
        #expect(scanned > 200, "\(scanned) files scanned")
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
