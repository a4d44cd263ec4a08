import Foundation
import PostgresTestSupport
import Testing

@testable import DashboardCore

/// The mark that keeps a suite out of the PostgreSQL pass (`.storeIndependent`, `StorePass`)
/// cannot hide a store test: a marked test that opens a store the passes switch fails.
@Suite("Store passes: a suite marked store-independent that opens a store fails", .storeIndependent)
struct StorePassTests {
    @Test("each test of a marked suite carries the mark")
    func theMarkReachesEveryTestOfTheSuite() {
        #expect(StorePass.currentTestIsStoreIndependent)
    }

    @Test("a marked test that opens a store through TestStore.make records an issue naming the mark")
    func aMarkedTestThatOpensAStoreFails() throws {
        try withKnownIssue {
            _ = try TestStore.make(TestFolders.path("store-pass") + ".sqlite")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("is marked .storeIndependent") }
                || "\(issue)".contains("is marked .storeIndependent")
        }
    }

    @Test("a marked test that opens an importer's store records the issue too")
    func aMarkedTestWithAnImporterFixtureFails() throws {
        try withKnownIssue {
            _ = try ImporterFixture()
        } matching: {
            "\($0)".contains("is marked .storeIndependent")
        }
    }
}

@Suite("Store passes: an unmarked suite opens its store on either pass")
struct StorePassUnmarkedTests {
    @Test("a test of an unmarked suite is not marked, and opening its store records nothing")
    func anUnmarkedTestOpensItsStore() throws {
        #expect(!StorePass.currentTestIsStoreIndependent)
        _ = try ImporterFixture()
    }
}
