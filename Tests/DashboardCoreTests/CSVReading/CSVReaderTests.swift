import Testing

@testable import DashboardCore

// MARK: - Helpers shared by the CSV test files

/// Everything one read of an input gives: the events in order, then the file-level error.
struct CSVReadOutcome: Equatable, CustomStringConvertible {
    var events: [CSVEvent] = []
    var error: CSVFileError?
    /// The delimiter the reader used (given or detected).
    var delimiter: UInt8 = UInt8(ascii: ",")

    var description: String { "events: \(events), error: \(String(describing: error))" }
}

/// Chunk sizes that put every boundary in a different place: a byte at a time, odd sizes,
/// and the whole input at once.
let csvChunkLimits = [1, 2, 3, 7, Int.max]

/// Reads `bytes` to the end with the reader's source serving `chunkLimit` bytes at a time.
func readCSV(
    _ bytes: [UInt8], chunkLimit: Int = .max, delimiter: UInt8? = nil, encoding: InputEncoding = .utf8
) -> CSVReadOutcome {
    let reader = CSVReader(
        source: MemoryByteSource(bytes, chunkLimit: chunkLimit),
        options: CSVReaderOptions(delimiter: delimiter, encoding: encoding))
    var outcome = CSVReadOutcome()
    do {
        try reader.read { outcome.events.append($0) }
    } catch let error as CSVFileError {
        outcome.error = error
    } catch {
        Issue.record("unexpected error \(error)")
    }
    outcome.delimiter = reader.delimiter
    return outcome
}

func readCSV(_ text: String, chunkLimit: Int = .max, delimiter: UInt8? = nil) -> CSVReadOutcome {
    readCSV(Array(text.utf8), chunkLimit: chunkLimit, delimiter: delimiter)
}

/// A record event, written compactly: `rec(3, "a", "b")`.
func rec(_ line: Int, _ fields: String...) -> CSVEvent {
    .record(CSVRecord(fields: fields, line: line))
}

// MARK: - Records and line endings

@Suite("CSVReader: records, line endings and line numbers", .storeIndependent)
struct CSVReaderTests {
    @Test("LF, CRLF and CR-only files give the same records on the same lines", arguments: csvChunkLimits)
    func lineEndings(chunkLimit: Int) {
        let expected = [rec(1, "id", "title"), rec(2, "1", "Essay"), rec(3, "2", "Quiz")]
        for ending in ["\n", "\r\n", "\r"] {
            let text = ["id,title", "1,Essay", "2,Quiz", ""].joined(separator: ending)
            #expect(readCSV(text, chunkLimit: chunkLimit) == CSVReadOutcome(events: expected), "ending \(ending.debugDescription)")
        }
    }

