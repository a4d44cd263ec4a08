import Foundation
import PostgresTestSupport
import Testing

@testable import DashboardCore

/// Issue 32: the persistent schema is written twice by hand (`Schema` for SQLite, `PGSchema`
/// for PostgreSQL). Beyond the column names and their order (`PGStoreTests`), each column of
/// each table must agree in type, NOT NULL, default, the values its CHECK allows, its place in
/// the primary key and the table it references; and each table's triggers must cover the same
/// writes. Read from the two live databases a new store makes (SQLite's `sqlite_schema` and
/// PRAGMAs, PostgreSQL's catalogs), so that what the migrations and upgrades leave is compared,
/// not the source text.
@Suite("PostgreSQL: the two engines' schemas agree column by column", .postgresPass)
struct PGSchemaParityTests {
    /// One column as both engines can describe it.
    struct Column: Equatable, CustomStringConvertible {
        var type: String
        var notNull: Bool
        var defaultValue: String
        var allowed: [String]
        var key: Bool
        var references: String

        var description: String {
            "\(type)\(notNull ? " NOT NULL" : "")\(defaultValue.isEmpty ? "" : " DEFAULT \(defaultValue)")"
                + "\(allowed.isEmpty ? "" : " CHECK \(allowed)")\(key ? " KEY" : "")\(references.isEmpty ? "" : " → \(references)")"
        }
    }

    /// SQLite's type names as PostgreSQL spells them (`PGSchema`, "Types").
    static let types = ["INTEGER": "bigint", "TEXT": "text", "BLOB": "bytea"]

    /// What only SQLite keeps: the titles' folds (`TitleFolds`).
    static let sqliteOnly: Set<String> = Set(TitleFolds.columns.map { "tasks." + $0.column })

    /// The references PostgreSQL checks with statement triggers instead of foreign keys (docs/
    /// postgresql.md, "The references of tasks"): the column, and the trigger that checks it.
    static let referencesByTrigger = [
        "tasks.course_id": "courses", "tasks.deleted_batch": "batches", "tasks.changed_batch": "batches",
        "tasks.created_batch": "batches",
    ]

