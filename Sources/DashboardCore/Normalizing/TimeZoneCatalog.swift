import Foundation

/// The time zone names this machine knows: every name the system's tzdata ships, matched
/// case-insensitively.
///
/// Policy: a name is known when tzdata has a zone or a link by that name (the `Z` and `L` lines
/// of `/usr/share/zoneinfo/tzdata.zi`: 598 names in tzdata 2025b), and Foundation can open it:
/// `Area/Location` names (`Asia/Kolkata`, `Etc/GMT+5`), the backward-compatible links
/// (`US/Eastern`, `Asia/Calcutta`) and the single names at the top of zoneinfo (`UTC`, `GMT`,
/// `EST5EDT`, `CST6CDT`, `MST7MDT`, `PST8PDT`, `EST`, `MST`, `HST`, `CET`, `Zulu`…), each
/// meaning what tzdata says (`EST` is UTC−5 all year, `EST5EDT` follows the US rules).
/// `Factory` is left out: tzdata's placeholder for "no zone set", which an empty cell already
/// says. A case variant (`est5edt`, `europe/berlin`) is the name it varies (no two tzdata names
/// differ only in case) and is stored in tzdata's spelling. Abbreviations tzdata does not ship
/// as names (`PST`, `CEST`, `IST`), offsets (`+01:00`) and `posix/`, `right/` copies are
/// unknown. Without a `tzdata.zi` (an older tzdata) the regular files of zoneinfo whose names
/// start with a capital letter are the list, with Foundation's own.
package enum TimeZoneCatalog {
    /// tzdata's placeholder zone for "not set", left out (see above).
    static let placeholder = "Factory"

    static let canonicalByLowercase: [String: String] = {
        let root = "/usr/share/zoneinfo/"
        var names = tzdataNames(root: root) ?? (zoneinfoFiles(root: root) + TimeZone.knownTimeZoneIdentifiers)
        names.append("UTC")
        var table: [String: String] = [:]
        for name in names where name != placeholder && table[name.lowercased()] == nil {
            // Foundation must open it: a course's local day is computed with it.
            guard TimeZone(identifier: name) != nil else { continue }
            table[name.lowercased()] = name
        }
        return table
    }()

    /// The names of the zones and links of `tzdata.zi` (`Z NAME …`, `L TARGET NAME`), sorted;
    /// nil when the file cannot be read.
    static func tzdataNames(root: String) -> [String]? {
        guard let data = FileManager.default.contents(atPath: root + "tzdata.zi") else { return nil }
        var names: [String] = []
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count >= 2, words[0] == "Z" { names.append(String(words[1])) }
            if words.count >= 3, words[0] == "L" { names.append(String(words[2])) }
        }
        return names.isEmpty ? nil : names.sorted()
    }

    /// The regular files under zoneinfo whose names start with a capital letter, outside its
    /// `posix/`, `right/` and `SystemV/` copies, sorted (`localtime`, `posixrules` and the
    /// `.tab` files start with a small letter or hold a dot).
    static func zoneinfoFiles(root: String) -> [String] {
        var names: [String] = []
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return names }
        while let relative = enumerator.nextObject() as? String {
            let area = relative.split(separator: "/").first.map(String.init) ?? ""
            guard !["posix", "right", "SystemV"].contains(area), relative.first?.isUppercase == true, !relative.contains(".")
            else { continue }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + relative, isDirectory: &isDirectory), !isDirectory.boolValue {
                names.append(relative)
            }
        }
        return names.sorted()
    }

    /// The canonical spelling of a tzdata name (`europe/berlin` → `Europe/Berlin`, `est5edt` →
    /// `EST5EDT`), or nil when the name is unknown (`PST`, `CEST`, `Mars/Olympus`).
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
        if name.lowercased() == placeholder.lowercased() {
            throw FieldProblem(
                code: .invalidTimezone, column: "timezone", value: raw,
                message: "\"\(raw)\" is tzdata's placeholder for a zone that is not set, not a time zone",
                hint: "name the course's zone (such as Europe/Berlin), or leave the cell empty for the database's default zone")
        }
        throw FieldProblem(
            code: .invalidTimezone, column: "timezone", value: raw,
            message: "\"\(raw)\" is not an IANA time zone name",
            hint: "use a name such as Europe/Berlin or America/New_York (not an abbreviation like PST)")
    }
}
