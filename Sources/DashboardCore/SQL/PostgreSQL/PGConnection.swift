import CPostgreSQL
import Foundation

/// A failure of libpq or of the server: the server's SQLSTATE when it gave one, and its
/// message. libpq's messages never hold the password (it names the host, port, user and
/// database at most).
public struct PGError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The five-character SQLSTATE (`40P01`, `23505`, …), or nil for a connection failure.
    public let sqlState: String?
    public let message: String
    /// The statement that failed, when there was one.
    public let sql: String?
    /// The role the connection logged in as, for a refusal of privileges (42501): the words of a
    /// refusal name it (`RoleRefusal`).
    public let role: String?

    package init(sqlState: String?, message: String, sql: String? = nil, role: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.sql = sql
        self.role = role
    }

    public var description: String { message }

    /// `55P03` (lock_not_available), `40001` (serialization failure), `40P01` (deadlock).
    var isBusy: Bool { ["55P03", "40001", "40P01"].contains(sqlState ?? "") }

    /// A connection that failed or was lost (SQLSTATE class 08, or no SQLSTATE at all: libpq's
    /// own failure), a server shutting down (57P01–57P03), or a full disk (53100).
    var isIOError: Bool {
        guard let sqlState else { return true }
        return sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") || sqlState.hasPrefix("53")
    }

    /// Privileges the role lacks (42501).
    var isPermission: Bool { sqlState == "42501" }

    /// A write asked of a read-only server (a standby) or transaction (25006).
    var isReadOnly: Bool { sqlState == "25006" }
}

