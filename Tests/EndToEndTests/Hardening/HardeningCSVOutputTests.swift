import Foundation
import Testing

/// Issue 11, class 4: every CSV the program writes (`--rejects`, report CSV on stdout and with
/// `--out`, `audit --format csv`) follows CSVWriter's one rule: a leading `=`, `+`, `-`, `@`,
/// tab or CR gets a `'`, RFC 4180 quoting, CRLF, files with mode 0600.
@Suite struct HardeningCSVOutputTests {
    static let courses = "course_id,title,code,teacher\n=bio,+Biology,-BIO,@T\n"
    static let tasks = "task_id,course_id,title,student_id,due\n@t1,=bio,=1+1,s1,2026-12-01\n+t2,=bio,-x,@s,\n"

    static func imported() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("c.csv", courses)
        try sandbox.write("t.csv", tasks)
        let result = try sandbox.run(["--db", "db.sqlite", "import", "c.csv", "t.csv"])
        #expect(result.exitCode == 0, "\(result)")
        return sandbox
    }

    @Test func rejectsProtectEveryFormulaPrefixAndTheFileNameWithCRLF() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", "course_id,title,code\nbio,Biology,BIO\n")
        try sandbox.write(
            "=x.csv",
            "task_id,course_id,title,priority\nt1,bio,One,=1+1\nt2,bio,Two,@x\nt3,bio,Three,+x\nt4,bio,Four,-x\n"
                + "t5,bio,Five,\"\t=cmd\"\nt6,bio,Six,\"\r=5\"\n")
        try sandbox.write("rejects.csv", "old\n")
        chmod(sandbox.path("rejects.csv"), 0o644)
        let result = try sandbox.run(umask: "077", ["--db", "db.sqlite", "check", "--rejects", "rejects.csv", "courses.csv", "=x.csv"])
        #expect(result.exitCode == 65, "\(result)")
        let expected =
            "file,line,column,code,value,message\r\n"
            + "'=x.csv,2,priority,invalid_priority,'=1+1,\"\"\"=1+1\"\" is not a priority\"\r\n"
            + "'=x.csv,3,priority,invalid_priority,'@x,\"\"\"@x\"\" is not a priority\"\r\n"
            + "'=x.csv,4,priority,invalid_priority,'+x,\"\"\"+x\"\" is not a priority\"\r\n"
            + "'=x.csv,5,priority,invalid_priority,'-x,\"\"\"-x\"\" is not a priority\"\r\n"
            + "'=x.csv,6,priority,invalid_priority,'\t=cmd,\"\"\"\t=cmd\"\" is not a priority\"\r\n"
            + "'=x.csv,7,priority,invalid_priority,\"'\r=5\",\"\"\"\r=5\"\" is not a priority\"\r\n"
        #expect(try sandbox.read("rejects.csv") == Data(expected.utf8))
        let mode = try FileManager.default.attributesOfItem(atPath: sandbox.path("rejects.csv"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func theHostileCorpusFormulaFileGivesProtectedRejects() throws {
        let sandbox = try Sandbox()
        try Fixtures.writeValidSet(sandbox)
        let corpus = HostileCorpusTests.hostileDirectory.appendingPathComponent("formula-values-rejected.csv")
        try sandbox.write("=f.csv", bytes: try Data(contentsOf: corpus))
        let result = try sandbox.run(["--db", "db.sqlite", "check", "--rejects", "r.csv", "courses.csv", "=f.csv"])
        #expect(result.exitCode == 65, "\(result)")
        let values = ["'=1+1", "'@x", "'+x", "'-x", "'\t=cmd", "\"'\r=5\""]
        let raw = ["=1+1", "@x", "+x", "-x", "\t=cmd", "\r=5"]
        var expected = "file,line,column,code,value,message\r\n"
        for (i, (value, text)) in zip(values, raw).enumerated() {
            expected += "'=f.csv,\(i + 3),priority,invalid_priority,\(value),\"\"\"\(text)\"\" is not a priority\"\r\n"
        }
        #expect(String(decoding: try sandbox.read("r.csv"), as: UTF8.self) == expected)
    }

    static let listCSV =
        "course_id,course_code,task_id,title,student_id,due,priority,completed,bucket,status,"
        + "days_late,late,override_until,override_reason,override_actor,submission_status,submitted_at,submitted_late\r\n"
        + "'=bio,'-BIO,'@t1,'=1+1,s1,2026-12-01,normal,false,upcoming,upcoming,,,,,,open,,false\r\n"
        + "'=bio,'-BIO,'+t2,'-x,'@s,,normal,false,undated,no due date,,,,,,open,,false\r\n"

    @Test func reportCSVOnStandardOutputAndInFilesProtectEveryPrefix() throws {
        let sandbox = try Self.imported()
        let list = try sandbox.run(["--db", "db.sqlite", "report", "list", "--format", "csv"])
        #expect(list == CommandResult(exitCode: 0, stdout: Self.listCSV, stderr: ""))
        let out = try sandbox.run(umask: "077", ["--db", "db.sqlite", "report", "grid", "--format", "csv", "--out", "out"])
        #expect(out.exitCode == 0, "\(out)")
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("out")).sorted()
        #expect(names.count == 2)
        let grid =
            "course_id,code,title,teacher,term,timezone,overdue,today,upcoming,undated,completed,total,needs_attention,"
            + "new_since,now_overdue_since,completed_since,pinned_since,unpinned_since,deleted_since,to_grade,excused,"
            + "handed_in_since,excused_since\r\n" + "'=bio,'-BIO,'+Biology,'@T,,,0,0,1,1,0,2,false,,,,,,,0,0,,\r\n"
        #expect(try sandbox.read("out/index.csv") == Data(grid.utf8))
        let course = try #require(names.first { $0.hasPrefix("course-") })
        #expect(try sandbox.read("out/" + course) == Data(Self.listCSV.utf8))
        for name in names {
            let mode = try FileManager.default.attributesOfItem(atPath: sandbox.path("out/" + name))[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(name)")
        }
    }

    @Test func auditCSVProtectsActorReasonAndIDs() throws {
        let sandbox = try Self.imported()
        let pin = try sandbox.run([
            "--db", "db.sqlite", "reclassify", "@t1", "--to", "today", "--reason", "=HYPERLINK(\"x\")", "--actor", "\r=5",
        ])
        #expect(pin.exitCode == 0, "\(pin)")
        let header =
            "entry_id,recorded_at,as_of,task_id,task_title,course_id,from,to,cause,actor,reason,batch_id,reverts,reverted_by,conflict,override_until,group,derived"
        let pinned =
            "1,<recorded>,2026-11-29T08:00:00Z,'@t1,'=1+1,'=bio,upcoming,today,override,\"'\r=5\",\"'=HYPERLINK(\"\"x\"\")\",,,,false,,,false"
        // recorded_at is the wall clock: compare the rest (a derived line has no entry id).
        func lines(_ arguments: [String]) throws -> [String] {
            let result = try sandbox.run(["--db", "db.sqlite", "audit", "--format", "csv"] + arguments)
            #expect(result.exitCode == 0, "\(result)")
            return result.stdout.components(separatedBy: "\r\n").map { line in
                line.replacingOccurrences(of: #"^(\d*),[0-9T:Z-]+,"#, with: "$1,<recorded>,", options: .regularExpression)
            }
        }
        // The import's tasks are births: no entry of their own.
        #expect(try lines([]) == [header, pinned, ""])
        // Their derived birth lines protect the same cells.
        #expect(
            try lines(["--task", "+t2", "--task", "@t1"]) == [
                header,
                ",<recorded>,2026-11-29T08:00:00Z,'+t2,'-x,'=bio,,undated,import,e2e-tester,,1,,,false,,,true",
                ",<recorded>,2026-11-29T08:00:00Z,'@t1,'=1+1,'=bio,,upcoming,import,e2e-tester,,1,,,false,,,true",
                pinned,
                "",
            ])
    }
}
