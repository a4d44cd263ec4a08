import Foundation

/// Where `--db` points: a SQLite file, or a PostgreSQL database (`postgresql://…` or
/// `postgres://…`, SPEC §10).
package enum DatabaseLocation: Equatable, Sendable {
    case sqlite(path: String)
    case postgres(uri: String)

    package init(_ value: String) {
        let lower = value.lowercased()
        self = lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://") ? .postgres(uri: value) : .sqlite(path: value)
    }

    /// How the location is named in messages and records: a URI without its password (the
    /// `user:password@` part keeps the user, a `password=` parameter is dropped).
    package var display: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let uri): return Self.redacted(uri)
        }
    }

    static func redacted(_ uri: String) -> String {
        guard let scheme = uri.range(of: "://") else { return uri }
        var rest = String(uri[scheme.upperBound...])
        // The authority ends at the first '/', '?' or '#'; a password is "user:password@" in it.
        let authorityEnd = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                rest = String(userInfo[..<colon]) + "@" + rest[rest.index(after: at)...]
            }
        }
        // Query parameters: password=… is dropped, the others kept in order.
        if let question = rest.firstIndex(of: "?") {
            let head = rest[..<question]
            let query = rest[rest.index(after: question)...]
            let kept = query.split(separator: "&", omittingEmptySubsequences: false).filter {
                !$0.lowercased().hasPrefix("password=")
            }
            rest = String(head) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        }
        return String(uri[..<scheme.upperBound]) + rest
    }
}
