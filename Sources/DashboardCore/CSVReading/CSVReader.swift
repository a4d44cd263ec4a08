import CCSV
import Foundation

/// Streams a CSV file through libcsv in fixed-size chunks and reports each record with the
/// physical line where it starts.
///
/// Policy: RFC 4180 quoting (strict: a stray quote is a `malformedQuote` event for that
/// record, not a guess); CRLF, LF and CR-only line ends, mixed freely; a leading UTF-8 BOM
/// is dropped; a UTF-16 or UTF-32 byte order mark, invalid UTF-8 and NUL bytes stop the file with `invalidEncoding` naming the
/// line. Nothing is read whole into memory: one chunk and one record are held at a time.
///
/// The reader is split by aspect: this file is the public API and the chunk loop (encoding,
/// byte order mark, delimiter detection); `CSVReader+Scanning.swift` cuts chunks into physical
/// lines (line numbers, UTF-8 checks, recovery after a broken quote); `CSVReader+Limits.swift`
/// holds the field and record limits; `CSVReader+Libcsv.swift` holds libcsv's callbacks, which
/// assemble fields into records in a `CSVParseContext`.
package final class CSVReader {
    private let source: ByteSource
    private var options: CSVReaderOptions
    /// Called with every raw byte read, before any decoding (for the file's SHA-256).
    package var rawBytesObserver: ((UnsafeRawBufferPointer) -> Void)?
    /// Called after each chunk with the number of raw bytes read so far.
    package var progressObserver: ((Int) -> Void)?

    /// The delimiter in use (detected or given), known once reading has started.
    package private(set) var delimiter: UInt8 = UInt8(ascii: ",")
    /// Raw bytes read so far.
    package private(set) var bytesRead = 0

    package init(source: ByteSource, options: CSVReaderOptions = CSVReaderOptions()) {
        self.source = source
        self.options = options
    }

    /// Reads the whole source, calling `handler` with each event in order.
    /// - Throws: `CSVFileError` for a file-level problem, or whatever `handler` throws.
    package func read(_ handler: (CSVEvent) throws -> Void) throws {
        var state = ScanState()
        // The callbacks' state lives behind a plain pointer: no reference counting and no
        // dynamic exclusivity check per field (together about 7 % of the reading thread).
        let context = UnsafeMutablePointer<CSVParseContext>.allocate(capacity: 1)
        context.initialize(to: CSVParseContext())
        context.pointee.keepsBytes = options.fieldBytes
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
}
