/// PostgreSQL's COPY on a connection (`Database`): the bulk writes of an import and reads of any
/// size in one statement. SQLite has no COPY: its writers bind statements of many rows instead.
extension Database {
    /// Streams `data`, rows in COPY's text format (`PGCopyText`), through `COPY … FROM STDIN`
    /// (`sql`): the bulk writes of an import on PostgreSQL. SQLite has no COPY: its writers bind
    /// statements of many rows instead.
    /// - Returns: the rows copied.
    @discardableResult
    func copyIn(_ sql: String, data: [UInt8]) throws -> Int {
        guard case .postgres(let session) = engine else { throw InternalError.unexpected("COPY on an SQLite connection: \(sql)") }
        try session.settle()
        try session.connection.copyIn(sql) { send in try send(data) }
        session.lastChanges = 0
        return try session.connection.lastCopyRows()
    }

    /// Runs `COPY … TO STDOUT` (`sql`, PostgreSQL only) and gives each line (one row in COPY's
    /// text format, with its newline) to `body`: a read of any size in one statement.
    func copyOut(_ sql: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        guard case .postgres(let session) = engine else { throw InternalError.unexpected("COPY on an SQLite connection: \(sql)") }
        try session.settle()
        try session.connection.copyOut(sql, body)
    }

    /// Streams `data` (rows in COPY's text format) into `COPY … FROM STDIN` (`sql`), left open
    /// across calls so that the server writes while the caller reads on (PostgreSQL only). The
    /// next other statement, or `endCopyStream`, ends it.
    func copyStream(_ sql: String, data: [UInt8]) throws {
        guard case .postgres(let session) = engine else { throw InternalError.unexpected("COPY on an SQLite connection: \(sql)") }
        try session.stream(sql, data)
    }

    /// Ends the streamed COPY: the rows it wrote.
    /// - Throws: the server's error for it (a repeated key: 23505).
    @discardableResult
    func endCopyStream() throws -> Int {
        guard case .postgres(let session) = engine else { return 0 }
        return try session.endStream()
    }
}
