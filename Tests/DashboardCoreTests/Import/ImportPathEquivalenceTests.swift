import Foundation
import Testing

@testable import DashboardCore

/// The two ways tasks reach the database — written directly into a database without tasks
/// (`DirectTaskWriter`), or through the staging tables (`ImportOptions.forceStaging`) — must
/// not be told apart by anything a user can see: the same result and, table by table, the
/// same rows.
///
/// Every test feeds the same runs to two fresh databases on the same fixed clock and as-of and
/// compares after each run. Which path ran is checked too, so that no test passes by staging
/// both: the direct path drops and rebuilds `tasks_by_course`, which moves the schema cookie
/// (`PRAGMA schema_version`) by 2; the staged path leaves it alone.
@Suite("Importer: the direct and the staged path give the same results")
struct ImportPathEquivalenceTests {
    /// 2026-11-29T08:00:00Z.
    private static let asOf = ImporterFixture.asOf
    private static let losAngeles = TimeZone(identifier: "America/Los_Angeles") ?? .current

    /// Merge options of the importer tests, with courses without a time zone read in Los Angeles.
    private static func options(
        _ mode: ImportMode = .merge, maxDelete: DeleteLimit = .percent(10), strict: Bool = false, asOf: Date = asOf
    ) -> ImportOptions {
        var options = ImporterFixture.options(mode, maxDelete: maxDelete, strict: strict)
        options.asOf = asOf
        options.timeZone = losAngeles
        return options
    }

    // MARK: - (a) A clean first import

    /// Five courses in five time zones, one without a zone (the run's: Los Angeles).
    private static let courses = """
        course_id,code,title,term,teacher,timezone
        C1,MATH,Algebra,2026 fall,Adams,America/New_York
        C2,BIO,Biology,2026 fall,Berg,Europe/Berlin
        C3,JPN,Japanese,2026 fall,Sato,Asia/Tokyo
        C4,ART,"Art, and design",,Cole,
        C5,HIST,History,2026 fall,Diaz,Australia/Lord_Howe
        """

    /// Dates, local times, instants, undated and completed tasks; ids out of order.
    private static let tasks = """
        task_id,course_id,title,student_id,due,priority,completed
        T10,C3,Listening,s3,,,
        T01,C1,Worksheet 1,s1,2026-11-28,high,no
        T02,C1,Worksheet 2,s2,2026-11-29,normal,no
        T03,C1,Essay,s1,2026-11-29T02:30,low,no
        T04,C1,Essay draft,s3,2026-11-29T23:59:59,,
        T05,C2,Lab report,s1,2026-11-29T08:30:00Z,hi,
        T06,C2,Lab notes,s2,2026-11-29T10:00+01:00,urgent,0
        T07,C2,Quiz,s3,2026-11-30 08:00,med,n
        T08,C3,Kanji,s1,2026-11-29,normal,no
        T09,C3,Reading,s2,2026-11-30T00:00+09:00,,
        T11,C4,Sketch,s1,2026-11-28T23:00,,
        T12,C4,Portfolio,s2,2026-11-29T00:00:01,,
        T13,C4,Gallery visit,s3,,,yes
        T14,C5,Timeline,s1,2026-11-29T19:00,,
        T15,C5,Source analysis,s2,2026-12-24,lo,✓
        T16,C1,"Quoted, title with ""quotes"" inside",s4,2026-12-01,HIGH,x
        T17,C2,"Multi
        line   title",s5,2027-01-15,Low,false
        T18,C5,  Spaces around  ,s6, 2026-11-29 , normal, done
        t19,C3,Undated and done,,,,y
        Ω20,C4,Unicode id,s7,2026-12-02,,
        """

