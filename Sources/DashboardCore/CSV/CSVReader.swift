import CCSV
import Foundation

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

/// One record of a CSV file: its fields and the physical line where it starts (1-based).
public struct CSVRecord: Equatable, Sendable {
    public var fields: [String]
    public var line: Int
    /// Fields of a data row past `CSVReader.maxFields`: counted, not kept (0 for most rows).
    public var droppedFields = 0
    /// True when every dropped field was empty or white space.
    public var droppedFieldsBlank = true

    public init(fields: [String], line: Int) {
        self.fields = fields
        self.line = line
    }
}

/// What the reader finds, in file order.
public enum CSVEvent: Equatable, Sendable {
    /// A record (the first one is the header).
    case record(CSVRecord)
    /// A physical line with nothing on it.
    case blankLine(line: Int)
    /// A record that breaks the quoting rules (a quote inside an unquoted field, or text
    /// after a closing quote). `text` is the record's raw text from its first line to the end
    /// of the line where the error is (at most 200 bytes, line break removed), whatever the
    /// read chunks. Reading resumes on the next physical line.
    case malformedQuote(line: Int, text: String)
}

/// A problem that makes the whole file unreadable.
public enum CSVFileError: Error, Equatable, Sendable {
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

/// Streams a CSV file through libcsv in fixed-size chunks and reports each record with the
/// physical line where it starts.
///
/// Policy: RFC 4180 quoting (strict: a stray quote is a `malformedQuote` event for that
/// record, not a guess); CRLF, LF and CR-only line ends, mixed freely; a leading UTF-8 BOM
/// is dropped; a UTF-16 or UTF-32 byte order mark, invalid UTF-8 and NUL bytes stop the file with `invalidEncoding` naming the
/// line. Nothing is read whole into memory: one chunk and one record are held at a time.
public final class CSVReader {
    /// The largest single field the reader accepts before giving up on the file.
    public static let fieldLimit = 64 * 1024 * 1024

    /// How much of one field the reader keeps in memory: the bytes after the first 1 MiB of a
    /// field are read (and counted against `fieldLimit`) but dropped. Such a field is far over
    /// the 4 KiB a stored value may hold, so in a column the product uses its row is rejected
    /// as `value_too_long`; a column the product ignores may hold it. Memory for one field is
    /// bounded by this plus one read chunk, whatever the field's size (docs/formats.md).
    public static let fieldKeepLimit = 1024 * 1024

    /// The most fields the reader keeps for one record, so a header of a million columns, or
    /// a line of a million commas, never becomes a million strings in memory
    /// (docs/formats.md). A header with more stops the file (`too_many_columns`); a data row
    /// with more keeps its first `maxFields` fields and counts the rest (`droppedFields`): it
    /// has more fields than any accepted header, so it is a blank row or `wrong_field_count`.
    public static let maxFields = 1_024

    private let source: ByteSource
    private var options: CSVReaderOptions
    /// Called with every raw byte read, before any decoding (for the file's SHA-256).
    public var rawBytesObserver: ((UnsafeRawBufferPointer) -> Void)?
    /// Called after each chunk with the number of raw bytes read so far.
    public var progressObserver: ((Int) -> Void)?

    /// The delimiter in use (detected or given), known once reading has started.
    public private(set) var delimiter: UInt8 = UInt8(ascii: ",")
    /// Raw bytes read so far.
    public private(set) var bytesRead = 0

    public init(source: ByteSource, options: CSVReaderOptions = CSVReaderOptions()) {
        self.source = source
        self.options = options
    }

    /// Reads the whole source, calling `handler` with each event in order.
    /// - Throws: `CSVFileError` for a file-level problem, or whatever `handler` throws.
    public func read(_ handler: (CSVEvent) throws -> Void) throws {
        var state = ScanState()
        // The callbacks' state lives behind a plain pointer: no reference counting and no
        // dynamic exclusivity check per field (together about 7 % of the reading thread).
        let context = UnsafeMutablePointer<ParseContext>.allocate(capacity: 1)
        context.initialize(to: ParseContext())
        defer {
            context.deinitialize(count: 1)
            context.deallocate()
        }
        var parser = csv_parser()
        guard csv_init(&parser, UInt8(CSV_STRICT | CSV_STRICT_FINI)) == 0 else {
            throw CSVFileError.readFailed(reason: "libcsv could not allocate its parser")
        }
        defer { csv_free(&parser) }
        configure(&parser)

        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: options.chunkSize, alignment: 16)
        defer { chunk.deallocate() }
        var decoded: [UInt8] = []
        var pending: [UInt8] = []  // bytes held back until the delimiter is known
        var delimiterKnown = options.delimiter != nil
        if let given = options.delimiter { delimiter = given }
        csv_set_delim(&parser, delimiter)
        var sawBytes = false
        var atStart = true

