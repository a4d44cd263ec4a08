import Foundation
import Testing

/// Issue 29: the courses file's optional `language` (docs/formats.md): a BCP 47 tag of en, de,
/// fr, es or ja, in any case, `_` for `-`, stored in its canonical case; an ill-formed tag and a
/// tag of another language are `invalid_language` on their line with the same hint, the row
/// rejected and the others imported; a change of it is a planned field change that a held sync
/// shows and its approval applies; no report changes with it yet.
@Suite struct CourseLanguageImportTests {
    static let courses = """
        course_id,title,teacher,Teaching Language
        de1,Deutsch,Anna Weber,de_at
        ja1,Nihongo,Ken Sato,JA-jp
        es1,Español,Ana Lima,es-419
        en1,English,Tom Reyes,
        xx1,Unknown,Lee Chen,xx
        ge1,German,Lee Chen,german
        zh1,Chinese,Lee Chen,zh
        bad,Broken,Lee Chen,de--AT
        fr1,Français,Marie Roy,\u{A0} fr-CA\t

        """

    static let hint = "    hint: use a BCP 47 tag of a supported language: en, de, fr, es, ja (e.g. de-AT)\n"

    static func languages(_ sandbox: Sandbox, _ database: String = "db.sqlite") throws -> String {
        try DatabaseSnapshot.lines(sandbox.path(database), "SELECT course_id, language FROM courses ORDER BY course_id")
    }

    @Test func aTagThatIsNotOneOfASupportedLanguageIsRejectedOnItsLineAndTheRestIsImported() throws {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", Self.courses)
        let result = try sandbox.run(["--db", "db.sqlite", "import", "courses.csv"])
        #expect(
            result
                == CommandResult(
                    exitCode: 65, stdout: "",
                    stderr:
                        "courses.csv:6: error: language: \"xx\" names a language the reports are not written in (xx) [invalid_language]\n"
                        + Self.hint
                        + "courses.csv:7: error: language: \"german\" is not a language code (BCP 47 names a language by 2 or 3 letters, "
                        + "such as de) [invalid_language]\n" + Self.hint
                        + "courses.csv:8: error: language: \"zh\" names a language the reports are not written in (zh) [invalid_language]\n"
                        + Self.hint + "courses.csv:9: error: language: \"de--AT\" is not a BCP 47 language tag [invalid_language]\n"
                        + Self.hint
                        + "dashboard: import batch 1 committed (merge): 9 rows read, 5 inserted, 0 updated, 0 unchanged, 0 deleted, "
                        + "4 rejected, 0 warnings\n"), "\(result)")
        #expect(try Self.languages(sandbox) == "de1|de-AT\nen1|\nes1|es-419\nfr1|fr-CA\nja1|ja-JP\n")
        // The JSON result names the code, the line, the column, the value and the hint, typed as
        // Frictionless would type it.
        let check = try sandbox.run(["--db", "db.sqlite", "check", "--format", "json", "courses.csv"])
        let problems = JSON.objects(try JSON.object(check.stdout)["rejects"])
        #expect(problems.map { $0["code"] as? String } == Array(repeating: "invalid_language", count: 4))
        #expect(problems.map { $0["line"] as? Int } == [6, 7, 8, 9])
        #expect(problems.map { $0["value"] as? String } == ["xx", "german", "zh", "de--AT"])
        #expect(
            problems.allSatisfy {
                $0["column"] as? String == "language" && $0["type"] as? String == "type-error"
                    && $0["hint"] as? String == "use a BCP 47 tag of a supported language: en, de, fr, es, ja (e.g. de-AT)"
            })
        // No report says anything of a language yet: the grid is the one of the same courses
        // without the column.
        let asOf = ["--as-of", "2026-11-29T08:00:00Z"]
        #expect(try sandbox.run(["--db", "lang.sqlite"] + asOf + ["import", "courses.csv"]).exitCode == 65)
        try sandbox.write(
            "plain.csv",
            """
            course_id,title,teacher
            de1,Deutsch,Anna Weber
            ja1,Nihongo,Ken Sato
            es1,Español,Ana Lima
            en1,English,Tom Reyes
            fr1,Français,Marie Roy

            """)
        #expect(try sandbox.run(["--db", "plain.sqlite"] + asOf + ["import", "plain.csv"]).exitCode == 0)
        for format in ["text", "json", "markdown", "html", "csv"] {
            let withLanguage = try sandbox.run(["--db", "lang.sqlite"] + asOf + ["report", "grid", "--format", format])
            let without = try sandbox.run(["--db", "plain.sqlite"] + asOf + ["report", "grid", "--format", format])
            #expect(withLanguage.exitCode == 0 && without.exitCode == 0)
            #expect(withLanguage.stdout == without.stdout, "\(format)")
        }
    }

    @Test func aChangeOfLanguageIsAFieldChangeOfTheHeldPlanItsApprovalAppliesAndARevertUndoes() throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "courses.csv", "course_id,title,lang\nde1,Deutsch,de-AT\nja1,Nihongo,ja\nen1,English,\n")
        #expect(try sandbox.run(["--db", "db.sqlite", "import", "courses.csv"]).exitCode == 0)
        // The same file again, in either mode: nothing changes.
        let again = try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "courses.csv"])
        #expect(again.stderr.contains("3 rows read, 0 inserted, 0 updated, 3 unchanged, 0 deleted"), "\(again)")
        // Night 3: de1 moves to Swiss German, en1 is gone (a sync over the limit: held).
        try sandbox.write("courses.csv", "course_id,title,lang\nde1,Deutsch,DE_ch\nja1,Nihongo,ja\n")
        let held = try sandbox.run(["--db", "db.sqlite", "import", "--mode", "sync", "--max-delete", "0", "courses.csv"])
        #expect(held.exitCode == 65, "\(held)")
        #expect(try Self.languages(sandbox) == "de1|de-AT\nen1|\nja1|ja\n")
        let show = try sandbox.run(["--db", "db.sqlite", "batches", "show", "3", "--format", "json"])
        let changes = JSON.objects(try JSON.object(show.stdout)["approve_changes"])
        let update = try #require(changes.first { $0["action"] as? String == "update" })
        #expect(update["id"] as? String == "de1")
        #expect(JSON.keys(update["fields"]) == ["language"])
        let field = (update["fields"] as? [String: Any])?["language"] as? [String: Any]
        #expect(field?["old"] as? String == "de-AT" && field?["new"] as? String == "de-CH")
        let approve = try sandbox.run(["--db", "db.sqlite", "batches", "approve", "3"])
        #expect(approve.exitCode == 0, "\(approve)")
        #expect(try Self.languages(sandbox) == "de1|de-CH\nen1|\nja1|ja\n")
        // The approval is batch 4: undone, de1 speaks Austrian German again and en1 is back.
        let revert = try sandbox.run(["--db", "db.sqlite", "revert", "--batch", "4"])
        #expect(revert.exitCode == 0, "\(revert)")
        #expect(try Self.languages(sandbox) == "de1|de-AT\nen1|\nja1|ja\n")
        #expect(
            try DatabaseSnapshot.lines(sandbox.path("db.sqlite"), "SELECT count(*) FROM courses WHERE deleted_batch IS NULL") == "3\n")
    }
}
