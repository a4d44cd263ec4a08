/// State shared with libcsv's callbacks for one file (behind an `UnsafeMutablePointer` owned
/// by `CSVReader.read`).
struct CSVParseContext {
    var fields: [String] = []
    var records: [CSVRecord] = []
    var recordStartLine = 1
    var brokenLine = 1
    /// Bytes of the current field dropped past `CSVReader.fieldKeepLimit`.
    var droppedBytes = 0
    /// When bytes were dropped: how many of the field's bytes were kept.
    var keptBytes = 0
    /// The line of a header that passed `CSVReader.maxFields`.
    var tooManyFieldsLine: Int?
    /// Records completed so far (the first one is the header).
    var recordsSeen = 0
    /// Fields of the current record past `CSVReader.maxFields`, and whether all were blank.
    var droppedFields = 0
    var droppedFieldsBlank = true
}
