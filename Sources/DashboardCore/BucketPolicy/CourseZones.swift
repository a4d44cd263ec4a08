import Foundation

/// The time zone a course's dates are read in, and the as-of instant seen from it: the one
/// place that resolves a course's zone (the categorizer, imports, overrides, reverts and every
/// report ask it).
///
/// Policy (SPEC §6): a course's zone is its own `timezone` when `TimeZone(identifier:)` knows
/// that name, else the default zone. The default applies when the column is empty, and also
/// when it holds a name this machine does not know: an import stores only names it knows (an
/// unknown one is an `invalid_timezone` error), so only a hand edit, or a database moved to a
/// machine with an older tzdata, can leave one. The default is the zone the caller passes: the
/// database's default time zone (`Store.defaultTimeZone`, set by the first import, changed by
/// `dashboard settings timezone`), never the reader's `--timezone` once the database has one.
///
/// Each distinct zone is looked up once per run (`TimeZone(identifier:)` and the local as-of
/// date are the slow part of bucketing a million tasks): names are cached, and names that
/// resolve to one zone (the empty name and every unknown one, for instance) share one
/// `LocalAsOf`.
package struct CourseZones: Sendable {
    package let asOf: Date
    package let defaultTimeZone: TimeZone
    private var byName: [String: LocalAsOf] = [:]
    private var byZone: [String: LocalAsOf] = [:]

    package init(asOf: Date, defaultTimeZone: TimeZone) {
        self.asOf = asOf
        self.defaultTimeZone = defaultTimeZone
    }

    /// The zone of a course whose `timezone` column holds `name`: that zone when
    /// `TimeZone(identifier:)` knows it, else `defaultTimeZone` (empty or unknown name).
    package static func timeZone(named name: String, default defaultTimeZone: TimeZone) -> TimeZone {
        if name.isEmpty { return defaultTimeZone }
        return TimeZone(identifier: name) ?? defaultTimeZone
    }

    /// True when a course whose `timezone` column holds the non-empty `name` is read in that
    /// zone, not the default one (`dashboard verify` lists the others).
    package static func knows(_ name: String) -> Bool {
        TimeZone(identifier: name) != nil
    }

    /// The zone of a course whose `timezone` column holds `name` (see the type's policy).
    package func timeZone(named name: String) -> TimeZone {
        Self.timeZone(named: name, default: defaultTimeZone)
    }

    /// The as-of instant in the zone of a course whose `timezone` column holds `name`.
    package mutating func local(_ name: String) -> LocalAsOf {
        if let cached = byName[name] { return cached }
        let zone = timeZone(named: name)
        let value = byZone[zone.identifier] ?? LocalAsOf(asOf: asOf, timeZone: zone)
        byZone[zone.identifier] = value
        byName[name] = value
        return value
    }
}
