import CSQLite

/// A prepared statement. Finalized when released; bound to one connection, so not Sendable.
///
/// On PostgreSQL (`PGStatementState`) the statement is prepared on the server on first use
/// (once per text and connection); its rows come from a cursor, a batch at a time, when it is
/// a query run inside a transaction and not a cached statement (a cached one is a short
/// lookup run again and again: its whole result comes at once, with no cursor's round trips).
package final class Statement {
    enum Engine {
        case sqlite(OpaquePointer)
        case postgres(PGStatementState)
    }
    let engine: Engine
    unowned let database: Database
    package let sql: String

    init(database: Database, sql: String, reused: Bool = false) throws {
        self.database = database
        self.sql = sql
        switch database.engine {
        case .sqlite(let db):
            var stmt: OpaquePointer?
            let rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nil)
            guard rc == SQLITE_OK, let stmt else {
                throw database.error(code: rc, sql: sql)
            }
            engine = .sqlite(stmt)
        case .postgres(let session):
            engine = .postgres(PGStatementState(session: session, sql: sql, reused: reused))
        }
    }

    deinit {
        switch engine {
        case .sqlite(let handle): sqlite3_finalize(handle)
        case .postgres(let state): state.finish()
        }
    }

    /// Binds the values to the parameters in order, after clearing earlier bindings.
    package func bind(_ values: [SQLBindable]) throws {
        switch engine {
        case .sqlite(let handle):
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        case .postgres(let state):
            state.finish()
            state.parameters.removeAll(keepingCapacity: true)
        }
        for (i, value) in values.enumerated() {
            try bind(value.sqlValue, at: Int32(i + 1))
        }
    }

    /// Binds one value to the 1-based parameter index.
    package func bind(_ value: SQLValue, at index: Int32) throws {
        let handle: OpaquePointer
        switch engine {
        case .sqlite(let sqlite): handle = sqlite
        case .postgres(let state):
            state.set(PGStatementState.parameter(value), at: Int(index))
            return
        }
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v): rc = sqlite3_bind_double(handle, index, v)
        case .blob(let bytes):
            rc = bytes.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), SQLITE_TRANSIENT_SWIFT) }
        case .text(let s):
            try set(s, at: index)
            return
        }
        guard rc == SQLITE_OK else { throw database.error(code: rc, sql: sql) }
    }

    // MARK: - Binding without boxing (the hot paths of an import)

    /// Clears the statement for a new set of bindings (call before the `set` binders).
    package func reset() {
        switch engine {
        case .sqlite(let handle): sqlite3_reset(handle)
        case .postgres(let state): state.finish()
        }
    }

    /// Binds text to the 1-based parameter index, copying its UTF-8 bytes.
    package func set(_ text: String, at index: Int32) throws {
        let handle: OpaquePointer
        switch engine {
        case .sqlite(let sqlite): handle = sqlite
        case .postgres(let state):
            state.set(.text(text), at: Int(index))
            return
        }
        var text = text
        let rc = text.withUTF8 { buf -> Int32 in
            guard let base = buf.baseAddress, !buf.isEmpty else {
                return sqlite3_bind_text(handle, index, "", 0, SQLITE_TRANSIENT_SWIFT)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: buf.count) {
                sqlite3_bind_text(handle, index, $0, Int32(buf.count), SQLITE_TRANSIENT_SWIFT)
            }
        }
        guard rc == SQLITE_OK else { throw database.error(code: rc, sql: sql) }
    }

    /// Binds bytes as a blob to the 1-based parameter index (copied), or NULL for nil.
    package func set(blob bytes: [UInt8]?, at index: Int32) throws {
        switch engine {
        case .sqlite(let handle):
            let rc =
                bytes.map { bytes in
                    bytes.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), SQLITE_TRANSIENT_SWIFT) }
                } ?? sqlite3_bind_null(handle, index)
            guard rc == SQLITE_OK else { throw database.error(code: rc, sql: sql) }
        case .postgres(let state):
            state.set(PGStatementState.parameter(bytes.map { .blob($0) } ?? .null), at: Int(index))
        }
    }

    /// Binds the `tasks.title_fold` of `title` (`TitleFolds`, `TextFold.searchKey`): an empty
    /// blob, the fold's bytes or NULL. SQLite only.
    func set(titleFoldOf title: String, at index: Int32, cache: TextFold.Cache) throws {
        guard case .sqlite(let handle) = engine else { throw InternalError.unexpected("a title fold bound on PostgreSQL") }
        var title = title
        let rc = title.withUTF8 { bytes -> Int32 in
            switch TextFold.searchKey(bytes, cache: cache) {
            case .ascii: return sqlite3_bind_zeroblob(handle, index, 0)
            case .swift: return sqlite3_bind_null(handle, index)
            case .folded:
                return cache.withFolded { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), SQLITE_TRANSIENT_SWIFT) }
            }
        }
        guard rc == SQLITE_OK else { throw database.error(code: rc, sql: sql) }
    }

    /// Binds a row's print as its 16-byte blob (`RowPrint.bytes`), or NULL, without an array.
    func set(print: RowPrint?, at index: Int32) throws {
        guard let print else { return try set(blob: nil, at: index) }
        guard case .sqlite(let handle) = engine else { return try set(blob: print.bytes, at: index) }
        var bytes = (print.high.bigEndian, print.low.bigEndian)
        let rc = withUnsafeBytes(of: &bytes) { sqlite3_bind_blob(handle, index, $0.baseAddress, 16, SQLITE_TRANSIENT_SWIFT) }
        guard rc == SQLITE_OK else { throw database.error(code: rc, sql: sql) }
    }

    /// Binds an integer to the 1-based parameter index.
    package func set(_ value: Int, at index: Int32) throws {
        switch engine {
        case .sqlite(let handle):
            let rc = sqlite3_bind_int64(handle, index, Int64(value))
            guard rc == SQLITE_OK else { throw database.error(code: rc, sql: sql) }
        case .postgres(let state):
            state.set(.integer(Int64(value)), at: Int(index))
        }
    }

    /// Runs a statement bound with `set` to completion; returns the rows it changed.
    @discardableResult
    package func step() throws -> Int {
        try database.checkInterrupted(sql: sql)
        switch engine {
        case .sqlite(let handle):
            defer { sqlite3_reset(handle) }
            while true {
                let rc = sqlite3_step(handle)
                if rc == SQLITE_DONE { return Int(sqlite3_changes(sqlite3_db_handle(handle))) }
                if rc != SQLITE_ROW { throw database.error(code: rc, sql: sql) }
            }
        case .postgres(let state):
            return try state.runToEnd()
        }
    }

    /// Runs the statement to completion (for statements that return no rows).
    package func run(_ values: [SQLBindable] = []) throws {
        try bind(values)
        try step()
    }

    /// Runs the statement and calls `body` with each row.
    package func forEachRow(_ values: [SQLBindable] = [], _ body: (Row) throws -> Void) throws {
        try database.checkInterrupted(sql: sql)
        try bind(values)
        switch engine {
        case .sqlite(let handle):
            defer { sqlite3_reset(handle) }
            let row = Row(sqlite: handle)
            while true {
                let rc = sqlite3_step(handle)
                if rc == SQLITE_DONE { return }
                guard rc == SQLITE_ROW else { throw database.error(code: rc, sql: sql) }
                try body(row)
            }
        case .postgres(let state):
            defer { state.finish() }
            try state.start()
            while let row = try state.advance() { try body(row) }
        }
    }

    /// Steps once, for a caller that reads two statements side by side (a merge): the row to
    /// read, or nil at the end (then the statement is reset). Bind first with `bind`.
    package func nextRow() throws -> Row? {
        try database.checkInterrupted(sql: sql)
        switch engine {
        case .sqlite(let handle):
            let rc = sqlite3_step(handle)
            if rc == SQLITE_ROW { return Row(sqlite: handle) }
            sqlite3_reset(handle)
            if rc == SQLITE_DONE { return nil }
            throw database.error(code: rc, sql: sql)
        case .postgres(let state):
            if !state.active { try state.start() }
            if let row = try state.advance() { return row }
            state.finish()
            return nil
        }
    }

    /// Every row, each as an array of values.
    package func rows(_ values: [SQLBindable] = []) throws -> [[SQLValue]] {
        var result: [[SQLValue]] = []
        try forEachRow(values) { result.append($0.values) }
        return result
    }

    /// The names of the result columns, in order.
    func columnNames() throws -> [String] {
        switch engine {
        case .sqlite(let handle):
            return (0..<sqlite3_column_count(handle)).map { i in sqlite3_column_name(handle, i).map { String(cString: $0) } ?? "" }
        case .postgres(let state):
            return try state.columnNames()
        }
    }
}
