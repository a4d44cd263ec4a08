import Foundation
import Testing

@testable import DashboardCore

/// `JSONStreamWriter` writes exactly the bytes `JSONValue.rendered()` gives, whatever the
/// size of its arrays (issue 11, class 9).
@Suite(.storeIndependent) struct JSONStreamWriterTests {
    static func streamed(_ build: (JSONStreamWriter) throws -> Void) throws -> (text: String, pieces: Int) {
        var text = ""
        var pieces = 0
        let writer = JSONStreamWriter { piece in
            text += piece
            pieces += 1
        }
        try build(writer)
        try writer.end()
        return (text, pieces)
    }

    @Test func anObjectWithEmptyAndFullArraysIsByteIdentical() throws {
        let elements: [JSONValue] = [
            .object([("a", .int(1)), ("b", .array([.string("x<&>\u{1B}"), .null]))]), .string("s"), .array([]), .object([]),
            .bool(true),
        ]
        let head: [(String, JSONValue)] = [("schema", .int(1)), ("nested", .object([("k", .array([.int(2)]))])), ("none", .null)]
        let expected = JSONValue.object(head + [("empty", .array([])), ("full", .array(elements))]).rendered() + "\n"
        let got = try Self.streamed { writer in
            for (key, value) in head { try writer.pair(key, value) }
            try writer.array("empty") { _ in }
            try writer.array("full") { element in for e in elements { try element(e) } }
        }
        #expect(got.text == expected)
    }

    @Test func anEmptyObjectIsByteIdentical() throws {
        #expect(try Self.streamed { _ in }.text == JSONValue.object([]).rendered() + "\n")
    }

    @Test func aLargeArrayIsHandedOnInPiecesOfAbout64KiB() throws {
        let element = JSONValue.object([("value", .string(String(repeating: "v", count: 1_000)))])
        let got = try Self.streamed { writer in
            try writer.array("entries") { emit in for _ in 0..<1_000 { try emit(element) } }
        }
        let expected = JSONValue.object([("entries", .array(Array(repeating: element, count: 1_000)))]).rendered() + "\n"
        #expect(got.text == expected)
        #expect(got.pieces >= expected.utf8.count / JSONStreamWriter.flushThreshold)
    }

    @Test(arguments: [0, 5, 1_000])
    func anImportResultStreamsTheBytesOfItsJSONValue(memoryLimit: Int) throws {
        let spool = ProblemSpool(memoryLimit: memoryLimit)
        spool.startGroup(sortedByLine: true)
        for line in 2..<40 {
            try spool.append(ProblemSpoolTests.problem(line % 3 == 0 ? .duplicateRow : .invalidDate, line: line, value: "v\(line)"))
        }
        var categorized = CategorizeResult()
        categorized.tasks = 3
        let result = ImportResult(
            batchID: 4, status: .committed, mode: .merge, asOf: "2026-11-29T08:00:00Z",
            counts: [.tasks: ImportCounts(read: 38, inserted: 12, rejected: 25, warnings: 13)],
            files: [ImportedFile(path: "tasks.csv", kind: .tasks, size: 10, sha256: "ab", rows: 38)], problemSpool: spool,
            reason: "", categorized: categorized)
        var text = ""
        try result.writeJSON { text += $0 }
        #expect(text == result.json.rendered() + "\n")
        #expect(result.rejects.count == 25 && result.warnings.count == 13)
    }
}
