import Foundation

/// The permissions of everything `dashboard` creates, derived from the umask it was started with.
///
/// Policy (SPEC §4): a file gets `0666 & ~umask` and a folder `0777 & ~umask`, and never any bit
/// for others (`& ~0007`), because they hold student data: the Debian default umask 022 gives
/// 0640 files and 0750 folders (a group, e.g. the teachers, reads them), 027 the same, 077 gives
/// 0600/0700 (private to the owner) and 000 gives 0660/0770. The modes are set on the open
/// descriptor (`fchmod`), so a file or folder planted earlier never keeps its own mode. This
/// covers the database (see `Database`; SQLite gives its `-wal` and `-shm` the database file's
/// mode), reports, `--rejects` files and every folder the program creates.
///
/// The library never reads the umask (it cannot be read without being set, a process-wide
/// change): the executable reads it once at start and hands the value in. Where no value is
/// handed in, `ownerOnly` (umask 077) applies.
package struct FileModes: Sendable, Equatable {
    /// Mode of every file the program writes: the database, reports, `--rejects`, temporary files.
    package let file: mode_t
    /// Mode of every folder the program creates: `--out`, its missing parents, the nightly
    /// dated folder.
    package let folder: mode_t

    /// The modes a process with `umask` gives, without any bit for others.
    package init(umask: mode_t) {
        file = 0o666 & ~umask & ~0o007
        folder = 0o777 & ~umask & ~0o007
    }

    /// 0600 files and 0700 folders: what umask 077 gives.
    package static let ownerOnly = FileModes(umask: 0o077)
}
