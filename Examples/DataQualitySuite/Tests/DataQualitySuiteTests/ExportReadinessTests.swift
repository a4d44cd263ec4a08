import DashboardCore
import DataQualitySuite
import Foundation
import Testing

/// The suite's own tests, run on the exports beside them (`Exports/`), as a district's CI runs
/// them on every export before it is sent to a school.
@Suite struct ExportReadinessTests {
    /// The folder of the exports, found from this file's own path (no working directory).
    static let exports = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Exports")
    static func export(_ name: String) -> InputFile { .onDisk(exports.appendingPathComponent(name).path) }
    /// 2026-11-29T08:00:00Z: every result is as of this instant, whatever the day the suite runs.
    static let asOf = Date(timeIntervalSince1970: 1_795_939_200)

    @Test func aCleanExportIsReadyAndTheGridCountsItsTasksPerBucket() throws {
        let readiness = try ExportReadiness.check([Self.export("courses.csv"), Self.export("tasks.csv")], asOf: Self.asOf)
        #expect(readiness.problems == [])
        #expect(readiness.findings == [])
        #expect(readiness.isReady)
        let cards = Dictionary(uniqueKeysWithValues: readiness.grid.cards.map { ($0.course.courseID, $0.counts) })
        #expect(cards["bio-101"] == [.overdue: 1, .today: 1, .upcoming: 1])
        #expect(cards["his-220"] == [.undated: 1, .completed: 1])
    }

    @Test func theMessyExportIsNotReadyAndEveryProblemIsNamedWithItsLine() throws {
        let readiness = try ExportReadiness.check(
            [Self.export("messy-courses.csv"), Self.export("messy-tasks.csv")], asOf: Self.asOf)
        #expect(!readiness.isReady)
        #expect(
            readiness.problems.map(\.description) == [
                "\(Self.exports.path)/messy-courses.csv:1: warning unknown_column",
                "\(Self.exports.path)/messy-tasks.csv:58: error unknown_course",
                "\(Self.exports.path)/messy-tasks.csv:65: error invalid_date",
                "\(Self.exports.path)/messy-tasks.csv:70: warning blank_row",
                "\(Self.exports.path)/messy-tasks.csv:74: error ambiguous_date",
                "\(Self.exports.path)/messy-tasks.csv:82: error invalid_priority",
                "\(Self.exports.path)/messy-tasks.csv:89: error invalid_boolean",
                "\(Self.exports.path)/messy-tasks.csv:96: error implausible_date",
                "\(Self.exports.path)/messy-tasks.csv:101: error duplicate_id",
                "\(Self.exports.path)/messy-tasks.csv:104: warning duplicate_row",
            ])
    }

    @Test func theLibraryReadsAListOfOneCoursesOverdueTasksInDueOrder() throws {
        let database = try DashboardDatabase.temporary()
        var options = ImportOptions()
        options.asOf = Self.asOf
        let imported = try database.importFiles([Self.export("courses.csv"), Self.export("tasks.csv")], options: options)
        #expect(imported.status == .committed)
        #expect(imported.total.inserted == 7)
        var query = ReportQuery()
        query.courses = ["bio-101"]
        query.buckets = [.overdue, .today]
        let list = try database.report(.list, query: query, asOf: Self.asOf)
        #expect(list.groups.map(\.course.courseID) == ["bio-101"])
        #expect(list.groups.first?.sections.map(\.bucket) == [.overdue, .today])
        #expect(list.groups.first?.sections.flatMap(\.tasks).map(\.task.taskID) == ["t1", "t2"])
    }

    @Test func aFileTheDashboardCannotReadIsAFailureNamingItsCodeAndLine() throws {
        let database = try DashboardDatabase.temporary()
        do {
            _ = try database.check([.inMemory("notes.csv", "just,some,words\n1,2,3\n")])
            Issue.record("an unknown kind of file was accepted")
        } catch .fileProblem(let problem, _) {
            #expect(problem.code == .unknownFileKind)
            #expect(problem.file == "notes.csv")
            #expect(problem.line == 1)
        } catch {
            Issue.record("not a file problem: \(error)")
        }
    }
}