    @Test("a clean first import is written directly and equals the staged one, one import entry per task")
    func cleanFirstImport() throws {
        let twin = try TwinStores()
        let run = try twin.importBoth([("courses.csv", Self.courses), ("tasks.csv", Self.tasks)], Self.options())
        try twin.expectDirect(run, inserted: 20)
        #expect(run.result?.problems == [])
        #expect(run.result?.counts[.courses] == ImportCounts(read: 5, inserted: 5))
        // Every bucket occurs, so the buckets computed while reading are really compared.
        #expect(
            try twin.plain.store.database.rows("SELECT bucket, count(*) FROM tasks GROUP BY bucket ORDER BY bucket") == [
                [.text("completed"), .integer(5)], [.text("overdue"), .integer(3)], [.text("today"), .integer(7)],
                [.text("undated"), .integer(1)], [.text("upcoming"), .integer(4)],
            ])
    }

    // MARK: - (h) Later runs on top of a direct first import

    @Test("after a direct first import, a changed sync, a categorize, an override and reverts leave equal databases")
    func laterRunsStayEqual() throws {
        let twin = try TwinStores()
        try twin.expectDirect(
            try twin.importBoth([("courses.csv", Self.courses), ("tasks.csv", Self.tasks)], Self.options()), inserted: 20)
        try twin.reclassifyBoth("T07", to: .overdue)
        // A day later: C3 moves to UTC, T02 renamed, T04 re-dated, T08 completed, T07 (pinned)
        // re-dated, T05 gone (deleted), T21 new; one row rejected.
        let changedCourses = Self.courses.replacingOccurrences(
            of: "Japanese,2026 fall,Sato,Asia/Tokyo", with: "Japanese,2026 fall,Sato,UTC")
        let changedTasks =
            Self.tasks
            .replacingOccurrences(of: "T02,C1,Worksheet 2,", with: "T02,C1,Worksheet two,")
            .replacingOccurrences(of: "T04,C1,Essay draft,s3,2026-11-29T23:59:59", with: "T04,C1,Essay draft,s3,2026-12-03")
            .replacingOccurrences(of: "T08,C3,Kanji,s1,2026-11-29,normal,no", with: "T08,C3,Kanji,s1,2026-11-29,normal,yes")
            .replacingOccurrences(of: "T07,C2,Quiz,s3,2026-11-30 08:00", with: "T07,C2,Quiz,s3,2026-12-30 08:00")
            .replacingOccurrences(of: "T05,C2,Lab report,s1,2026-11-29T08:30:00Z,hi,\n", with: "")
            + "\nT21,C2,New task,s8,2026-11-30,,\nT22,C2,Bad,s8,2026-02-30,,\n"
        let later = Self.asOf.addingTimeInterval(86_400)
        let second = try twin.importBoth(
            [("courses.csv", changedCourses), ("tasks.csv", changedTasks)], Self.options(.sync, maxDelete: .percent(100), asOf: later))
        twin.expectStaged(second)
        #expect(second.result?.counts[.tasks] == ImportCounts(read: 21, inserted: 1, updated: 4, unchanged: 15, deleted: 1, rejected: 1))
        #expect(second.result?.categorized?.conflicts == 1)
        try twin.categorizeBoth(at: later.addingTimeInterval(86_400))
        try twin.revertBoth(batch: 2)
        try twin.revertBoth(batch: 1)
        // The same files again restore every tombstone.
        let again = try twin.importBoth([("courses.csv", Self.courses), ("tasks.csv", Self.tasks)], Self.options())
        twin.expectStaged(again)
        #expect(again.result?.counts[.tasks]?.inserted == 20)
    }

    // MARK: - (b) Rejected rows of every kind

    private static let messyCourses = """
        course_id,code,title,timezone,room
        C1,MATH,Algebra,America/New_York,101
        C2,BIO,Biology,Mars/Olympus,102
        C3,,Chemistry,,103
        ,X,No id,,104
        """

    private static let messyTasks = """
        task_id,course_id,title,due,priority,completed
        T1,C1,Valid one,2026-11-30,high,no
        T2,C1,Bad date,2026-13-45,,
        T3,C1,Ambiguous,11/29/2026,,
        T4,C1,Implausible,1850-01-01,,
        T5,C9,Unknown course,2026-12-01,,
        T6,C2,Course row rejected,2026-12-01,,
        T7,C1,Too few fields
        T8,C1,Too many,2026-12-01,high,no,extra
        T9,C1,say "hi" there,,,
        T10,C1,"closed"text,,,


        T11,C3,Valid after blanks,,low,yes
        T12,C1,Bad priority,,extreme,
        T13,C1,Bad boolean,,,maybe
        T14,C1,,2026-12-01,,
        ,C1,No id,,,
        T15,C1,\(String(repeating: "x", count: 5000)),,,

        T16,C3,Valid last,2026-11-29T09:00Z,,

        """

    @Test("rejected rows of every kind among valid ones: written directly, the same problems and rows as staged")
    func rejectedRows() throws {
        let twin = try TwinStores()
        let run = try twin.importBoth([("courses.csv", Self.messyCourses), ("tasks.csv", Self.messyTasks)], Self.options())
        try twin.expectDirect(run, inserted: 3)
        let codes = Set(run.result?.problems.map(\.code) ?? [])
        #expect(
            codes == [
                .unknownColumn, .invalidTimezone, .missingValue, .invalidDate, .ambiguousDate, .implausibleDate, .unknownCourse,
                .wrongFieldCount, .malformedQuote, .blankRow, .invalidPriority, .invalidBoolean, .valueTooLong,
            ])
        #expect(run.result?.counts[.tasks] == ImportCounts(read: 17, inserted: 3, rejected: 14, warnings: 2))
        let second = try twin.importBoth(
            [("tasks.csv", Self.messyTasks.replacingOccurrences(of: "Valid one", with: "Valid 1"))], Self.options())
        twin.expectStaged(second)
        try twin.revertBoth(batch: 2)
        try twin.revertBoth(batch: 1)
    }

    // MARK: - (c) Repeated ids: the direct path falls back to staging

    private static let repeatedTasks = """
        task_id,course_id,title,due
        T1,C1,One,2026-11-30
        T2,C1,Two,2026-12-01
        T3,C9,Unknown,2026-12-01

        T1,C1,One,2026-11-30
        T4,C2,Four,
        T2,C1,Two changed,2026-12-01
        T5,C2,Five,2026-11-28
        """

    @Test("an exact repeat and a reused id fall back to staging; the problems name the first row's line")
    func repeatedIDsFallBack() throws {
        let twin = try TwinStores()
        let run = try twin.importBoth([("courses.csv", ImporterFixture.courses), ("tasks.csv", Self.repeatedTasks)], Self.options())
        twin.expectStaged(run)
        #expect(
            run.result?.problems.map { "\($0.line) \($0.code.rawValue) \($0.message)" } == [
                "4 unknown_course course \"C9\" is not in the database or in this import",
                "5 blank_row line 5 is blank and was skipped",
                "6 duplicate_row this row repeats line 2 exactly and was imported once",
                "8 duplicate_id task_id \"T2\" was already used on line 3 with different values; the first row was kept",
            ])
        #expect(run.result?.counts[.tasks] == ImportCounts(read: 7, inserted: 4, rejected: 2, warnings: 2))
        #expect(run.result?.categorized?.byCause == [.import: 4])
        try twin.expectImportEntries(run, count: 4)
        let second = try twin.importBoth(
            [("tasks.csv", "task_id,course_id,title,due\nT1,C1,One,2026-12-30\nT6,C1,Six,\n")],
            Self.options(.sync, maxDelete: .percent(100)))
        twin.expectStaged(second)
        try twin.revertBoth(batch: 2)
        try twin.revertBoth(batch: 1)
    }

    @Test("a repeat early in a long file stops the reading thread and reads the file again through staging")
    func repeatEarlyInLongFile() throws {
        let twin = try TwinStores()
        let rows = (1...20_000).map { "T\($0),C\($0 % 2 + 1),Task \($0),2026-11-\(String(format: "%02d", $0 % 30 + 1))" }
        let tasks =
            "task_id,course_id,title,due\n" + rows[0..<3].joined(separator: "\n") + "\n" + rows[1] + "\n"
            + rows[3...].joined(separator: "\n") + "\n"
        let run = try twin.importBoth([("courses.csv", ImporterFixture.courses), ("tasks.csv", tasks)], Self.options())
        twin.expectStaged(run)
        #expect(run.result?.problems.map { "\($0.line) \($0.code.rawValue)" } == ["5 duplicate_row"])
        #expect(run.result?.problems.first?.message == "this row repeats line 3 exactly and was imported once")
        #expect(run.result?.counts[.tasks] == ImportCounts(read: 20_001, inserted: 20_000, warnings: 1))
    }

    // MARK: - (d) Two task files in one run

    private static let tasksA = """
        task_id,course_id,title,due,priority
        T1,C1,One,2026-11-28,high
        T2,C1,Two,2026-11-29T23:00,normal
        T3,C2,Three,,normal
        """

    /// Another layout (aliases, other order) for the same columns.
    private static let tasksB = """
        Title;Due Date;Course ID;Task-ID;done
        Four;2026-12-01;C2;T4;yes
        Five;2026-11-29T07:59:59Z;C1;T5;no
        """

    @Test("two task files without a repeat are written directly, in file order")
    func twoTaskFiles() throws {
        let twin = try TwinStores()
        let run = try twin.importBoth(
            [("tasks-b.csv", Self.tasksB), ("courses.csv", ImporterFixture.courses), ("tasks-a.csv", Self.tasksA)], Self.options())
        try twin.expectDirect(run, inserted: 5)
        #expect(run.result?.files.map(\.path) == ["courses.csv", "tasks-b.csv", "tasks-a.csv"])
        let second = try twin.importBoth(
            [("tasks-a.csv", Self.tasksA.replacingOccurrences(of: ",,normal", with: ",2026-12-09,normal"))], Self.options())
        twin.expectStaged(second)
        try twin.revertBoth(batch: 2)
        try twin.revertBoth(batch: 1)
    }

    @Test("a repeat across two task files falls back to staging and names the other file's line")
    func repeatAcrossFiles() throws {
        let twin = try TwinStores()
        let tasksB = Self.tasksB + "\nTwo;2026-11-29T23:00;C1;T2;no\nThree again;;C2;T3;no\n"
        let run = try twin.importBoth(
            [("courses.csv", ImporterFixture.courses), ("tasks-a.csv", Self.tasksA), ("tasks-b.csv", tasksB)], Self.options())
        twin.expectStaged(run)
        #expect(
            run.result?.problems.map { "\($0.file):\($0.line) \($0.code.rawValue) \($0.message)" } == [
                "tasks-b.csv:4 duplicate_row this row repeats tasks-a.csv line 3 exactly and was imported once",
                "tasks-b.csv:5 duplicate_id task_id \"T3\" was already used on tasks-a.csv line 4 with different values; the first row was kept",
            ])
        #expect(run.result?.counts[.tasks] == ImportCounts(read: 7, inserted: 5, rejected: 1, warnings: 1))
        try twin.expectImportEntries(run, count: 5)
        let second = try twin.importBoth([("tasks-b.csv", Self.tasksB)], Self.options(.sync, maxDelete: .percent(100)))
        twin.expectStaged(second)
        try twin.revertBoth(batch: 2)
        try twin.revertBoth(batch: 1)
    }

    // MARK: - (e) Tasks only, into a database with courses

    @Test("tasks alone into a database that has courses but no task are written directly")
    func tasksOnlyAfterCourses() throws {
        let twin = try TwinStores()
        twin.expectStaged(try twin.importBoth([("courses.csv", Self.courses)], Self.options()))
        let run = try twin.importBoth([("tasks.csv", Self.tasks)], Self.options())
        try twin.expectDirect(run, inserted: 20)
        #expect(run.result?.counts[.courses] == nil)
        let second = try twin.importBoth([("tasks.csv", Self.tasksA.replacingOccurrences(of: ",C2,", with: ",C4,"))], Self.options())
        twin.expectStaged(second)
        try twin.revertBoth(batch: 3)
        try twin.revertBoth(batch: 2)
        try twin.revertBoth(batch: 1)
    }

    // MARK: - (f) Sync into a database with courses and no task

    private static let fourCourses = """
        course_id,code,title,timezone
        C1,MATH,Algebra,America/New_York
        C2,BIO,Biology,Europe/Berlin
        C3,CHEM,Chemistry,
        C4,PHYS,Physics,Asia/Tokyo
        """

    /// C4 is gone, C1 renamed; tasks of C1, C2 and C4 (now unknown).
    private static let syncTasks = """
        task_id,course_id,title,due
        T1,C1,One,2026-11-28
        T2,C2,Two,2026-11-29T09:30
        T3,C4,Gone course,2026-12-01
        T4,C3,Four,
        """

    @Test("a sync deleting one course of four within --max-delete is written directly")
    func syncDeletesACourse() throws {
        let twin = try TwinStores()
        twin.expectStaged(try twin.importBoth([("courses.csv", Self.fourCourses)], Self.options()))
        let courses = Self.fourCourses.replacingOccurrences(of: "C4,PHYS,Physics,Asia/Tokyo", with: "C5,GEO,Geography,Europe/Oslo")
            .replacingOccurrences(of: "C1,MATH,Algebra", with: "C1,MATH,Algebra I")
        let run = try twin.importBoth(
            [("courses.csv", courses), ("tasks.csv", Self.syncTasks)], Self.options(.sync, maxDelete: .percent(100)))
        try twin.expectDirect(run, inserted: 3)
        #expect(run.result?.counts[.courses] == ImportCounts(read: 4, inserted: 1, updated: 1, unchanged: 2, deleted: 1))
        #expect(run.result?.rejects.map(\.code) == [.unknownCourse])
        try twin.revertBoth(batch: 2)
        try twin.revertBoth(batch: 1)
    }

    @Test("a sync deleting exactly as many courses as --max-delete allows is committed on both paths")
    func syncAtTheLimit() throws {
        let twin = try TwinStores()
        twin.expectStaged(try twin.importBoth([("courses.csv", Self.fourCourses)], Self.options()))
        let courses = Self.fourCourses.replacingOccurrences(of: "\nC4,PHYS,Physics,Asia/Tokyo", with: "")
        // 1 of 4 is 25%: within the limit, counted against the courses before the run.
        let run = try twin.importBoth(
            [("courses.csv", courses), ("tasks.csv", Self.syncTasks)], Self.options(.sync, maxDelete: .percent(25)))
        #expect(run.result?.status == .committed)
        #expect(run.failure == nil)
        #expect(run.result?.counts[.courses]?.deleted == 1)
    }

    @Test("a sync the delete guard holds is held on both paths, and approving it gives the same data")
    func syncHeldThenApproved() throws {
        let twin = try TwinStores()
        twin.expectStaged(try twin.importBoth([("courses.csv", Self.fourCourses)], Self.options()))
        let courses = Self.fourCourses.replacingOccurrences(of: "\nC4,PHYS,Physics,Asia/Tokyo", with: "")
        let run = try twin.importBoth(
            [("courses.csv", courses), ("tasks.csv", Self.syncTasks)], Self.options(.sync, maxDelete: .percent(10)))
        twin.expectStaged(run)
        #expect(run.result?.status == .held)
        try twin.approveBoth(batch: 2)
    }

    @Test("a run that restores a deleted course and adds its tasks is written directly")
    func restoredCourse() throws {
        let twin = try TwinStores()
        twin.expectStaged(try twin.importBoth([("courses.csv", Self.fourCourses)], Self.options()))
        let withoutC4 = Self.fourCourses.replacingOccurrences(of: "\nC4,PHYS,Physics,Asia/Tokyo", with: "")
        twin.expectStaged(try twin.importBoth([("courses.csv", withoutC4)], Self.options(.sync, maxDelete: .percent(100))))
        let run = try twin.importBoth([("courses.csv", Self.fourCourses), ("tasks.csv", Self.syncTasks)], Self.options())
        try twin.expectDirect(run, inserted: 4)
        #expect(run.result?.counts[.courses] == ImportCounts(read: 4, inserted: 1, unchanged: 3))
        try twin.revertBoth(batch: 3)
    }

    // MARK: - Runs that write no task

    @Test("a first import whose every task row is rejected is written directly and inserts nothing")
    func everyTaskRejected() throws {
        let twin = try TwinStores()
        let tasks = "task_id,course_id,title,due\nT1,C9,Nowhere,\nT2,C1,Bad,2026-02-30\n"
        let run = try twin.importBoth([("courses.csv", ImporterFixture.courses), ("tasks.csv", tasks)], Self.options())
        try twin.expectDirect(run, inserted: 0)
        #expect(run.result?.counts[.tasks] == ImportCounts(read: 2, rejected: 2))
        #expect(run.result?.counts[.courses] == ImportCounts(read: 2, inserted: 2))
    }

    @Test("a task file that breaks half-way (unterminated quote) fails the same way and records the same failed batch")
    func taskFileBreaks() throws {
        let twin = try TwinStores()
        let broken = Self.tasksA + "\nT9,C1,\"never closed,2026-12-01,high\n"
        let run = try twin.importBoth(
            [("courses.csv", ImporterFixture.courses), ("tasks-1.csv", Self.tasksB), ("tasks-2.csv", broken)], Self.options())
        #expect(run.result == nil)
        #expect(run.failure?.contains("unterminated_quote") == true)
        #expect(try twin.plain.store.database.int("SELECT count(*) FROM courses") == 0)
    }

    // MARK: - (g) --strict

    @Test("--strict with a rejected row commits nothing on either path and records the same failed batch")
    func strictRejects() throws {
        let twin = try TwinStores()
        let tasks = Self.tasksA + "\nT9,C1,Bad,2026-02-30,\n"
        let run = try twin.importBoth([("courses.csv", ImporterFixture.courses), ("tasks.csv", tasks)], Self.options(strict: true))
        #expect(run.failure == "--strict: 1 row(s) rejected, nothing was imported")
        #expect(run.result?.status == .failed)
        #expect(try twin.plain.store.database.int("SELECT count(*) FROM tasks") == 0)
        #expect(try twin.plain.store.database.int("SELECT count(*) FROM courses") == 0)
        // With a reused id the rejected row comes from the fallback.
        let repeated = try twin.importBoth(
            [("courses.csv", ImporterFixture.courses), ("tasks.csv", Self.repeatedTasks)], Self.options(strict: true))
        #expect(repeated.failure == "--strict: 2 row(s) rejected, nothing was imported")
        // Afterwards the database still has no task: the next run is written directly.
        try twin.expectDirect(
            try twin.importBoth([("courses.csv", ImporterFixture.courses), ("tasks.csv", Self.tasksA)], Self.options()), inserted: 3)
    }
}

