import Foundation

/// The dashboard's PostgreSQL database: the connection, the schema check and its creation.
///
/// Opening (`open`) connects, then judges the database before writing anything: a database
/// with `dashboard_schema` is the dashboard's (refused untouched when its version is newer than
/// `PGSchema.currentVersion`, or when the mark names another application; a writer upgrades
/// version 8 in place, `upgrade`); a database with
/// tables of its own in the current schema and no mark is another application's (refused
/// untouched); an empty one gets the schema in one transaction, under an advisory lock so that
/// two processes creating it at once make it once.
package final class PGStore {
    package let connection: PGConnection
    /// The location as messages name it (no password).
    package let display: String

    /// The advisory lock key of the dashboard's writers (`PGSession.writerLock`).
    static let writerLock = PGSession.writerLock
    /// The key held while an empty database gets its schema (a moment, never by a writer's run).
    static let schemaLock: Int64 = 0x6461_7368_7363_6865

    /// Opens the database at `uri`; `create` makes the schema in an empty database, `upgrade`
    /// (a writer; by default when `create`) upgrades an older one when the role owns the tables
    /// (`upgrade()`).
    package init(uri: String, create: Bool, upgrade: Bool? = nil) throws(StoreError) {
        display = DatabaseLocation.redacted(uri)
        do {
            connection = try PGConnection(uri)
        } catch {
            throw .unreadable(path: display, reason: error.message)
        }
        do {
            try judge(create: create, upgrade: upgrade ?? create)
        } catch let error as StoreError {
            throw error
        } catch {
            throw PGStore.classify(error, display: display)
        }
    }

    /// The version of the open database's schema.
    package var schemaVersion: Int {
        (try? connection.scalar("SELECT version FROM dashboard_schema WHERE id = 1")).flatMap { $0.flatMap { Int($0) } } ?? 0
    }

    private func judge(create: Bool, upgrade mayUpgrade: Bool) throws {
        func isMarked() throws -> Bool { try connection.scalar("SELECT to_regclass('dashboard_schema') IS NOT NULL") == "t" }
        func judgeMarked() throws {
            let version = try check()
            if mayUpgrade, version < PGSchema.currentVersion { try upgrade() }
        }
        if try isMarked() { return try judgeMarked() }
        let tables = Int(try connection.scalar("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()") ?? "0") ?? 0
        guard tables == 0 else {
            // Another process may have committed the schema between the two looks (its tables
            // and its mark come in one transaction): looked at again before calling it foreign.
            if try isMarked() { return try judgeMarked() }
            throw StoreError.foreign(path: display)
        }
        guard create else { throw StoreError.empty(path: display) }
        try connection.inTransaction {
            try connection.query("SELECT pg_advisory_xact_lock($1)", [String(Self.schemaLock)])
            // Another process may have created it meanwhile.
            if try connection.scalar("SELECT to_regclass('dashboard_schema') IS NOT NULL") == "t" { return }
            try connection.execute(PGSchema.creation)
        }
        try check()
    }

    /// An older version to the current one (`PGSchema.upgradeFrom8`, then `upgradeFrom9`, and
    /// so on to `upgradeFrom12`), by a writer: in one transaction, with the schema's lock and the
    /// writers' lock, when the role owns `tasks` and the locks are free (the columns need a
    /// moment's exclusive lock on `tasks` and `courses`, which waits 2 s at most for a running
    /// report). Otherwise the database stays at its version and a later writer upgrades it:
    /// version 8 is read and written as it is (no fingerprints: every import compares every row,
    /// `RowPrints.kept`); before version 11 an import of courses fails until then (the teacher's
    /// address or the course's language has no column); reports read every course's language as
    /// '' (`Store.courseLanguageColumn`), and the rest does not read these columns.
    private func upgrade() throws {
        try connection.execute("BEGIN")
        do {
            try connection.execute("SET LOCAL lock_timeout = '2s'")
            try connection.query("SELECT pg_advisory_xact_lock($1)", [String(Self.schemaLock)])
            let version = try connection.scalar("SELECT version FROM dashboard_schema WHERE id = 1")
            let owner = try connection.scalar(
                "SELECT count(*) FROM pg_class WHERE oid = to_regclass('tasks') AND pg_has_role(current_user, relowner, 'USAGE')")
            guard let found = version.flatMap({ Int($0) }), found >= PGSchema.oldestVersion, found < PGSchema.currentVersion, owner == "1",
                try connection.scalar("SELECT pg_try_advisory_xact_lock($1)", [String(Self.writerLock)]) == "t"
            else {
                try connection.execute("ROLLBACK")
                return
            }
            if found == 8 { try connection.execute(PGSchema.upgradeFrom8) }
            if found <= 9 { try connection.execute(PGSchema.upgradeFrom9) }
            if found <= 10 { try connection.execute(PGSchema.upgradeFrom10) }
            if found <= 11 { try connection.execute(PGSchema.upgradeFrom11) }
            try connection.execute(PGSchema.upgradeFrom12)
            try connection.execute("COMMIT")
        } catch let failure where failure.sqlState == "55P03" {
            // A report held `tasks` for longer than the wait: the next writer upgrades.
            try connection.execute("ROLLBACK")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Refuses another application's mark and a version this program does not know.
    /// - Returns: the version (`PGSchema.oldestVersion` through `currentVersion`).
    @discardableResult
    private func check() throws -> Int {
        let row = try connection.query("SELECT version, application FROM dashboard_schema WHERE id = 1").first
        guard let row, let versionText = row[0], let version = Int(versionText), row[1] == PGSchema.application else {
            throw StoreError.foreign(path: display)
        }
        if version > PGSchema.currentVersion {
            throw StoreError.newerSchema(path: display, found: version, supported: PGSchema.currentVersion)
        }
        if version < PGSchema.oldestVersion { throw StoreError.unknownSchema(path: display, found: version) }
        // A table dropped by hand: damaged, as an SQLite file that lost one (`StoreIdentity`).
        let present = Set(
            try connection.query("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").compactMap { $0.first ?? nil })
        let missing = PGSchema.tables.map(\.name).filter { !present.contains($0) }
        if !missing.isEmpty { throw StoreError.damaged(path: display, detail: "missing table \(missing.joined(separator: ", "))") }
        return version
    }

    /// The store error behind a failure of the server or the connection.
    package static func classify(_ error: Error, display: String, waited: Double = 0) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? PGError {
            // A cancel request (`ConnectionInterrupt`): the statement was stopped, not refused.
            if error.sqlState == "57014" { return .interrupted(path: display) }
            if error.isBusy { return .busy(path: display, waitedSeconds: waited) }
            if error.isPermission { return .refused(path: display, refusal: RoleRefusal(error)) }
            if error.isReadOnly { return .readOnlyServer(path: display) }
            if error.isIOError { return .unreadable(path: display, reason: error.message) }
            return .postgres(error)
        }
        if let error = error as? InternalError { return .internalFailure(error) }
        return .internalFailure(.unexpected("\(error)"))
    }
}
