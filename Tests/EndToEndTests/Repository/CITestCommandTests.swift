import Foundation
import Testing

/// CI runs the README's test command in a fresh clone of HEAD, after the format check, so that
/// a test needing a file outside the repository fails in CI (.ci/run).
@Suite("CI: .ci/run clones HEAD and runs the README's test command there", .storeIndependent)
struct CITestCommandTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: DashboardBinary.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// The command on the README's `# … runs every test` line of its first code block.
    static func readmeTestCommand() throws -> String {
        let readme = try text("README.md")
        let line = try #require(readme.split(separator: "\n").first { $0.contains("#") && $0.contains("runs every test") })
        return String(line.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces)
    }

    @Test("the README's test command is make test")
    func readmeTestCommandIsMakeTest() throws {
        #expect(try Self.readmeTestCommand() == "make test")
    }

    @Test(".ci/run clones HEAD into a fresh temporary folder first, then runs make lint and the README's test command in the clone")
    func ciRunsTheTestCommandInAFreshClone() throws {
        let steps = try Self.text(".ci/run").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        let clone = try #require(steps.firstIndex { $0.hasPrefix("git clone --quiet \"$PWD\" ") })
        let enter = try #require(steps.firstIndex { $0 == "cd \"$clone\"" })
        let lint = try #require(steps.firstIndex(of: "make lint"))
        let test = try #require(steps.firstIndex(of: try Self.readmeTestCommand()))
        #expect(steps.prefix(clone).allSatisfy { !$0.hasPrefix("make ") }, "nothing is built before the clone")
        #expect(clone < enter && enter < lint && lint < test)
        #expect(test == steps.count - 1, "the test command is the last step")
        #expect(steps.contains { $0.hasPrefix("tmp=$(mktemp -d ") })
    }
}
