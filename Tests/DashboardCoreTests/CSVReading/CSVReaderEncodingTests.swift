import Testing

@testable import DashboardCore

@Suite("CSVReader: encodings", .storeIndependent)
struct CSVReaderEncodingTests {
    static let invalidUTF8 = "bytes that are not valid UTF-8"

    /// Invalid UTF-8 on line 3 of a file, after a multi-line quoted field on line 2.
    static let invalidSequences: [(name: String, bytes: [UInt8])] = [
        ("overlong 2-byte slash", [0xC0, 0xAF]),
        ("overlong 3-byte slash", [0xE0, 0x80, 0xAF]),
        ("overlong 4-byte", [0xF0, 0x80, 0x80, 0xAF]),
        ("UTF-16 surrogate", [0xED, 0xA0, 0x80]),
        ("above U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
        ("lead byte F5", [0xF5, 0x80, 0x80, 0x80]),
        ("stray continuation byte", [0x80]),
        ("lead byte then a new lead byte", [0xC3, 0xC3, 0xA9]),
        ("sequence cut short by a letter", [0xE2, 0x82, 0x61, 0xAC]),
        ("sequence cut short by a comma", [0xC3, 0x2C, 0xA9]),
        ("sequence cut short by a line end", [0xE2, 0x82, 0x0A]),
    ]

    @Test("invalid UTF-8 fails the file naming its line", arguments: 0..<invalidSequences.count)
    func invalidUTF8(index: Int) {
        let (name, bad) = Self.invalidSequences[index]
        let bytes = Array("a,b\n1,\"x\ny\"\n2,".utf8) + bad + Array(",z\n3,4\n".utf8)
        for limit in csvChunkLimits {
            let outcome = readCSV(bytes, chunkLimit: limit)
            #expect(
                outcome
                    == CSVReadOutcome(
                        events: [rec(1, "a", "b"), rec(2, "1", "x\ny")], error: .invalidEncoding(line: 4, detail: Self.invalidUTF8)),
                "\(name), chunk \(limit)")
        }
    }

    @Test("a UTF-8 sequence truncated at the end of the file fails on the last line", arguments: csvChunkLimits)
    func truncatedAtEndOfFile(chunkLimit: Int) {
        let outcome = readCSV(Array("a,b\r\n1,".utf8) + [0xE2, 0x82], chunkLimit: chunkLimit)
        #expect(
            outcome
                == CSVReadOutcome(
                    events: [rec(1, "a", "b")],
                    error: .invalidEncoding(line: 2, detail: "a truncated UTF-8 sequence at the end of the file")))
    }

    @Test("invalid UTF-8 in the header fails on line 1 before any event", arguments: csvChunkLimits)
    func invalidHeader(chunkLimit: Int) {
        #expect(
            readCSV([0x61, 0xFF, 0x2C, 0x62, 0x0A], chunkLimit: chunkLimit)
                == CSVReadOutcome(error: .invalidEncoding(line: 1, detail: Self.invalidUTF8)))
    }

    @Test("a NUL byte fails the file naming its line", arguments: csvChunkLimits)
    func nulByte(chunkLimit: Int) {
        let outcome = readCSV(Array("a,b\n\n\"1\n".utf8) + [0x00] + Array("\",2\n".utf8), chunkLimit: chunkLimit)
        #expect(
            outcome
                == CSVReadOutcome(events: [rec(1, "a", "b"), .blankLine(line: 2)], error: .invalidEncoding(line: 4, detail: "a NUL byte")))
    }

    @Test("a UTF-16 byte order mark is refused on line 1", arguments: [[UInt8]([0xFF, 0xFE]), [0xFE, 0xFF]])
    func utf16Refused(bom: [UInt8]) {
        for limit in csvChunkLimits {
            let outcome = readCSV(bom + [0x61, 0x00, 0x0A, 0x00], chunkLimit: limit)
            #expect(outcome == CSVReadOutcome(error: .invalidEncoding(line: 1, detail: "the file starts with a UTF-16 byte order mark")))
            #expect(
                readCSV(bom, chunkLimit: limit).error == .invalidEncoding(line: 1, detail: "the file starts with a UTF-16 byte order mark"))
        }
    }

    @Test("windows-1252 maps 0x80–0x9F to the typographic characters", arguments: csvChunkLimits)
    func windows1252(chunkLimit: Int) {
        // "€,é\n“q”,Š…\n" plus an undefined byte (0x81) kept as the C1 control U+0081.
        let bytes: [UInt8] = [0x80, 0x2C, 0xE9, 0x0A, 0x93, 0x71, 0x94, 0x2C, 0x8A, 0x85, 0x81, 0x0A]
        #expect(
            readCSV(bytes, chunkLimit: chunkLimit, encoding: .windows1252)
                == CSVReadOutcome(events: [rec(1, "€", "é"), rec(2, "“q”", "Š…\u{81}")]))
    }

    @Test("latin1 maps every byte to the code point of the same value", arguments: csvChunkLimits)
    func latin1(chunkLimit: Int) {
        let bytes: [UInt8] = [0x80, 0x2C, 0xE9, 0x0A, 0xA9, 0x2C, 0xFF, 0xA0, 0x0A]
        #expect(
            readCSV(bytes, chunkLimit: chunkLimit, encoding: .latin1)
                == CSVReadOutcome(events: [rec(1, "\u{80}", "é"), rec(2, "©", "ÿ\u{A0}")]))
    }

    @Test("a UTF-8 file read as windows-1252 is transcoded byte by byte, not refused")
    func utf8ReadAsWindows1252() {
        #expect(readCSV(Array("é\n".utf8), encoding: .windows1252) == CSVReadOutcome(events: [rec(1, "Ã©")]))
    }

    @Test(
        "encoding names are parsed leniently",
        arguments: [
            ("utf8", InputEncoding.utf8), ("UTF-8", .utf8), ("cp1252", .windows1252), ("Windows-1252", .windows1252),
            ("latin1", .latin1), ("ISO-8859-1", .latin1), ("iso_8859_1", .latin1),
        ])
    func encodingNames(name: String, expected: InputEncoding) {
        #expect(InputEncoding(name: name) == expected)
    }

    @Test("unsupported encoding names are refused", arguments: ["utf-16", "iso-8859-7", "ascii", ""])
    func unsupportedEncodingNames(name: String) {
        #expect(InputEncoding(name: name) == nil)
    }
}

