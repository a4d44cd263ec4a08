import Foundation
import Testing

@testable import DashboardCore

/// The JUnit report's pieces in the library: the rules of each kind of file, the spool read
/// rule by rule, and reports whose problems fall outside the rules or whose run failed.
@Suite(.storeIndependent) struct JUnitReportCoreTests {
    // MARK: - Rules

    @Test func everyProblemCodeIsARuleOfSomeKindOfFileAndNoneIsListedTwice() {
        let courses = ProblemCode.rules(for: .courses)
        let tasks = ProblemCode.rules(for: .tasks)
        #expect(Set(courses + tasks) == Set(ProblemCode.allCases))
        #expect(Set(courses).count == courses.count && Set(tasks).count == tasks.count)
        #expect(ProblemCode.rules(for: nil) == ProblemCode.fileRules)
        #expect(ProblemCode.fileRules.allSatisfy(\.isFileLevel) && ProblemCode.allCases.filter(\.isFileLevel).count == 10)
        #expect(ProblemCode.warningRules.allSatisfy { $0.severity == .warning })
    }

    @Test func aCoursesFileIsNotCheckedForTaskValuesNorATasksFileForTimeZonesAddressesOrLanguages() {
        let courseOnly = Set(ProblemCode.rules(for: .courses)).subtracting(ProblemCode.rules(for: .tasks))
        let taskOnly = Set(ProblemCode.rules(for: .tasks)).subtracting(ProblemCode.rules(for: .courses))
        #expect(courseOnly == [.invalidTimezone, .invalidEmail, .invalidLanguage])
        #expect(
            taskOnly == [
                .invalidDate, .ambiguousDate, .implausibleDate, .invalidPriority, .invalidBoolean, .unknownCourse, .invalidStatus,
                .conflictingStatus,
            ])
    }

    // MARK: - The spool, rule by rule

    static func problem(_ code: ProblemCode, line: Int, file: String) -> ImportProblem {
        ImportProblem(code: code, file: file, line: line, row: line - 1, column: "c", message: "m\(line)", hint: "h")
    }

    @Test(arguments: [0, 2, 1_000])
    func problemsAreCountedAndListedByFileAndCodeWhereverTheyAreKept(memoryLimit: Int) throws {
        let spool = ProblemSpool(memoryLimit: memoryLimit)
        spool.startGroup(sortedByLine: true)
        try spool.append(Self.problem(.invalidDate, line: 4, file: "t.csv"))
        try spool.append(Self.problem(.blankRow, line: 3, file: "t.csv"))
        try spool.append(Self.problem(.invalidDate, line: 2, file: "t.csv"))
        try spool.append(Self.problem(.invalidDate, line: 5, file: "u.csv"))
        spool.startGroup(sortedByLine: false)
        try spool.append(Self.problem(.invalidDate, line: 1, file: "t.csv"))
        #expect(spool.isSpooled == (memoryLimit < 5))
        #expect(try spool.countsByFile() == ["t.csv": [.invalidDate: 3, .blankRow: 1], "u.csv": [.invalidDate: 1]])
        var lines: [Int] = []
        try spool.forEachProblem(file: "t.csv", code: .invalidDate) { lines.append($0.line) }
        // File order: the first group by line, then the later group.
        #expect(lines == [2, 4, 1])
        var none = 0
        try spool.forEachProblem(file: "u.csv", code: .blankRow) { _ in none += 1 }
        #expect(none == 0)
    }

    // MARK: - Reports

    static func report(_ result: ImportResult) throws -> String {
        var text = ""
        try result.writeJUnit(command: "check") { text += $0 }
        return text
    }

    @Test func aProblemOutsideItsFilesRulesOrOfAFileNotReadIsStillReported() throws {
        let courses = ImportedFile(path: "c.csv", kind: .courses, size: 10, sha256: "ab", rows: 1)
        let result = ImportResult(
            batchID: nil, status: .dryRun, mode: .merge, asOf: "2026-11-29T08:00:00Z", counts: [.courses: ImportCounts(read: 1)],
            files: [courses],
            problemSpool: ProblemSpool([
                Self.problem(.invalidDate, line: 2, file: "c.csv"), Self.problem(.missingValue, line: 3, file: "z.csv"),
            ]),
            reason: "", categorized: nil)
        let suites = result.junitSuites(command: "check", counted: try result.problemSpool.countsByFile())
        #expect(suites.map(\.file) == ["c.csv", "z.csv"])
        #expect(suites[0].cases.map(\.name) == ProblemCode.rules(for: .courses).map(\.rawValue) + ["invalid_date"])
        #expect(suites[1].cases.map(\.name) == ProblemCode.fileRules.map(\.rawValue) + ["missing_value"])
        let text = try Self.report(result)
        #expect(text.contains("<failure type=\"invalid_date\" message=\"c.csv:2: c: m2 [invalid_date]\">"))
        #expect(text.contains("<failure type=\"missing_value\" message=\"z.csv:3: c: m3 [missing_value]\">"))
        #expect(
            text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"dashboard check\" tests=\"35\" failures=\"2\""))
    }

    @Test func aRunThatFailedForAReasonNotTheDatasIsOneError() throws {
        var text = ""
        try JUnitReport.writeRunFailure(
            message: "the database is read-only", hint: "check the file's permissions", command: "import", mode: .sync,
            asOf: "2026-11-29T08:00:00Z", batchID: nil
        ) { text += $0 }
        #expect(
            text == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="dashboard import" tests="1" failures="0" errors="1" time="0">
                  <testsuite name="dashboard import" tests="1" failures="0" errors="1" skipped="0" time="0" timestamp="2026-11-29T08:00:00Z">
                    <properties>
                      <property name="command" value="import"/>
                      <property name="status" value="failed"/>
                      <property name="mode" value="sync"/>
                      <property name="as_of" value="2026-11-29T08:00:00Z"/>
                      <property name="reason" value="the database is read-only"/>
                    </properties>
                    <testcase name="run" classname="dashboard import" time="0">
                      <error type="run_failed" message="the database is read-only">the database is read-only
                hint: check the file's permissions
                </error>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
    }

    @Test func aFileLevelProblemOfARowRuleIsListedAfterTheFileRules() throws {
        let problem = ImportProblem(
            code: .malformedQuote, file: "t.csv", line: 1, row: 0, value: "a\"b", message: "the header line breaks the quoting rules",
            hint: "quote a header cell only as a whole")
        var text = ""
        try JUnitReport.writeFileFailure(
            problem, inputs: ["t.csv", "t.csv"], command: "check", mode: .merge, asOf: "2026-11-29T08:00:00Z", batchID: nil
        ) { text += $0 }
        #expect(text.contains("<testsuite name=\"t.csv\" tests=\"11\" failures=\"1\" errors=\"0\" skipped=\"10\""))
        #expect(
            text.contains(
                """
                    <testcase name="malformed_quote" classname="t.csv" time="0">
                      <failure type="malformed_quote" message="t.csv:1: the header line breaks the quoting rules [malformed_quote] value: &quot;a&quot;b&quot;">t.csv:1: the header line breaks the quoting rules [malformed_quote] value: "a"b"
                hint: quote a header cell only as a whole
                file: t.csv
                line: 1
                code: malformed_quote
                value: "a"b"
                </failure>
                    </testcase>
                  </testsuite>
                </testsuites>
                """))
    }
}
