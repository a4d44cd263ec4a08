import CSQLite

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
