import CCSV
import Foundation

/// Scanning: each chunk is cut into physical lines (CR, LF and CRLF each end one) and fed to
/// libcsv a line at a time, so that every record knows the line it starts on; UTF-8 and NUL
/// bytes are checked on the way, and a record with a broken quote is skipped to the end of its
/// line and reported as `malformedQuote`.
extension CSVReader {
    /// Line bookkeeping carried across chunks.
    struct ScanState {
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
    func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, parser: inout csv_parser, state: inout ScanState,
        context: UnsafeMutablePointer<CSVParseContext>, handler: (CSVEvent) throws -> Void
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
                    context.pointee.discardFields()
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

    private func endBrokenLine(
        state: inout ScanState, context: UnsafeMutablePointer<CSVParseContext>, handler: (CSVEvent) throws -> Void
    ) throws {
        state.skippingBrokenLine = false
        state.sawRecord = true
        var text = state.brokenText
        while let last = text.last, last == 0x0A || last == 0x0D { text.removeLast() }
        state.brokenText = []
        if let fields = fieldsBehindByteOrderMark(text) {
            context.pointee.recordsSeen += 1
            try handler(.record(CSVRecord(fields: fields, line: context.pointee.brokenLine)))
            return
        }
        try handler(.malformedQuote(line: context.pointee.brokenLine, text: String(decoding: text, as: UTF8.self)))
    }

    /// The fields of a broken record that is a UTF-8 byte order mark and then a record that
    /// parses cleanly, the mark kept at the start of its first field; nil for any other broken
    /// record.
    ///
    /// Policy: `cat a.csv b.csv` leaves b.csv's BOM at the start of a line, and Excel quotes the
    /// header cells after it (`U+FEFF"Task ID","Due Date"`): the quote opens the field as it
    /// would after the BOM at the start of a file, instead of being a quote inside an unquoted
    /// value. The mark stays data (a repeated header ignores it, an id refuses it: docs/formats.md).
    /// Only a record whose text is whole (under `brokenTextLimit` bytes, one line) is read
    /// again, with a parser of its own: the result depends on the text alone, never on chunks.
    func fieldsBehindByteOrderMark(_ text: [UInt8]) -> [String]? {
        guard text.count > 4, text.count < Self.brokenTextLimit, text.starts(with: [0xEF, 0xBB, 0xBF]), text[3] == 0x22 else {
            return nil
        }
        var parser = csv_parser()
        guard csv_init(&parser, UInt8(CSV_STRICT | CSV_STRICT_FINI)) == 0 else { return nil }
        defer { csv_free(&parser) }
        configure(&parser)
        csv_set_delim(&parser, delimiter)
        let context = UnsafeMutablePointer<CSVParseContext>.allocate(capacity: 1)
        context.initialize(to: CSVParseContext())
        context.pointee.recordsSeen = 1
        defer {
            context.deinitialize(count: 1)
            context.deallocate()
        }
        let body = Array(text.dropFirst(3))
        let parsed = body.withUnsafeBufferPointer { bytes in
            csv_parse(&parser, bytes.baseAddress, bytes.count, fieldCallback, recordCallback, UnsafeMutableRawPointer(context))
        }
        guard parsed == body.count, csv_fini(&parser, fieldCallback, recordCallback, UnsafeMutableRawPointer(context)) == 0,
            context.pointee.records.count == 1, var fields = context.pointee.records.first?.fields, !fields.isEmpty
        else { return nil }
        fields[0] = "\u{FEFF}" + fields[0]
        return fields
    }

    private func drain(_ context: UnsafeMutablePointer<CSVParseContext>, state: inout ScanState, handler: (CSVEvent) throws -> Void) throws
    {
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

    func finish(
        parser: inout csv_parser, state: inout ScanState, context: UnsafeMutablePointer<CSVParseContext>,
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
