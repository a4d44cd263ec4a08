import Foundation
import Testing

@testable import DashboardCore

/// `ReportSource.facts` decides above the boundary which batches a report speaks of: the data
/// is the newest committed or reverted batch's, and the last import is the newest batch that
/// ran (not a dry run, a held batch, or an approval or discard of one). The store is only asked
/// for the newest batch of some statuses (`BatchReading.newestBatch`).
@Suite("Store boundary: report facts from the batch log, on any store")
struct ReportFactsFromBatchesTests {
    /// A batch log in memory.
    final class MemoryBatchReader: BatchReading {
        var batches: [BatchRecord]
        init(_ batches: [BatchRecord]) { self.batches = batches }

        func read<T>(_ body: () throws -> T) throws -> T { try body() }
        func forEachBatch(limit: Int, _ body: (BatchRecord) throws -> Void) throws {
            for batch in batches.sorted(by: { $0.id > $1.id }).prefix(limit < 0 ? Int.max : limit) { try body(batch) }
        }
        func batch(id: Int) throws -> BatchRecord? { batches.first { $0.id == id } }
        func newestBatch(statusIn statuses: Set<BatchStatus>) throws -> BatchRecord? {
            batches.filter { statuses.contains($0.status) }.max { $0.id < $1.id }
        }
        func forEachProblem(batchID: Int, severity: ProblemSeverity?, _ body: (ImportProblem) throws -> Void) throws {}
        /// What `changeCounts` gives, and what it was asked for.
        var counts: [String: CourseChanges] = [:]
        var asked: [String] = []
        func committedImports(limit: Int) throws -> [BatchRecord] {
            Array(batches.filter { $0.status == .committed || $0.status == .reverted }.sorted { $0.id > $1.id }.prefix(limit))
        }
        func changeCounts(afterBatch: Int, asOfAfter: String, asOfThrough: String) throws -> [String: CourseChanges] {
            asked.append("\(afterBatch) \(asOfAfter) \(asOfThrough)")
            return counts
        }
        func status() throws -> StoreStatus {
            StoreStatus(
                path: "memory", schemaVersion: 0, liveCourses: 0, liveTasks: 0, deletedCourses: 0, deletedTasks: 0, lastBatch: nil,
                lastCommitted: nil, held: [])
        }
    }

    static func batch(_ id: Int, _ status: BatchStatus, asOf: String = "2026-11-2\(0)T08:00:00Z") -> BatchRecord {
        BatchRecord(
            id: id, command: "import", startedAt: "2026-11-29T0\(id % 10):00:00Z", finishedAt: "", asOf: asOf, mode: .merge,
            status: status, reason: "reason \(id)", maxDelete: "", actor: "", counts: [:], files: [])
    }

    @Test(
        "which batch a report speaks of",
        arguments: [
            // (the log, oldest first; the batch whose as-of is the data's; the failed batch shown)
            ([(1, BatchStatus.committed), (2, .failed)], 1, 2),
            ([(1, .committed), (2, .failed), (3, .dryRun), (4, .held), (5, .approved), (6, .discarded)], 1, 2),
            ([(1, .committed), (2, .failed), (3, .committed)], 3, nil),
            ([(1, .committed), (2, .failed), (3, .running)], 1, nil),
            ([(1, .reverted), (2, .dryRun)], 1, nil),
            ([(1, .failed)], nil, 1),
            ([(1, .dryRun), (2, .held)], nil, nil),
        ] as [([(Int, BatchStatus)], Int?, Int?)])
    func facts(log: [(Int, BatchStatus)], dataFrom: Int?, failure: Int?) throws {
        let reader = MemoryBatchReader(log.map { Self.batch($0.0, $0.1, asOf: "2026-11-2\($0.0)T08:00:00Z") })
        let facts = try ReportSource.facts(reader)
        #expect(facts.hasData == (dataFrom != nil))
        let utc = try #require(TimeZone(identifier: "UTC"))
        #expect(facts.dataAsOf == dataFrom.flatMap { Timestamp.parse("2026-11-2\($0)T08:00:00Z", timeZone: utc) })
        #expect(facts.lastFailure?.id == failure)
        #expect(facts.lastFailure.map(\.reason) == failure.map { "reason \($0)" })
    }