        func process(_ bytes: UnsafeBufferPointer<UInt8>) throws {
            try scan(bytes, parser: &parser, state: &state, context: context, handler: handler)
        }

        while true {
            let n: Int
            do {
                n = try source.read(into: chunk)
            } catch let error as ByteSourceError {
                throw CSVFileError.readFailed(reason: error.reason)
            }
            if n == 0 { break }
            bytesRead += n
            let raw = UnsafeRawBufferPointer(rebasing: chunk[0..<n])
            rawBytesObserver?(raw)
            var bytes = UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: n)
            if options.encoding != .utf8 {
                LegacyTranscoder.transcode(bytes, from: options.encoding, into: &decoded)
                try decoded.withUnsafeBufferPointer { try handleDecoded($0) }
            } else {
                try handleDecoded(bytes)
            }
            progressObserver?(bytesRead)

            func handleDecoded(_ input: UnsafeBufferPointer<UInt8>) throws {
                bytes = input
                if atStart {
                    // Hold the first four bytes until a BOM decision can be made.
                    pending.append(contentsOf: bytes)
                    if pending.count < 4 { return }
                    atStart = false
                    try startBody()
                    return
                }
                if !delimiterKnown {
                    pending.append(contentsOf: bytes)
                    if let detected = detectHeld(bytes) {
                        setDelimiter(detected)
                        try flushPending()
                    }
                    return
                }
                sawBytes = sawBytes || !bytes.isEmpty
                try process(bytes)
            }
        }
        if atStart { atStart = false; try startBody() }
        if !delimiterKnown {
            setDelimiter(DelimiterDetector.detect(in: pending, final: true) ?? UInt8(ascii: ","))
            try flushPending()
        }
        if !sawBytes { throw CSVFileError.emptyFile }
        try finish(parser: &parser, state: &state, context: context, handler: handler)
        if !state.sawRecord { throw CSVFileError.emptyFile }

        func startBody() throws {
            // Drop a UTF-8 BOM; refuse UTF-16 and UTF-32 with a plain reason.
            if options.encoding == .utf8 {
                if pending.starts(with: [0xEF, 0xBB, 0xBF]) {
                    pending.removeFirst(3)
                } else if pending.starts(with: [0xFF, 0xFE, 0x00, 0x00]) || pending.starts(with: [0x00, 0x00, 0xFE, 0xFF]) {
                    // Checked before UTF-16: a UTF-32 LE mark starts with the UTF-16 LE one.
                    throw CSVFileError.invalidEncoding(
                        line: 1, detail: "the file starts with a UTF-32 byte order mark")
                } else if pending.starts(with: [0xFF, 0xFE]) || pending.starts(with: [0xFE, 0xFF]) {
                    throw CSVFileError.invalidEncoding(
                        line: 1, detail: "the file starts with a UTF-16 byte order mark")
                }
            }
            if delimiterKnown {
                try flushPending()
            } else if let detected = pending.withUnsafeBufferPointer({ detectHeld($0) }) {
                setDelimiter(detected)
                try flushPending()
            }
        }

        /// The delimiter once the held bytes decide it, given the bytes just added. A chunk
        /// without a line end cannot decide a header (unless 1 MiB is held), so the held bytes are
        /// not scanned again for it; a NUL byte decides at once (the file fails on it, on its
        /// line, whatever the delimiter), so a stream of zeros fails on its first chunk.
        func detectHeld(_ added: UnsafeBufferPointer<UInt8>) -> UInt8? {
            guard let base = added.baseAddress, !added.isEmpty else { return nil }
            let nul = memchr(base, 0, added.count) != nil
            let lineEnd = memchr(base, 0x0A, added.count) != nil || memchr(base, 0x0D, added.count) != nil
            guard nul || lineEnd || pending.count >= 1 << 20 else { return nil }
            return DelimiterDetector.detect(in: pending, final: nul)
        }

        func setDelimiter(_ value: UInt8) {
            delimiter = value
            csv_set_delim(&parser, value)
            delimiterKnown = true
        }

