import Foundation

/// The IANA time zone names this machine knows (from tzdata), matched case-insensitively.
package enum TimeZoneCatalog {
    /// Foundation's list, plus every `Area/Location` file of the system's zoneinfo (Foundation
    /// on Linux leaves out current names such as `Asia/Kolkata` and `Etc/UTC`).
    static let canonicalByLowercase: [String: String] = {
        var table: [String: String] = [:]
        for name in TimeZone.knownTimeZoneIdentifiers { table[name.lowercased()] = name }
        let root = "/usr/share/zoneinfo/"
        if let enumerator = FileManager.default.enumerator(atPath: root) {
            while let relative = enumerator.nextObject() as? String {
                let area = relative.split(separator: "/").first.map(String.init) ?? ""
                guard relative.contains("/"), !["posix", "right", "SystemV"].contains(area),
                    relative.first?.isUppercase == true, !relative.hasSuffix(".tab"), !relative.hasSuffix(".zi")
                else { continue }
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: root + relative, isDirectory: &isDirectory), !isDirectory.boolValue,
                    table[relative.lowercased()] == nil, TimeZone(identifier: relative) != nil
                {
                    table[relative.lowercased()] = relative
                }
            }
        }
        table["utc"] = table["utc"] ?? "UTC"
        return table
    }()

    /// The canonical spelling of an IANA name (`europe/berlin` → `Europe/Berlin`), or nil when
    /// the name is unknown. Abbreviations such as `CET` or `PST` are refused: they are
    /// ambiguous and do not follow daylight-saving rules.
    package static func canonicalName(_ name: String) -> String? {
        canonicalByLowercase[name.lowercased()]
    }

    /// The name a zone is stored and shown by (Foundation on Linux calls UTC "GMT").
    package static func name(of zone: TimeZone) -> String {
        zone.identifier == "GMT" ? "UTC" : zone.identifier
    }

    /// Parses the `timezone` cell of a course; empty means "use the default".
    /// - Throws: `FieldProblem` with code `invalid_timezone`.
    package static func parse(_ raw: String) throws(FieldProblem) -> String {
        let name = raw.trimmingUnicodeWhitespace()
        if name.isEmpty { return "" }
        if let canonical = canonicalName(name) { return canonical }
        throw FieldProblem(
            code: .invalidTimezone, column: "timezone", value: raw,
            message: "\"\(raw)\" is not an IANA time zone name",
            hint: "use a name such as Europe/Berlin or America/New_York (not an abbreviation like CET)")
    }
}
