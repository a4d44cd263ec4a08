import Foundation
import Testing

/// Issue 29: `dashboard settings language TAG` (and `--clear`): the database's default report
/// language, validated as the courses file's `language` column is, stored canonical, shown by
/// `settings show` and logged like the other settings.
@Suite struct SettingsLanguageTests {
    static func imported() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("courses.csv", "course_id,title\nbio,Biology\n")
        let first = try sandbox.run(["--db", "db.sqlite", "--timezone", "Europe/Berlin", "import", "courses.csv"])
        #expect(first.exitCode == 0, "\(first)")
        return sandbox
    }

    @Test func aTagIsStoredCanonicalShownLoggedAndCleared() throws {
        let sandbox = try Self.imported()
        let unset = try sandbox.run(["--db", "db.sqlite", "settings", "show"])
        #expect(unset.exitCode == 0)
        #expect(unset.stdout.contains("\nlanguage: not set (reports use English unless a course names its language)\n"), "\(unset)")
        let set = try sandbox.run(["--db", "db.sqlite", "settings", "language", "de_at", "--actor", "alice"])
        #expect(set == CommandResult(exitCode: 0, stdout: "", stderr: "dashboard: language: not set → de-AT\n"), "\(set)")
        let same = try sandbox.run(["--db", "db.sqlite", "settings", "language", "DE-at"])
        #expect(same.stderr == "dashboard: the language is already de-AT; nothing changed\n", "\(same)")
        let show = try sandbox.run(["--db", "db.sqlite", "settings", "show"])
        let lines = show.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            Array(lines.prefix(4)) == [
                "default time zone: Europe/Berlin", "base url: not set (calendar events and digests link no page)",
                "mail from: not set (nightly --digest needs it)", "language: de-AT",
            ], "\(show)")
        #expect(Self.logged(show.stdout) == [["2", "(none)", "de-AT", "alice"]], "\(show)")
        let cleared = try sandbox.run(["--db", "db.sqlite", "settings", "language", "--clear", "--actor", "bob"])
        #expect(cleared == CommandResult(exitCode: 0, stdout: "", stderr: "dashboard: language: de-AT → not set\n"), "\(cleared)")
        let after = try sandbox.run(["--db", "db.sqlite", "settings", "show"])
        #expect(after.stdout.contains("\nlanguage: not set (reports use English unless a course names its language)\n"), "\(after)")
        #expect(Self.logged(after.stdout) == [["2", "(none)", "de-AT", "alice"], ["3", "de-AT", "(none)", "bob"]], "\(after)")
    }

    /// The rows of `settings show`'s log that change the language: ID, FROM, TO, BY.
    static func logged(_ show: String) -> [[String]] {
        show.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }.filter { $0.count == 6 && $0[2] == "language" }.map {
            [$0[0], $0[3], $0[4], $0[5]]
        }
    }

    @Test(arguments: [
        ("german", "is not a language code (BCP 47 names a language by 2 or 3 letters, such as de)"),
        ("zh", "names a language the reports are not written in (zh)"),
        ("pt-BR", "names a language the reports are not written in (pt)"),
        ("de--AT", "is not a BCP 47 language tag"),
        ("", "is empty"),
    ])
    func aBadTagIsAUsageErrorWithTheHintAndChangesNothing(tag: String, reason: String) throws {
        let sandbox = try Self.imported()
        let result = try sandbox.run(["--db", "db.sqlite", "settings", "language", tag])
        #expect(
            result
                == CommandResult(
                    exitCode: 64, stdout: "",
                    stderr: """
                        dashboard: error: language: "\(tag)" \(reason)
                        dashboard: hint: use a BCP 47 tag of a supported language: en, de, fr, es, ja (e.g. de-AT)

                        """), "\(result)")
        #expect(
            try sandbox.run(["--db", "db.sqlite", "settings", "show"]).stdout.contains(
                "language: not set (reports use English unless a course names its language)"))
    }

    @Test func aTagAndClearTogetherOrNoTagAreUsageErrors() throws {
        let sandbox = try Self.imported()
        let both = try sandbox.run(["--db", "db.sqlite", "settings", "language", "de", "--clear"])
        #expect(both.exitCode == 64, "\(both)")
        let none = try sandbox.run(["--db", "db.sqlite", "settings", "language"])
        #expect(none.exitCode == 64, "\(none)")
        #expect(none.stderr.hasPrefix("dashboard: error: missing TAG"), "\(none)")
    }
}