/// One connection to a PostgreSQL server through libpq: statements with bound text
/// parameters (never a value spliced into SQL), `COPY … FROM STDIN` for bulk writes and
/// `COPY … TO STDOUT` for reads of any size (a result set is held in memory by libpq; a copy
/// streams).
package final class PGConnection {
    let handle: OpaquePointer
    /// The rows the last copy moved (`COPY n`).
    private var copiedRows = 0

    /// Connects with a libpq connection string or URI (`postgresql://user@host/db`); the
    /// password, when one is needed, comes from libpq's usual places (`~/.pgpass`,
    /// `PGPASSWORD`, a service file) or the URI itself, and is never part of a message.
    package init(_ conninfo: String) throws(PGError) {
        // A closed standard descriptor (`>&-`) would be the next one the system hands out: the
        // connection's socket must never be one, or what the program writes on standard output
        // would go to the server. They are held by placeholders while libpq connects.
        var placeholders: [Int32] = []
        for descriptor in Int32(0)...2 where fcntl(descriptor, F_GETFD) == -1 {
            let placeholder = open("/dev/null", O_RDWR | O_CLOEXEC)
            if placeholder >= 0 { placeholders.append(placeholder) }
        }
        defer { for placeholder in placeholders { close(placeholder) } }
        guard let handle = PQconnectdb(conninfo) else {
            throw PGError(sqlState: nil, message: "cannot connect: libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            // Finished here, before `self.handle` is set: a failed init must not reach `deinit`.
            let message = Self.trimmed(PQerrorMessage(handle))
            PQfinish(handle)
            throw PGError(sqlState: nil, message: "cannot connect to PostgreSQL: \(message)")
        }
        self.handle = handle
        // Dates and numbers as this program writes them, whatever the server's defaults.
        PQsetClientEncoding(handle, "UTF8")
        // The server's notices ("… does not exist, skipping") are not the user's business:
        // libpq would print them on stderr.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// Runs one or more statements without parameters and without result rows.
    package func execute(_ sql: String) throws(PGError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result)
    }

    /// Runs one statement with its parameters bound as text (nil is NULL) and returns its rows
    /// (held in memory: for small results only; large reads use `copyOut`).
    @discardableResult
    package func query(_ sql: String, _ parameters: [String?] = []) throws(PGError) -> [[String?]] {
        var pointers: [UnsafeMutablePointer<CChar>?] = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { for pointer in pointers { free(pointer) } }
        let result = pointers.withUnsafeMutableBufferPointer { buffer -> OpaquePointer? in
            // No parameters: no array to pass (an empty buffer may have no address).
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return PQexecParams(handle, sql, 0, nil, nil, nil, nil, 0) }
            return base.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { values in
                PQexecParams(handle, sql, Int32(buffer.count), nil, values, nil, nil, 0)
            }
        }
        defer { PQclear(result) }
        try check(result)
        var rows: [[String?]] = []
        let (count, columns) = (PQntuples(result), PQnfields(result))
        rows.reserveCapacity(Int(count))
        for row in 0..<count {
            rows.append(
                (0..<columns).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
                })
        }
        return rows
    }

    /// The first column of the first row, or nil.
    package func scalar(_ sql: String, _ parameters: [String?] = []) throws(PGError) -> String? {
        try query(sql, parameters).first?.first ?? nil
    }

    /// Runs `COPY … FROM STDIN` (`sql`) and sends what `produce` writes, in COPY's text format.
    /// An error thrown by `produce` ends the copy with that error (the server rolls the
    /// statement back) and is rethrown.
    package func copyIn(_ sql: String, _ produce: (_ send: (borrowing [UInt8]) throws -> Void) throws -> Void) throws {
        let start = PQexec(handle, sql)
        let status = PQresultStatus(start)
        if status != PGRES_COPY_IN {
            defer { PQclear(start) }
            try check(start)
            throw PGError(sqlState: nil, message: "COPY did not start: \(sql)")
        }
        PQclear(start)
        var failure: Error?
        do {
            try produce { bytes in
                let sent = bytes.withUnsafeBufferPointer { buffer in
                    buffer.baseAddress.map { base in
                        base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { PQputCopyData(handle, $0, Int32(buffer.count)) }
                    } ?? 1
                }
                guard sent == 1 else { throw PGError(sqlState: nil, message: Self.trimmed(PQerrorMessage(handle))) }
            }
        } catch {
            failure = error
        }
        _ = PQputCopyEnd(handle, failure == nil ? nil : "the copy was abandoned")
        try finishCopy(failure)
    }

    // MARK: - A COPY kept open across calls

    /// Starts `COPY … FROM STDIN` (`sql`) and leaves it open: `sendCopy` streams rows into it
    /// while the caller prepares the next ones (the server works on the rows already sent),
    /// `endCopy` ends it. No other statement may run on the connection meanwhile.
    func beginCopy(_ sql: String) throws(PGError) {
        let start = PQexec(handle, sql)
        defer { PQclear(start) }
        guard PQresultStatus(start) == PGRES_COPY_IN else {
            try check(start, sql: sql)
            throw PGError(sqlState: nil, message: "COPY did not start", sql: sql)
        }
    }

    /// Sends rows (COPY's text format) into the open COPY.
    func sendCopy(_ bytes: [UInt8]) throws(PGError) {
        let sent = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { PQputCopyData(handle, $0, Int32(buffer.count)) }
            } ?? 1
        }
        guard sent == 1 else { throw PGError(sqlState: nil, message: Self.trimmed(PQerrorMessage(handle))) }
    }

    /// Ends the open COPY: the rows it wrote, or the server's error (a broken key, a refused
    /// row), which the transaction then carries.
    func endCopy() throws -> Int {
        _ = PQputCopyEnd(handle, nil)
        try finishCopy(nil)
        return copiedRows
    }

    /// Runs `COPY … TO STDOUT` (`sql`) and gives each line (one row in COPY's text format,
    /// with its newline) to `body`.
    package func copyOut(_ sql: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let start = PQexec(handle, sql)
        if PQresultStatus(start) != PGRES_COPY_OUT {
            defer { PQclear(start) }
            try check(start)
            throw PGError(sqlState: nil, message: "COPY did not start: \(sql)")
        }
        PQclear(start)
        var failure: Error?
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let length = PQgetCopyData(handle, &buffer, 0)
            if length == -1 { break }
            if length == -2 { throw PGError(sqlState: nil, message: Self.trimmed(PQerrorMessage(handle))) }
            defer { PQfreemem(buffer) }
            // After a failure of `body`, the rest is read and dropped (the connection stays usable).
            guard failure == nil, let buffer else { continue }
            do {
                try buffer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                    try body(UnsafeBufferPointer(start: $0, count: Int(length)))
                }
            } catch {
                failure = error
            }
        }
        try finishCopy(failure)
    }

    /// The end of a copy: reads every remaining result (so the connection is usable again),
    /// then throws the caller's own `failure`, else the server's first error.
    private func finishCopy(_ failure: Error?) throws {
        var firstError: PGError?
        copiedRows = 0
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            do {
                try check(result)
                if let text = PQcmdTuples(result) { copiedRows = Int(String(cString: text)) ?? 0 }
            } catch {
                firstError = firstError ?? error
            }
        }
        if let failure { throw failure }
        if let firstError { throw firstError }
    }

    /// The rows the last `copyIn` or `copyOut` moved.
    func lastCopyRows() throws -> Int { copiedRows }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    package func inTransaction<T>(_ begin: String = "BEGIN", _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    func check(_ result: OpaquePointer?, sql: String? = nil) throws(PGError) {
        guard let result else { throw PGError(sqlState: nil, message: Self.trimmed(PQerrorMessage(handle)), sql: sql) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_COPY_IN, PGRES_COPY_OUT, PGRES_EMPTY_QUERY: return
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            let role = state == "42501" ? PQuser(handle).map { String(cString: $0) } : nil
            throw PGError(sqlState: state, message: message ?? Self.trimmed(PQresultErrorMessage(result)), sql: sql, role: role)
        }
    }

    static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "unknown error" }
        return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// COPY's text format: a row is its fields joined by tabs and ended by a newline; NULL is
