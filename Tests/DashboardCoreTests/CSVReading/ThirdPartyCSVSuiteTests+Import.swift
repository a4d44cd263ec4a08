import Foundation
import Testing

@testable import DashboardCore

// MARK: - Invalid files, and tricky fields through the importer's normalization

@Suite("Third-party CSV suites: invalid files and normalized titles", .storeIndependent)
struct ThirdPartyCSVImportTests {
    static let fooHeader = rec(1, "foo", "bar", "baz")

    @Test("csv-test-data's bad quote files give an unterminated or malformed quote on line 2")
    func badQuoteFiles() throws {
        let expected: [String: CSVReadOutcome] = [
            "csv-test-data/bad-missing-quote": CSVReadOutcome(events: [Self.fooHeader], error: .unterminatedQuote(line: 2)),
            "csv-test-data/bad-quotes-with-unescaped-quote": CSVReadOutcome(events: [
                Self.fooHeader, .malformedQuote(line: 2, text: "1,\"Hey, I missed \" it\",3"),
            ]),
            "csv-test-data/bad-unescaped-quote": CSVReadOutcome(events: [
                Self.fooHeader, .malformedQuote(line: 2, text: "1,This \"quotes\" must be escaped,3"),
            ]),
        ]
        for (name, outcome) in expected {
            let testCase = try ThirdPartySuite.named(name)
            #expect(testCase.expect == "error")
            #expect(readCSV(testCase.bytes) == outcome, "\(name)")
        }
    }

