import DashboardCore
import Foundation
import Testing

/// The library's promise (docs/library.md): a result of `DashboardDatabase` is the result of the
/// command with the same files and options, the database's recorded settings included.
@Suite struct DashboardDatabaseTests {
    /// 2026-12-01T23:30:00Z: already December 2 in Berlin (00:30), still December 1 in UTC.
    static let asOf = Date(timeIntervalSince1970: 1_796_167_800)
    static let courses = InputFile.inMemory("courses.csv", "course_id,title\nbio-101,Biology\n")
    static let tasks = InputFile.inMemory("tasks.csv", "task_id,course_id,title,due\nt1,bio-101,Lab report,2026-12-01\n")

    static func options(zone: String? = nil) throws -> ImportOptions {
        var options = ImportOptions()
        options.asOf = asOf
        if let zone { options.timeZone = try #require(TimeZone(identifier: zone)) }
        return options
    }

    static func buckets(_ database: DashboardDatabase) throws -> [String: Bucket] {
        let list = try database.report(.list, asOf: asOf)
        var buckets: [String: Bucket] = [:]
        for section in list.groups.flatMap(\.sections) {
            for task in section.tasks { buckets[task.task.taskID] = task.bucket }
        }
        return buckets
    }

    @Test func anImportWithoutAZoneBucketsCoursesWithoutOneInTheZoneTheDatabaseRecorded() throws {
        let database = try DashboardDatabase.temporary()
        // The first import records Berlin as the database's default zone (as --timezone does).
        #expect(try database.importFiles([Self.courses], options: Self.options(zone: "Europe/Berlin")).status == .committed)
        // The second names no zone (ImportOptions' UTC): the database's Berlin still decides.
        let imported = try database.importFiles([Self.tasks], options: Self.options())
        #expect(imported.status == .committed)
        #expect(try Self.buckets(database) == ["t1": .overdue])
        // The time pass, in the same zone, has nothing to move.
        let categorized = try database.categorize(asOf: Self.asOf)
        #expect(categorized.entries == 0)
        #expect(try Self.buckets(database) == ["t1": .overdue])
    }

    @Test func aDatabaseWithoutARecordedZoneTakesTheOptionsZone() throws {
        let database = try DashboardDatabase.temporary()
        #expect(try database.importFiles([Self.courses, Self.tasks], options: Self.options()).status == .committed)
        #expect(try Self.buckets(database) == ["t1": .today])
    }

    @Test func aReportAfterAFailedImportSaysSoAndShowsTheDataAsItWas() throws {
        let database = try DashboardDatabase.temporary()
        #expect(try database.importFiles([Self.courses, Self.tasks], options: Self.options()).status == .committed)
        let options = try Self.options()
        do {
            _ = try database.importFiles([.inMemory("notes.csv", "just,some,words\n1,2,3\n")], options: options)
            Issue.record("an unknown kind of file was imported")
        } catch .fileProblem(let problem, let batchID) {
            #expect(problem.code == .unknownFileKind)
            #expect(batchID == 2)
        } catch {
            Issue.record("not a file problem: \(error)")
        }
        let report = try database.report(.grid, asOf: Self.asOf.addingTimeInterval(3600))
        let stale = try #require(report.stale)
        #expect(stale.failedBatch == 2)
        #expect(stale.failureReason.contains("unknown_file_kind"))
        #expect(stale.dataAsOf == "2026-12-01T23:30:00Z")
        #expect(stale.ageHours == 1)
        #expect(report.cards.map(\.course.courseID) == ["bio-101"])
        #expect(report.cards.first?.counts == [.overdue: 1])
    }

    /// Issue 31 through the public API alone: states, hand-in times and lateness as a
    /// data-quality suite reads them, and the `statuses` and `late` filters of a query.
    @Test func statesHandInTimesAndLatenessAreValuesOfThePublicAPI() throws {
        let database = try DashboardDatabase.temporary()
        let courses = InputFile.inMemory("courses.csv", "course_id,title,timezone\nbio-101,Biology,Europe/Berlin\n")
        let tasks = InputFile.inMemory(
            "tasks.csv",
            """
            task_id,course_id,title,due,status,submitted_at
            t1,bio-101,Lab report,2026-11-20,handed in,2026-11-21T00:30
            t2,bio-101,Lab report,2026-11-20T18:00,TURNED_IN,2026-11-20T16:59:00Z
            t3,bio-101,Lab report,2026-11-20,exempt,
            t4,bio-101,Lab report,2026-11-20,graded,2026-11-22

            """)
        #expect(try database.importFiles([courses, tasks], options: Self.options()).status == .committed)
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        var query = ReportQuery()
        query.includeCompleted = true
        let list = try database.report(.list, query: query, asOf: Self.asOf)
        var found: [String: (bucket: Bucket, state: SubmissionState, submittedAt: String, late: Bool)] = [:]
        for task in list.groups.flatMap(\.sections).flatMap(\.tasks) {
            found[task.task.taskID] = (task.bucket, task.task.state, task.task.submittedAt, task.task.handedInLate(in: berlin))
        }
        // t1 after midnight in Berlin: a day late; t2 at 17:59 in Berlin, before its 18:00 due.
        #expect(try #require(found["t1"]) == (.toGrade, .submitted, "2026-11-21T00:30:00", true))
        #expect(try #require(found["t2"]) == (.toGrade, .submitted, "2026-11-20T16:59:00Z", false))
        #expect(try #require(found["t3"]) == (.excused, .excused, "", false))
        #expect(try #require(found["t4"]) == (.completed, .completed, "2026-11-22", true))
        query.statuses = [.submitted]
        query.late = true
        let late = try database.report(.list, query: query, asOf: Self.asOf)
        #expect(late.groups.flatMap(\.sections).flatMap(\.tasks).map(\.task.taskID) == ["t1"])
        #expect(late.matchingTasks == 1)
    }
}