/// `\N`; a backslash and the control characters COPY TO escapes (backspace, tab, newline,
/// vertical tab, form feed, carriage return) are written as COPY TO writes them, so that a row
/// rendered here equals the row the server sends back.
enum PGCopyText {
    /// Appends one field (`nil`: NULL) to `line`, with the tab before it unless it is the first.
    static func append(_ value: String?, to line: inout [UInt8], first: Bool) {
        if !first { line.append(0x09) }
        guard var value else {
            line.append(contentsOf: [0x5C, 0x4E])
            return
        }
        value.withUTF8 { append(escaping: $0, to: &line) }
    }

    /// Appends `bytes` escaped, the runs between the bytes to escape copied whole (a first
    /// import encodes a million rows: byte by byte, this was a fifth of the client's CPU).
    static func append(escaping bytes: UnsafeBufferPointer<UInt8>, to line: inout [UInt8]) {
        var start = 0
        for index in 0..<bytes.count where bytes[index] <= 0x0D || bytes[index] == 0x5C {
            let escape: UInt8
            switch bytes[index] {
            case 0x5C: escape = 0x5C
            case 0x09: escape = 0x74
            case 0x0A: escape = 0x6E
            case 0x0D: escape = 0x72
            case 0x08: escape = 0x62
            case 0x0B: escape = 0x76
            case 0x0C: escape = 0x66
            default: continue
            }
            line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            line.append(0x5C)
            line.append(escape)
            start = index + 1
        }
        line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
    }

    /// The fields of one line (its newline aside), nil for NULL, unescaped as COPY FROM reads
    /// them: the sequences COPY TO writes (`\\`, `\b`, `\f`, `\n`, `\r`, `\t`, `\v`) and, for any
    /// other `\c`, the character itself.
    static func fields(_ line: UnsafeBufferPointer<UInt8>) -> [String?] {
        var fields: [String?] = []
        var field: [UInt8] = []
        var isNull = false
        func finish() {
            fields.append(isNull ? nil : String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            isNull = false
        }
        var end = line.count
        if end > 0, line[end - 1] == 0x0A { end -= 1 }
        var index = 0
        while index < end {
            let byte = line[index]
            if byte == 0x09 {
                finish()
            } else if byte == 0x5C, index + 1 < end {
                index += 1
                switch line[index] {
                case 0x4E where field.isEmpty && (index + 1 == end || line[index + 1] == 0x09): isNull = true
                case 0x62: field.append(0x08)
                case 0x66: field.append(0x0C)
                case 0x6E: field.append(0x0A)
                case 0x72: field.append(0x0D)
                case 0x74: field.append(0x09)
                case 0x76: field.append(0x0B)
                default: field.append(line[index])
                }
            } else {
                field.append(byte)
            }
            index += 1
        }
        finish()
        return fields
    }
}
