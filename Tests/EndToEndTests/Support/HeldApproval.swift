import Foundation
import Testing

/// Compares what `batches show ID --format json --limit 0` lists for a held batch with what
/// `batches approve ID` then does to the course and task rows.
enum HeldApproval {
    /// The data columns of each kind (the fields a listing names), completed as `true`/`false`.
    static let columns: [(kind: String, table: String, key: String, fields: [String], select: String)] = [
        (
            "courses", "courses", "course_id", ["code", "title", "term", "teacher", "timezone"],
            "code, title, term, teacher, timezone"
        ),
        (
            "tasks", "tasks", "task_id", ["course_id", "title", "student_id", "due", "priority", "completed"],
            "course_id, title, student_id, due, priority, CASE completed WHEN 1 THEN 'true' ELSE 'false' END"
        ),
    ]

    /// A row's data, and whether it is live.
    struct StoredRow: Equatable {
        var values: [String]
        var live: Bool
    }

    /// Every row of each kind, live or tombstoned, by id.
    static func rows(_ db: String) throws -> [String: [String: StoredRow]] {
        var result: [String: [String: StoredRow]] = [:]
        for kind in columns {
            let text = try DatabaseSnapshot.lines(
                db, "SELECT \(kind.key), \(kind.select), deleted_batch IS NULL FROM \(kind.table) ORDER BY 1")
            for line in text.split(separator: "\n") {
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                result[kind.kind, default: [:]][cells[0]] = StoredRow(values: Array(cells[1..<cells.count - 1]), live: cells.last == "1")
            }
        }
        return result
    }

    /// One change as a line: `tasks update t01 bio "Lab report 1" due: 2026-12-01 > 2026-12-08; …`.
    static func describe(kind: String, action: String, id: String, course: String, title: String, fields: [(String, String, String)])
        -> String
    {
        "\(kind) \(action) \(id) \(course) \"\(title)\" " + fields.map { "\($0.0): \($0.1) > \($0.2)" }.joined(separator: "; ")
    }

    /// The changes between two states of the rows, as `describe` words them.
    static func changes(before: [String: [String: StoredRow]], after: [String: [String: StoredRow]]) -> [String] {
        var lines: [String] = []
        for kind in columns {
            let old = before[kind.kind] ?? [:]
            let new = after[kind.kind] ?? [:]
            for id in Set(old.keys).union(new.keys).sorted() {
                let o = old[id]
                let n = new[id]
                let action: String
                switch (o, n) {
                case (nil, let n?) where n.live: action = "insert"
                case (let o?, let n?) where !o.live && n.live: action = "restore"
                case (let o?, let n?) where o.live && !n.live: action = "delete"
                case (let o?, let n?) where o.live && n.live && o.values != n.values: action = "update"
                default: continue
                }
                let shown = action == "delete" ? o : n
                let value = { (row: StoredRow?, name: String) -> String in
                    guard let row, let i = kind.fields.firstIndex(of: name) else { return "∅" }
                    return row.values[i]
                }
                let fields = kind.fields.compactMap { name -> (String, String, String)? in
                    let before = action == "insert" ? "∅" : value(o, name)
                    let after = action == "delete" ? "∅" : value(n, name)
                    if action == "update" || action == "restore", before == after { return nil }
                    return (name, before, after)
                }
                let course = kind.kind == "courses" ? id : value(shown, "course_id")
                lines.append(
                    describe(kind: kind.kind, action: action, id: id, course: course, title: value(shown, "title"), fields: fields))
            }
        }
        return lines.sorted()
    }

    /// The changes a `batches show --format json` listing names, as `describe` words them.
    static func listed(_ json: [String: Any]) -> [String] {
        func text(_ value: Any?) -> String {
            switch value {
            case let b as Bool: return b ? "true" : "false"
            case let s as String: return s
            default: return "∅"
            }
        }
        return JSON.objects(json["approve_changes"]).map { change in
            let kind = text(change["kind"])
            let names = columns.first { $0.kind == kind }?.fields ?? []
            let fields = change["fields"] as? [String: Any] ?? [:]
            let pairs = names.compactMap { name -> (String, String, String)? in
                guard let field = fields[name] as? [String: Any] else { return nil }
                return (name, text(field["old"]), text(field["new"]))
            }
            return describe(
                kind: kind, action: text(change["action"]), id: text(change["id"]), course: text(change["course"]),
                title: text(change["title"]), fields: pairs)
        }.sorted()
    }

    /// Lists held batch `batch` in full, approves it, and expects the rows to have changed
    /// exactly as listed (and the approval's counts to be those `show` announced).
    static func expectApprovalMatchesListing(
        _ sandbox: Sandbox, batch: Int, force: Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let db = sandbox.path("db.sqlite")
        let show = try sandbox.run(["--db", "db.sqlite", "batches", "show", String(batch), "--format", "json", "--limit", "0"])
        #expect(show.exitCode == 0, "\(show)", sourceLocation: sourceLocation)
        let listing = try JSON.object(show.stdout)
        let before = try rows(db)
        let approve = try sandbox.run(
            ["--db", "db.sqlite", "batches", "approve", String(batch), "--format", "json"] + (force ? ["--force"] : []))
        #expect(approve.exitCode == 0, "\(approve)", sourceLocation: sourceLocation)
        let after = try rows(db)
        let done = changes(before: before, after: after)
        #expect(!done.isEmpty, sourceLocation: sourceLocation)
        #expect(listed(listing) == done, sourceLocation: sourceLocation)
        let result = try JSON.object(approve.stdout)
        #expect(
            (result["counts"] as? NSDictionary) == (listing["approve_would"] as? NSDictionary), "\(approve.stdout)",
            sourceLocation: sourceLocation)
    }
}
