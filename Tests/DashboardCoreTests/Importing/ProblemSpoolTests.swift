import Foundation
import Testing

@testable import DashboardCore

/// `ProblemSpool`: the same problems in the same order whether they stay in memory or move to
/// the temporary database (issue 11, class 9).
@Suite struct ProblemSpoolTests {
    static func problem(_ code: ProblemCode, line: Int, file: String = "tasks.csv", value: String = "") -> ImportProblem {
        ImportProblem(code: code, file: file, line: line, row: line - 1, column: "c", value: value, message: "m\(line)", hint: "h")
    }

    /// Two files; the second's problems arrive out of line order (repeats are found late);
    /// then an unsorted group (a file problem added after reading).
    static func fill(_ spool: ProblemSpool) throws {
        spool.startGroup(sortedByLine: true)
        try spool.append(problem(.unknownCourse, line: 2, file: "a.csv"))
        try spool.append(problem(.blankRow, line: 3, file: "a.csv"))
        spool.startGroup(sortedByLine: true)
        try spool.append(problem(.invalidDate, line: 5))
        try spool.append(problem(.duplicateRow, line: 4))
        try spool.append(problem(.invalidPriority, line: 5))
        try spool.append(problem(.duplicateID, line: 2))
        spool.startGroup(sortedByLine: false)
        try spool.append(problem(.fieldTooLarge, line: 9))
        try spool.append(problem(.emptyFile, line: 1))
    }

    static let expectedOrder = [
        "a.csv:2 unknown_course", "a.csv:3 blank_row", "tasks.csv:2 duplicate_id", "tasks.csv:4 duplicate_row",
        "tasks.csv:5 invalid_date", "tasks.csv:5 invalid_priority", "tasks.csv:9 field_too_large", "tasks.csv:1 empty_file",
    ]

    static func listed(_ spool: ProblemSpool, severity: ProblemSeverity? = nil, limit: Int? = nil) throws -> [String] {
        var out: [String] = []
        try spool.forEachProblem(severity: severity, limit: limit) { out.append("\($0.file):\($0.line) \($0.code.rawValue)") }
        return out
    }

    @Test(arguments: [0, 3, 1_000])
    func problemsAreListedInFileOrderWhereverTheyAreKept(memoryLimit: Int) throws {
        let spool = ProblemSpool(memoryLimit: memoryLimit)
        try Self.fill(spool)
        #expect(spool.isSpooled == (memoryLimit < 8))
        #expect(try Self.listed(spool) == Self.expectedOrder)
        #expect(try Self.listed(spool, severity: .warning) == ["a.csv:3 blank_row", "tasks.csv:4 duplicate_row"])
        #expect(try Self.listed(spool, severity: .error).count == 6)
        #expect(try Self.listed(spool, limit: 3) == Array(Self.expectedOrder.prefix(3)))
        #expect((spool.count, spool.errorCount, spool.warningCount) == (8, 6, 2))
    }

    @Test(arguments: [0, 1_000])
    func everyFieldSurvivesTheTemporaryDatabase(memoryLimit: Int) throws {
        let spool = ProblemSpool(memoryLimit: memoryLimit)
        var original = ImportProblem(
            code: .valueTooLong, file: "d/t.csv", line: 7, row: 6, column: "title", value: "x\u{1B}\"é,\n",
            message: "long", hint: "shorten", frictionlessType: "constraint-error")
        original.frictionlessType = "custom-type"
        try spool.append(original)
        var back: [ImportProblem] = []
        try spool.forEachProblem { back.append($0) }
        #expect(back == [original])
    }

    @Test(arguments: [0, 2, 1_000])
    func truncateForgetsWhatCameAfterTheMark(memoryLimit: Int) throws {
        let spool = ProblemSpool(memoryLimit: memoryLimit)
        spool.startGroup(sortedByLine: true)
        try spool.append(Self.problem(.unknownCourse, line: 2))
        try spool.append(Self.problem(.blankRow, line: 3))
        let mark = spool.mark
        try spool.append(Self.problem(.invalidDate, line: 1))
        try spool.append(Self.problem(.duplicateRow, line: 9))
        try spool.truncate(to: mark)
        #expect(try Self.listed(spool) == ["tasks.csv:2 unknown_course", "tasks.csv:3 blank_row"])
        #expect((spool.count, spool.errorCount, spool.warningCount) == (2, 1, 1))
        try spool.append(Self.problem(.invalidDate, line: 4))
        #expect(try Self.listed(spool) == ["tasks.csv:2 unknown_course", "tasks.csv:3 blank_row", "tasks.csv:4 invalid_date"])
    }

    @Test func aRunWithFewProblemsNeverOpensTheTemporaryDatabase() throws {
        let spool = ProblemSpool()
        for line in 1...ProblemSpool.defaultMemoryLimit { try spool.append(Self.problem(.unknownCourse, line: line)) }
        #expect(!spool.isSpooled)
        try spool.append(Self.problem(.unknownCourse, line: 0))
        #expect(spool.isSpooled)
        #expect(spool.count == ProblemSpool.defaultMemoryLimit + 1)
    }
}