        func flushPending() throws {
            if !pending.isEmpty { sawBytes = true }
            let held = pending
            pending = []
            try held.withUnsafeBufferPointer { try process($0) }
        }
    }

    private func configure(_ parser: inout csv_parser) {
        csv_set_space_func(&parser, neverSpace)
        csv_set_realloc_func(&parser, limitedRealloc)
        csv_set_blk_size(&parser, 4096)
    }

    // MARK: - Scanning

    /// Line bookkeeping carried across chunks.
    private struct ScanState {
        var line = 1
        var atLineStart = true
        var previousWasCR = false
        var skippingBrokenLine = false
        var validator = UTF8Validator()
        var sawRecord = false
        var brokenText: [UInt8] = []
        /// The first bytes of the record being read, from its first line on (for the text of a
        /// `malformedQuote`, which must not depend on where chunks happen to end).
        var recordText: [UInt8] = []
    }

    /// How much of a broken record's text a `malformedQuote` event carries.
    private static let brokenTextLimit = 200

    /// Feeds `bytes` to libcsv one physical line (or line fragment) at a time, so that every
    /// record can be given the line it starts on.
    private func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, parser: inout csv_parser, state: inout ScanState,
        context: UnsafeMutablePointer<ParseContext>, handler: (CSVEvent) throws -> Void
    ) throws {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var start = 0
        while start < count {
            // Find the end of this segment: just past the next CR or LF, or the chunk's end.
            var end = start
            var terminator: UInt8 = 0
            while end < count {
                let byte = base[end]
                if byte == 0x0A || byte == 0x0D {
                    terminator = byte
                    end += 1
                    break
                }
                if byte == 0 {
                    throw CSVFileError.invalidEncoding(line: state.line, detail: "a NUL byte")
                }
                // An ASCII byte inside an unfinished multi-byte sequence is invalid too.
                if byte >= 0x80 || !state.validator.isComplete, !state.validator.accept(byte) {
                    throw CSVFileError.invalidEncoding(line: state.line, detail: "bytes that are not valid UTF-8")
                }
                end += 1
            }
            if terminator != 0, !state.validator.isComplete {
                throw CSVFileError.invalidEncoding(line: state.line, detail: "bytes that are not valid UTF-8")
            }
            let segment = UnsafeBufferPointer(start: base + start, count: end - start)
            let isLFOfCRLF = terminator == 0x0A && end - start == 1 && state.previousWasCR

            if state.skippingBrokenLine {
                state.brokenText.append(contentsOf: segment.prefix(max(0, Self.brokenTextLimit - state.brokenText.count)))
            } else {
                if state.atLineStart, parser.pstate == 0 {
                    context.pointee.recordStartLine = state.line
                    state.recordText.removeAll(keepingCapacity: true)
                    if terminator != 0, end - start == 1, !isLFOfCRLF {
                        try handler(.blankLine(line: state.line))
                    }
                }
                if state.recordText.count < Self.brokenTextLimit {
                    state.recordText.append(contentsOf: segment.prefix(Self.brokenTextLimit - state.recordText.count))
                }
                let parsed = csv_parse(
                    &parser, segment.baseAddress, segment.count, fieldCallback, recordCallback, UnsafeMutableRawPointer(context)
                )
                try checkLimits(&parser, context: context)
                try drain(context, state: &state, handler: handler)
                if parsed < segment.count {
                    let status = csv_error(&parser)
                    if status == CSV_ENOMEM || status == CSV_ETOOBIG {
                        throw CSVFileError.fieldTooLarge(line: context.pointee.recordStartLine, limit: Self.fieldLimit)
                    }
                    // A quoting error: reject this record and resume on the next line.
                    state.skippingBrokenLine = true
                    state.brokenText = state.recordText
                    context.pointee.fields.removeAll(keepingCapacity: true)
                    context.pointee.brokenLine = context.pointee.recordStartLine
                    csv_free(&parser)
                    csv_init(&parser, UInt8(CSV_STRICT | CSV_STRICT_FINI))
                    configure(&parser)
                    csv_set_delim(&parser, delimiter)
                }
            }

            // Line accounting: CR, LF and CRLF each end one physical line.
            if terminator == 0x0D || (terminator == 0x0A && !isLFOfCRLF) {
                state.line += 1
                state.atLineStart = true
                if state.skippingBrokenLine {
                    try endBrokenLine(state: &state, context: context, handler: handler)
                }
            } else if terminator == 0 {
                state.atLineStart = false
            } else {
                state.atLineStart = true
            }
            state.previousWasCR = terminator == 0x0D
            if terminator == 0 && end > start { state.previousWasCR = false }
            start = end
        }
    }

    /// Caps the field being read at `fieldKeepLimit` (its later bytes are dropped but
    /// counted) and stops the file when a field passes `fieldLimit` or a record `maxFields`.
    private func checkLimits(_ parser: inout csv_parser, context: UnsafeMutablePointer<ParseContext>) throws {
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

    private func endBrokenLine(
        state: inout ScanState, context: UnsafeMutablePointer<ParseContext>, handler: (CSVEvent) throws -> Void
    ) throws {
        state.skippingBrokenLine = false
        state.sawRecord = true
        var text = state.brokenText
        while let last = text.last, last == 0x0A || last == 0x0D { text.removeLast() }
        state.brokenText = []
        try handler(.malformedQuote(line: context.pointee.brokenLine, text: String(decoding: text, as: UTF8.self)))
    }

    private func drain(_ context: UnsafeMutablePointer<ParseContext>, state: inout ScanState, handler: (CSVEvent) throws -> Void) throws {
        guard !context.pointee.records.isEmpty else { return }
        // Take the records out and hand their buffer back afterwards (no new buffer per line).
        var records: [CSVRecord] = []
        swap(&records, &context.pointee.records)
        defer {
            records.removeAll(keepingCapacity: true)
            swap(&records, &context.pointee.records)
        }
        for record in records {
            state.sawRecord = true
            try handler(.record(record))
        }
    }

    private func finish(
        parser: inout csv_parser, state: inout ScanState, context: UnsafeMutablePointer<ParseContext>,
        handler: (CSVEvent) throws -> Void
    ) throws {
        if !state.validator.isComplete {
            throw CSVFileError.invalidEncoding(line: state.line, detail: "a truncated UTF-8 sequence at the end of the file")
        }
        if state.skippingBrokenLine {
            try endBrokenLine(state: &state, context: context, handler: handler)
            return
        }
        let rc = csv_fini(&parser, fieldCallback, recordCallback, UnsafeMutableRawPointer(context))
        if rc != 0 {
            throw CSVFileError.unterminatedQuote(line: context.pointee.recordStartLine)
        }
        try checkLimits(&parser, context: context)
        try drain(context, state: &state, handler: handler)
    }
}

