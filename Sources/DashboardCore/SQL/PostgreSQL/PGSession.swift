import Foundation

/// What a `Database` keeps of its PostgreSQL connection: statements translated and prepared on
/// the server once per text, the rows the last command changed, the writer's lock wait, the
/// cursors it opens, and whether the store's triggers fire for this session.
///
/// Policy (SPEC §10): one writer at a time, as for SQLite. A write transaction takes the
/// advisory lock `writerLock` (held until it ends) and waits for it up to the busy timeout,
/// then fails as busy (55P03, exit 75), like SQLite's `BEGIN IMMEDIATE`; a read transaction
/// is one snapshot (REPEATABLE READ) and never waits: readers see the last committed state.
final class PGSession {
    let connection: PGConnection
    /// The advisory lock key of the dashboard's writers (`pg_advisory_xact_lock`): "dashbord" in ASCII.
    static let writerLock: Int64 = 0x6461_7368_626F_7264

    /// Rows a cursor hands over per round trip: a scan's memory is bounded by this many rows.
    static let fetchRows = 2000

    /// The rows the last command changed.
    var lastChanges = 0
    /// How long a writer waits for the lock (milliseconds; 0: not at all).
    var busyMilliseconds = 0
    private(set) var triggersEnabled = true
    /// Statement texts as translated (`PGDialect`), with their parameter count and the name
    /// of their server-side prepared statement once prepared.
    private var translations: [String: Translation] = [:]
    private var preparedCount = 0
    private var cursorCount = 0

    struct Translation {
        let sql: String
        let parameters: Int
        /// The server's prepared statements of this text, by the types of their parameters.
        var prepared: [[UInt32]: String] = [:]
    }

    /// Policy: a cursor is planned for its whole result (`cursor_tuple_fraction = 1`): the store
    /// reads every row of every query it opens, and PostgreSQL's default (the first tenth) chose
    /// plans that start fast and finish slowly (a page of 50 tasks walked all 100,000 tasks in key
    /// order: 177 ms instead of 1).
    init(connection: PGConnection) {
        self.connection = connection
        try? connection.execute("SET cursor_tuple_fraction = 1")
    }

    /// The translation of `sql`, made once per text.
    func translation(of sql: String) -> Translation {
        if let known = translations[sql] { return known }
        let (text, parameters) = PGDialect.translate(sql)
        let translation = Translation(sql: text, parameters: parameters)
        translations[sql] = translation
        return translation
    }

    /// The name of the server's prepared statement for `sql` with parameters of `types`
    /// (prepared on first use).
    func preparedName(for sql: String, types: [UInt32]) throws(PGError) -> String {
        try settle()
        let translation = translation(of: sql)
        if let name = translation.prepared[types] { return name }
        preparedCount += 1
        let name = "dashboard_\(preparedCount)"
        try connection.prepare(name, translation.sql, types: types)
        translations[sql]?.prepared[types] = name
        return name
    }

    /// A new cursor name, unique on this connection.
    func nextCursorName() -> String {
        cursorCount += 1
        return "dashboard_cursor_\(cursorCount)"
    }

    // MARK: - A COPY streamed across calls

    /// The COPY left open by `stream` (its statement), if any.
    private(set) var openCopy: String?

    /// Streams `data` into `COPY … FROM STDIN` (`sql`), started on first use and left open: the
    /// server writes the rows already sent while the caller reads the next ones. Any other use
    /// of the connection ends it first (`endStream`).
    func stream(_ sql: String, _ data: [UInt8]) throws {
        if openCopy != sql {
            _ = try endStream()
            try connection.beginCopy(sql)
            openCopy = sql
        }
        try connection.sendCopy(data)
    }

    /// Ends the streamed COPY, if one is open: the rows it wrote (0 when none was open).
    /// - Throws: the server's error for the COPY (the transaction then carries it).
    @discardableResult
    func endStream() throws -> Int {
        guard openCopy != nil else { return 0 }
        openCopy = nil
        return try connection.endCopy()
    }

    /// Ends a streamed COPY before another statement uses the connection; the COPY's failure is
    /// that statement's. Every use of the connection calls it first.
    func settle() throws(PGError) {
        guard openCopy != nil else { return }
        do {
            try endStream()
        } catch let error as PGError {
            throw error
        } catch {
            throw PGError(sqlState: nil, message: "\(error)")
        }
    }

    /// Runs statements without parameters (the store's scripts: temporary tables, several
    /// statements at once).
    func execute(_ sql: String) throws(PGError) {
        try settle()
        let result = try connection.runScript(translation(of: sql).sql)
        lastChanges = result.changedRows
    }

    /// Runs `sql` (prepared once) with `parameters`: its whole result.
    func run(_ sql: String, _ parameters: [PGParameter]) throws(PGError) -> PGResult {
        try settle()
        let name = try preparedName(for: sql, types: parameters.map(\.type))
        let result = try connection.run(prepared: name, sql: translation(of: sql).sql, parameters)
        lastChanges = result.changedRows
        return result
    }

    /// Begins a transaction: a writer's takes the writers' lock (waiting up to the busy
    /// timeout); a reader's is one snapshot.
    func begin(writer: Bool) throws(PGError) {
        try settle()
        guard writer else {
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
            return
        }
        try connection.execute("BEGIN ISOLATION LEVEL READ COMMITTED")
        do {
            try takeWriterLock()
            _ = try connection.runScript("SELECT dashboard_number_new_rows()")
            // A writer's statements touch a few thousand rows of a million (a night's changes)
            // as often as all of them: with the default cost of a random read (4, a spinning
            // disk's) the server chose a scan of every task over a lookup per changed row, 0.3 s
            // each time, a dozen times a sync. And no JIT compilation (0.2 s of a 0.3 s statement).
            try connection.execute("SET LOCAL random_page_cost = 1.1; SET LOCAL jit = off")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Takes the writers' advisory lock for the open transaction, waiting up to the busy timeout.
    ///
    /// The wait asks again and again (`pg_try_advisory_xact_lock`, sleeps growing from 1 to
    /// 100 ms, as SQLite's busy timeout does) rather than waiting on the server: an interrupt
    /// (`isInterrupted`, a stop asked by SIGTERM) ends it at once. A cancel request sent before
    /// a server-side wait began would have missed it, and the wait would have run to its end.
    func takeWriterLock() throws(PGError) {
        let key = String(Self.writerLock)
        let deadline = Date().addingTimeInterval(Double(busyMilliseconds) / 1000)
        var delay = 1
        while true {
            if try connection.scalar("SELECT pg_try_advisory_xact_lock($1)", [key]) == "t" { return }
            if isInterrupted() { throw PGError(sqlState: "57014", message: "the wait for the writers' lock was interrupted") }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { break }
            usleep(useconds_t(min(Double(delay) / 1000, left) * 1_000_000))
            delay = min(delay * 2, 100)
        }
        throw PGError(sqlState: "55P03", message: "another dashboard process holds the writers' lock")
    }

    /// True once the connection was interrupted (`ConnectionInterrupt`; set by `Database`).
    var isInterrupted: () -> Bool = { false }

    /// Turns the store's triggers on or off for this session (`dashboard.triggers`, which every
    /// trigger of `PGSchema` reads).
    func setTriggersEnabled(_ on: Bool) {
        guard on != triggersEnabled else { return }
        do {
            try settle()
            try connection.query("SELECT set_config('dashboard.triggers', $1, false)", [on ? "on" : "off"])
            triggersEnabled = on
        } catch {
            // A lost connection: the next statement reports it.
        }
    }
}
