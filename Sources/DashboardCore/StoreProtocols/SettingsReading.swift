import Foundation

/// The read side of the database's own settings.
package protocol SettingsReading {
    /// The database's default time zone for courses without one, or nil when none is recorded
    /// yet (no import committed since the database had settings).
    func defaultTimeZoneName() throws -> String?

    /// Every change of a setting, oldest first.
    func settingChanges() throws -> [SettingChange]

    /// A text setting's value (`DatabaseSetting`), nil when it was never set or was cleared.
    func setting(_ setting: DatabaseSetting) throws -> String?
}

/// The write side of the settings: `dashboard settings timezone NAME`.
package protocol SettingsWriting: SettingsReading {
    /// Sets the default time zone (logged); nothing when it already has that name.
    /// - Returns: the zone it replaced (nil when none was recorded).
    @discardableResult
    func setDefaultTimeZone(_ name: String, actor: String, at time: Date) throws -> String?

    /// Sets a text setting (`DatabaseSetting`), or clears it with nil; logged; nothing when it
    /// already has that value.
    /// - Returns: the value it replaced (nil when none).
    @discardableResult
    func setSetting(_ setting: DatabaseSetting, to value: String?, actor: String, at time: Date) throws -> String?
}

extension SettingsReading {
    /// The zone courses without one use: the database's (SPEC §4), else `fallback` (the
    /// command's `--timezone`, until an import records one). A recorded name this machine does
    /// not know (a database moved to an older tzdata) falls back too; `verify` lists it.
    package func defaultTimeZone(else fallback: TimeZone) throws -> TimeZone {
        guard let name = try defaultTimeZoneName() else { return fallback }
        return TimeZone(identifier: name) ?? fallback
    }

    /// The database's default report language (`settings language`): the tag of the courses
    /// that name no language, nil when it is not set (English). A stored value that is not a
    /// tag of a supported language (only a hand edit; `verify` lists it) counts as not set.
    package func defaultLanguage() throws -> LanguageTag? {
        guard let text = try setting(.language), case .success(let tag) = ReportLanguage.tag(text) else { return nil }
        return tag
    }

    /// The tag `course`'s reports are written by: its own language, else the database's
    /// default, else English (`ReportLanguage.resolved`).
    package func reportLanguage(of course: CourseRecord) throws -> LanguageTag {
        ReportLanguage.resolved(course: course.language, databaseDefault: try defaultLanguage())
    }
}
