import Foundation

/// Page keys in the TEMP table `report_page` (SQLite keeps it on disk, in a bounded page
/// cache), for the length of one report's read: created empty, filled by `add`, indexed on the
/// key when there are many, dropped at the end.
final class SQLitePageKeys: PageKeys {
    private let database: Database
    private var insert: Statement?

    /// Creates the empty TEMP table (inside the caller's read).
    init(database: Database) throws {
        self.database = database
        try database.execute("DROP TABLE IF EXISTS temp.report_page")
        try database.execute(SQLiteStoreSQL.reportPageTable)
    }

    func add(_ key: [UInt8], taskID: String) throws {
        let statement: Statement
        if let insert {
            statement = insert
        } else {
            statement = try database.prepare("INSERT INTO temp.report_page (k, task_id) VALUES (?, ?)")
            insert = statement
        }
        try statement.run([SQLValue.blob(key), taskID])
    }

    func prepareOrderedReading() throws {
        try database.execute("CREATE INDEX temp.report_page_order ON report_page (k, task_id)")
    }

    func drop() {
        insert = nil
        try? database.execute("DROP TABLE IF EXISTS temp.report_page")
    }

    /// The task ids of a page (`keptPage`) or a chunk (`keptAfter`) of the keys, in key order:
    /// what the PostgreSQL store reads the tasks of, the keys being in a file of its own.
    func taskIDs(_ selection: TaskSelection) throws -> [String] {
        var ids: [String] = []
        switch selection {
        case .keptPage(let offset, let count):
            try database.cached("SELECT task_id FROM temp.report_page ORDER BY k, task_id LIMIT ? OFFSET ?").forEachRow([count, offset]) {
                ids.append($0.string(0) ?? "")
            }
        case .keptAfter(let key, let count):
            try database.cached("SELECT task_id FROM temp.report_page WHERE k > ? ORDER BY k, task_id LIMIT ?").forEachRow([
                SQLValue.blob(key), count,
            ]) { ids.append($0.string(0) ?? "") }
        default: break
        }
        return ids
    }

    /// The filter of `Store.tasksSQL` that keeps a page of the keys: bound to (count, offset).
    static let pageFilter = " AND t.task_id IN (SELECT task_id FROM temp.report_page ORDER BY k, task_id LIMIT ? OFFSET ?)"

    /// The filter that keeps the next keys after one: bound to (key, count). Keys end with
    /// their task's id, so no two are equal and `k > ?` resumes exactly after the last one read.
    static let afterFilter = " AND t.task_id IN (SELECT task_id FROM temp.report_page WHERE k > ? ORDER BY k, task_id LIMIT ?)"
}
