import Foundation
import Testing

@testable import DashboardCore

/// Rejected rows of every kind, runs that write no task, and `--strict`: both paths give the
/// same problems, the same failed batches and the same rows.
extension ImportPathEquivalenceTests {
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
        #expect(run.failure == "strict: 1 row(s) rejected, nothing was imported")
        #expect(run.result?.status == .failed)
        #expect(try twin.plain.store.database.int("SELECT count(*) FROM tasks") == 0)
        #expect(try twin.plain.store.database.int("SELECT count(*) FROM courses") == 0)
        // With a reused id the rejected row comes from the fallback.
        let repeated = try twin.importBoth(
            [("courses.csv", ImporterFixture.courses), ("tasks.csv", Self.repeatedTasks)], Self.options(strict: true))
        #expect(repeated.failure == "strict: 2 row(s) rejected, nothing was imported")
        #expect(try twin.plain.store.database.int("SELECT count(*) FROM batch_births") == 0, "a failed batch records no births")
        // Afterwards the database still has no task: the next run is written directly.
        try twin.expectDirect(
            try twin.importBoth([("courses.csv", ImporterFixture.courses), ("tasks.csv", Self.tasksA)], Self.options()), inserted: 3)
    }
}