    /// The quoted words and the numbers of a CHECK: the values it allows.
    static func values(_ check: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: "'([^']*)'|(?<![A-Za-z_0-9])([0-9]+)(?![A-Za-z_0-9])")
        let text = check as NSString
        return pattern.matches(in: check, range: NSRange(location: 0, length: text.length)).map { match in
            let group = match.range(at: 1).location != NSNotFound ? 1 : 2
            return text.substring(with: match.range(at: group))
        }.sorted()
    }

    /// A default as both spell it: PostgreSQL's casts (`''::text`) left out.
    static func normalizedDefault(_ text: String?) -> String {
        guard var text, !text.isEmpty else { return "" }
        for cast in ["::text", "::bigint", "::integer"] { text = text.replacingOccurrences(of: cast, with: "") }
        if text.hasPrefix("("), text.hasSuffix(")") { text = String(text.dropFirst().dropLast()) }
        return text
    }

    /// The column definitions of a `CREATE TABLE` text, split at the commas outside parentheses.
    static func definitions(_ create: String) -> [String] {
        guard let open = create.firstIndex(of: "("), let close = create.lastIndex(of: ")") else { return [] }
        var parts: [String] = []
        var depth = 0
        var current = ""
        for character in create[create.index(after: open)..<close] {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if character == ",", depth == 0 {
                parts.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
        return parts.filter { !$0.isEmpty }
    }

    static func sqliteColumns(_ db: Database, table: String) throws -> [String: Column] {
        let create = try db.scalar("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?", [table])?.text ?? ""
        var checks: [String: [String]] = [:]
        for definition in definitions(create) {
            let name = String(definition.prefix { !$0.isWhitespace })
            guard let check = definition.range(of: "CHECK") else { continue }
            checks[name] = values(String(definition[check.lowerBound...]))
        }
        var references: [String: String] = [:]
        for row in try db.rows("SELECT \"from\", \"table\" FROM pragma_foreign_key_list(?)", [table]) {
            references[row[0].text ?? ""] = row[1].text ?? ""
        }
        var result: [String: Column] = [:]
        for row in try db.rows("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?)", [table]) {
            let name = row[0].text ?? ""
            guard !sqliteOnly.contains(table + "." + name) else { continue }
            let key = (row[4].integer ?? 0) > 0
            result[name] = Column(
                type: types[row[1].text ?? ""] ?? "?\(row[1].text ?? "")", notNull: (row[2].integer ?? 0) == 1 || key,
                defaultValue: normalizedDefault(row[3].text), allowed: checks[name] ?? [], key: key,
                references: references[name] ?? "")
        }
        return result
    }

    static func postgresColumns(_ server: PostgresTestServer, _ name: String, table: String) throws -> [String: Column] {
        func lines(_ sql: String) throws -> [[String]] {
            try server.psql(name, sql).stdout.split(separator: "\n").map { $0.components(separatedBy: "|") }
        }
        var checks: [String: [String]] = [:]
        var references: [String: String] = [:]
        var keys: Set<String> = []
        let constraints = try lines(
            """
            SELECT c.contype, a.attname, coalesce(r.relname, ''), pg_get_constraintdef(c.oid)
            FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
            LEFT JOIN pg_class r ON r.oid = c.confrelid
            WHERE c.conrelid = '\(table)'::regclass
            """)
        for line in constraints where line.count == 4 {
            switch line[0] {
            case "c": checks[line[1]] = values(line[3])
            case "f": references[line[1]] = line[2]
            case "p": keys.insert(line[1])
            default: continue
            }
        }
        for (column, referenced) in referencesByTrigger where column.hasPrefix(table + ".") {
            references[String(column.dropFirst(table.count + 1))] = referenced
        }
        var result: [String: Column] = [:]
        let columns = try lines(
            """
            SELECT column_name, data_type, is_nullable, coalesce(column_default, ''), is_identity
            FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '\(table)'
            """)
        for line in columns where line.count == 5 {
            result[line[0]] = Column(
                type: line[1], notNull: line[2] == "NO", defaultValue: normalizedDefault(line[3]), allowed: checks[line[0]] ?? [],
                key: keys.contains(line[0]), references: references[line[0]] ?? "")
        }
        return result
    }

    @Test("every column agrees in type, NOT NULL, default, CHECK values, key and reference")
    func columnsAgree() throws {
        let sqlite = try Store(path: TestFolders.path("parity") + ".sqlite")
        let server = try PostgresTestServer.shared()
        let name = try server.database()
        _ = try PGStore(uri: server.url(name), create: true)
        var compared = 0
        for table in PGSchema.tables.map(\.name) {
            let left = try Self.sqliteColumns(sqlite.database, table: table)
            let right = try Self.postgresColumns(server, name, table: table)
            #expect(Set(left.keys) == Set(right.keys), "\(table): the columns")
            for column in left.keys.sorted() {
                guard let l = left[column], let r = right[column] else { continue }
                // An identity column has no default in the catalog; SQLite's INTEGER PRIMARY KEY none either.
                #expect(l == r, "\(table).\(column): SQLite \(l), PostgreSQL \(r)")
                compared += 1
            }
        }
        #expect(compared > 100, "\(compared) columns compared")
        // The comparison sees a drift: the overrides' rule as version 12 had it, a NOT NULL lost.
        let drift = try server.psql(
            name,
            """
            ALTER TABLE overrides DROP CONSTRAINT overrides_bucket_check;
            ALTER TABLE overrides ADD CONSTRAINT overrides_bucket_check
                CHECK (bucket IN ('overdue', 'today', 'upcoming', 'undated', 'completed'));
            ALTER TABLE tasks ALTER COLUMN due DROP NOT NULL;
            """)
        #expect(drift.status == 0, "\(drift.stderr)")
        let overrides = try Self.postgresColumns(server, name, table: "overrides")["bucket"]
        #expect(overrides?.allowed == ["completed", "overdue", "today", "undated", "upcoming"])
        #expect(overrides != (try Self.sqliteColumns(sqlite.database, table: "overrides")["bucket"]))
        #expect(try Self.postgresColumns(server, name, table: "tasks")["due"]?.notNull == false)
    }

    /// Which writes of which table fire a trigger: (table, INSERT/UPDATE/DELETE).
    static func sqliteTriggers(_ db: Database) throws -> Set<String> {
        var result: Set<String> = []
        for row in try db.rows("SELECT tbl_name, sql FROM sqlite_schema WHERE type = 'trigger'") {
            let sql = row[1].text ?? ""
            for event in ["INSERT", "UPDATE", "DELETE"] where sql.range(of: " \(event) ") != nil {
                result.insert("\(row[0].text ?? "").\(event)")
            }
        }
        return result
    }

    static func postgresTriggers(_ server: PostgresTestServer, _ name: String) throws -> Set<String> {
        let text = try server.psql(
            name,
            """
            SELECT event_object_table || '.' || event_manipulation FROM information_schema.triggers
            WHERE trigger_schema = current_schema()
            UNION SELECT c.relname || '.TRUNCATE' FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
            WHERE NOT t.tgisinternal AND (t.tgtype & 32) <> 0
            """
        ).stdout
        return Set(text.split(separator: "\n").map(String.init))
    }

    @Test("each table's triggers cover the same writes on both engines")
    func triggersAgree() throws {
        let sqlite = try Store(path: TestFolders.path("parity") + ".sqlite")
        let server = try PostgresTestServer.shared()
        let name = try server.database()
        _ = try PGStore(uri: server.url(name), create: true)
        let left = try Self.sqliteTriggers(sqlite.database)
        // PostgreSQL's own: the references of tasks (SQLite's foreign keys check them) and the
        // refusal of TRUNCATE on the audit log (SQLite has no TRUNCATE).
        let right = try Self.postgresTriggers(server, name).subtracting(["audit.TRUNCATE"])
        let referenceTriggers: Set<String> = [
            "tasks.INSERT", "tasks.UPDATE", "courses.DELETE", "courses.UPDATE", "batches.DELETE", "batches.UPDATE",
        ]
        #expect(left.subtracting(right).isEmpty, "SQLite only: \(left.subtracting(right).sorted())")
        #expect(
            right.subtracting(left).subtracting(referenceTriggers).isEmpty,
            "PostgreSQL only: \(right.subtracting(left).subtracting(referenceTriggers).sorted())")
    }
}
