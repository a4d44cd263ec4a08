/// One record of a CSV file: its fields and the physical line where it starts (1-based).
///
/// A record holds its fields either as strings or, when the reader was asked for bytes
/// (`CSVReaderOptions.fieldBytes`), as the UTF-8 bytes libcsv gave (`FieldBytes`): one buffer
/// and the fields' ends, no `String` per field. `fields` reads either (building the strings of
/// a byte record each time it is read: code that needs them more than once materializes the
/// record first), so no reader of a record can tell the two apart but by cost.
package struct CSVRecord: Equatable, Sendable {
    private var storedFields: [String]
    /// The fields as bytes, when the reader kept them so.
    package private(set) var raw: FieldBytes?
    package var line: Int
    /// Fields of a data row past `CSVReader.maxFields`: counted, not kept (0 for most rows).
    package var droppedFields = 0
    /// True when every dropped field was empty or white space.
    package var droppedFieldsBlank = true

    package init(fields: [String], line: Int) {
        storedFields = fields
        self.line = line
    }

    package init(raw: FieldBytes, line: Int) {
        storedFields = []
        self.raw = raw
        self.line = line
    }

    /// The fields as strings (decoded from `raw` at each read for a byte record).
    package var fields: [String] {
        get { raw?.strings() ?? storedFields }
        set {
            storedFields = newValue
            raw = nil
        }
    }

    /// How many fields the record kept.
    package var fieldCount: Int { raw?.count ?? storedFields.count }

    /// Field `index` as a string (only that one decoded).
    package func field(_ index: Int) -> String {
        raw?.string(index) ?? storedFields[index]
    }

    /// The record with its fields as strings (decoded once).
    package func materialized() -> CSVRecord {
        guard raw != nil else { return self }
        var copy = self
        copy.fields = fields
        return copy
    }

    package static func == (lhs: CSVRecord, rhs: CSVRecord) -> Bool {
        lhs.line == rhs.line && lhs.droppedFields == rhs.droppedFields && lhs.droppedFieldsBlank == rhs.droppedFieldsBlank
            && lhs.fields == rhs.fields
    }
}

/// The fields of one record as UTF-8 bytes: every field's bytes one after the other in one
/// buffer, and where each ends. The reader only hands out bytes it checked (valid UTF-8, no
/// NUL); a field cut at `CSVReader.fieldKeepLimit` may end inside a character, which decoding
/// shows as U+FFFD, as the string form does.
package struct FieldBytes: Equatable, Sendable {
    package private(set) var bytes: [UInt8] = []
    /// The end offset (exclusive) of each field in `bytes`.
    package private(set) var ends: [Int] = []

    package init() {}

    /// An empty record with room for what the previous one held.
    package init(reservingBytes byteCount: Int, fields fieldCount: Int) {
        bytes.reserveCapacity(byteCount)
        ends.reserveCapacity(fieldCount)
    }

    package init(_ fields: [String]) {
        for field in fields { append(Array(field.utf8)[...]) }
    }

    package var count: Int { ends.count }

    /// Appends a field.
    package mutating func append(_ field: UnsafeRawBufferPointer) {
        // As typed bytes: `append(contentsOf:)` copies them in one go (a raw buffer went
        // through the generic sequence path, byte by byte).
        bytes.append(contentsOf: field.assumingMemoryBound(to: UInt8.self))
        ends.append(bytes.count)
    }

    package mutating func append(_ field: ArraySlice<UInt8>) {
        bytes.append(contentsOf: field)
        ends.append(bytes.count)
    }

    /// The byte range of field `index`.
    @inline(__always)
    package func range(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// Calls `body` with the bytes of field `index`.
    @inline(__always)
    package func withField<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let range = range(index)
        return try bytes.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[range]))
        }
    }

    package func string(_ index: Int) -> String {
        withField(index) { String(decoding: $0, as: UTF8.self) }
    }

    package func strings() -> [String] {
        (0..<count).map(string)
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
