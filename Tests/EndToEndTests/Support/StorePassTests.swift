import Foundation
import PostgresTestSupport
import Testing

/// The mark that keeps a suite out of the PostgreSQL pass (`.storeIndependent`, `StorePass`)
/// cannot hide a store test: a marked test whose command opens a database fails.
@Suite("Store passes: a command of a store-independent suite that opens a database fails", .storeIndependent)
struct StorePassCommandTests {
    @Test("a command that needs no database leaves none, and the test passes")
    func helpLeavesNoDatabase() throws {
        let sandbox = try Sandbox()
        #expect(StorePass.currentTestIsStoreIndependent)
        #expect(try sandbox.run(["--help"]).exitCode == 0)
        #expect(!sandbox.exists("dashboard.sqlite"))
    }

    @Test("an import in a marked test records an issue naming the mark")
    func anImportInAMarkedTestFails() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", "course_id,title\nc1,Maths\n")
        try withKnownIssue {
            _ = try sandbox.run(["import", "courses.csv"])
        } matching: {
            "\($0)".contains("is marked .storeIndependent")
        }
    }

    @Test("a hand edit in the sqlite3 shell in a marked test records the issue too")
    func aShellInAMarkedTestFails() throws {
        let sandbox = try Sandbox()
        try withKnownIssue {
            _ = try sandbox.sqlShell("other.sqlite", "SELECT 1")
        } matching: {
            "\($0)".contains("is marked .storeIndependent")
        }
    }
}
