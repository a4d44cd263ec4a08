import Foundation

/// Who the store's connection acts as, where the database has roles of its own (PostgreSQL,
/// `dashboard access`): a teacher's role reads only the courses granted to it, and writes only
/// what its grant allows.
package protocol RoleReading {
    /// The role the connection acts as when row-level security restricts what it reads (a
    /// teacher's role), with the number of live courses it sees; nil where nothing restricts
    /// the reader (an SQLite file, the owner of the PostgreSQL tables, a superuser).
    func restrictedRole() throws -> RestrictedRole?
}

/// A role under row-level security and what it sees now.
package struct RestrictedRole: Sendable, Equatable {
    /// The role's name (`current_user`).
    package var name: String
    /// The live courses it sees (0: its grants match no course).
    package var liveCourses: Int

    package init(name: String, liveCourses: Int) {
        self.name = name
        self.liveCourses = liveCourses
    }
}
