import CCSV

/// The limits that keep a hostile file from exhausting memory: the largest field, how much of
/// a field is kept, the most fields kept for one record.
extension CSVReader {
    /// The largest single field the reader accepts before giving up on the file.
    package static let fieldLimit = 64 * 1024 * 1024

    /// How much of one field the reader keeps in memory: the bytes after the first 1 MiB of a
    /// field are read (and counted against `fieldLimit`) but dropped. Such a field is far over
    /// the 4 KiB a stored value may hold, so in a column the product uses its row is rejected
    /// as `value_too_long`; a column the product ignores may hold it. Memory for one field is
    /// bounded by this plus one read chunk, whatever the field's size (docs/formats.md).
    package static let fieldKeepLimit = 1024 * 1024

    /// The most fields the reader keeps for one record, so a header of a million columns, or
    /// a line of a million commas, never becomes a million strings in memory
    /// (docs/formats.md). A header with more stops the file (`too_many_columns`); a data row
    /// with more keeps its first `maxFields` fields and counts the rest (`droppedFields`): it
    /// has more fields than any accepted header, so it is a blank row or `wrong_field_count`.
    package static let maxFields = 1_024

    /// Caps the field being read at `fieldKeepLimit` (its later bytes are dropped but
    /// counted) and stops the file when a field passes `fieldLimit` or a record `maxFields`.
    func checkLimits(_ parser: inout csv_parser, context: UnsafeMutablePointer<CSVParseContext>) throws {
        if let line = context.pointee.tooManyFieldsLine {
            throw CSVFileError.tooManyFields(line: line, limit: Self.maxFields)
        }
        if parser.entry_pos > Self.fieldKeepLimit {
            // libcsv appends at `entry_pos`; moving it back keeps its buffer at this size.
            context.pointee.droppedBytes += parser.entry_pos - Self.fieldKeepLimit
            parser.entry_pos = Self.fieldKeepLimit
            context.pointee.keptBytes = Self.fieldKeepLimit
            if Self.fieldKeepLimit + context.pointee.droppedBytes > Self.fieldLimit {
                throw CSVFileError.fieldTooLarge(line: context.pointee.recordStartLine, limit: Self.fieldLimit)
            }
        }
    }
}
