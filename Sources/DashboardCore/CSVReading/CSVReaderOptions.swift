/// Options for reading one CSV file.
public struct CSVReaderOptions: Sendable {
    /// The field delimiter; nil detects it from the header line among `,` `;` tab `|`.
    public var delimiter: UInt8?
    /// The file's encoding; UTF-8 unless the user says otherwise.
    public var encoding: InputEncoding
    /// How many bytes are read from the source at a time.
    public var chunkSize: Int

    public init(delimiter: UInt8? = nil, encoding: InputEncoding = .utf8, chunkSize: Int = 64 * 1024) {
        self.delimiter = delimiter
        self.encoding = encoding
        self.chunkSize = max(1, chunkSize)
    }
}
