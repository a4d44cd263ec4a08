import Foundation

/// The first `keep` tasks of a list in the report's order, kept by sort key while the list is
/// streamed: in memory while the keys fit in `ReportStream.inMemoryKeyBytes` (a buffer sorted
/// and cut back to `keep` keys whenever it doubles, so memory is O(keep)), else in a TEMP table
/// `report_page` that SQLite keeps on disk, indexed on the key once every task is in.
/// Either way the page is then read with one SQL query (`pageSQL`) that joins the window's
/// task ids to the tasks, in key order.
final class PageWindow {
    private let keep: Int
    private let database: Database
    /// The bytes of keys kept in memory before they go to SQL.
    private let memory: Int
    private var buffer: [(key: [UInt8], id: String)] = []
    private var bytes = 0
    /// The largest of `keep` kept keys: a key at or above it cannot be in the window.
    private var threshold: [UInt8]?
    private var insert: Statement?

    init(keep: Int, database: Database, memory: Int = ReportStream.inMemoryKeyBytes) {
        self.keep = keep
        self.database = database
        self.memory = memory
    }

    /// Creates the empty TEMP table (inside the caller's transaction).
    func start() throws {
        try database.execute("DROP TABLE IF EXISTS temp.report_page")
        try database.execute("CREATE TEMP TABLE report_page (k BLOB NOT NULL, task_id TEXT NOT NULL)")
    }

    /// Drops the TEMP table.
    func finish() {
        insert = nil
        try? database.execute("DROP TABLE IF EXISTS temp.report_page")
    }

    /// False when a key starting with `prefix` cannot be in the window (it sorts after the
    /// largest kept key): the caller need not compute the rest of the key.
    func mayKeep(prefix: [UInt8]) -> Bool {
        guard keep > 0 else { return false }
        guard insert == nil, let threshold else { return true }
        return !threshold.prefix(prefix.count).lexicographicallyPrecedes(prefix)
    }

    /// Offers one listed task.
    func add(_ key: [UInt8], _ id: String) throws {
        guard keep > 0 else { return }
        if let insert {
            try insert.run([SQLValue.blob(key), id])
            return
        }
        if let threshold, !key.lexicographicallyPrecedes(threshold) { return }
        buffer.append((key, id))
        bytes += key.count + id.utf8.count + 64
        if buffer.count >= keep.multipliedReportingOverflow(by: 2).partialValue || bytes > memory {
            try compact()
        }
    }

    /// Sorts the buffer and keeps its first `keep` keys; moves them to SQL when even those do
    /// not fit in half the memory allowed.
    private func compact() throws {
        buffer.sort { $0.key.lexicographicallyPrecedes($1.key) }
        if buffer.count >= keep {
            buffer.removeLast(buffer.count - keep)
            threshold = buffer.last?.key
        }
        bytes = buffer.reduce(0) { $0 + $1.key.count + $1.id.utf8.count + 64 }
        guard bytes > memory / 2 else { return }
        let statement = try database.prepare("INSERT INTO temp.report_page (k, task_id) VALUES (?, ?)")
        for item in buffer { try statement.run([SQLValue.blob(item.key), item.id]) }
        buffer = []
        bytes = 0
        insert = statement
    }

    /// The filter (for `ReportSource.tasksSQL`) that keeps the tasks `offset + 1 … offset +
    /// count` of the order; the caller puts them back in key order.
    func pageFilter(offset: Int, count: Int) throws -> (text: String, values: [SQLBindable]) {
        var skip = offset
        if insert != nil {
            try database.execute("CREATE INDEX temp.report_page_order ON report_page (k, task_id)")
        } else {
            buffer.sort { $0.key.lexicographicallyPrecedes($1.key) }
            let statement = try database.prepare("INSERT INTO temp.report_page (k, task_id) VALUES (?, ?)")
            for item in buffer.dropFirst(offset).prefix(count) { try statement.run([SQLValue.blob(item.key), item.id]) }
            buffer = []
            skip = 0
        }
        return (" AND t.task_id IN (SELECT task_id FROM temp.report_page ORDER BY k, task_id LIMIT ? OFFSET ?)", [count, skip])
    }
}
