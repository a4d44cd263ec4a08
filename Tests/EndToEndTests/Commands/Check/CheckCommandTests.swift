import Foundation
import Testing

/// `dashboard check`: every rule of an import, compared with the database if there is one,
/// and nothing written, not even a batch record.
@Suite struct CheckCommandTests {
    @Test func checkWithoutADatabaseCreatesNone() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let result = try sandbox.run(["--db", "db.sqlite", "check", "courses.csv", "tasks.csv"])
        #expect(
            result
                == CommandResult(
                    exitCode: 0, stdout: "",
                    stderr:
                        "dashboard: check dry run (merge), nothing written: 5 rows read, would insert 5, would update 0, 0 unchanged, would delete 0, 0 rejected, 0 warnings\n"
                ))
        #expect(try sandbox.listing() == ["courses.csv", "tasks.csv"])
    }

    @Test func checkOfTheDefaultDatabaseCreatesNone() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let result = try sandbox.run(["check", "--format", "json", "courses.csv", "tasks.csv"])
        #expect(result.exitCode == 0)
        #expect(try sandbox.listing() == ["courses.csv", "tasks.csv"])
    }

    @Test func checkWithRejectsExits65AndStillCreatesNothing() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Fixtures.courses)
        try sandbox.write("bad.csv", ImportCommandTests.badTasks)
        let result = try sandbox.run(["--db", "db.sqlite", "check", "--rejects", "rejects.csv", "courses.csv", "bad.csv"])
        #expect(result.exitCode == 65)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == ImportCommandTests.badTasksStderr
                + "dashboard: check dry run (merge), nothing written: 6 rows read, would insert 3, would update 0, 0 unchanged, would delete 0, 3 rejected, 0 warnings\n"
        )
        #expect(try sandbox.listing() == ["bad.csv", "courses.csv", "rejects.csv"])
        #expect(String(decoding: try sandbox.read("rejects.csv"), as: UTF8.self).split(separator: "\r\n").count == 4)  // CRLF lines
    }

    @Test func checkComparesWithTheDatabaseAndLeavesItUnchanged() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let db = sandbox.path("db.sqlite")
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks.csv"]).exitCode == 0)
        let bytes = try sandbox.read("db.sqlite")
        let batches = try DatabaseSnapshot.dump(db, table: "batches")
        try sandbox.write("tasks.csv", Fixtures.tasks.replacingOccurrences(of: "Essay draft", with: "Essay final draft"))
        let result = try sandbox.run(["--db", "db.sqlite", "check", "--format", "json", "courses.csv", "tasks.csv"])
        #expect(result.exitCode == 0)
        #expect(
            result.stderr
                == "dashboard: check dry run (merge), nothing written: 5 rows read, would insert 0, would update 1, 4 unchanged, would delete 0, 0 rejected, 0 warnings\n"
        )
        let json = try JSON.object(result.stdout)
        #expect(json["status"] as? String == "dry_run")
        #expect(json["batch_id"] is NSNull)
        #expect(json["updated"] as? Int == 1)
        #expect(try sandbox.read("db.sqlite") == bytes)
        #expect(try DatabaseSnapshot.dump(db, table: "batches") == batches)
    }

    @Test func checkOfASyncSaysWhatItWouldDelete() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", "course_id,title\nbio,Biology\n")
        try sandbox.write("tasks20.csv", Fixtures.numberedTasks(20))
        try sandbox.write("tasks18.csv", Fixtures.numberedTasks(18))
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks20.csv"]).exitCode == 0)
        let before = try DatabaseSnapshot.data(sandbox.path("db.sqlite"))
        let result = try sandbox.run(["--db", "db.sqlite", "check", "--mode", "sync", "--format", "json", "courses.csv", "tasks18.csv"])
        #expect(result.exitCode == 0)
        #expect(try JSON.object(result.stdout)["deleted"] as? Int == 2)
        #expect(try DatabaseSnapshot.data(sandbox.path("db.sqlite")) == before)
    }
}

extension CheckCommandTests {
    @Test func checkOfASyncThatWouldBeHeldExits65AndSaysWhy() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", "course_id,title\nbio,Biology\n")
        try sandbox.write("tasks20.csv", Fixtures.numberedTasks(20))
        try sandbox.write("tasks10.csv", Fixtures.numberedTasks(10))
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv", "tasks20.csv"]).exitCode == 0)
        let before = try DatabaseSnapshot.dump(sandbox.path("db.sqlite"), table: "batches")
        let result = try sandbox.run(["--db", "db.sqlite", "check", "--mode", "sync", "courses.csv", "tasks10.csv"])
        #expect(
            result
                == CommandResult(
                    exitCode: 65, stdout: "",
                    stderr:
                        "dashboard: check dry run (sync), nothing written: 11 rows read, would insert 0, would update 0, 11 unchanged, would delete 10, 0 rejected, 0 warnings; a real import would be held: sync would delete 10 of 20 tasks (50%), more than --max-delete 10%\n"
                ))
        #expect(try DatabaseSnapshot.dump(sandbox.path("db.sqlite"), table: "batches") == before)
    }
}
