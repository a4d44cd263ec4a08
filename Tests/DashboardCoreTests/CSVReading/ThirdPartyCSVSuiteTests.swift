import Foundation
import Testing

@testable import DashboardCore

/// One case of `Tests/Fixtures/ThirdPartyCSV/cases.json` (see the README there).
struct ThirdPartyCase: Decodable, Sendable, CustomTestStringConvertible {
    let name: String
    /// The file's path relative to `Tests/Fixtures/ThirdPartyCSV`.
    let file: String
    let encoding: String
    let delimiter: String
    let hasHeader: Bool
    let expect: String
    let expectedRows: [[String]]?
    let csvBytesBase64: String?
    let tags: [String]
    let suite: String
    let sizeBytes: Int
    let sha256: String

    enum CodingKeys: String, CodingKey {
        case name, file, encoding, delimiter, expect, tags, suite, sha256
        case sizeBytes = "size_bytes"
        case hasHeader = "has_header"
        case expectedRows = "expected_rows"
        case csvBytesBase64 = "csv_bytes_base64"
    }

    var testDescription: String { name }

    var bytes: [UInt8] { csvBytesBase64.flatMap { Data(base64Encoded: $0) }.map(Array.init) ?? [] }

    var delimiterByte: UInt8 { delimiter == "\t" ? 0x09 : UInt8(ascii: delimiter.unicodeScalars.first ?? ",") }

    /// The reader encoding for the case's declared encoding; nil for those we do not read.
    var inputEncoding: InputEncoding? {
        switch encoding {
        case "utf-8", "utf-8-sig": return .utf8
        case "latin-1": return .latin1
        case "cp1252": return .windows1252
        default: return nil
        }
    }
}

/// The cases of the suite, in the repository: `Tests/Fixtures/ThirdPartyCSV` (its README names
/// each source and licence), found from this file's path. Nothing outside the repository is read.
enum ThirdPartySuite {
    /// `Tests/Fixtures/ThirdPartyCSV`.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // CSVReading
        .deletingLastPathComponent()  // DashboardCoreTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/ThirdPartyCSV")

    static let casesFile = folder.appendingPathComponent("cases.json")

    /// A case by name; fails the test when the suite no longer has it.
    static func named(_ name: String) throws -> ThirdPartyCase {
        try #require(all.first { $0.name == name }, "no case \(name) in cases.json")
    }

    /// - Throws: when `cases.json` is missing or does not decode.
    static func load() throws -> [ThirdPartyCase] {
        try JSONDecoder().decode([ThirdPartyCase].self, from: Data(contentsOf: casesFile))
    }

    /// Empty when the file is missing or broken; `suitePresent` and `everyParameterizedTestHasCases`
    /// then fail (a parameterized test over no case would pass silently).
    static let all: [ThirdPartyCase] = (try? load()) ?? []

    /// Cases with expected rows, bytes, and an encoding the reader supports.
    static var rowCases: [ThirdPartyCase] {
        all.filter { $0.expect == "rows" && $0.inputEncoding != nil && $0.csvBytesBase64 != nil }
    }

    /// Cases where our reader legitimately differs from `expected_rows`, with what it does
    /// instead (asserted exactly, so the exclusion cannot hide a regression).
    static let divergences: [String: (reason: String, ours: Divergence)] = [
        "csv-test-data/all-empty": (
            "a file of only blank lines is empty_file by policy (SPEC §3: a file needs its header)", .emptyFileAfterBlankLines
        ),
        "csvkit-examples/empty.csv": ("a single LF is a blank line, then empty_file", .emptyFileAfterBlankLines),
        "mapnik-test-data-csv/fails/blank.csv": ("a single LF is a blank line, then empty_file", .emptyFileAfterBlankLines),
        "csvkit-examples/null_byte.csv": (
            "a NUL byte is refused as invalid_encoding (it marks a binary or UTF-16 file), not kept as a value",
            .invalidEncoding(line: 2, detail: "a NUL byte")
        ),
        "csv-spectrum/location_coordinates": (
            "bare quotes in an unquoted field break RFC 4180: the strict reader rejects that record (upstream JSON is also wrong)",
            .malformedQuote(row: 1, line: 2)
        ),
        "commons-csv/CSVFileParser/test.csv(rfc4180)": (
            "line 7 has spaces outside quotes (not RFC 4180); Commons CSV is lenient, our strict reader rejects the record",
            .malformedQuote(row: 6, line: 7)
        ),
    ]

    enum Divergence: Sendable {
        /// Every line is reported as a blank line, then the file is `emptyFile`.
        case emptyFileAfterBlankLines
        /// The rows before `line` are read as expected, then the file fails.
        case invalidEncoding(line: Int, detail: String)
        /// `expected_rows[row]` is a malformedQuote on `line`; every other row is as expected.
        case malformedQuote(row: Int, line: Int)
    }
}

/// Our events as rows comparable with `expected_rows`.
///
/// Mapping: a record is its fields; a blank line is `[""]`, which is how the suite writes an
/// empty line (csv-test-data's upstream JSON and the strict parser of build_cases.py both
/// give `[""]`), so a file's blank lines must appear at the same places as in the suite. A
/// malformedQuote becomes a marker row that no expected row equals.
func suiteRows(_ events: [CSVEvent]) -> [[String]] {
    events.map { event in
        switch event {
        case .record(let record): return record.fields
        case .blankLine: return [""]
        case .malformedQuote(let line, _): return ["<malformed quote on line \(line)>"]
        }
    }
}

