import Foundation
import Testing

@testable import DashboardCore

/// The same file named twice in one run (`dashboard import tasks.csv tasks.csv`): every row of
/// the second copy repeats the first copy's row of the same name and line. Staging tells rows
/// apart by their own number, not by file name and line, which the two copies share.
@Suite("Importer: a file named twice in one run")
struct ImportRepeatedFileTests {
    @Test("every row of the second copy is a duplicate_row naming its first line, on both paths", arguments: [false, true])
    func sameFileTwice(forceStaging: Bool) throws {
        let fixture = try ImporterFixture()
        // 300 rows: more than two staging statements of 128, so repeats are found within one
        // statement and across statements.
        let tasks = ImporterFixture.tasks(1...300)
        var options = ImporterFixture.options()
        options.forceStaging = forceStaging
        let result = try fixture.run(
            [("courses.csv", ImporterFixture.courses), ("tasks.csv", tasks), ("tasks.csv", tasks)], options)
        #expect(result.status == .committed)
        #expect(result.counts[.tasks]?.read == 600)
        #expect(result.counts[.tasks]?.inserted == 300)
        #expect(result.counts[.tasks]?.rejected == 0)
        #expect(result.counts[.tasks]?.warnings == 300)
        let repeats = result.problems.filter { $0.code == .duplicateRow }
        #expect(repeats.count == 300)
        #expect(repeats.first?.line == 2)
        #expect(repeats.first?.message == "this row repeats line 2 exactly and was imported once")
        #expect(repeats.last?.line == 301)
        #expect(repeats.last?.message == "this row repeats line 301 exactly and was imported once")
        #expect(try fixture.store.database.int("SELECT count(*) FROM tasks") == 300)
        // Each task was born once: it records its creating batch, the batch counts it once (no
        // entry or history row per task).
        #expect(try fixture.store.database.int("SELECT count(*) FROM tasks WHERE created_batch = 1") == 300)
        #expect(try fixture.store.database.rows("SELECT * FROM batch_births") == [[.integer(1), .text("upcoming"), .integer(300)]])
        #expect(try fixture.store.database.int("SELECT count(*) FROM audit") == 0)
        #expect(try fixture.store.database.int("SELECT count(*) FROM task_history") == 0)
    }
}
