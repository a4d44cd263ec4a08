import Foundation
import Testing

@testable import DashboardCore

/// Issue 29, item 4: one table of words per language, complete, with CLDR's plural forms, and
/// dates in the locale's own words.
@Suite struct LexiconTests {
    /// The placeholders of a template (`{0}`, `{n}`), as a set.
    static func placeholders(_ text: String) -> Set<String> {
        Set(text.matches(of: /\{[0-9n]\}/).map { String($0.output) })
    }

    @Test("every phrase has a translation in every language, with the same placeholders and exactly its plural forms")
    func everyTableIsComplete() {
        for language in ReportLanguage.allCases {
            let table = Lexicon.table(language)
            #expect(Set(table.keys) == Set(Phrase.allCases), "\(language): missing \(Set(Phrase.allCases).subtracting(table.keys))")
            for phrase in Phrase.allCases {
                guard let entry = table[phrase], let english = Lexicon.englishTable[phrase] else { continue }
                switch (english, entry) {
                case (.text(let en), .text(let text)):
                    #expect(Self.placeholders(text) == Self.placeholders(en), "\(language) \(phrase): \(text)")
                    #expect(!text.isEmpty)
                case (.counted(let en), .counted(let forms)):
                    #expect(Set(forms.keys) == Set(PluralRules.categories(of: language)), "\(language) \(phrase): \(forms.keys)")
                    let wanted = Self.placeholders(en[.other] ?? "")
                    for (category, text) in forms {
                        // A form may leave the count out ("La tâche est terminée"), never add one.
                        #expect(
                            Self.placeholders(text).subtracting(["{n}"]) == wanted.subtracting(["{n}"]), "\(language) \(phrase) \(category)"
                        )
                    }
                default:
                    Issue.record("\(language) \(phrase): a counted phrase in one table and not the other")
                }
            }
        }
    }

    @Test("plural forms for 0, 1, 2, 5 and 21 in each language")
    func pluralForms() {
        let counts = [0, 1, 2, 5, 21]
        let expected: [ReportLanguage: [String]] = [
            .en: ["0 tasks", "1 task", "2 tasks", "5 tasks", "21 tasks"],
            .de: ["0 Aufgaben", "1 Aufgabe", "2 Aufgaben", "5 Aufgaben", "21 Aufgaben"],
            // French: 0 and 1 are singular (CLDR's `one`: i = 0,1).
            .fr: ["0 tâche", "1 tâche", "2 tâches", "5 tâches", "21 tâches"],
            .es: ["0 tareas", "1 tarea", "2 tareas", "5 tareas", "21 tareas"],
            .ja: ["0\u{A0}件", "1\u{A0}件", "2\u{A0}件", "5\u{A0}件", "21\u{A0}件"],
        ]
        for language in ReportLanguage.allCases {
            let lexicon = Lexicon(language)
            #expect(counts.map { lexicon.count(.tasksCount, $0) } == expected[language], "\(language)")
        }
        // The issue's own example, and a bucket count in each language.
        let german = Lexicon(.de)
        #expect(german.count(.countOverdue, 1) == "1 Aufgabe überfällig")
        #expect(german.count(.countOverdue, 3) == "3 Aufgaben überfällig")
        #expect(
            counts.map { Lexicon(.fr).count(.daysLate, $0) } == [
                "0 jour de retard", "1 jour de retard", "2 jours de retard", "5 jours de retard", "21 jours de retard",
            ])
        #expect(Lexicon(.fr).count(.tasksCount, 1_000_000) == "1000000 de tâches")
        #expect(Lexicon(.es).count(.tasksCount, 1_000_000) == "1000000 de tareas")
        #expect(
            counts.map { Lexicon(.es).count(.countOverdue, $0) } == [
                "0 vencidas", "1 vencida", "2 vencidas", "5 vencidas", "21 vencidas",
            ])
        #expect(
            counts.map { Lexicon(.ja).count(.daysLate, $0) } == ["0\u{A0}日遅れ", "1\u{A0}日遅れ", "2\u{A0}日遅れ", "5\u{A0}日遅れ", "21\u{A0}日遅れ"])
        #expect(
            counts.map { Lexicon(.en).count(.daysLate, $0) } == [
                "0 days late", "1 day late", "2 days late", "5 days late", "21 days late",
            ])
    }

    @Test("dates and times in the locale's own words; English as the reports always wrote them")
    func dates() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let asOf = Date(timeIntervalSince1970: 1_796_371_200)  // 2026-12-04T08:00:00Z
        let tag = { (text: String) in Lexicon(LanguageTag(text) ?? .english) }
        #expect(Lexicon.english.asOf(asOf, in: utc) == "2026-12-04 08:00 UTC")
        #expect(tag("de").asOf(asOf, in: utc) == "4. Dez. 2026, 08:00 UTC")
        #expect(tag("de-AT").asOf(asOf, in: berlin) == "4. Dez. 2026, 09:00 Europe/Berlin")
        #expect(tag("fr").asOf(asOf, in: utc) == "4 déc. 2026 à 08:00 UTC")
        #expect(tag("es").asOf(asOf, in: utc).hasPrefix("4 dic 2026"))
        #expect(tag("ja").asOf(asOf, in: utc) == "2026年12月4日 8:00 UTC")
        // Stored dues: a date, a course-local time, an instant shown on the course's clock.
        #expect(Lexicon.english.due("2026-11-27", zone: berlin) == "2026-11-27")
        #expect(tag("de").due("2026-11-27", zone: berlin) == "27. Nov. 2026")
        #expect(tag("ja").due("2026-11-27", zone: berlin) == "2026年11月27日")
        #expect(tag("fr").due("2026-11-27", zone: berlin) == "27 nov. 2026")
        #expect(
            tag("de").due(DueDate.local(CivilDate(year: 2026, month: 11, day: 27), hour: 8, minute: 5, second: 0).storageText, zone: berlin)
                == "27. Nov. 2026, 08:05")
        #expect(tag("ja").due(DueDate.instant(1_796_371_200).storageText, zone: berlin) == "2026年12月4日 9:00")
        #expect(tag("ja").day(CivilDate(year: 2026, month: 3, day: 1)) == "2026年3月1日")
    }

    @Test("English is what the reports wrote before languages")
    func englishIsUnchanged() {
        let en = Lexicon.english
        #expect(TaskRowWords.lateWords(1, en) == "1 day late")
        #expect(TaskRowWords.lateWords(4425, en) == "4425 days late, due 12 years ago")
        #expect(TaskRowWords.lateWords(4425, Lexicon(.de)) == "4425 Tage verspätet, fällig vor 12 Jahren")
        #expect(TaskRowWords.lateWords(75, Lexicon(.ja)) == "75\u{A0}日遅れ、2\u{A0}か月前が期限")
        #expect(en.count(.coursesCount, 1) + ", " + en.count(.needAttention, 2) == "1 course, 2 need attention")
        #expect(
            en.markup(.asOfHeader, "<time>x</time>", escape: { $0.replacingOccurrences(of: "A", with: "&A;") }) == "&A;s of <time>x</time>")
    }

    @Test("what changed overnight in each language; English as before")
    func overnightWords() {
        var changes = CourseChanges()
        changes.new = 3
        changes.nowOverdue = 1
        changes.deleted = 2
        let day = CivilDate(year: 2026, month: 11, day: 27)
        #expect(OvernightWords.line(changes, since: .yesterday, .english) == "since yesterday: 3 new, 1 now overdue, 2 deleted")
        #expect(OvernightWords.line(changes, since: .day(day), .english) == "since 2026-11-27: 3 new, 1 now overdue, 2 deleted")
        #expect(OvernightWords.line(changes, since: .yesterday, Lexicon(.de)) == "seit gestern: 3 neu, 1 jetzt überfällig, 2 gelöscht")
        #expect(
            OvernightWords.line(changes, since: .day(day), Lexicon(.fr))
                == "depuis le 27 nov. 2026 : 3 nouvelles, 1 désormais en retard, 2 supprimées")
        #expect(OvernightWords.line(changes, since: .today, Lexicon(.es)) == "desde hoy: 3 nuevas, 1 ahora vencida, 2 eliminadas")
        #expect(OvernightWords.line(changes, since: .day(day), Lexicon(.ja)) == "2026年11月27日 から：新規\u{A0}3、新たに期限切れ\u{A0}1、削除\u{A0}2")
        #expect(OvernightWords.counts(CourseChanges(), Lexicon(.de)) == "keine Änderung")
    }

    @Test("courses share the tag they all name, else the language they all speak, else nothing")
    func shared() {
        let tag = { (text: String) in Lexicon(LanguageTag(text) ?? .english) }
        #expect(Lexicon.shared([tag("de-AT"), tag("de-AT")])?.htmlLanguage == "de-AT")
        #expect(Lexicon.shared([tag("de-AT"), tag("de"), tag("de-CH")])?.htmlLanguage == "de")
        #expect(Lexicon.shared([tag("ja-JP")])?.htmlLanguage == "ja-JP")
        #expect(Lexicon.shared([tag("de"), tag("ja")]) == nil)
        #expect(Lexicon.shared([tag("en-GB"), .english])?.htmlLanguage == "en")
        #expect(Lexicon.shared([]) == nil)
    }

    @Test("a tag names its language; one of another language is English")
    func tags() {
        #expect(Lexicon(LanguageTag("de-AT") ?? .english).language == .de)
        #expect(Lexicon(LanguageTag("de-AT") ?? .english).htmlLanguage == "de-AT")
        #expect(Lexicon(LanguageTag("pt-BR") ?? .english) == .english)
    }
}
