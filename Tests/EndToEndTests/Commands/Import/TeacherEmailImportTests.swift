import Foundation
import Testing

/// Issue 28: the courses file's optional `teacher_email` (docs/formats.md): one ASCII address,
/// trimmed, stored as written; anything else is `invalid_email` on its line, the row rejected
/// and the others imported; a sync keeps the live row of a rejected one, its address included;
/// a revert puts the previous address back; no report shows an address.
@Suite struct TeacherEmailImportTests {
    static let courses = """
        course_id,title,teacher,Teacher E-Mail
        bio,Biology,Amaka Okafor,amaka.okafor@school.example
        his,History,Amaka Okafor,"a.okafor@school.example, amaka@home.example"
        art,Art,Tom Reyes,Tom Reyes <tom@school.example>
        geo,Geography,Lee Chen,\u{A0} lee.chen@school.example\t
        jpn,Japanese,Ken Sato,ken@école.fr
        mus,Music,Ana Lima,

        """

    static func addresses(_ sandbox: Sandbox) throws -> String {
        try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT course_id, teacher_email FROM courses ORDER BY course_id")
    }

    @Test func anAddressThatIsNotOneIsRejectedOnItsLineAndTheRestIsImported() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Self.courses)
        let result = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv"])
        #expect(
            result
                == CommandResult(
                    exitCode: 65, stdout: "",
                    stderr: """
                        courses.csv:3: error: teacher_email: "a.okafor@school.example, amaka@home.example" is not one e-mail address [invalid_email]
                            hint: give one address per course (the teacher's), such as amaka.okafor@school.example, without a name
                        courses.csv:4: error: teacher_email: "Tom Reyes <tom@school.example>" is not one e-mail address [invalid_email]
                            hint: give one address per course (the teacher's), such as amaka.okafor@school.example, without a name
                        courses.csv:6: error: teacher_email: "ken@école.fr" is not an e-mail address [invalid_email]
                            hint: write it as name@school.example (ASCII, no display name), or leave the cell empty for no digest
                        dashboard: import batch 1 committed (merge): 6 rows read, 3 inserted, 0 updated, 0 unchanged, 0 deleted, 3 rejected, 0 warnings

                        """), "\(result)")
        #expect(try Self.addresses(sandbox) == "bio|amaka.okafor@school.example\ngeo|lee.chen@school.example\nmus|\n")
        // The JSON result names the code, the line and the column, as Frictionless would type it.
        let check = try sandbox.run(["--db", "db.sqlite", "check", "--format", "json", "courses.csv"])
        let problems = JSON.objects(try JSON.object(check.stdout)["rejects"])
        #expect(problems.map { $0["code"] as? String } == ["invalid_email", "invalid_email", "invalid_email"])
        #expect(problems.map { $0["line"] as? Int } == [3, 4, 6])
        #expect(problems.allSatisfy { $0["column"] as? String == "teacher_email" && $0["type"] as? String == "type-error" })
    }

    @Test func aSyncKeepsTheLiveAddressOfARejectedRowAndARevertPutsThePreviousOneBack() throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "courses.csv", "course_id,title,teacher,teacher_email\nbio,Biology,Amaka,amaka@school.example\nhis,History,Amaka,\n")
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv"]).exitCode == 0)
        // Night 2: bio's address is broken (rejected: the live row stays), his gets one.
        try sandbox.write(
            "courses.csv",
            "course_id,title,teacher,teacher_email\nbio,Biology,Amaka,amaka@@school.example\nhis,History,Amaka,h@school.example\n")
        let sync = try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "courses.csv"])
        #expect(sync.exitCode == 65, "\(sync)")
        #expect(
            sync.stderr.contains("courses.csv:2: error: teacher_email: \"amaka@@school.example\" is not an e-mail address [invalid_email]"))
        #expect(try Self.addresses(sandbox) == "bio|amaka@school.example\nhis|h@school.example\n")
        #expect(try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT count(*) FROM courses WHERE deleted_batch IS NULL") == "2\n")
        // Undo night 2: his has no address again.
        let revert = try sandbox.run(["--db", "db.sqlite", "revert", "--batch", "2"])
        #expect(revert.exitCode == 0, "\(revert)")
        #expect(try Self.addresses(sandbox) == "bio|amaka@school.example\nhis|\n")
        // No report, in any format, shows an address.
        for format in ["text", "json", "csv", "html", "markdown"] {
            for kind in ["grid", "list"] {
                let report = try sandbox.run(["--db", "db.sqlite", "report", kind, "--format", format])
                #expect(report.exitCode == 0)
                #expect(!report.stdout.contains("@school.example"), "\(kind) \(format)")
            }
        }
    }
}
