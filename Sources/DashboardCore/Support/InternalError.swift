/// A broken invariant of the program itself: a bug, never a fault of the input or the store.
///
/// Each case names the invariant that failed; the executable maps every one to exit code 70
/// with a request to report it. (Before this type, these were dressed as `SQLiteError`s with
/// code 1; they are not SQLite's.)
public enum InternalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The delete guard held a run whose tasks were written directly: only a sync that deletes
    /// can hold, and a database without tasks has none to delete.
    case directImportHeld
    /// The direct writer met a repeated task id after the last file was read (every file's
    /// rows are flushed, and a repeat answered, at the end of the file).
    case directRepeatAfterReading
    /// A batch was to be applied without a batch id.
    case applyWithoutBatch
    /// An import's transaction committed without producing its result.
    case importProducedNoResult
    /// A read transaction (`Store.read`) committed without its body's result.
    case readReturnedNothing
    /// A decoder asked for a column its statement does not return.
    case unknownColumn(String, sql: String)
    /// An error of a type the caller does not know, in its own words.
    case unexpected(String)

    public var description: String {
        switch self {
        case .directImportHeld: return "internal error: a direct import cannot be held"
        case .directRepeatAfterReading: return "internal error: a repeated task id was found after the files were read"
        case .applyWithoutBatch: return "internal error: a batch was applied without its id"
        case .importProducedNoResult: return "internal error: the import produced no result"
        case .readReturnedNothing: return "internal error: a read returned nothing"
        case .unknownColumn(let name, let sql): return "internal error: no column \(name) in: \(sql)"
        case .unexpected(let words): return "internal error: \(words)"
        }
    }
}