@Suite("Third-party CSV suites (Tests/Fixtures/ThirdPartyCSV/cases.json)")
struct ThirdPartyCSVSuiteTests {
    @Test("the suite is present and every case is either checked here or named as out of scope")
    func suitePresent() throws {
        let cases = try ThirdPartySuite.load()
        #expect(cases.count == 134)
        #expect(ThirdPartySuite.rowCases.count == 114)
        // Not checked by the rows test: utf-16 (refused, below), iso-8859-7 (not a supported
        // encoding, below), error cases (below), implementation-defined (no expectation).
        let others = Dictionary(grouping: cases.filter { !ThirdPartySuite.rowCases.map(\.name).contains($0.name) }) {
            "\($0.expect)/\($0.encoding)"
        }.mapValues(\.count)
        #expect(
            others == [
                "rows/utf-16": 2, "rows/iso-8859-7": 1, "error/utf-8": 7, "implementation-defined/utf-8": 8,
                "implementation-defined/cp1252": 1, "implementation-defined/latin-1": 1,
            ])
        for name in ThirdPartySuite.divergences.keys {
            #expect(ThirdPartySuite.rowCases.contains { $0.name == name }, "exclusion \(name) names no case")
        }
    }

    /// The cases of `expectedRows`; of `detectedDelimiter`, those with a header.
    static let rowCases = ThirdPartySuite.rowCases
    static let headerCases = ThirdPartySuite.rowCases.filter(\.hasHeader)

    @Test("every parameterized test of the suite has cases (an empty list would pass silently)")
    func everyParameterizedTestHasCases() throws {
        try #require(!ThirdPartySuite.all.isEmpty, "no case in \(ThirdPartySuite.casesFile.path)")
        try #require(!Self.rowCases.isEmpty)
        try #require(!Self.headerCases.isEmpty)
        #expect(Self.headerCases.count < Self.rowCases.count)
    }

    @Test("records equal the suite's expected rows, header included", arguments: rowCases)
    func expectedRows(testCase: ThirdPartyCase) throws {
        let expected = try #require(testCase.expectedRows)
        let encoding = try #require(testCase.inputEncoding)
        for limit in [Int.max, 7, 1] {
            let outcome = readCSV(testCase.bytes, chunkLimit: limit, delimiter: testCase.delimiterByte, encoding: encoding)
            switch ThirdPartySuite.divergences[testCase.name]?.ours {
            case nil:
                #expect(outcome.error == nil, "chunk \(limit)")
                #expect(suiteRows(outcome.events) == expected, "chunk \(limit)")
            case .emptyFileAfterBlankLines:
                #expect(outcome == CSVReadOutcome(events: expected.indices.map { .blankLine(line: $0 + 1) }, error: .emptyFile))
            case .invalidEncoding(let line, let detail):
                #expect(outcome.error == .invalidEncoding(line: line, detail: detail))
                #expect(suiteRows(outcome.events) == Array(expected.prefix(line - 1)))
            case .malformedQuote(let row, let line):
                var rows = expected
                rows[row] = ["<malformed quote on line \(line)>"]
                #expect(outcome.error == nil)
                #expect(suiteRows(outcome.events) == rows, "chunk \(limit)")
            }
        }
    }

    @Test("the detected delimiter is the suite's on every file with a header", arguments: headerCases)
    func detectedDelimiter(testCase: ThirdPartyCase) throws {
        let outcome = readCSV(testCase.bytes, encoding: try #require(testCase.inputEncoding))
        #expect(outcome.delimiter == testCase.delimiterByte)
    }

    @Test("UTF-16 files are refused with invalid_encoding on line 1")
    func utf16Refused() throws {
        let cases = ThirdPartySuite.all.filter { $0.encoding == "utf-16" }
        #expect(cases.count == 2)
        for testCase in cases {
            #expect(
                readCSV(testCase.bytes).error == .invalidEncoding(line: 1, detail: "the file starts with a UTF-16 byte order mark"),
                "\(testCase.name)")
        }
    }

    @Test("an ISO-8859-7 file read as UTF-8 fails on its first Greek line (the encoding is not supported)")
    func greekRefused() throws {
        let testCase = try #require(ThirdPartySuite.all.first { $0.encoding == "iso-8859-7" })
        #expect(
            readCSV(testCase.bytes)
                == CSVReadOutcome(
                    events: [rec(1, "id", "age", "name")], error: .invalidEncoding(line: 2, detail: "bytes that are not valid UTF-8")))
    }

    @Test("the latin-1 cases read as UTF-8 fail with invalid_encoding on the line of the first accent")
    func latin1AsUTF8Refused() throws {
        let lines = ["csv-spectrum/latin1(removed-upstream)": 3, "csvkit-examples/test_latin1.csv": 3, "frictionless-data/latin1.csv": 3]
        for (name, line) in lines {
            let testCase = try #require(ThirdPartySuite.all.first { $0.name == name })
            #expect(readCSV(testCase.bytes).error == .invalidEncoding(line: line, detail: "bytes that are not valid UTF-8"), "\(name)")
        }
    }
}
