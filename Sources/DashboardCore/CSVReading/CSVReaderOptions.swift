/// Options for reading one CSV file.
package struct CSVReaderOptions: Sendable {
    /// The field delimiter; nil detects it from the header line among `,` `;` tab `|`.
    package var delimiter: UInt8?
    /// The file's encoding; UTF-8 unless the user says otherwise.
    package var encoding: InputEncoding
    /// How many bytes are read from the source at a time.
    package var chunkSize: Int
    /// Records keep their fields as bytes (`CSVRecord.raw`) rather than one `String` a field:
    /// the importer's byte path (`ByteRowNormalizer`) reads them without decoding.
    package var fieldBytes: Bool

    package init(delimiter: UInt8? = nil, encoding: InputEncoding = .utf8, chunkSize: Int = 64 * 1024, fieldBytes: Bool = false) {
        self.delimiter = delimiter
        self.encoding = encoding
        self.chunkSize = max(1, chunkSize)
        self.fieldBytes = fieldBytes
    }
}
