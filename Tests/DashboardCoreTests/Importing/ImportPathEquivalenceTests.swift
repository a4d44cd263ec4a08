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
/// both: only the direct writer reports the phase `tasks_by_course` (`Tracer`), and on SQLite
/// it drops and rebuilds that index, which moves the schema cookie (`PRAGMA schema_version`)
/// by 2; the staged path leaves it alone (`TwinStores`).
@Suite("Importer: the direct and the staged path give the same results")
struct ImportPathEquivalenceTests {
    /// 2026-11-29T08:00:00Z.
    static let asOf = ImporterFixture.asOf
    static let losAngeles = TimeZone(identifier: "America/Los_Angeles") ?? .current

    /// Merge options of the importer tests, with courses without a time zone read in Los Angeles.
    static func options(
        _ mode: ImportMode = .merge, maxDelete: DeleteLimit = .percent(10), strict: Bool = false, asOf: Date = asOf
    ) -> ImportOptions {
        var options = ImporterFixture.options(mode, maxDelete: maxDelete, strict: strict)
        options.asOf = asOf
        options.timeZone = losAngeles
        return options
    }

    // MARK: - (a) A clean first import

    /// Five courses in five time zones, one without a zone (the run's: Los Angeles).
    static let courses = """
        course_id,code,title,term,teacher,timezone
        C1,MATH,Algebra,2026 fall,Adams,America/New_York
        C2,BIO,Biology,2026 fall,Berg,Europe/Berlin
        C3,JPN,Japanese,2026 fall,Sato,Asia/Tokyo
        C4,ART,"Art, and design",,Cole,
        C5,HIST,History,2026 fall,Diaz,Australia/Lord_Howe
        """

    /// Dates, local times, instants, undated and completed tasks; ids out of order.
    static let tasks = """
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

    @Test("a clean first import is written directly and equals the staged one: its births counted per bucket, no entry per task")
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
}
