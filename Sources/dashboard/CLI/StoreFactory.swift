import DashboardCore
import Foundation

/// What a writing command may ask of a store (`import`, `categorize`, `reclassify`, `revert`,
/// `batches approve|discard`, `nightly`): the store protocols only.
typealias WritableStore = ImportWriting & BucketWriting & AuditWriting & NightlyStore & SettingsWriting & RoleReading

/// What a reading command may ask of a store opened read-only (`report`, `status`, `audit`,
/// `batches list|show`), and `check`, which runs an import that records nothing.
typealias ReadableStore = ReportReading & BatchReading & HeldBatchReading & AuditReading & ImportWriting & SettingsReading
    & TeacherReading & StoreFailures & ChangeMarksReading & RoleReading

/// Opens stores: the one place above the store boundary that names the SQLite store (`Store`)
/// and its error type. Every command reaches the store through the protocols of
/// `DashboardCore/StoreProtocols` that these functions return, so a second store (PostgreSQL)
/// is chosen here and nowhere else (docs/architecture.md, "The store boundary").
enum StoreFactory {
    /// Opens the store at `path` for writing, creating and migrating it when needed.
    /// A PostgreSQL location (`postgresql://…`) opens the PostgreSQL store, its schema created
    /// in an empty database unless `existing` (a command that changes data already imported:
    /// an empty database is then `StoreError.empty`).
    static func open(path: String, busyTimeout: Double, modes: FileModes, existing: Bool = false) throws(StoreError)
        -> any WritableStore
    {
        if case .postgres(let uri) = DatabaseLocation(path) {
            // Every writer upgrades an older schema it may (as every SQLite writer migrates), also
            // one that never creates a database (categorize, reclassify, revert).
            return try Store(postgres: uri, busyTimeout: busyTimeout, create: !existing, upgrade: true)
        }
        return try Store(path: path, busyTimeout: busyTimeout, modes: modes)
    }

    /// Opens an existing store read-only (it is never created, migrated or written).
    static func openReadOnly(path: String) throws(StoreError) -> any ReadableStore {
        if case .postgres(let uri) = DatabaseLocation(path) { return try Store(postgres: uri, create: false) }
        return try Store(readOnlyPath: path)
    }

    /// An empty store in memory (`check` without a database: every row is new).
    static func openScratch() throws(StoreError) -> any ReadableStore {
        try Store(path: ":memory:")
    }

    /// Opens an existing store read-only for `verify`.
    static func openForVerifying(path: String) throws(StoreError) -> any StoreVerifying {
        if case .postgres(let uri) = DatabaseLocation(path) { return try Store(postgres: uri, create: false) }
        return try Store(readOnlyPath: path, checkPages: false)
    }

    /// Which side of a copy could not be opened.
    enum CopyOpenFailure: Error {
        case source(StoreError)
        case target(StoreError)
    }

    /// `dashboard copy --from postgresql://… --to PATH`: opens the PostgreSQL database (it must
    /// hold the dashboard's schema) and creates the SQLite one, which must not exist yet or be
    /// empty; a new file that the copy could not fill is removed again.
    static func copy(fromPostgres uri: String, to path: String, modes: FileModes) throws -> StoreCopy.Summary {
        let source: PGStore
        do {
            source = try PGStore(uri: uri, create: false)
        } catch {
            throw CopyOpenFailure.source(error)
        }
        let existed = PathInspection.inspect(path) != .missing
        let target: Store
        do {
            target = try Store(path: path, modes: modes)
        } catch {
            throw CopyOpenFailure.target(error)
        }
        do {
            return try StoreCopy.copy(from: source, to: target)
        } catch {
            if !existed {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            throw error
        }
    }

    /// `dashboard copy`: opens the SQLite database at `path` read-only and the PostgreSQL one at
    /// `uri` (its schema created when it has none), then copies (`StoreCopy`).
    /// - Throws: `CopyOpenFailure`, `StoreCopy.Failure`, or a failure of either store.
    static func copy(from path: String, to uri: String) throws -> StoreCopy.Summary {
        let source: Store
        do {
            source = try Store(readOnlyPath: path)
        } catch {
            throw CopyOpenFailure.source(error)
        }
        let target: PGStore
        do {
            target = try PGStore(uri: uri, create: true)
        } catch {
            throw CopyOpenFailure.target(error)
        }
        return try StoreCopy.copy(from: source, to: target)
    }

    /// The `StoreError` an error of the store's own layer stands for (a query failing after the
    /// store opened: a damaged page, a full disk, a lock), or nil for any other error.
    static func storeFailure(_ error: any Error, path: String) -> StoreError? {
        guard error is SQLiteError || error is PGError else { return nil }
        return Store.classify(error, path: DatabaseLocation(path).display)
    }
}
