/// A problem that makes the whole file unreadable.
package enum CSVFileError: Error, Equatable, Sendable {
    /// Bytes that are not valid in the file's encoding (or a NUL byte), on `line`.
    case invalidEncoding(line: Int, detail: String)
    /// A quoted field opened on `line` is never closed.
    case unterminatedQuote(line: Int)
    /// A single field larger than the reader's hard limit, in the record starting on `line`.
    case fieldTooLarge(line: Int, limit: Int)
    /// A header of more than `limit` fields, starting on `line`.
    case tooManyFields(line: Int, limit: Int)
    /// The file holds no bytes (or only a byte order mark, or only blank lines).
    case emptyFile
    /// The file could not be read.
    case readFailed(reason: String)
}