// MARK: - Two databases, one per path

/// Two fresh databases fed the same runs: `plain` with the options as given, `staged` with
/// `forceStaging`. After every run both outcomes and every table of both databases must be equal.
private final class TwinStores {
    let plain: AuditFixture
    let staged: AuditFixture

    init() throws {
        plain = try AuditFixture()
        staged = try AuditFixture()
    }

    /// What one import did on the default path.
    struct Run {
        /// The result, also for a `--strict` failure; nil for other failures.
        var result: ImportResult?
        var failure: String?
        /// How far the run moved the default database's schema cookie.
        var schemaChanges: Int
    }

    /// Imports `files` into both databases and expects the same outcome and the same rows.
    @discardableResult
    func importBoth(_ files: [(String, String)], _ options: ImportOptions, sourceLocation: SourceLocation = #_sourceLocation) throws -> Run
    {
        var forced = options
        forced.forceStaging = true
        let cookies = (try schemaVersion(plain), try schemaVersion(staged))
        let a = outcome { () throws(ImportFailure) in try plain.base.run(files, options) }
        let b = outcome { () throws(ImportFailure) in try staged.base.run(files, forced) }
        #expect(a.failure == b.failure, "failure", sourceLocation: sourceLocation)
        switch (a.result, b.result) {
        case (let x?, let y?): expectSameResult(x, y, sourceLocation: sourceLocation)
        case (nil, nil): break
        default: Issue.record("only one path has a result: default \(a), staged \(b)", sourceLocation: sourceLocation)
        }
        #expect(try schemaVersion(staged) == cookies.1, "a staged run never changes the schema", sourceLocation: sourceLocation)
        try expectSameDatabases(sourceLocation: sourceLocation)
        return Run(result: a.result, failure: a.failure, schemaChanges: try schemaVersion(plain) - cookies.0)
    }

    /// Reverts one batch in both databases (`revert --batch`) and expects the same outcome.
    func revertBoth(batch: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        func revert(_ f: AuditFixture) -> (batchID: Int?, counts: [FileKind: ImportCounts], entries: [AuditEntry], error: String?) {
            do {
                let r = try f.revert(batch: batch)
                return (r.batchID, r.counts, r.entries, nil)
            } catch {
                return (nil, [:], [], "\(error)")
            }
        }
        let a = revert(plain)
        let b = revert(staged)
        #expect(a.error == nil, "revert of batch \(batch)", sourceLocation: sourceLocation)
        #expect(a.error == b.error, sourceLocation: sourceLocation)
        #expect(a.batchID == b.batchID, sourceLocation: sourceLocation)
        #expect(a.counts == b.counts, sourceLocation: sourceLocation)
        expectSameSequence(a.entries, b.entries, "revert entries", sourceLocation: sourceLocation)
        try expectSameDatabases(sourceLocation: sourceLocation)
    }

    /// Approves a held batch in both databases and expects the same outcome.
    func approveBoth(batch: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let asOf = ImporterFixture.asOf.addingTimeInterval(3600)
        let a = outcome { () throws(ImportFailure) in try plain.base.importer.approve(batchID: batch, asOf: asOf, actor: "alice") }
        let b = outcome { () throws(ImportFailure) in try staged.base.importer.approve(batchID: batch, asOf: asOf, actor: "alice") }
        #expect(a.failure == nil, sourceLocation: sourceLocation)
        #expect(a.failure == b.failure, sourceLocation: sourceLocation)
        if let x = a.result, let y = b.result { expectSameResult(x, y, sourceLocation: sourceLocation) }
        try expectSameDatabases(sourceLocation: sourceLocation)
    }

    /// Pins a task in both databases.
    func reclassifyBoth(_ task: String, to bucket: Bucket, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try plain.reclassify(task, to: bucket) == staged.reclassify(task, to: bucket), sourceLocation: sourceLocation)
        try expectSameDatabases(sourceLocation: sourceLocation)
    }

