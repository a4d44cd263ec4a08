/// How a shell words the places where the library points its user at the shell: the library
/// names the place as a hint (`ImportHint`, `ContractHint`, `AuditHint`, `MetricHint`), the
/// shell that called it says it in its own words (issue 32: the library holds no flag and no
/// command line). The command line's wordings live in the executable
/// (Sources/dashboard/Commands/Wording+CommandLine.swift); each hint type's `plain` wording
/// names the place in plain words, for library users and tests. `ReportWording` is the
/// reports' own, older shape of the same idea.
package struct Wording<Hint>: Sendable {
    /// The wording's name, for tests and traces (two wordings are equal when their names are).
    package var name: String
    package var words: @Sendable (Hint) -> String

    package init(name: String, words: @escaping @Sendable (Hint) -> String) {
        self.name = name
        self.words = words
    }

    /// The words for `hint`.
    package func callAsFunction(_ hint: Hint) -> String { words(hint) }
}

extension Wording: Equatable {
    package static func == (a: Wording, b: Wording) -> Bool { a.name == b.name }
}
