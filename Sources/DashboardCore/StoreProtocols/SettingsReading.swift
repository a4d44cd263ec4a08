import Foundation

/// The read side of the database's own settings.
public protocol SettingsReading {
    /// The database's default time zone for courses without one, or nil when none is recorded
    /// yet (no import committed since the database had settings).
    func defaultTimeZoneName() throws -> String?
}

extension SettingsReading {
    /// The zone courses without one use: the database's (SPEC §4), else `fallback` (the
    /// command's `--timezone`, until an import records one). A recorded name this machine does
    /// not know (a database moved to an older tzdata) falls back too; `verify` lists it.
    public func defaultTimeZone(else fallback: TimeZone) throws -> TimeZone {
        guard let name = try defaultTimeZoneName() else { return fallback }
        return TimeZone(identifier: name) ?? fallback
    }
}
