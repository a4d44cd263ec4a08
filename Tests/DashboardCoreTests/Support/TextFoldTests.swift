import Foundation
import Testing

@testable import DashboardCore

/// The table-driven fold is Foundation's folding (case, diacritics, width) on every scalar of
/// the blocks a school's texts use and on random texts mixing them; a search finds a task
/// exactly when Foundation's fold of `title + " " + course text` holds every word.
@Suite("Report: the fold of texts and the search that uses it", .storeIndependent)
struct TextFoldTests {
    /// Blocks of 256 scalars: Latin, IPA, Greek, Cyrillic, Armenian, Hebrew and Arabic, Latin
    /// Extended Additional, Greek Extended, punctuation, letterlike and number forms, enclosed
    /// alphanumerics, kana, CJK, Hangul syllables, ligatures, full- and half-width forms.
    static let blocks = [
        0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x1E, 0x1F, 0x20, 0x21, 0x24, 0x30, 0x31, 0x4E, 0xAC, 0xD5, 0xFB, 0xFF,
    ]

    @Test("every scalar of the tested blocks folds as Foundation folds it")
    func everyScalar() {
        var differing: [String] = []
        for block in Self.blocks {
            for offset in 0..<256 {
                guard let scalar = Unicode.Scalar(UInt32(block << 8 | offset)) else { continue }
                let text = String(scalar)
                if TextFold.fold(text) != TextFold.foundation(text) { differing.append(String(format: "U+%04X", scalar.value)) }
            }
        }
        #expect(differing == [])
    }

    /// Scalars to build texts from, the tricky ones many times over.
    static let alphabet: [String] = {
        var pieces = (0x20..<0x7F).map { String(Unicode.Scalar(UInt8($0))) }
        pieces += ["É", "é", "è", "ü", "Ü", "ß", "ẞ", "İ", "ı", "ŉ", "ǰ", "Å", "Ø", "æ", "Œ", "ﬁ", "ﬀ", "ſ", "K", "Å", "Ω"]
        pieces += ["Σ", "σ", "ς", "ΐ", "Ά", "ά", "ϐ", "Д", "ё", "Ё", "й", "Ѝ"]
        pieces += ["が", "か", "ぱ", "ガ", "ｶ", "ﾞ", "ﾟ", "ｱ", "日", "本", "語", "の", "宿", "題", "한", "국"]
        pieces += ["Ａ", "ｚ", "０", "９", "＠", "①", "Ⅻ", "ℌ", "²", "½", "™", "…", "\u{00A0}", "\u{3000}", "\u{200B}"]
        // Combining marks, a prepended Arabic sign, conjoining jamo, an emoji, CR and LF.
        pieces += ["\u{0301}", "\u{0308}", "\u{3099}", "\u{0600}", "\u{1100}", "\u{1161}", "😀", "\r", "\n", "\r\n"]
        // Joiners and singletons canonically equal to ASCII: ZWJ, ZWNJ, a variation selector,
        // the Malayalam dot reph, Greek question mark and varia, Kelvin.
        pieces += ["\u{200D}", "\u{200C}", "\u{FE0F}", "\u{0D4E}", "\u{037E}", "\u{1FEF}", "\u{212A}", "가"]
        return pieces
    }()

    @Test("random texts over 40,000 seeds fold as Foundation folds them")
    func randomTexts() {
        var random = StreamingReportRandomData(seed: 11)
        var differing: [String] = []
        for _ in 0..<40_000 {
            let text = (0..<random.int(0...10)).map { _ in random.pick(Self.alphabet) }.joined()
            // The stored texts are NFC (the importer normalizes them); test both forms.
            for form in [text, text.precomposedStringWithCanonicalMapping] where TextFold.fold(form) != TextFold.foundation(form) {
                differing.append(form.unicodeScalars.map { String(format: "U+%04X", $0.value) }.joined(separator: " "))
            }
        }
        #expect(Array(differing.prefix(20)) == [])
    }

    @Test("a search finds a task exactly when Foundation's fold of title, space and course text holds every word")
    func searchAsFoundationFinds() {
        var random = StreamingReportRandomData(seed: 12)
        let words = ["e", "es", "essay", "resume", "ubung", "2", "a", "ss", "日本", "が", "か", "k", "é", "σ", "x y", " ", ";", "`", "y"]
        for _ in 0..<20_000 {
            let title = (0..<random.int(0...8)).map { _ in random.pick(Self.alphabet + ["essay", "Résumé", "Übung"]) }.joined()
            let code = (0..<random.int(0...3)).map { _ in random.pick(Self.alphabet + ["ESS", "ay"]) }.joined()
            let search = (0..<random.int(1...2)).map { _ in random.pick(words) }.joined(separator: " ")
            let query = ReportSample.query { $0.search = search }
            let matcher = ReportMatcher(query)
            let course = ReportSample.course("C1", code: code, title: random.pick(["", "Algebra", "Éssays"]))
            let task = ReportSample.task("T1", "C1", title)
            let reference = TextFold.foundation(title) + " " + TextFold.foundation(course.code + " " + course.title)
            let expected = TextFold.foundation(search).split(whereSeparator: { $0.isWhitespace }).allSatisfy { reference.contains($0) }
            #expect(
                matcher.found(task, courseText: matcher.courseText(course)) == expected,
                "title \(title.debugDescription), course \(course.code.debugDescription) \(course.title), search \(search.debugDescription)"
            )
        }
    }

    @Test("the byte search of ASCII texts finds what contains finds")
    func asciiSearch() {
        var random = StreamingReportRandomData(seed: 13)
        for _ in 0..<20_000 {
            let text = String((0..<random.int(0...12)).map { _ in random.pick(Array("abAB a\r\n-")) })
            let word = String((0..<random.int(1...3)).map { _ in random.pick(Array("abA-")) })
            #expect(TextFold.asciiContains(text, word) == text.contains(word), "\(text.debugDescription) \(word.debugDescription)")
        }
    }
}
