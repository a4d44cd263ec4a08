import Foundation

/// The IANA time zone names this machine knows (from tzdata), matched case-insensitively.
public enum TimeZoneCatalog {
    private static let canonicalByLowercase: [String: String] = {
        var table: [String: String] = [:]
        for name in TimeZone.knownTimeZoneIdentifiers { table[name.lowercased()] = name }
        table["utc"] = table["utc"] ?? "UTC"
        return table
    }()

    /// The canonical spelling of an IANA name (`europe/berlin` → `Europe/Berlin`), or nil when
    /// the name is unknown. Abbreviations such as `CET` or `PST` are refused: they are
    /// ambiguous and do not follow daylight-saving rules.
    public static func canonicalName(_ name: String) -> String? {
        canonicalByLowercase[name.lowercased()]
    }

    /// Parses the `timezone` cell of a course; empty means "use the default".
    /// - Throws: `FieldProblem` with code `invalid_timezone`.
    public static func parse(_ raw: String) throws(FieldProblem) -> String {
        let name = raw.trimmingUnicodeWhitespace()
        if name.isEmpty { return "" }
        if let canonical = canonicalName(name) { return canonical }
        throw FieldProblem(
            code: .invalidTimezone, column: "timezone", value: raw,
            message: "\"\(raw)\" is not an IANA time zone name",
            hint: "use a name such as Europe/Berlin or America/New_York (not an abbreviation like CET)")
    }
}
