import DashboardCore
import Foundation

/// Reads a database the tests made, through DashboardCore's own connection type, read-only.
enum DatabaseSnapshot {
    /// Every row of `table`, one line each (`a|b|NULL`), in primary-key order.
    static func dump(_ path: String, table: String) throws -> String {
        try lines(path, "SELECT \(dataColumns(table)) FROM \(table) ORDER BY 1")
    }

    /// The columns of `table` a comparison of data reads: all of them but the fingerprint and
    /// slot an import keeps with each task (`RowPrints`: derived from the rows it read, cleared
    /// by any other writer, given again by the next import) and its title's fold (`TitleFolds`:
    /// derived from the title, kept by SQLite only; `TitleFoldTests` checks it).
    static func dataColumns(_ table: String) -> String {
        table == "tasks" ? taskDataColumns : "*"
    }
    static let taskDataColumns =
        "task_id, course_id, title, student_id, due, priority, completed, deleted_batch, changed_batch, bucket, assignment_id, created_batch, status, submitted_at"

    /// The course and task tables and the batches' births (schema 7 on), whole: what a failed
    /// run must leave exactly as it was.
    static func data(_ path: String) throws -> String {
        var text = "courses:\n" + (try dump(path, table: "courses")) + "tasks:\n" + (try dump(path, table: "tasks"))
        if try StoreUnderTest.open(path).hasTable("batch_births") {
            text += "batch_births:\n" + (try lines(path, "SELECT * FROM batch_births ORDER BY batch_id, bucket"))
        }
        return text
    }

    /// The rows of a query, one line each, columns joined by `|`, NULL written as `NULL`.
    static func lines(_ path: String, _ sql: String) throws -> String {
        let database = try StoreUnderTest.open(path)
        return try database.rows(sql).map { row in
            row.map { $0.text ?? "NULL" }.joined(separator: "|") + "\n"
        }.joined()
    }

    static func int(_ path: String, _ sql: String) throws -> Int {
        let database = try StoreUnderTest.open(path)
        return try database.int(sql)
    }
}

/// JSON helpers: parse stdout and look inside it without force casts.
enum JSON {
    static func object(_ text: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
        guard let object = value as? [String: Any] else { throw HarnessError("stdout is JSON but not an object:\n\(text)") }
        return object
    }

    static func objects(_ value: Any?) -> [[String: Any]] { value as? [[String: Any]] ?? [] }

    static func keys(_ value: Any?) -> Set<String> { Set((value as? [String: Any])?.keys.map { $0 } ?? []) }
}

extension JSON {
    /// The paths of keys that appear twice in one object (`$.warnings`). JSONSerialization keeps
    /// one of them silently, so duplicates are looked for in the text itself.
    static func duplicateKeys(_ text: String) -> [String] {
        var scanner = DuplicateKeyScanner(bytes: Array(text.utf8))
        scanner.value(path: "$")
        return scanner.duplicates
    }
}

/// Walks JSON text (assumed well-formed) and records keys repeated within one object.
private struct DuplicateKeyScanner {
    let bytes: [UInt8]
    var index = 0
    var duplicates: [String] = []

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    mutating func value(path: String) {
        skipSpace()
        guard index < bytes.count else { return }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var seen: Set<String> = []
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] != UInt8(ascii: "}") else { break }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                let key = string()
                if !seen.insert(key).inserted { duplicates.append("\(path).\(key)") }
                skipSpace()
                index += 1  // ':'
                value(path: "\(path).\(key)")
            }
            index += 1
        case UInt8(ascii: "["):
            index += 1
            var position = 0
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] != UInt8(ascii: "]") else { break }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                value(path: "\(path)[\(position)]")
                position += 1
            }
            index += 1
        case UInt8(ascii: "\""):
            _ = string()
        default:
            while index < bytes.count, !",]} \n\r\t".utf8.contains(bytes[index]) { index += 1 }
        }
    }

    /// Reads a string starting at its opening quote; escapes are kept as written.
    mutating func string() -> String {
        index += 1
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        let text = String(decoding: bytes[start..<min(index, bytes.count)], as: UTF8.self)
        index += 1
        return text
    }
}
