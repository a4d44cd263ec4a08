import Foundation
import Testing

@testable import DashboardCore

@Suite("Importer: runs that commit nothing")
struct ImporterFailureTests {
    static let fileErrors: [(name: String, bytes: [UInt8], code: ProblemCode, line: Int)] = [
        ("missing column", Array("task_id,title\nT9,X\n".utf8), .missingColumn, 1),
        ("duplicate column", Array("task_id,course_id,title,Due,deadline\nT9,C1,X,,\n".utf8), .duplicateColumn, 1),
        (
            "invalid UTF-8 on line 3", Array("task_id,course_id,title\nT8,C1,ok\nT9,C1,caf".utf8) + [0xC3, 0x28] + Array("\n".utf8),
            .invalidEncoding, 3
        ),
        ("unterminated quote", Array("task_id,course_id,title\nT8,C1,ok\nT9,C1,\"never closed\nT10,C1,x\n".utf8), .unterminatedQuote, 3),
        ("empty file", [], .emptyFile, 1),
        ("unknown kind", Array("name,age\nx,1\n".utf8), .unknownFileKind, 1),
    ]

    @Test(
        "a file-level error changes no course or task, names the file and line, and records a failed batch",
        arguments: fileErrors.indices)
    func fileLevel(index: Int) throws {
        let case_ = Self.fileErrors[index]
        let f = try ImporterFixture()
        try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", ImporterFixture.tasks(1...3))])
        let before = try f.dumpData()
        let files = [InputFile.inMemory("good.csv", ImporterFixture.tasks(4...6)), InputFile.inMemory("bad.csv", case_.bytes)]
        do {
            _ = try f.importer.run(files: files, options: ImporterFixture.options(.sync))
            Issue.record("\(case_.name): the import succeeded")
        } catch {
            guard case .fileProblem(let problem, let batchID) = error else {
                Issue.record("\(case_.name): unexpected failure \(error)")
                return
            }
            #expect(problem.code == case_.code, "\(case_.name)")
            #expect(problem.file == "bad.csv")
            #expect(problem.line == case_.line, "\(case_.name)")
            #expect(batchID == 2)
            let batch = try #require(try f.store.batch(id: 2))
            #expect(batch.status == .failed)
            #expect(batch.reason == problem.formatted)
            #expect(try f.store.problems(batchID: 2).last?.code == case_.code)
        }
        #expect(try f.dumpData() == before, "\(case_.name)")
    }

    @Test("--strict commits nothing when any row is rejected, and records why")
    func strict() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", ImporterFixture.courses)])
        let before = try f.dumpData()
        let tasks = "task_id,course_id,title,completed\nT1,C1,ok,yes\nT2,C1,bad,perhaps\n"
        do {
            try f.run([("tasks.csv", tasks)], ImporterFixture.options(strict: true))
            Issue.record("strict import succeeded")
        } catch {
            guard case .strictRejected(let result) = error else { Issue.record("\(error)"); return }
            #expect(result.status == .failed)
            #expect(result.batchID == 2)
            #expect(result.rejects.map(\.code) == [.invalidBoolean])
            #expect(result.reason == "strict: 1 row(s) rejected, nothing was imported")
        }
        #expect(try f.dumpData() == before)
        #expect(try f.store.batch(id: 2)?.status == .failed)
    }

    @Test("a dry run writes no data and records a dry_run batch with the counts")
    func dryRun() throws {
        let f = try ImporterFixture()
        let result = try f.run(
            [("courses.csv", ImporterFixture.courses), ("tasks.csv", ImporterFixture.tasks(1...4))],
            ImporterFixture.options(dryRun: true))
        #expect(result.status == .dryRun)
        #expect(result.counts[.tasks] == ImportCounts(read: 4, inserted: 4))
        #expect(try f.store.tasks().isEmpty)
        #expect(try f.store.courses().isEmpty)
        let batch = try #require(try f.store.batch(id: 1))
        #expect(batch.status == .dryRun)
        #expect(batch.counts[.tasks]?.inserted == 4)
    }

    @Test("check (record: false) writes nothing at all, not even a batch")
    func check() throws {
        let f = try ImporterFixture()
        let result = try f.run(
            [("courses.csv", ImporterFixture.courses), ("tasks.csv", ImporterFixture.tasks(1...4))],
            ImporterFixture.options(dryRun: true), record: false)
        #expect(result.batchID == nil)
        #expect(result.counts[.tasks]?.inserted == 4)
        #expect(try f.store.batches().isEmpty)
    }

    @Test("check works on a read-only connection to an existing database")
    func checkReadOnly() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", ImporterFixture.courses), ("tasks.csv", ImporterFixture.tasks(1...2))])
        let readOnly = try TestStore.reader(f.store)
        let result = try Importer(store: readOnly).run(
            files: [.inMemory("tasks.csv", ImporterFixture.tasks(1...3))], options: ImporterFixture.options(dryRun: true), record: false)
        #expect(result.counts[.tasks] == ImportCounts(read: 3, inserted: 1, unchanged: 2))
    }

    @Test("a second writer fails at once with busy, and nothing is recorded for it")
    func busy() throws {
        let f = try ImporterFixture()
        try f.run([("courses.csv", ImporterFixture.courses)])
        let holder = try TestStore.holdWriterLock(f.store)
        defer { try? holder.execute("ROLLBACK") }
        let second = try TestStore.reopen(f.store, busyTimeout: 0)
        do {
            _ = try Importer(store: second).run(
                files: [.inMemory("tasks.csv", ImporterFixture.tasks(1...2))], options: ImporterFixture.options())
            Issue.record("the second writer was not refused")
        } catch {
            guard case .store(.busy, nil) = error else { Issue.record("\(error)"); return }
        }
        try holder.execute("ROLLBACK")
        #expect(try f.store.batches().count == 1)
    }

    @Test("a missing input file is inputMissing and nothing is written")
    func missingInput() throws {
        let f = try ImporterFixture()
        do {
            _ = try f.importer.run(files: [InputFile.onDisk(f.directory + "/nope.csv")], options: ImporterFixture.options())
            Issue.record("import of a missing file succeeded")
        } catch {
            guard case .inputMissing(let path, let reason) = error else { Issue.record("\(error)"); return }
            #expect(path == f.directory + "/nope.csv")
            #expect(reason == "No such file or directory")
        }
    }
}