    @Test("SQLite's newestBatch gives what the memory log gives, for every set of statuses a report or status asks")
    func sqliteNewestBatch() throws {
        let fixture = try ImporterFixture()
        // One batch of each status, twice, in an order that is not the statuses' order.
        let statuses = BatchStatus.allCases.reversed() + BatchStatus.allCases
        for status in statuses {
            try fixture.store.database.run(
                "INSERT INTO batches (command, started_at, as_of, mode, status) VALUES ('import', '2026-11-29T08:00:00Z', '2026-11-29T08:00:00Z', 'merge', ?)",
                [status.rawValue])
        }
        let memory = MemoryBatchReader(statuses.enumerated().map { Self.batch($0.offset + 1, $0.element) })
        let asked: [Set<BatchStatus>] =
            [[.committed, .reverted], Set(BatchStatus.allCases).subtracting([.dryRun, .held, .discarded, .approved]), [.held], []]
            + BatchStatus.allCases.map { [$0] }
        for set in asked {
            let fromSQLite = try fixture.store.newestBatch(statusIn: set)
            #expect(fromSQLite?.id == (try memory.newestBatch(statusIn: set))?.id, "\(set)")
            #expect(fromSQLite.map { set.contains($0.status) } ?? set.isEmpty, "\(set)")
        }
    }

    /// Issue 28, item 3: the window of "what changed overnight" (`Overnight.read`).
    @Test func theWindowOpensAtTheImportBeforeTheNewestUnlessNothingWasImportedSince() throws {
        let asOf = Date(timeIntervalSince1970: 1_795_917_600)  // 2026-11-29T02:00:00Z
        let night1 = Self.batch(1, .committed, asOf: "2026-11-27T02:00:00Z")
        let night2 = Self.batch(2, .committed, asOf: "2026-11-28T02:00:00Z")
        var one = CourseChanges()
        one.new = 3
        // Nothing before any committed import; one import: nothing to compare with.
        #expect(try Overnight.read(MemoryBatchReader([Self.batch(1, .failed)]), asOf: asOf) == nil)
        let first = MemoryBatchReader([night1])
        #expect(try Overnight.read(first, asOf: asOf) == Overnight(state: .firstImport, since: nil, byCourse: [:]))
        #expect(first.asked.isEmpty)
        // Two nights: from the earlier one's as-of to the report's.
        let two = MemoryBatchReader([night1, night2, Self.batch(3, .dryRun)])
        two.counts = ["bio": one]
        let changes = try Overnight.read(two, asOf: asOf)
        #expect(changes?.state == .changes)
        #expect(changes?.byCourse == ["bio": one])
        #expect(two.asked == ["1 2026-11-27T02:00:00Z 2026-11-29T02:00:00Z"])
        // Tonight's import failed, or is held, or no export came: from the newest committed one.
        for (status, state) in [(BatchStatus.failed, Overnight.State.importFailed), (.held, .importHeld)] {
            let reader = MemoryBatchReader([night1, night2, Self.batch(3, status)])
            let read = try Overnight.read(reader, asOf: asOf)
            #expect(read?.state == state && read?.batch == 3)
            #expect(reader.asked == ["2 2026-11-28T02:00:00Z 2026-11-29T02:00:00Z"])
        }
        let noExport = MemoryBatchReader([night1, night2])
        #expect(try Overnight.read(noExport, asOf: asOf, noExport: true)?.state == .noExport)
        #expect(noExport.asked == ["2 2026-11-28T02:00:00Z 2026-11-29T02:00:00Z"])
        // A failure before the newest committed import is history: the window is the usual one.
        let old = MemoryBatchReader([night1, Self.batch(2, .failed), Self.batch(3, .committed, asOf: "2026-11-28T02:00:00Z")])
        #expect(try Overnight.read(old, asOf: asOf)?.state == .changes)
        #expect(old.asked == ["1 2026-11-27T02:00:00Z 2026-11-29T02:00:00Z"])
    }
}
