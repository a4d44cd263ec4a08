import Testing

@testable import DashboardCore

/// Issue 29: CLDR's cardinal plural categories of whole numbers in each report language
/// (`PluralRules`), for the counts issue 29 names and CLDR's own samples.
@Suite(.storeIndependent) struct PluralRulesTests {
    static let counts = [0, 1, 2, 5, 21, 1_000_000]

    @Test(arguments: [
        (ReportLanguage.en, [PluralCategory.other, .one, .other, .other, .other, .other]),
        (.de, [.other, .one, .other, .other, .other, .other]),
        (.fr, [.one, .one, .other, .other, .other, .many]),
        (.es, [.other, .one, .other, .other, .other, .many]),
        (.ja, [.other, .other, .other, .other, .other, .other]),
    ])
    func eachCountHasItsLanguagesCategory(language: ReportLanguage, expected: [PluralCategory]) {
        #expect(Self.counts.map { PluralRules.category(of: $0, in: language) } == expected)
    }

    @Test func everyLanguageHasARule() {
        #expect(ReportLanguage.allCases.count == 5)
        for language in ReportLanguage.allCases {
            let found = Set((0...2_000_100).lazy.filter { $0 < 1000 || $0 % 1000 == 0 }.map { PluralRules.category(of: $0, in: language) })
            #expect(found == Set(PluralRules.categories(of: language)), "\(language)")
        }
    }

    /// CLDR's `@integer` samples of each rule (plurals.xml), whole numbers only.
    @Test func cldrsIntegerSamplesFallInTheirCategories() {
        let samples: [(ReportLanguage, PluralCategory, [Int])] = [
            (.en, .one, [1]), (.en, .other, [0, 2, 16, 100, 1000, 10000, 100000, 1_000_000]),
            (.de, .one, [1]), (.de, .other, [0, 2, 16, 100, 1000, 10000, 100000, 1_000_000]),
            (.fr, .one, [0, 1]), (.fr, .many, [1_000_000, 2_000_000, 6_000_000]), (.fr, .other, [2, 17, 100, 1000, 10000, 100000]),
            (.es, .one, [1]), (.es, .many, [1_000_000, 2_000_000, 6_000_000]), (.es, .other, [0, 2, 16, 100, 1000, 10000, 100000]),
            (.ja, .other, [0, 1, 15, 100, 1000, 10000, 100000, 1_000_000]),
        ]
        for (language, category, numbers) in samples {
            for n in numbers { #expect(PluralRules.category(of: n, in: language) == category, "\(language) \(n)") }
        }
        // 1,000,001 is not a multiple of a million; a negative count is its absolute value's.
        #expect(PluralRules.category(of: 1_000_001, in: .fr) == .other)
        #expect(PluralRules.category(of: -1, in: .de) == .one)
        #expect(PluralRules.category(of: Int.min, in: .es) == .other)
    }
}
