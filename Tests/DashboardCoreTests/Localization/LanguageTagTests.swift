import Foundation
import Testing

@testable import DashboardCore

/// Issue 29: BCP 47 tags (`LanguageTag`, RFC 5646's grammar) and the report language a tag
/// resolves to (`ReportLanguage`): by its primary language subtag, the rest kept for dates.
@Suite(.storeIndependent) struct LanguageTagTests {
    @Test(arguments: [
        ("de-AT", "de-AT"), ("de_at", "de-AT"), ("JA-jp", "ja-JP"), ("es-419", "es-419"), ("zh-hant-tw", "zh-Hant-TW"),
        ("EN", "en"), ("sr_latn_rs", "sr-Latn-RS"), ("de-CH-1996", "de-CH-1996"), ("sl-rozaj-biske", "sl-rozaj-biske"),
        ("en-US-u-ca-gregory", "en-US-u-ca-gregory"), ("EN-us-X-Private-Use", "en-US-x-private-use"), ("zh-yue-HK", "zh-yue-HK"),
        ("de-1901", "de-1901"), ("en-a-bbb-x-a-ccc", "en-a-bbb-x-a-ccc"), ("xx", "xx"), ("german", "german"),
        ("qaa-Qaaa-QM-x-southern", "qaa-Qaaa-QM-x-southern"), ("hy-Latn-IT-arevela", "hy-Latn-IT-arevela"),
    ])
    func aWellFormedTagIsReadInItsCanonicalCase(given: String, canonical: String) {
        #expect(LanguageTag(given)?.text == canonical)
    }

    @Test(arguments: [
        "", "e", "de--AT", "-de", "de-", "de AT", " de", "de-AT-", "123", "x-klingon", "i-klingon", "en-GB-oed", "de-Latn-Latn",
        "de-AT-DE", "abcdefghi", "de-a", "de-a-b", "de-x", "en-US-u", "de-abcdefghi", "dé", "de-\u{212A}K", "ＤＥ", "de\u{200B}",
        "de-Latn-1", "de-AT-xyz", "german-abc",
    ])
    func anIllFormedTagIsNone(given: String) {
        #expect(LanguageTag(given) == nil, "\(given.debugDescription)")
    }

    @Test func aTagsPartsAreTheSubtagsInTheirRoles() throws {
        let tag = try #require(LanguageTag("zh_hant_TW"))
        #expect(tag.language == "zh")
        #expect(tag.script == "Hant")
        #expect(tag.region == "TW")
        #expect(tag.rest.isEmpty)
        let cantonese = try #require(LanguageTag("zh-yue"))
        #expect(cantonese.extendedLanguages == ["yue"])
        #expect(try #require(LanguageTag("de-CH-1996-u-co-phonebk")).rest == ["1996", "u", "co", "phonebk"])
    }

    @Test(arguments: [
        ("de-AT", ReportLanguage.de), ("ja-JP", .ja), ("en-GB", .en), ("es-419", .es), ("fr-CA", .fr), ("de", .de), ("en", .en),
        ("de-CH-1996", .de), ("ja-Jpan-JP-u-ca-japanese", .ja),
    ])
    func aTagResolvesByItsPrimaryLanguageSubtag(given: String, language: ReportLanguage) throws {
        let tag = try #require(LanguageTag(given))
        #expect(ReportLanguage(tag) == language)
        #expect(ReportLanguage.tag(given) == .success(tag))
    }

    @Test func aTagOfAnotherLanguageOrNoTagIsRefusedWithTheSameHint() {
        #expect(ReportLanguage.tag("zh") == .failure(.unsupported(language: "zh")))
        #expect(ReportLanguage.tag("pt-BR") == .failure(.unsupported(language: "pt")))
        #expect(ReportLanguage.tag("xx") == .failure(.unsupported(language: "xx")))
        // Cantonese: the extended subtag names the language, not the macrolanguage before it.
        #expect(ReportLanguage.tag("zh-yue") == .failure(.unsupported(language: "yue")))
        #expect(ReportLanguage.tag("en-abc") == .failure(.unsupported(language: "abc")))
        #expect(ReportLanguage.tag("deu") == .failure(.unsupported(language: "deu")))
        #expect(ReportLanguage.tag("german") == .failure(.notALanguageCode))
        for bad in ["de--AT", "e", "", "  ", "de AT"] { #expect(ReportLanguage.tag(bad) == .failure(.illFormed), "\(bad)") }
        #expect(ReportLanguage.tag("\u{A0}de_at\t") == .success(LanguageTag("de-AT")!))
        #expect(LanguageRefusal.hint == "use a BCP 47 tag of a supported language: en, de, fr, es, ja (e.g. de-AT)")
        #expect(LanguageRefusal.unsupported(language: "zh").reason == "names a language the reports are not written in (zh)")
        #expect(LanguageRefusal.illFormed.reason == "is not a BCP 47 language tag")
    }

    @Test func aCoursesLanguageWinsThenTheDatabasesThenEnglish() {
        let austrian = LanguageTag("de-AT")
        #expect(ReportLanguage.resolved(course: "ja-JP", databaseDefault: austrian).text == "ja-JP")
        #expect(ReportLanguage.resolved(course: "", databaseDefault: austrian).text == "de-AT")
        #expect(ReportLanguage.resolved(course: "", databaseDefault: nil) == .english)
        // A stored value no import would write (a hand edit) counts as none.
        #expect(ReportLanguage.resolved(course: "klingon", databaseDefault: nil).text == "en")
        #expect(ReportLanguage.resolved(course: "zh", databaseDefault: austrian).text == "de-AT")
    }

    @Test func theTagsLocaleKeepsTheRegionForDates() throws {
        let locale = try #require(LanguageTag("de_at")).locale
        #expect(locale.language.languageCode?.identifier == "de")
        #expect(locale.region?.identifier == "AT")
        #expect(try #require(LanguageTag("es-419")).locale.language.languageCode?.identifier == "es")
        #expect(try #require(LanguageTag("ja-JP")).locale.region?.identifier == "JP")
    }
}