    /// `dashboard categorize` in both databases.
    func categorizeBoth(at instant: Date, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let a = try plain.categorize(at: instant)
        #expect(a.entries > 0, "the pass should move some task", sourceLocation: sourceLocation)
        #expect(a == (try staged.categorize(at: instant)), sourceLocation: sourceLocation)
        try expectSameDatabases(sourceLocation: sourceLocation)
    }

    // MARK: Which path ran

    /// The run wrote its tasks directly: the index was rebuilt, and it is there.
    func expectDirect(_ run: Run, inserted: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(run.failure == nil, sourceLocation: sourceLocation)
        #expect(run.result?.status == .committed, sourceLocation: sourceLocation)
        #expect(run.schemaChanges == 2, "tasks_by_course dropped and built again", sourceLocation: sourceLocation)
        #expect(
            try plain.store.database.int("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'tasks_by_course'") == 1,
            sourceLocation: sourceLocation)
        #expect(run.result?.counts[.tasks]?.inserted == inserted, sourceLocation: sourceLocation)
        #expect(run.result?.categorized?.byCause[.import] ?? 0 == inserted, sourceLocation: sourceLocation)
        #expect(run.result?.categorized?.tasks == inserted, sourceLocation: sourceLocation)
        try expectImportEntries(run, count: inserted, sourceLocation: sourceLocation)
    }

    /// The run went through the staging tables on the default path too.
    func expectStaged(_ run: Run, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.schemaChanges == 0, "no index was dropped", sourceLocation: sourceLocation)
    }

    /// The batch has one `import` entry per task, from no bucket to the task's bucket.
    func expectImportEntries(_ run: Run, count: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let batchID = try #require(run.result?.batchID, sourceLocation: sourceLocation)
        #expect(
            try plain.store.database.rows(
                """
                SELECT count(*), count(DISTINCT a.task_id), sum(a.from_bucket = '' AND a.to_bucket = t.bucket)
                FROM audit a JOIN tasks t ON t.task_id = a.task_id WHERE a.batch_id = ? AND a.cause = 'import'
                """, [batchID]) == [[.integer(Int64(count)), .integer(Int64(count)), count == 0 ? .null : .integer(Int64(count))]],
            sourceLocation: sourceLocation)
    }

    // MARK: Comparing

    private func schemaVersion(_ f: AuditFixture) throws -> Int {
        try f.store.database.int("PRAGMA schema_version")
    }

    private struct Outcome: CustomStringConvertible {
        var result: ImportResult?
        var failure: String?
        var description: String { failure ?? "\(result?.status.rawValue ?? "no result")" }
    }

    private func outcome(_ body: () throws(ImportFailure) -> ImportResult) -> Outcome {
        do {
            return Outcome(result: try body(), failure: nil)
        } catch {
            if case .strictRejected(let result) = error { return Outcome(result: result, failure: error.description) }
            return Outcome(result: nil, failure: error.description)
        }
    }

    private func expectSameResult(_ a: ImportResult, _ b: ImportResult, sourceLocation: SourceLocation) {
        #expect(a.batchID == b.batchID, "batchID", sourceLocation: sourceLocation)
        #expect(a.status == b.status, "status", sourceLocation: sourceLocation)
        #expect(a.mode == b.mode, "mode", sourceLocation: sourceLocation)
        #expect(a.asOf == b.asOf, "asOf", sourceLocation: sourceLocation)
        #expect(a.counts == b.counts, "counts", sourceLocation: sourceLocation)
        #expect(a.files == b.files, "files", sourceLocation: sourceLocation)
        expectSameSequence(a.problems, b.problems, "problems", sourceLocation: sourceLocation)
        #expect(a.reason == b.reason, "reason", sourceLocation: sourceLocation)
        #expect(a.categorized == b.categorized, "categorized", sourceLocation: sourceLocation)
    }

    /// Every table of the main schema (sqlite_sequence included), whole rows, and the schema
    /// itself (without root pages, which depend on the order of writes).
    private func expectSameDatabases(sourceLocation: SourceLocation) throws {
        let a = plain.store.database
        let b = staged.store.database
        let schema = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
        expectSameSequence(try a.rows(schema), try b.rows(schema), "sqlite_master", sourceLocation: sourceLocation)
        for db in [a, b] {
            #expect(try db.rows("PRAGMA integrity_check") == [[.text("ok")]], sourceLocation: sourceLocation)
            #expect(try db.rows("PRAGMA foreign_key_check") == [], sourceLocation: sourceLocation)
        }
        let tables = try a.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap { $0.first?.text }
        for table in tables {
            let columns = try a.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [table]).compactMap { $0.first?.text }
            let sql = "SELECT * FROM \"\(table)\" ORDER BY " + columns.indices.map { String($0 + 1) }.joined(separator: ", ")
            let rowsA = try a.rows(sql)
            let rowsB = try b.rows(sql)
            guard rowsA != rowsB else { continue }
            let index = Self.firstDifference(rowsA, rowsB)
            var detail = "table \(table): \(rowsA.count) rows by default, \(rowsB.count) staged; first difference at row \(index + 1)"
            if index < rowsA.count, index < rowsB.count {
                let differing = columns.indices.filter { rowsA[index][$0] != rowsB[index][$0] }.map {
                    "\(columns[$0]): default \(Self.text(rowsA[index][$0])) vs staged \(Self.text(rowsB[index][$0]))"
                }
                detail += " (\(Self.text(rowsA[index]))): " + differing.joined(separator: "; ")
            } else {
                let extra = index < rowsA.count ? rowsA[index] : rowsB[index]
                detail += ", only in \(index < rowsA.count ? "default" : "staged"): \(Self.text(extra))"
            }
            Issue.record(Comment(rawValue: detail), sourceLocation: sourceLocation)
        }
    }

    private func expectSameSequence<T: Equatable>(_ a: [T], _ b: [T], _ what: String, sourceLocation: SourceLocation) {
        guard a != b else { return }
        let index = Self.firstDifference(a, b)
        let first = index < a.count ? "\(a[index])" : "nothing"
        let second = index < b.count ? "\(b[index])" : "nothing"
        Issue.record(
            "\(what): \(a.count) by default, \(b.count) staged; #\(index + 1) differs: default \(first) vs staged \(second)",
            sourceLocation: sourceLocation)
    }

    /// The index of the first element that differs, or the length of the shorter sequence.
    private static func firstDifference<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
        let common = min(a.count, b.count)
        return (0..<common).first { a[$0] != b[$0] } ?? common
    }

    private static func text(_ value: SQLValue) -> String {
        switch value {
        case .null: return "NULL"
        case .text(let s): return "'\(s)'"
        default: return value.text ?? "NULL"
        }
    }

    private static func text(_ row: [SQLValue]) -> String { row.map { text($0) }.joined(separator: "|") }
}
