/// What a migration of the SQLite schema (`Schema.migrations`) is made of, and what is read from
/// the list: the current version and the tables each version holds.
extension Schema {
    /// One step of the schema's history.
    enum Migration {
        /// Statements run as they are.
        case sql(String)
        /// CHECK constraints of the form `column IN (list)` respelled as `column = a OR column = b …`.
        case respellChecks([ValueListCheck])
        /// CHECK constraints' texts replaced by others in their tables' stored `CREATE TABLE`
        /// (a rule that allows more values than before: every stored row stays valid).
        case rewriteChecks([CheckRewrite])
        /// Columns added to existing tables, each only when the table does not have it yet
        /// (SQLite has no `ADD COLUMN IF NOT EXISTS`), then statements run as they are (written
        /// so that running them again changes nothing: `CREATE INDEX IF NOT EXISTS`).
        case addColumns([ColumnAddition], then: String)
    }

    /// A column a migration adds: `ALTER TABLE table ADD COLUMN definition`.
    struct ColumnAddition: Equatable {
        var table: String
        /// The column's name.
        var column: String
        /// What follows the name: type, constraints, default.
        var definition: String

        var statement: String { "ALTER TABLE \(table) ADD COLUMN \(column) \(definition)" }
    }

    /// One CHECK constraint's text in a table's `CREATE TABLE`, and what replaces it.
    struct CheckRewrite: Equatable {
        var table: String
        var old: String
        var new: String
    }

    /// A CHECK constraint that allows a column a fixed list of text values.
    struct ValueListCheck: Equatable {
        var table: String
        var column: String
        var values: [String]

        /// How migrations 1 and 2 wrote it.
        var inList: String { "CHECK (\(column) IN (\(values.map { "'\($0)'" }.joined(separator: ", "))))" }
        /// How it is written from migration 3 on: the same rule.
        var orChain: String { "CHECK (\(values.map { "\(column) = '\($0)'" }.joined(separator: " OR ")))" }
    }

    /// The constraints migration 3 respells (part of a shipped migration: never edit).
    static let respelledChecks: [ValueListCheck] = [
        ValueListCheck(
            table: "batches", column: "status",
            values: ["running", "committed", "failed", "dry_run", "held", "approved", "discarded", "reverted"]),
        ValueListCheck(table: "tasks", column: "priority", values: ["low", "normal", "high"]),
        ValueListCheck(table: "course_history", column: "change", values: ["insert", "update", "delete", "restore"]),
        ValueListCheck(table: "task_history", column: "change", values: ["insert", "update", "delete", "restore"]),
        ValueListCheck(table: "audit", column: "cause", values: ["time", "import", "override", "delete", "restore", "revert"]),
        ValueListCheck(table: "overrides", column: "bucket", values: ["overdue", "today", "upcoming", "undated", "completed"]),
    ]

    /// The version a database has after every migration of this build.
    static var currentVersion: Int { migrations.count }

    /// The tables a database holds at `version`, read from the migrations' own text (so a
    /// file from before the mark is recognised by exactly the tables those migrations made).
    static func tables(through version: Int) -> Set<String> {
        var names: Set<String> = []
        for migration in migrations.prefix(max(0, min(version, migrations.count))) {
            let text: String
            switch migration {
            case .sql(let statements), .addColumns(_, then: let statements): text = statements
            case .respellChecks, .rewriteChecks: continue
            }
            for piece in text.components(separatedBy: "CREATE TABLE ").dropFirst() {
                let part = piece.hasPrefix("IF NOT EXISTS ") ? piece.dropFirst("IF NOT EXISTS ".count) : Substring(piece)
                if let name = part.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == "\n" }).first {
                    names.insert(String(name))
                }
            }
        }
        return names
    }
}
