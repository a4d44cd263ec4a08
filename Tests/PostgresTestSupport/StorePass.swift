import Foundation
import Testing

/// The two passes of `make test` and what decides which suites the second one runs.
///
/// `make test` runs the test bundle on SQLite files, then again with the store on PostgreSQL
/// (`DASHBOARD_TEST_STORE=postgresql`, docs/postgresql.md, "Tests"). A suite whose outcome no
/// store changes is marked `.storeIndependent` and runs in the SQLite pass only: the mark is the
/// one list of what the PostgreSQL pass leaves out, kept beside each suite.
///
/// The mark cannot silently drop a store test: in the SQLite pass, a test so marked that opens a
/// store through the helpers that would have given it a PostgreSQL database in the other pass
/// (the core tests' `TestStore.make`, the end-to-end tests' commands that name a database, the
/// `sqlite3` shell, a read of the database) records an issue naming the mark (`opened(_:)`): the
/// test fails until the mark goes.
public enum StorePass {
    /// True in the PostgreSQL pass.
    public static let isPostgres = ProcessInfo.processInfo.environment["DASHBOARD_TEST_STORE"] == "postgresql"

    /// The comment of `.storeIndependent`, by which a running test finds the mark among its traits
    /// (a suite's condition is a trait of each of its tests too).
    public static let storeIndependentComment: Comment = "does not depend on the store: runs in the SQLite pass only"

    /// True when the running test, or a suite it is in, is marked `.storeIndependent`.
    public static var currentTestIsStoreIndependent: Bool {
        guard let test = Test.current else { return false }
        return test.traits.contains { trait in
            (trait as? ConditionTrait)?.comments.contains(storeIndependentComment) == true
        }
    }

    /// Records an issue when the running test is marked `.storeIndependent` (so the PostgreSQL
    /// pass skips it) but opens `what`, a store that pass would have put on PostgreSQL.
    public static func opened(_ what: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard currentTestIsStoreIndependent else { return }
        Issue.record(
            """
            \(Test.current?.name ?? "this test") is marked .storeIndependent, so the PostgreSQL pass of make test skips it, \
            but it opens \(what()): remove the mark (it is a store test), or open no store
            """,
            sourceLocation: sourceLocation)
    }
}

extension Trait where Self == ConditionTrait {
    /// A suite (or test) whose outcome does not depend on the store: it opens none (values in,
    /// values out; help screens, the man page, completions, the docs, the alert rules) or only
    /// SQLite files of its own that no pass changes. It runs in the SQLite pass only, which keeps
    /// the PostgreSQL pass of `make test` to what the PostgreSQL store can change; a test so
    /// marked that opens a store the passes switch fails (`StorePass.opened`).
    public static var storeIndependent: Self { .enabled(if: !StorePass.isPostgres, StorePass.storeIndependentComment) }
}