    /// Upstream reads these with the required header `foo,bar,baz`; ours is a tasks file's.
    @Test(
        "csv-test-data's bad header files are refused as unknown_file_kind, with or without a file name hint",
        arguments: [
            "csv-test-data/bad-header-less-fields", "csv-test-data/bad-header-more-fields", "csv-test-data/bad-header-wrong-header",
        ])
    func badHeaderFiles(name: String) throws {
        let testCase = try ThirdPartySuite.named(name)
        #expect(testCase.expect == "error")
        guard case .record(let header) = readCSV(testCase.bytes).events.first else {
            Issue.record("no header record in \(name)")
            return
        }
        let asTasks = #expect(throws: ImportProblem.self) {
            try HeaderLayout(header: header.fields, file: "tasks.csv", fileNameHint: .tasks)
        }
        // foo,bar,baz names no known column: not a tasks file, whatever the file is called.
        #expect(asTasks?.code == .unknownFileKind)
        #expect(asTasks?.value == header.fields.joined(separator: ","))
        let unhinted = #expect(throws: ImportProblem.self) { try HeaderLayout(header: header.fields, file: "data.csv") }
        #expect(unhinted?.code == .unknownFileKind)
        #expect(unhinted?.value == header.fields.joined(separator: ","))
    }

    @Test("csv-test-data's short and long rows are wrong_field_count once the header is a tasks header")
    func badHeaderFieldCounts() throws {
        let layout = try HeaderLayout(header: ["task_id", "course_id", "title"], file: "tasks.csv")
        let cases = ["csv-test-data/bad-header-less-fields": "missing-cell", "csv-test-data/bad-header-more-fields": "extra-cell"]
        for (name, frictionless) in cases {
            let events = readCSV(try ThirdPartySuite.named(name).bytes).events
            #expect(events.count == 2)
            guard case .record(let row) = events.last, row.line == 2 else {
                Issue.record("no data row on line 2 in \(name)")
                continue
            }
            guard case .rejected(let problems) = RowNormalizer(layout: layout).normalize(row.fields) else {
                Issue.record("\(name) was not rejected")
                continue
            }
            #expect(problems.map(\.code) == [.wrongFieldCount], "\(name)")
            #expect(problems.map(\.frictionlessType) == [frictionless], "\(name)")
        }
    }

    @Test("csv-test-data's file without a header (zero bytes) is emptyFile")
    func noHeaderFile() throws {
        let testCase = try ThirdPartySuite.named("csv-test-data/bad-header-no-header")
        let reader = CSVReader(source: try FileByteSource(path: ThirdPartySuite.folder.appendingPathComponent(testCase.file).path))
        #expect(throws: CSVFileError.emptyFile) { try reader.read { _ in } }
    }

    /// The normalized record and its line for every data row of a csv-spectrum case read with
    /// its header line replaced by `header` (same line ending).
    func imported(_ name: String, header: String) throws -> [Int: RowNormalizer.Outcome] {
        let bytes = try ThirdPartySuite.named(name).bytes
        let end = try #require(bytes.firstIndex { $0 == 0x0A || $0 == 0x0D })
        let events = readCSV(Array(header.utf8) + bytes[end...]).events
        guard case .record(let head)? = events.first else {
            Issue.record("no header in \(name): \(events)")
            return [:]
        }
        let normalizer = RowNormalizer(layout: try HeaderLayout(header: head.fields, file: "tasks.csv"))
        var outcomes: [Int: RowNormalizer.Outcome] = [:]
        for case .record(let row) in events.dropFirst() { outcomes[row.line] = normalizer.normalize(row.fields) }
        #expect(outcomes.count == events.count - 1, "every data line is a record")
        return outcomes
    }

    @Test("csv-spectrum's tricky fields, imported as titles, are trimmed with whitespace collapsed")
    func spectrumTitles() throws {
        #expect(
            try imported("csv-spectrum/comma_in_quotes", header: "task_id,student_id,course_id,title,zip")
                == [2: .task(TaskRecord(taskID: "John", courseID: "120 any st.", title: "Anytown, WW", studentID: "Doe"))])
        for name in ["csv-spectrum/newlines", "csv-spectrum/newlines_crlf"] {
            #expect(
                try imported(name, header: "title,task_id,course_id")
                    == [
                        2: .task(TaskRecord(taskID: "2", courseID: "3", title: "1")),
                        3: .task(TaskRecord(taskID: "5", courseID: "6", title: "Once upon a time")),
                        5: .task(TaskRecord(taskID: "8", courseID: "9", title: "7")),
                    ], "\(name)")
        }
        #expect(
            try imported("csv-spectrum/utf8", header: "task_id,course_id,title")
                == [
                    2: .task(TaskRecord(taskID: "1", courseID: "2", title: "3")),
                    3: .task(TaskRecord(taskID: "4", courseID: "5", title: "ʤ")),
                ])
        // Two-column cases read as courses files (course_id, title).
        #expect(
            try imported("csv-spectrum/escaped_quotes", header: "course_id,title")
                == [
                    2: .course(CourseRecord(courseID: "1", code: "1", title: "ha \"ha\" ha")),
                    3: .course(CourseRecord(courseID: "3", code: "3", title: "4")),
                ])
        #expect(
            try imported("csv-spectrum/quotes_and_newlines", header: "course_id,title")
                == [
                    2: .course(CourseRecord(courseID: "1", code: "1", title: "ha \"ha\" ha")),
                    5: .course(CourseRecord(courseID: "3", code: "3", title: "4")),
                ])
        #expect(
            try imported("csv-spectrum/json", header: "course_id,title")
                == [2: .course(CourseRecord(courseID: "1", code: "1", title: "{\"type\": \"Point\", \"coordinates\": [102.0, 0.5]}"))])
    }

    @Test("csv-spectrum's empty quoted fields are missing values when they are required")
    func spectrumEmptyFields() throws {
        let outcomes = try imported("csv-spectrum/empty_crlf", header: "task_id,title,course_id")
        #expect(outcomes[3] == .task(TaskRecord(taskID: "2", courseID: "4", title: "3")))
        guard case .rejected(let problems) = outcomes[2] else {
            Issue.record("line 2 was not rejected: \(String(describing: outcomes[2]))")
            return
        }
        #expect(problems.map(\.code) == [.missingValue, .missingValue])
        #expect(problems.map(\.column) == ["course_id", "title"])
    }
}
