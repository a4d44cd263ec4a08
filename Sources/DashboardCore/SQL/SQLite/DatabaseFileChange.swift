/// What happened to the files of an open SQLite database while a connection used them: the
/// verdict of `DatabaseFileWatch`.
///
/// Policy (docs/reliability.md, "Files replaced or cut short under a running command"): a
/// connection works on the file it opened, whatever the path names later. When the path names
/// another file (a backup moved over it), nothing (a file deleted), or a file shorter than the
/// connection saw it, or when its `-wal` or `-shm` is not the one the connection uses, a write
/// is rolled back (or, after its commit, reported as gone into the old file) and a read is not
/// reported as a success: every such run ends with exit 74 and these words.
public struct DatabaseFileChange: Error, Equatable, Sendable {
    /// What changed.
    public enum Kind: Equatable, Sendable {
        /// Another file is at the database's path (a file moved or copied over it).
        case replaced
        /// The file the connection opened was written over in place (`cp` or `cat` of another
        /// file onto it: same inode, other bytes), so its `-wal` and `-shm` belong to the bytes that
        /// were there before.
        case overwritten
        /// Nothing is at the database's path any more.
        case removed
        /// The file is shorter than this connection saw it (bytes now, bytes seen): SQLite never
        /// shrinks a dashboard database (no VACUUM, no auto-vacuum), so something cut it.
        case truncated(bytes: Int, seen: Int)
        /// Another file is at the path of the `-wal` or `-shm` (the suffix) this connection uses.
        case sideFileReplaced(suffix: String)
        /// The `-wal` or `-shm` (the suffix) this connection uses was deleted.
        case sideFileRemoved(suffix: String)
        /// The `-wal` lost pages written to it (it was cut short, or overwritten at its start).
        case walTruncated
    }

    /// When the change was seen.
    public enum Moment: Equatable, Sendable {
        /// While the command opened the database: nothing was read or written yet.
        case opening
        /// Before a write committed: the write was rolled back.
        case beforeCommit
        /// Right after a write committed: it went into the file the connection had opened.
        case afterCommit
        /// At the end of a read: what the command read came from the file it had opened.
        case reading
    }

    public var kind: Kind
    public var moment: Moment
    /// After a write: true when the committed pages of the `-wal` this connection used were
    /// copied into the file it opened and that `-wal` was emptied, so that no file at the path
    /// is read together with pages of another; false when that could not be done (another
    /// process still read it); nil when it was not tried (a read, or a `-wal` or file that was
    /// cut short: copying from it would spread the damage).
    public var walSettled: Bool?

    package init(kind: Kind, moment: Moment, walSettled: Bool? = nil) {
        self.kind = kind
        self.moment = moment
        self.walSettled = walSettled
    }

    /// True when the file at the path (or its `-wal`) lost data: the database is damaged.
    public var damagesTheFile: Bool {
        switch kind {
        case .truncated, .walTruncated, .overwritten: return true
        default: return false
        }
    }

    /// What happened, for `path` (the database as the user named it): one sentence, no advice.
    package func words(path: String) -> String {
        let happened: String
        switch kind {
        case .replaced: happened = "\(path) was replaced by another file"
        case .removed: happened = "\(path) was deleted"
        case .overwritten: happened = "\(path) was overwritten in place by another file's bytes"
        case .truncated(let bytes, let seen):
            happened = "\(path) was cut short (\(bytes) bytes, it had \(seen))"
        case .sideFileReplaced(let suffix): happened = "\(path)\(suffix) was replaced by another file"
        case .sideFileRemoved(let suffix): happened = "\(path)\(suffix) was deleted"
        case .walTruncated: happened = "\(path)-wal was cut short"
        }
        switch moment {
        case .opening:
            return "\(happened) while this command opened it; nothing was read or written"
        case .beforeCommit:
            return "\(happened) while this command wrote to it; everything the command wrote was rolled back"
        case .afterCommit:
            switch kind {
            case .walTruncated, .truncated, .overwritten:
                return "\(happened) while this command committed: what the command wrote is not safely stored"
            case .sideFileRemoved, .sideFileReplaced:
                if walSettled == true {
                    return "\(happened) while this command committed; what it wrote was copied into \(path) from the -wal it used"
                }
                return "\(happened) while this command committed: what the command wrote may not be in \(path)"
            case .replaced, .removed: break
            }
            return
                "\(happened) while this command committed: what it wrote went into the file that was at \(path) before, not into the one there now"
        case .reading:
            return "\(happened) while this command read it: what it showed came from the file as it was before"
        }
    }
}
