import Foundation
import Testing

@testable import DashboardCore

/// Repeated ids (the direct path falls back to staging) and two task files in one run.
extension ImportPathEquivalenceTests {
    // MARK: - (c) Repeated ids: the direct path falls back to staging

    static let repeatedTasks = """
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
        #expect(run.result?.categorized == CategorizeResult(tasks: 4))
        try twin.expectBirths(run, count: 4)
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

    static let tasksA = """
        task_id,course_id,title,due,priority
        T1,C1,One,2026-11-28,high
        T2,C1,Two,2026-11-29T23:00,normal
        T3,C2,Three,,normal
        """

    /// Another layout (aliases, other order) for the same columns.
    static let tasksB = """
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
        try twin.expectBirths(run, count: 5)
        let second = try twin.importBoth([("tasks-b.csv", Self.tasksB)], Self.options(.sync, maxDelete: .percent(100)))
        twin.expectStaged(second)
        try twin.revertBoth(batch: 2)
        try twin.revertBoth(batch: 1)
    }
}
