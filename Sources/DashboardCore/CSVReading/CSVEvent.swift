/// One record of a CSV file: its fields and the physical line where it starts (1-based).
package struct CSVRecord: Equatable, Sendable {
    package var fields: [String]
    package var line: Int
    /// Fields of a data row past `CSVReader.maxFields`: counted, not kept (0 for most rows).
    package var droppedFields = 0
    /// True when every dropped field was empty or white space.
    package var droppedFieldsBlank = true

    package init(fields: [String], line: Int) {
        self.fields = fields
        self.line = line
    }
}

/// What the reader finds, in file order.
package enum CSVEvent: Equatable, Sendable {
    /// A record (the first one is the header).
    case record(CSVRecord)
    /// A physical line with nothing on it.
    case blankLine(line: Int)
    /// A record that breaks the quoting rules (a quote inside an unquoted field, or text
    /// after a closing quote). `text` is the record's raw text from its first line to the end
    /// of the line where the error is (at most 200 bytes, line break removed), whatever the
    /// read chunks. Reading resumes on the next physical line. (A byte order mark before an
    /// opening quote at the start of a record is not one: `CSVReader.fieldsBehindByteOrderMark`.)
    case malformedQuote(line: Int, text: String)
}
