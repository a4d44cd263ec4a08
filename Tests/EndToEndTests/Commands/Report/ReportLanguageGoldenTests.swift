import Foundation
import Testing

/// Issue 29, item 4: the terminal and Markdown reports in the teacher's language. The shipped
/// sample reported with `--language` is compared byte for byte with Goldens/language/ (read
/// by a native speaker's eye when they change); the grid keeps its shape in Japanese, whose
/// characters take two columns; JSON and CSV never change with the language.
@Suite struct ReportLanguageGoldenTests {
    static let cases: [ReportGoldenTests.Case] = [
        .init(golden: "language/grid-de-width-100.txt", arguments: ["grid", "--language", "de", "--width", "100"]),
        .init(golden: "language/grid-ja-width-80.txt", arguments: ["grid", "--language", "ja", "--width", "80"]),
        .init(golden: "language/grid-ja-width-40.txt", arguments: ["grid", "--language", "ja", "--width", "40"]),
        .init(golden: "language/list-de-width-100.txt", arguments: ["list", "--language", "de-AT", "--width", "100"]),
        .init(golden: "language/list-ja-width-100.txt", arguments: ["list", "--language", "ja", "--width", "100", "--course", "JPN 150"]),
        .init(golden: "language/list-fr-width-40.txt", arguments: ["list", "--language", "fr", "--width", "40", "--course", "HIST 220"]),
        .init(
            golden: "language/list-es-by-assignment.txt",
            arguments: ["list", "--language", "es", "--width", "100", "--group-by", "assignment", "--course", "BIO 101"]),
        .init(
            golden: "language/list-ja-by-student.txt",
            arguments: ["list", "--language", "ja", "--width", "100", "--group-by", "student", "--course", "JPN 150"]),
        .init(golden: "language/grid-fr.md", arguments: ["grid", "--language", "fr", "--format", "markdown"]),
        .init(golden: "language/list-de.md", arguments: ["list", "--language", "de", "--format", "markdown", "--course", "MAT 210"]),
        .init(golden: "language/list-ja.md", arguments: ["list", "--language", "ja", "--format", "markdown", "--course", "JPN 150"]),
        .init(
            golden: "language/list-de-no-match.txt",
            arguments: ["list", "--language", "de", "--search", "zzzz", "--student", "s2002"]),
    ]

    @Test(arguments: cases) func reportInALanguageMatchesItsGolden(_ testCase: ReportGoldenTests.Case) throws {
        GoldenFile.expectMatch(try ReportGoldenTests.report(testCase.arguments), golden: testCase.golden)
    }

    @Test(arguments: [("ja", 40), ("ja", 80), ("ja", 120), ("de", 40), ("fr", 80)])
    func aGridInALanguageFitsTheWidthWithEveryCardLineAtItsEdge(language: String, width: Int) throws {
        let output = try ReportGoldenTests.report(["grid", "--language", language, "--width", "\(width)"])
        for line in output.split(separator: "\n") {
            #expect(TerminalColumns.of(line) <= width, "\(TerminalColumns.of(line)) columns: \(line)")
        }
        let cards = TextGridCard.parse(output)
        #expect(cards.map { $0.lines.first ?? "" } == ["BIO 101", "HIST 220", "ENG 105", "JPN 150", "MAT 210"])
        for card in cards {
            #expect(card.misaligned == [], "a line of card \(card.lines.first ?? "?") does not end at its right edge")
        }
    }

    @Test func aJapaneseCountNeverWrapsAwayFromItsCounter() throws {
        // "期限なし 6 件" holds no-break spaces: the wrap moves it whole.
        let output = try ReportGoldenTests.report(["grid", "--language", "ja", "--width", "80"])
        for line in output.split(separator: "\n") {
            #expect(!line.hasPrefix("件") && !line.hasSuffix(" 6") && !line.hasSuffix("\u{A0}"), "\(line)")
        }
        #expect(output.contains("期限なし\u{A0}6\u{A0}件"))
    }

    @Test func anEmptyDatabaseSaysSoInTheLanguageAndNamesTheCommandInEnglish() throws {
        let sandbox = try Sandbox()
        // No import has committed anything: the reader's words in German, the command as typed.
        let result = try sandbox.run(["--db", "db.sqlite", "--as-of", ReportGoldenTests.asOf, "report", "grid", "--language", "de"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.hasPrefix("Kurse, Stand 29. Nov. 2026, 08:00 UTC\n"), "\(result.stdout)")
        #expect(result.stdout.contains("Noch keine Daten importiert.\n"), "\(result.stdout)")
        #expect(result.stdout.contains("`dashboard import imports/`"), "the command stays as typed: \(result.stdout)")
    }

    @Test func machineFormatsAreTheSameBytesInEveryLanguage() throws {
        let sandbox = try ReportGoldenTests.imported()
        for kind in ["grid", "list"] {
            for format in ["json", "csv"] {
                let plain = try ReportGoldenTests.report([kind, "--format", format], in: sandbox)
                for language in ["de", "fr", "es", "ja", "en-GB"] {
                    let spoken = try ReportGoldenTests.report([kind, "--format", format, "--language", language], in: sandbox)
                    #expect(spoken == plain, "\(kind) \(format) in \(language)")
                }
            }
        }
        // English by --language is the default output, byte for byte.
        for arguments in [["grid", "--width", "80"], ["list", "--format", "markdown"], ["list", "--format", "html"]] {
            #expect(
                try ReportGoldenTests.report(arguments + ["--language", "en"], in: sandbox)
                    == ReportGoldenTests.report(arguments, in: sandbox), "\(arguments)")
        }
    }
}
