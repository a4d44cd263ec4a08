import Foundation
import Testing

@testable import DashboardCore

/// The normalizer's shortcuts (a whitespace table instead of Unicode property lookups, no NFC
/// work below U+0300) must give exactly what the general rules give.
@Suite("Text normalization: the fast paths equal the general rules", .storeIndependent)
struct TextNormalizerFastPathTests {
    @Test("the whitespace table is Unicode's White_Space property, for every scalar")
    func whitespaceTable() {
        var differences: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if scalar.isUnicodeWhitespace != scalar.properties.isWhitespace { differences.append(value) }
        }
        #expect(differences.isEmpty, "differ at \(differences.prefix(10).map { String($0, radix: 16) })")
    }

    @Test("text below U+0300 is already NFC: every scalar alone, and every pair of Latin letters with what follows")
    func belowCombiningMarksIsNFC() {
        for value in UInt32(0x80)..<0x300 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(scalar)
            #expect(
                text.precomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual(text.unicodeScalars),
                "U+\(String(value, radix: 16))")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let scalars = (0..<4).compactMap { _ in Unicode.Scalar(UInt32.random(in: 0x20..<0x300, using: &generator)) }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            #expect(TextNormalizer.nfc(text).unicodeScalars.elementsEqual(text.precomposedStringWithCanonicalMapping.unicodeScalars))
        }
    }

    @Test(
        "titles with non-ASCII letters and spaces normalize as before",
        arguments: [
            ("  Übungsblatt\u{00A0}3 ", "Übungsblatt 3"), ("Cafe\u{0301} au lait", "Café au lait"), ("a\u{2003}\u{3000}b", "a b"),
            ("\u{1680}x\u{205F}", "x"), ("Ａ\u{202F}Ｂ", "Ａ Ｂ"), ("e\u{0301}", "é"),
        ])
    func titles(_ raw: String, _ expected: String) {
        #expect(TextNormalizer.text(raw) == expected)
        #expect(TextNormalizer.text(raw).unicodeScalars.elementsEqual(expected.precomposedStringWithCanonicalMapping.unicodeScalars))
    }
}
