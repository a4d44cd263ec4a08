import Foundation

extension PGSchema {
    /// A table: its name, key columns (the order a copy reads and compares it in), the identity
    /// column whose sequence follows the copied ids, and its column definitions.
    struct Table: Sendable {
        let name: String
        let key: [String]
        let identity: String?
        let definition: String

        init(_ name: String, key: [String], identity: String? = nil, _ definition: String) {
            (self.name, self.key, self.identity, self.definition) = (name, key, identity, definition)
        }

        /// The column names, in their order.
        var columns: [String] { columnTypes.map(\.name) }

        /// The columns a copy between the stores moves (`StoreCopy`): all but what each store
        /// keeps for its own imports (the fingerprints and slots of tasks, `RowPrints`: a copy
        /// starts with none, as a task another writer wrote).
        var copiedColumns: [(name: String, type: String)] {
            columnTypes.filter { name != "tasks" || !RowPrints.columns.map(\.column).contains($0.name) }
        }

        /// Each column's name and type (`bigint`, `text` or `bytea`), in their order: each definition
        /// line's columns (`code text, title text, …` holds several), constraint lines aside.
        var columnTypes: [(name: String, type: String)] {
            var found: [(name: String, type: String)] = []
            for line in definition.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("PRIMARY KEY") { continue }
                for part in trimmed.split(separator: ",") {
                    let words = part.split(separator: " ")
                    guard words.count >= 2, !words[0].hasPrefix("'") else { continue }
                    let type = words[1].lowercased()
                    if type == "bigint" || type == "text" || type == "bytea" { found.append((String(words[0]), type)) }
                }
            }
            return found
        }

        /// The key columns in the order of SQLite's BINARY collation (text compared as bytes).
        var byteOrder: String {
            let types = Dictionary(columnTypes.map { ($0.name, $0.type) }, uniquingKeysWith: { a, _ in a })
            return key.map { types[$0] == "text" ? "\($0) COLLATE \"C\"" : $0 }.joined(separator: ", ")
        }

        /// The table's CREATE statement: every text column compares in byte order (`COLLATE
        /// "C"`, as SQLite's BINARY), whatever the database's own collation.
        var create: String {
            var lines: [String] = []
            for line in definition.split(separator: "\n", omittingEmptySubsequences: false) {
                var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
                for index in words.indices where index > 0 && (words[index] == "text" || words[index] == "text,") {
                    // The type of the column named by the word before it (the name may be
                    // followed by spaces that align the types).
                    guard let name = words[..<index].last(where: { !$0.isEmpty }),
                        name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
                    else { continue }
                    words[index] = words[index].hasSuffix(",") ? "text COLLATE \"C\"," : "text COLLATE \"C\""
                }
                lines.append(words.joined(separator: " "))
            }
            return "CREATE TABLE \(name) (\n\(lines.joined(separator: "\n"))\n)"
        }
    }
}
