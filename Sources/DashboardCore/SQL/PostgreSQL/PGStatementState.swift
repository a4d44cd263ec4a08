import Foundation

/// A statement on a PostgreSQL connection: its bound parameters and, while its rows are read,
/// where the reading is (a whole result, or a cursor fetched a batch at a time).
///
/// Policy: a query read inside a transaction (a report's snapshot, a writer's transaction)
/// that is not a cached lookup goes through a cursor (`DECLARE … NO SCROLL CURSOR`, then
/// `FETCH` of `PGSession.fetchRows` rows): memory stays bounded by a batch whatever the number
/// of rows, and other statements can run between two rows (a caller may read a task by its
/// key in the middle of a scan). Everything else runs the server's prepared statement and
/// takes its whole result.
final class PGStatementState {
    let session: PGSession
    let sql: String
    let reused: Bool
    var parameters: [PGParameter] = []
    /// True once reading started, until it ends.
    private(set) var active = false
    private var result: PGResult?
    private var row = -1
    private var cursor: String?
    private var cursorDone = false

    init(session: PGSession, sql: String, reused: Bool) {
        self.session = session
        self.sql = sql
        self.reused = reused
    }

    /// A bound value as PostgreSQL receives it.
    static func parameter(_ value: SQLValue) -> PGParameter {
        switch value {
        case .null: return .null
        case .integer(let v): return .integer(v)
        case .real(let v): return .real(v)
        case .text(let s): return .text(s)
        case .blob(let bytes): return .bytes(bytes)
        }
    }

    func set(_ parameter: PGParameter, at index: Int) {
        if active { finish() }
        guard index >= 1 else { return }
        while parameters.count < index { parameters.append(.null) }
        parameters[index - 1] = parameter
    }

    /// The parameters the statement takes, unbound ones NULL (as SQLite reads them).
    private var boundParameters: [PGParameter] {
        let needed = session.translation(of: sql).parameters
        if parameters.count >= needed { return Array(parameters.prefix(needed)) }
        return parameters + Array(repeating: .null, count: needed - parameters.count)
    }

    /// Runs the statement, reading no rows; the rows it changed.
    func runToEnd() throws(PGError) -> Int {
        finish()
        return try session.run(sql, boundParameters).changedRows
    }

    /// Starts reading rows.
    func start() throws(PGError) {
        finish()
        try session.settle()
        if !reused, session.connection.isInTransaction, isQuery {
            let name = session.nextCursorName()
            _ = try session.connection.run(
                prepared: nil, sql: "DECLARE \(name) NO SCROLL CURSOR FOR " + session.translation(of: sql).sql, boundParameters)
            cursor = name
            active = true
            try fetch()
        } else {
            result = try session.run(sql, boundParameters)
            active = true
        }
        row = -1
    }

    /// The next row, or nil at the end.
    func advance() throws(PGError) -> Row? {
        guard active, let current = result else { return nil }
        row += 1
        if row < current.rowCount { return Row(postgres: current, index: row) }
        guard cursor != nil, !cursorDone else { return nil }
        try fetch()
        row = 0
        guard let next = result, next.rowCount > 0 else { return nil }
        return Row(postgres: next, index: 0)
    }

    private func fetch() throws(PGError) {
        guard let cursor else { return }
        try session.settle()
        result = nil
        let fetched = try session.connection.runScript("FETCH FORWARD \(PGSession.fetchRows) FROM \(cursor)")
        cursorDone = fetched.rowCount < PGSession.fetchRows
        result = fetched
    }

    /// Ends the reading: the cursor is closed (unless the transaction that held it is over).
    func finish() {
        if let cursor, (try? session.settle()) != nil, session.connection.isInTransaction {
            _ = try? session.connection.runScript("CLOSE \(cursor)")
        }
        cursor = nil
        cursorDone = false
        result = nil
        active = false
        row = -1
    }

    /// The names of the result columns (the prepared statement described by the server).
    func columnNames() throws(PGError) -> [String] {
        let name = try session.preparedName(for: sql, types: boundParameters.map(\.type))
        let description = try session.connection.describe(name, sql: sql)
        return (0..<description.columnCount).map { description.columnName($0) }
    }

    /// A query (its rows can come from a cursor), not a command.
    private var isQuery: Bool {
        let text = session.translation(of: sql).sql
        let head = text.drop(while: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "(" }).prefix(6).uppercased()
        return head.hasPrefix("SELECT") || head.hasPrefix("VALUES")
    }
}

/// PostgreSQL's types as the store reads them (OIDs of `pg_type`) and the decoding of values
/// in the text format.
enum PGType {
    static let boolean: UInt32 = 16
    static let bytea: UInt32 = 17
    static let int8: UInt32 = 20
    static let int2: UInt32 = 21
    static let int4: UInt32 = 23
    static let oid: UInt32 = 26
    static let float4: UInt32 = 700
    static let float8: UInt32 = 701
    static let numeric: UInt32 = 1700

    /// An integer in the text format (`-12`, a boolean's `t` and `f` as 1 and 0, a numeric's
    /// integral part); 0 for anything else, as SQLite reads text as an integer.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let first = bytes.first else { return 0 }
        if bytes.count == 1, first == 0x74 { return 1 }
        if bytes.count == 1, first == 0x66 { return 0 }
        var value = 0
        var negative = false
        var index = 0
        if first == 0x2D {
            negative = true
            index = 1
        }
        while index < bytes.count {
            let digit = bytes[index]
            guard digit >= 0x30, digit <= 0x39 else { break }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (plus, overflow2) = times.addingReportingOverflow(Int(digit - 0x30))
            if overflow1 || overflow2 { return negative ? Int.min : Int.max }
            value = plus
            index += 1
        }
        return negative ? -value : value
    }

    /// The bytes of a bytea in the text format (`\x` and two hex digits a byte).
    static func byteaBytes(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        guard text.count >= 2, text[0] == 0x5C, text[1] == 0x78 else { return Array(text) }
        func nibble(_ c: UInt8) -> UInt8 {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x61...0x66: return c - 0x61 + 10
            case 0x41...0x46: return c - 0x41 + 10
            default: return 0
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((text.count - 2) / 2)
        var index = 2
        while index + 1 < text.count {
            bytes.append(nibble(text[index]) << 4 | nibble(text[index + 1]))
            index += 2
        }
        return bytes
    }
}
