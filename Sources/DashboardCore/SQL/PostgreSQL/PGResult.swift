import CPostgreSQL
import Foundation

/// One result of a statement, as libpq holds it (every row in memory; a scan reads a cursor
/// a batch of rows at a time, see `Statement`). Values come in PostgreSQL's text format.
/// Cleared when released.
final class PGResult {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { PQclear(handle) }

    var rowCount: Int { Int(PQntuples(handle)) }
    var columnCount: Int { Int(PQnfields(handle)) }

    /// The rows a command changed (`INSERT`, `UPDATE`, `DELETE`, …), 0 for others.
    var changedRows: Int {
        guard let text = PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    func columnName(_ column: Int) -> String {
        PQfname(handle, Int32(column)).map { String(cString: $0) } ?? ""
    }

    /// The type of a column (PostgreSQL's OID: 16 boolean, 17 bytea, 20/21/23 integers, …).
    func columnType(_ column: Int) -> UInt32 { UInt32(PQftype(handle, Int32(column))) }

    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(handle, Int32(row), Int32(column)) == 1 }

    /// The value's text bytes (empty for NULL), valid while the result lives.
    func bytes(_ row: Int, _ column: Int) -> UnsafeBufferPointer<UInt8> {
        let length = Int(PQgetlength(handle, Int32(row), Int32(column)))
        guard let value = PQgetvalue(handle, Int32(row), Int32(column)) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return value.withMemoryRebound(to: UInt8.self, capacity: length) { UnsafeBufferPointer(start: $0, count: length) }
    }
}

/// A value bound to a statement parameter: text (PostgreSQL reads it as the type the statement
/// gives the parameter), an integer or a real (sent as text, declared `bigint` or `double
/// precision`: a parameter in a select list has no type of its own), bytes (sent in binary: a
/// `bytea`), or NULL.
enum PGParameter: Equatable {
    case null
    case text(String)
    case integer(Int64)
    case real(Double)
    case bytes([UInt8])

    /// The type declared for the parameter (an OID; 0: the server infers it).
    var type: UInt32 {
        switch self {
        case .null, .text: return 0
        case .integer: return PGType.int8
        case .real: return PGType.float8
        case .bytes: return PGType.bytea
        }
    }
}

extension PGConnection {
    /// Parses and plans `sql` once on the server under `name` (`PQprepare`), its parameters of
    /// `types` (0: inferred).
    func prepare(_ name: String, _ sql: String, types: [UInt32]) throws(PGError) {
        let result = types.withUnsafeBufferPointer { PQprepare(handle, name, sql, Int32(types.count), $0.baseAddress) }
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// The result columns of the prepared statement `name`, without running it.
    func describe(_ name: String, sql: String) throws(PGError) -> PGResult {
        guard let result = PQdescribePrepared(handle, name) else { throw failure(sql: sql) }
        let owned = PGResult(result)
        try check(result, sql: sql)
        return owned
    }

    /// Runs the prepared statement `name` (or, when nil, `sql` itself) with `parameters` and
    /// returns its whole result.
    func run(prepared name: String?, sql: String, _ parameters: [PGParameter]) throws(PGError) -> PGResult {
        let count = parameters.count
        var values: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        values.reserveCapacity(count)
        lengths.reserveCapacity(count)
        formats.reserveCapacity(count)
        defer { for value in values { free(value) } }
        for parameter in parameters {
            switch parameter {
            case .null:
                values.append(nil)
                lengths.append(0)
                formats.append(0)
            case .text(let text):
                values.append(strdup(text))
                lengths.append(0)
                formats.append(0)
            case .integer(let value):
                values.append(strdup(String(value)))
                lengths.append(0)
                formats.append(0)
            case .real(let value):
                values.append(strdup(String(value)))
                lengths.append(0)
                formats.append(0)
            case .bytes(let bytes):
                guard let copy = malloc(max(bytes.count, 1)) else {
                    throw PGError(sqlState: nil, message: "cannot allocate \(bytes.count) bytes for a parameter", sql: sql)
                }
                bytes.withUnsafeBytes { buffer in
                    if let base = buffer.baseAddress { copy.copyMemory(from: base, byteCount: buffer.count) }
                }
                values.append(copy.assumingMemoryBound(to: CChar.self))
                lengths.append(Int32(bytes.count))
                formats.append(1)
            }
        }
        let types = parameters.map(\.type)
        let result = values.withUnsafeMutableBufferPointer { valueBuffer -> OpaquePointer? in
            lengths.withUnsafeBufferPointer { lengthBuffer in
                formats.withUnsafeBufferPointer { formatBuffer in
                    valueBuffer.baseAddress.map { base in
                        base.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: count) { valuePointers in
                            if let name {
                                return PQexecPrepared(
                                    handle, name, Int32(count), valuePointers, lengthBuffer.baseAddress, formatBuffer.baseAddress, 0)
                            }
                            return types.withUnsafeBufferPointer { typeBuffer in
                                PQexecParams(
                                    handle, sql, Int32(count), typeBuffer.baseAddress, valuePointers, lengthBuffer.baseAddress,
                                    formatBuffer.baseAddress, 0)
                            }
                        }
                    }
                        ?? (name.map { PQexecPrepared(handle, $0, 0, nil, nil, nil, 0) }
                            ?? PQexecParams(handle, sql, 0, nil, nil, nil, nil, 0))
                }
            }
        }
        guard let result else { throw failure(sql: sql) }
        let owned = PGResult(result)
        try check(result, sql: sql)
        return owned
    }

    /// Runs one or more statements without parameters (`PQexec`) and returns the last result.
    func runScript(_ sql: String) throws(PGError) -> PGResult {
        guard let result = PQexec(handle, sql) else { throw failure(sql: sql) }
        let owned = PGResult(result)
        try check(result, sql: sql)
        return owned
    }

    /// True while a transaction block is open (also one a failed statement aborted).
    var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    private func failure(sql: String) -> PGError {
        PGError(sqlState: nil, message: Self.trimmed(PQerrorMessage(handle)), sql: sql)
    }
}