@Suite("CSVReader: delimiter detection", .storeIndependent)
struct CSVDelimiterTests {
    @Test(
        "the delimiter is detected from the header",
        arguments: [
            ("id,title,due\n1,a;b,x|y\n", UInt8(ascii: ","), ["1", "a;b", "x|y"]),
            ("id;title;due\n1;a,b;x|y\n", UInt8(ascii: ";"), ["1", "a,b", "x|y"]),
            ("id\ttitle\tdue\n1\ta,b\tx;y\n", 0x09, ["1", "a,b", "x;y"]),
            ("id|title|due\n1|a,b|x;y\n", UInt8(ascii: "|"), ["1", "a,b", "x;y"]),
            // Delimiters inside quoted header cells do not count.
            ("\"a,b,c\";\"d,e\";f\n1;2;3\n", UInt8(ascii: ";"), ["1", "2", "3"]),
            ("\"p;q;r\"|\"s;t\"|u\n1|2|3\n", UInt8(ascii: "|"), ["1", "2", "3"]),
            ("\"x|y|z\"\tw\tv\n1\t2\t3\n", 0x09, ["1", "2", "3"]),
        ])
    func detection(text: String, delimiter: UInt8, row: [String]) {
        for limit in csvChunkLimits {
            let outcome = readCSV(text, chunkLimit: limit)
            #expect(outcome.delimiter == delimiter, "chunk \(limit)")
            #expect(outcome.events.count == 2)
            #expect(outcome.events.last == .record(CSVRecord(fields: row, line: 2)), "chunk \(limit)")
        }
    }

    @Test("the header is found after leading blank lines and a byte order mark")
    func detectionAfterBlankLines() {
        let outcome = readCSV("\u{FEFF}\n\r\na;b\n")
        #expect(
            outcome == CSVReadOutcome(events: [.blankLine(line: 1), .blankLine(line: 2), rec(3, "a", "b")], delimiter: UInt8(ascii: ";")))
    }

    @Test(
        "DelimiterDetector: most frequent wins, ties go to , ; tab | in that order",
        arguments: [
            ("a;b;c,d\n", UInt8(ascii: ";")), ("a;b,c\n", UInt8(ascii: ",")), ("a\tb|c\n", 0x09),
            ("a|b;c\n", UInt8(ascii: ";")), ("title\n", UInt8(ascii: ",")), ("\"a;b\"\n", UInt8(ascii: ",")),
        ])
    func detector(text: String, expected: UInt8) {
        #expect(DelimiterDetector.detect(in: Array(text.utf8), final: false) == expected)
    }

    @Test("DelimiterDetector waits for the end of the header line unless the input is final")
    func detectorWaits() {
        #expect(DelimiterDetector.detect(in: Array("a;b".utf8), final: false) == nil)
        #expect(DelimiterDetector.detect(in: Array("\"a\nb;c".utf8), final: false) == nil)
        #expect(DelimiterDetector.detect(in: Array("a;b".utf8), final: true) == UInt8(ascii: ";"))
        #expect(DelimiterDetector.detect(in: [], final: true) == UInt8(ascii: ","))
    }

    @Test("a given delimiter is used as is, without detection")
    func givenDelimiter() {
        let outcome = readCSV("a,b;c\n1,2;3\n", delimiter: UInt8(ascii: ";"))
        #expect(outcome == CSVReadOutcome(events: [rec(1, "a,b", "c"), rec(2, "1,2", "3")], delimiter: UInt8(ascii: ";")))
    }
}
