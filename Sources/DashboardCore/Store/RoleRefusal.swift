import Foundation

/// What a PostgreSQL server refused a role (SQLSTATE 42501), read from its error: which table,
/// and whether the role holds no privilege on it at all or the row it wrote is outside what its
/// policies allow. The executable words it for the command that was refused (a teacher's role
/// gets what it may do and who grants the rest); the server's own words are kept as a detail.
public struct RoleRefusal: Sendable, Equatable {
    /// Why the server refused.
    public enum Kind: Sendable, Equatable {
        /// The role holds no privilege for that on the table (`permission denied for table t`).
        case privilege
        /// The role may write the table, but not that row: a write policy of row-level security
        /// refused it (`new row violates row-level security policy for table "t"`).
        case rowSecurity
        /// An UPDATE, DELETE or TRUNCATE of the audit log (`PGSchema.appendOnlyAudit`).
        case appendOnly
        /// Anything else the server refused the role (a function, a schema, a setting).
        case other
    }

    /// The role the connection logged in as (nil when the server's error did not come with it).
    public var role: String?
    /// The table the refusal is about, when the server named one.
    public var table: String?
    public var kind: Kind
    /// The server's message, as it gave it.
    public var serverMessage: String

    package init(role: String?, table: String?, kind: Kind, serverMessage: String) {
        self.role = role
        self.table = table
        self.kind = kind
        self.serverMessage = serverMessage
    }

    /// The refusal behind a server's error of SQLSTATE 42501 (PostgreSQL 15's English
    /// messages; a message in another language is `.other` with no table, its words kept).
    package init(_ error: PGError) {
        let message = error.message
        role = error.role
        serverMessage = message
        if message.hasPrefix("the audit log is append-only") {
            (kind, table) = (.appendOnly, "audit")
        } else if let table = Self.name(in: message, after: "permission denied for table ") {
            (kind, self.table) = (.privilege, table)
        } else if message.hasPrefix("new row violates row-level security policy"),
            let range = message.range(of: "for table ")
        {
            (kind, table) = (.rowSecurity, Self.name(in: String(message[range.lowerBound...]), after: "for table "))
        } else if let sequence = Self.name(in: message, after: "permission denied for sequence ") {
            (kind, table) = (.privilege, sequence)
        } else {
            (kind, table) = (.other, nil)
        }
    }

    /// The identifier after `prefix` at the start of `message` (quotes dropped).
    private static func name(in message: String, after prefix: String) -> String? {
        guard message.hasPrefix(prefix) else { return nil }
        let rest = message.dropFirst(prefix.count)
        let name = rest.hasPrefix("\"") ? rest.dropFirst().prefix { $0 != "\"" } : rest.prefix { !$0.isWhitespace }
        return name.isEmpty ? nil : String(name)
    }
}
