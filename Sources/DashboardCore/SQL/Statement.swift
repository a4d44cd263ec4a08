import CSQLite

/// A value that can be bound to a statement parameter.
package enum SQLValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The value as text, or nil for NULL.
    package var text: String? {
        switch self {
        case .null: return nil
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        case .text(let s): return s
        case .blob(let b): return String(decoding: b, as: UTF8.self)
        }
    }

    /// The value as an integer, or nil for NULL, text, and a real with no Int64 value (NaN, an
    /// infinity, or beyond ±2^63, which a hand edit can store and `Int64(_:)` would trap on).
    package var integer: Int64? {
        switch self {
        case .integer(let v): return v
        case .real(let v): return Int64(exactly: v.rounded(.towardZero))
        default: return nil
        }
    }
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    package init(stringLiteral value: String) { self = .text(value) }
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(nilLiteral: ()) { self = .null }
}

/// Something that can be bound as a statement parameter.
package protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

extension String: SQLBindable { package var sqlValue: SQLValue { .text(self) } }
extension Int: SQLBindable { package var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Int64: SQLBindable { package var sqlValue: SQLValue { .integer(self) } }
extension Bool: SQLBindable { package var sqlValue: SQLValue { .integer(self ? 1 : 0) } }
extension Double: SQLBindable { package var sqlValue: SQLValue { .real(self) } }
extension SQLValue: SQLBindable { package var sqlValue: SQLValue { self } }
extension Optional: SQLBindable where Wrapped: SQLBindable {
    package var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

/// A prepared statement. Finalized when released; bound to one connection, so not Sendable.
///
/// On PostgreSQL (`Database.dialect`) the statement is prepared on the server on first use
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

/// The current row of a statement being stepped. Valid only inside `forEachRow` (or until the
/// next `nextRow`).
package struct Row {
    /// SQLite's statement, stepped to this row; nil on PostgreSQL.
    private let handle: OpaquePointer?
    /// PostgreSQL's result holding this row, and the row's place in it.
    private let result: PGResult?
    private let index: Int

    init(sqlite handle: OpaquePointer) {
        self.handle = handle
        result = nil
        index = 0
    }

    init(postgres result: PGResult, index: Int) {
        handle = nil
        self.result = result
        self.index = index
    }

    package var count: Int {
        if let handle { return Int(sqlite3_column_count(handle)) }
        return result?.columnCount ?? 0
    }

    package func value(_ index: Int) -> SQLValue {
        guard let handle else { return postgresValue(index) }
        let i = Int32(index)
        switch sqlite3_column_type(handle, i) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, i))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, i))
        case SQLITE_BLOB:
            let n = Int(sqlite3_column_bytes(handle, i))
            guard n > 0, let p = sqlite3_column_blob(handle, i) else { return .blob([]) }
            return .blob([UInt8](UnsafeRawBufferPointer(start: p, count: n)))
        default: return .text(string(index) ?? "")
        }
    }

    /// The column as text; nil when NULL.
    package func string(_ index: Int) -> String? {
        guard let handle else {
            guard let result, !result.isNull(self.index, index) else { return nil }
            if result.columnType(index) == PGType.bytea {
                return String(decoding: PGType.byteaBytes(result.bytes(self.index, index)), as: UTF8.self)
            }
            return String(decoding: result.bytes(self.index, index), as: UTF8.self)
        }
        let i = Int32(index)
        guard let p = sqlite3_column_text(handle, i) else { return nil }
        let n = Int(sqlite3_column_bytes(handle, i))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// The column as an integer (0 for NULL; PostgreSQL's booleans are 1 and 0, as SQLite's).
    package func int(_ index: Int) -> Int {
        guard let handle else {
            guard let result, !result.isNull(self.index, index) else { return 0 }
            return PGType.integer(result.bytes(self.index, index))
        }
        return Int(sqlite3_column_int64(handle, Int32(index)))
    }

    /// The column's text as UTF-8 bytes, without a copy (empty for NULL), valid only inside
    /// `body`.
    package func withText<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        guard let handle else {
            guard let result, !result.isNull(self.index, index) else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
            return try body(result.bytes(self.index, index))
        }
        let i = Int32(index)
        guard let p = sqlite3_column_text(handle, i) else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(handle, i))))
    }

    /// The column's bytes as a blob, without a copy (empty for NULL), valid only inside `body`.
    package func withBlob<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        guard let handle else {
            guard let result, !result.isNull(self.index, index) else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
            let bytes =
                result.columnType(index) == PGType.bytea
                ? PGType.byteaBytes(result.bytes(self.index, index)) : Array(result.bytes(self.index, index))
            return try bytes.withUnsafeBytes { try body($0) }
        }
        let i = Int32(index)
        let count = Int(sqlite3_column_bytes(handle, i))
        guard count > 0, let p = sqlite3_column_blob(handle, i) else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: p, count: count))
    }

    package func isNull(_ index: Int) -> Bool {
        guard let handle else { return result?.isNull(self.index, index) ?? true }
        return sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
    }

    package var values: [SQLValue] { (0..<count).map { value($0) } }

    /// A PostgreSQL value as SQLite would give it: integers and booleans as integers, floating
    /// and numeric values as reals (an integral numeric, a `sum` of integers, as an integer),
    /// bytea as a blob, the rest as text.
    private func postgresValue(_ column: Int) -> SQLValue {
        guard let result, !result.isNull(index, column) else { return .null }
        let bytes = result.bytes(index, column)
        switch result.columnType(column) {
        case PGType.boolean, PGType.int2, PGType.int4, PGType.int8, PGType.oid: return .integer(Int64(PGType.integer(bytes)))
        case PGType.numeric where !bytes.contains(0x2E): return .integer(Int64(PGType.integer(bytes)))
        case PGType.float4, PGType.float8, PGType.numeric: return .real(Double(String(decoding: bytes, as: UTF8.self)) ?? 0)
        case PGType.bytea: return .blob(PGType.byteaBytes(bytes))
        default: return .text(String(decoding: bytes, as: UTF8.self))
        }
    }
}

/// SQLITE_TRANSIENT, which the C macro cannot express in Swift.
let SQLITE_TRANSIENT_SWIFT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
