import Foundation

/// Owns the `settings` and `settings_log` tables: the database's own settings, and every change
/// of one (who, when, from what to what). The only code that writes them.
///
/// Policy (SPEC §4): the default time zone of courses without one belongs to the database, not
/// to whoever reads it: the first committed import records its `--timezone` (else UTC) when
/// none is recorded yet, and only `dashboard settings timezone NAME` changes it. Every reader
/// then gets the same buckets.
enum Settings {
    /// The key of the default time zone.
    static let defaultTimeZone = "default_timezone"

    /// A setting's value, or nil when it was never set (or the database predates settings).
    static func value(_ key: String, in database: Database) throws -> String? {
        guard try hasSettings(database) else { return nil }
        return try database.scalar("SELECT value FROM settings WHERE key = ?", [key])?.text
    }

    /// Records `value` when the setting has none yet (logged, with the batch that set it).
    /// - Returns: true when it was recorded.
    @discardableResult
    static func recordIfMissing(_ key: String, value: String, actor: String, at time: Date, batchID: Int?, in database: Database)
        throws -> Bool
    {
        try database.run("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING", [key, value])
        guard database.changes == 1 else { return false }
        try log(key, from: nil, to: value, actor: actor, at: time, batchID: batchID, in: database)
        return true
    }

    /// Sets the setting to `value` and logs the change; nothing when it already has that value.
    /// - Returns: the value it had before (nil when it had none).
    static func set(_ key: String, to value: String, actor: String, at time: Date, in database: Database) throws -> String? {
        let old = try Self.value(key, in: database)
        guard old != value else { return old }
        try database.run(
            "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [key, value])
        try log(key, from: old, to: value, actor: actor, at: time, batchID: nil, in: database)
        return old
    }

    /// The changes of every setting, oldest first.
    static func changes(in database: Database) throws -> [SettingChange] {
        var result: [SettingChange] = []
        guard try hasSettings(database) else { return result }
        let statement = try database.cached(
            "SELECT entry_id, recorded_at, key, old_value, new_value, actor, batch_id FROM settings_log ORDER BY entry_id")
        let c = try statement.columnPositions
        let (id, at, key, old, new, actor, batch) = (
            try c.position("entry_id"), try c.position("recorded_at"), try c.position("key"), try c.position("old_value"),
            try c.position("new_value"), try c.position("actor"), try c.position("batch_id")
        )
        try statement.forEachRow([]) { row in
            result.append(
                SettingChange(
                    id: row.int(id), recordedAt: row.string(at) ?? "", key: row.string(key) ?? "", oldValue: row.string(old),
                    newValue: row.string(new) ?? "", actor: row.string(actor) ?? "", batchID: row.isNull(batch) ? nil : row.int(batch)))
        }
        return result
    }

    /// False for a database from before migration 5, read by a reader that may not migrate it.
    private static func hasSettings(_ database: Database) throws -> Bool {
        try database.hasTable("settings")
    }

    private static func log(
        _ key: String, from old: String?, to new: String, actor: String, at time: Date, batchID: Int?, in database: Database
    ) throws {
        try database.run(
            "INSERT INTO settings_log (recorded_at, key, old_value, new_value, actor, batch_id) VALUES (?, ?, ?, ?, ?, ?)",
            [Timestamp.text(time), key, old, new, actor, batchID])
    }
}

/// One change of a setting, as `settings_log` keeps it.
package struct SettingChange: Sendable, Equatable {
    package var id: Int
    package var recordedAt: String
    package var key: String
    /// nil when the setting had no value (the first import set it).
    package var oldValue: String?
    package var newValue: String
    package var actor: String
    /// The import that set it, when one did.
    package var batchID: Int?
}

extension Store: SettingsWriting {
    package func defaultTimeZoneName() throws -> String? {
        try Settings.value(Settings.defaultTimeZone, in: database)
    }

    /// `dashboard settings timezone NAME`: sets the default time zone, logged.
    /// - Returns: the zone it replaced (nil when none was recorded).
    package func setDefaultTimeZone(_ name: String, actor: String, at time: Date) throws -> String? {
        var old: String?
        try database.inTransaction(.immediate) {
            old = try Settings.set(Settings.defaultTimeZone, to: name, actor: actor, at: time, in: database)
            return .commit
        }
        return old
    }

    package func settingChanges() throws -> [SettingChange] {
        try Settings.changes(in: database)
    }

    package func setting(_ setting: DatabaseSetting) throws -> String? {
        try Settings.value(setting.rawValue, in: database).flatMap { $0.isEmpty ? nil : $0 }
    }

    package func setSetting(_ setting: DatabaseSetting, to value: String?, actor: String, at time: Date) throws -> String? {
        var old: String?
        try database.inTransaction(.immediate) {
            old = try Settings.set(setting.rawValue, to: value ?? "", actor: actor, at: time, in: database)
            return .commit
        }
        return old.flatMap { $0.isEmpty ? nil : $0 }
    }
}