    @Test("mixed line endings each end one physical line", arguments: csvChunkLimits)
    func mixedLineEndings(chunkLimit: Int) {
        let outcome = readCSV("a,b\r\n1,2\n3,4\r5,6\r\n7,8", chunkLimit: chunkLimit)
        #expect(
            outcome == CSVReadOutcome(events: [rec(1, "a", "b"), rec(2, "1", "2"), rec(3, "3", "4"), rec(4, "5", "6"), rec(5, "7", "8")]))
    }

    @Test("a last record without a final newline is read", arguments: csvChunkLimits)
    func noFinalNewline(chunkLimit: Int) {
        #expect(readCSV("a,b\n1,", chunkLimit: chunkLimit) == CSVReadOutcome(events: [rec(1, "a", "b"), rec(2, "1", "")]))
        #expect(readCSV("a", chunkLimit: chunkLimit) == CSVReadOutcome(events: [rec(1, "a")]))
    }

    @Test("a record holding newlines is reported on the line where it starts", arguments: csvChunkLimits)
    func lineNumbersWithEmbeddedNewlines(chunkLimit: Int) {
        let text = "id,title\n1,\"two\nlines\"\n2,\"three\r\nline\rendings\"\r\n\"4\n\",x\n5,y"
        #expect(
            readCSV(text, chunkLimit: chunkLimit)
                == CSVReadOutcome(events: [
                    rec(1, "id", "title"), rec(2, "1", "two\nlines"), rec(4, "2", "three\r\nline\rendings"),
                    rec(7, "4\n", "x"), rec(9, "5", "y"),
                ]))
    }

    @Test("RFC 4180 quoting: delimiters, doubled quotes, empty and surrounding spaces kept", arguments: csvChunkLimits)
    func quoting(chunkLimit: Int) {
        let text = "a,b,c\n\"x, y\",\"say \"\"hi\"\"\",\"\"\n , p ,\n"
        #expect(
            readCSV(text, chunkLimit: chunkLimit)
                == CSVReadOutcome(events: [rec(1, "a", "b", "c"), rec(2, "x, y", "say \"hi\"", ""), rec(3, " ", " p ", "")]))
    }

    @Test("a quoted field split across two chunks is one field")
    func quotedFieldAcrossChunks() {
        // "a,\"hel" | "lo, wo" | ... : the boundary falls inside the quoted field.
        for limit in [6, 9, 11] {
            let outcome = readCSV("h1,h2\na,\"hello, world\"\n", chunkLimit: limit)
            #expect(outcome == CSVReadOutcome(events: [rec(1, "h1", "h2"), rec(2, "a", "hello, world")]), "chunk \(limit)")
        }
    }

    @Test("a CRLF split across two chunks ends one line, not two")
    func crlfAcrossChunks() {
        // With 4-byte chunks the CR of every line end is the last byte of a chunk.
        let outcome = readCSV("ab\r\ncd\r\n\r\nef\r\n", chunkLimit: 4)
        #expect(outcome == CSVReadOutcome(events: [rec(1, "ab"), rec(2, "cd"), .blankLine(line: 3), rec(4, "ef")]))
    }

    @Test("a multibyte UTF-8 character split across chunks is decoded whole", arguments: csvChunkLimits)
    func multibyteAcrossChunks(chunkLimit: Int) {
        let outcome = readCSV("é,€\n😀,\"ü\nß\"\n", chunkLimit: chunkLimit)
        #expect(outcome == CSVReadOutcome(events: [rec(1, "é", "€"), rec(2, "😀", "ü\nß")]))
    }

    @Test("a leading UTF-8 byte order mark is dropped", arguments: csvChunkLimits)
    func byteOrderMarkDropped(chunkLimit: Int) {
        let outcome = readCSV("\u{FEFF}id;title\r\n1;Essay", chunkLimit: chunkLimit)
        #expect(outcome == CSVReadOutcome(events: [rec(1, "id", "title"), rec(2, "1", "Essay")], delimiter: UInt8(ascii: ";")))
    }

    @Test("a byte order mark later in the file is kept as text")
    func innerByteOrderMarkKept() {
        #expect(readCSV("a\n\u{FEFF}b\n") == CSVReadOutcome(events: [rec(1, "a"), rec(2, "\u{FEFF}b")]))
    }

    @Test(
        "a byte order mark before an opening quote at the start of a record (cat of a second export) opens the field: kept, not a malformedQuote",
        arguments: csvChunkLimits)
    func byteOrderMarkBeforeAQuoteMidFile(chunkLimit: Int) {
        let outcome = readCSV("a;b\r\n1;2\r\n\u{FEFF}\"Task ID\";\"x;y\"\r\n\u{FEFF}\"t2\";3\n3;4\n", chunkLimit: chunkLimit)
        #expect(
            outcome
                == CSVReadOutcome(
                    events: [
                        rec(1, "a", "b"), rec(2, "1", "2"), rec(3, "\u{FEFF}Task ID", "x;y"), rec(4, "\u{FEFF}t2", "3"), rec(5, "3", "4"),
                    ],
                    delimiter: UInt8(ascii: ";")))
    }

    @Test(
        "a byte order mark before a quote that still breaks the rules, or a record too long to read again, stays a malformedQuote",
        arguments: csvChunkLimits)
    func byteOrderMarkBeforeABrokenQuote(chunkLimit: Int) {
        let long = String(repeating: "x", count: 200)
        let outcome = readCSV("a,b\n\u{FEFF}\"t\"x,2\n\u{FEFF}\"\(long)\",2\n\u{FEFF}x\"y,2\n", chunkLimit: chunkLimit)
        #expect(
            outcome
                == CSVReadOutcome(events: [
                    rec(1, "a", "b"), .malformedQuote(line: 2, text: "\u{FEFF}\"t\"x,2"),
                    .malformedQuote(line: 3, text: String(("\u{FEFF}\"\(long)\",2").utf8.prefix(200)) ?? ""),
                    .malformedQuote(line: 4, text: "\u{FEFF}x\"y,2"),
                ]))
    }

    @Test("blank lines are reported with their line, not as records", arguments: csvChunkLimits)
    func blankLines(chunkLimit: Int) {
        let outcome = readCSV("\na\n\nb\r\n\r\nc\r\rd\n\n", chunkLimit: chunkLimit)
        #expect(
            outcome
                == CSVReadOutcome(events: [
                    .blankLine(line: 1), rec(2, "a"), .blankLine(line: 3), rec(4, "b"), .blankLine(line: 5), rec(6, "c"),
                    .blankLine(line: 7), rec(8, "d"), .blankLine(line: 9),
                ]))
    }

    @Test("a line of spaces or an empty quoted field is a record, not a blank line")
    func whitespaceLineIsRecord() {
        #expect(readCSV("a\n  \n\"\"\n") == CSVReadOutcome(events: [rec(1, "a"), rec(2, "  "), rec(3, "")]))
    }

    @Test("the reader counts and shows every raw byte, byte order mark included", arguments: [1, 5, Int.max])
    func rawBytesObserved(chunkLimit: Int) throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a,b\n1,2\n".utf8)
        let reader = CSVReader(source: MemoryByteSource(bytes, chunkLimit: chunkLimit))
        var seen: [UInt8] = []
        reader.rawBytesObserver = { seen += $0 }
        try reader.read { _ in }
        #expect(seen == bytes)
        #expect(reader.bytesRead == 11)
    }

    @Test("an error thrown by the handler stops reading and is rethrown")
    func handlerErrorPropagates() {
        struct Stop: Error, Equatable {}
        var lines: [Int] = []
        #expect(throws: Stop()) {
            try CSVReader(source: MemoryByteSource("a\nb\nc\n")).read { event in
                if case .record(let record) = event { lines.append(record.line) }
                if lines.count == 2 { throw Stop() }
            }
        }
        #expect(lines == [1, 2])
    }
}