/// State shared with libcsv's callbacks for one file (behind an `UnsafeMutablePointer` owned
/// by `CSVReader.read`).
private struct ParseContext {
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

private func fieldCallback(_ data: UnsafeMutableRawPointer?, _ length: Int, _ ctx: UnsafeMutableRawPointer?) {
    guard let ctx else { return }
    let context = ctx.assumingMemoryBound(to: ParseContext.self)
    if context.pointee.fields.count >= CSVReader.maxFields {
        // Counted, not kept; a header this wide stops the file after this call.
        if context.pointee.recordsSeen == 0, context.pointee.tooManyFieldsLine == nil {
            context.pointee.tooManyFieldsLine = context.pointee.recordStartLine
        }
        context.pointee.droppedFields += 1
        if context.pointee.droppedFieldsBlank, let data, length > 0 {
            let kept = context.pointee.droppedBytes > 0 ? min(length, context.pointee.keptBytes) : length
            let text = String(decoding: UnsafeRawBufferPointer(start: data, count: kept), as: UTF8.self)
            context.pointee.droppedFieldsBlank = text.trimmingUnicodeWhitespace().isEmpty
        }
        context.pointee.droppedBytes = 0
        return
    }
    if context.pointee.droppedBytes > 0 {
        // A field cut at `fieldKeepLimit`: only its first bytes are kept.
        let kept = min(length, context.pointee.keptBytes)
        context.pointee.droppedBytes = 0
        if let data {
            context.pointee.fields.append(String(decoding: UnsafeRawBufferPointer(start: data, count: kept), as: UTF8.self))
        } else {
            context.pointee.fields.append("")
        }
    } else if let data, length > 0 {
        context.pointee.fields.append(String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self))
    } else {
        context.pointee.fields.append("")
    }
}

private func recordCallback(_ terminator: Int32, _ ctx: UnsafeMutableRawPointer?) {
    guard let ctx else { return }
    let context = ctx.assumingMemoryBound(to: ParseContext.self)
    let fieldCount = context.pointee.fields.count
    var fields: [String] = []
    fields.reserveCapacity(fieldCount)
    swap(&fields, &context.pointee.fields)
    var record = CSVRecord(fields: fields, line: context.pointee.recordStartLine)
    record.droppedFields = context.pointee.droppedFields
    record.droppedFieldsBlank = context.pointee.droppedFieldsBlank
    context.pointee.records.append(record)
    context.pointee.recordsSeen += 1
    context.pointee.droppedFields = 0
    context.pointee.droppedFieldsBlank = true
}

/// libcsv trims "space" characters around unquoted fields by default; we keep every byte
/// and normalize later, so nothing is a space to the parser.
private func neverSpace(_ c: UInt8) -> Int32 { 0 }

/// A realloc that refuses to grow libcsv's field buffer past `CSVReader.fieldLimit`, so a
/// hostile file cannot exhaust memory.
private func limitedRealloc(_ pointer: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
    if size > CSVReader.fieldLimit { return nil }
    return realloc(pointer, size)
}
