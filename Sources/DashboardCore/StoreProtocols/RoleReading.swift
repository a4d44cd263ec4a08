import Foundation

/// Who the store's connection acts as, where the database has roles of its own (PostgreSQL,
/// `dashboard access`): a teacher's role reads only the courses granted to it, and writes only
/// what its grant allows.
package protocol RoleReading {
    /// The role the connection acts as when row-level security restricts what it reads (a
    /// teacher's role), with the number of live courses it sees; nil where nothing restricts
    /// the reader (an SQLite file, the owner of the PostgreSQL tables, a superuser).
    func restrictedRole() throws -> RestrictedRole?

    /// For a role that row-level security restricts: the refusal the server would give a revert
    /// of `target` (no right to write the log; an entry or a group that is not its own pins and
    /// reverts, `dashboard_own_pin`; a batch, which needs the administrator's privileges), asked
    /// before the revert so that no refusal is preceded by advice the role cannot follow ("pass
    /// --force"). Nil when the server would let it, where nothing restricts the connection, and
    /// for a target the role does not see (the revert then says it is unknown).
    func revertRefusal(_ target: RevertTarget) throws -> RoleRefusal?
}

/// What a revert undoes.
package enum RevertTarget: Sendable, Equatable {
    case entry(Int)
    case group(Int)
    case batch(Int)
}

/// A role under row-level security and what it sees now.
package struct RestrictedRole: Sendable, Equatable {
    /// The role's name (`current_user`).
    package var name: String
    /// The live courses it sees (0: its grants match no course).
    package var liveCourses: Int
    /// A grant of it lets it pin buckets (`--reclassify`): it holds the privileges that needs.
    package var mayReclassify: Bool

    package init(name: String, liveCourses: Int, mayReclassify: Bool = false) {
        self.name = name
        self.liveCourses = liveCourses
        self.mayReclassify = mayReclassify
    }
}