// MARK: - Quoting errors and empty files

@Suite("CSVReader: quoting errors and empty files", .storeIndependent)
struct CSVReaderQuotingErrorTests {
    @Test("an unterminated quote fails the file on the line where its record starts", arguments: csvChunkLimits)
    func unterminatedQuote(chunkLimit: Int) {
        let outcome = readCSV("a,b\n1,2\n3,\"open\n4,5\n6,7\n", chunkLimit: chunkLimit)
        #expect(outcome == CSVReadOutcome(events: [rec(1, "a", "b"), rec(2, "1", "2")], error: .unterminatedQuote(line: 3)))
    }

    @Test("a quote inside an unquoted field is a malformedQuote; reading resumes on the next line", arguments: csvChunkLimits)
    func strayQuoteInUnquotedField(chunkLimit: Int) {
        let outcome = readCSV("a,b\n1,x\"y\n2,3\n", chunkLimit: chunkLimit)
        #expect(
            outcome == CSVReadOutcome(events: [rec(1, "a", "b"), .malformedQuote(line: 2, text: "1,x\"y"), rec(3, "2", "3")]))
    }

    @Test("text after a closing quote is a malformedQuote for that record", arguments: csvChunkLimits)
    func textAfterClosingQuote(chunkLimit: Int) {
        let outcome = readCSV("a,b\r\n\"1\"x,2\r\n3,4", chunkLimit: chunkLimit)
        #expect(
            outcome == CSVReadOutcome(events: [rec(1, "a", "b"), .malformedQuote(line: 2, text: "\"1\"x,2"), rec(3, "3", "4")]))
    }

    @Test("a stray quote in a multi-line record names the line where the record starts", arguments: csvChunkLimits)
    func strayQuoteInMultiLineRecord(chunkLimit: Int) {
        let outcome = readCSV("a,b\n1,\"x\ny\"z\n2,3\n", chunkLimit: chunkLimit)
        #expect(
            outcome
                == CSVReadOutcome(events: [rec(1, "a", "b"), .malformedQuote(line: 2, text: "1,\"x\ny\"z"), rec(4, "2", "3")]))
    }

    @Test("a stray quote on the last line without a newline is still reported", arguments: csvChunkLimits)
    func strayQuoteAtEndOfFile(chunkLimit: Int) {
        let outcome = readCSV("a\nb\"c", chunkLimit: chunkLimit)
        #expect(outcome == CSVReadOutcome(events: [rec(1, "a"), .malformedQuote(line: 2, text: "b\"c")]))
    }

    @Test("an empty file is emptyFile", arguments: csvChunkLimits)
    func emptyFile(chunkLimit: Int) {
        #expect(readCSV([], chunkLimit: chunkLimit) == CSVReadOutcome(error: .emptyFile))
    }

    @Test("a file holding only a byte order mark is emptyFile", arguments: csvChunkLimits)
    func byteOrderMarkOnly(chunkLimit: Int) {
        #expect(readCSV([0xEF, 0xBB, 0xBF], chunkLimit: chunkLimit) == CSVReadOutcome(error: .emptyFile))
    }

    @Test("a file of blank lines reports them, then emptyFile", arguments: csvChunkLimits)
    func blankLinesOnly(chunkLimit: Int) {
        #expect(
            readCSV("\n\r\n\r", chunkLimit: chunkLimit)
                == CSVReadOutcome(events: [.blankLine(line: 1), .blankLine(line: 2), .blankLine(line: 3)], error: .emptyFile))
    }
}
