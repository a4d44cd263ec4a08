import Foundation

/// The permissions of everything `dashboard` creates, in one place.
///
/// Policy: files are `0600` and folders `0700`, whatever the umask, because they hold student
/// data (teachers get reports through a group or a web server the administrator sets up). The
/// modes are set on the open descriptor (`fchmod`), so a file or folder planted earlier never
/// keeps its own mode. The database file itself is created with `fileMode` too (see
/// `Database`). Change these two values (or make them functions of the umask) and every writer
/// follows.
public enum FileModes {
    /// Mode of every file the program writes: reports, `--rejects`, temporary files.
    public static let file: mode_t = 0o600
    /// Mode of every folder the program creates: `--out`, its missing parents, the nightly
    /// dated folder.
    public static let folder: mode_t = 0o700
}
