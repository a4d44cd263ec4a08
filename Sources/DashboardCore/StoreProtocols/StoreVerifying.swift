import Foundation

/// One thing `dashboard verify` found wrong: where (table, key, column), what (value) and
/// which rule of the stored-data contract (SPEC §9) it breaks.
package struct VerificationProblem: Equatable, Sendable {
    package var table: String
    /// The row's primary key (`T1`, `3`, `3/tasks`), or empty for a whole-file problem.
    package var key: String
    package var column: String
    /// The stored value as SQLite shows it (`NULL` for a null), or SQLite's own message.
    package var value: String
    package var rule: String

    package init(table: String, key: String, column: String, value: String, rule: String) {
        self.table = table
        self.key = key
        self.column = column
        self.value = value
        self.rule = rule
    }
}

/// The store's own check (`dashboard verify`): integrity, keys, stored values, audit chains.
package protocol StoreVerifying: AnyObject {
    /// Calls `report` with each problem found; a file damaged past reading ends the checks
    /// with `StoreError.damaged`.
    func verify(report: (VerificationProblem) -> Void) throws
}
