/// State shared with libcsv's callbacks for one file (behind an `UnsafeMutablePointer` owned
/// by `CSVReader.read`).
struct CSVParseContext {
    /// Fields are kept as bytes (`FieldBytes`), not strings (`CSVReaderOptions.fieldBytes`).
    var keepsBytes = false
    var fields: [String] = []
    var fieldBytes = FieldBytes()
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

    /// How many fields of the current record were kept so far.
    var fieldsKept: Int { keepsBytes ? fieldBytes.count : fields.count }

    /// Forgets the fields of a record that will not be completed (a quoting error).
    mutating func discardFields() {
        fields.removeAll(keepingCapacity: true)
        fieldBytes = FieldBytes()
    }
}
