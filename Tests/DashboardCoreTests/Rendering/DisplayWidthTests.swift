import Testing

@testable import DashboardCore

@Suite("Display width: columns, truncate, pad, wrap", .storeIndependent)
struct DisplayWidthTests {
    @Test(
        "columns a terminal shows",
        arguments: [
            ("", 0),
            ("abc", 3),
            ("Task 10: read ch. 3!", 20),
            ("café", 4),  // precomposed é
            ("cafe\u{301}", 4),  // e + combining acute
            ("Ünïcödé", 7),
            ("U\u{308}bung", 5),
            ("a\u{200B}b", 2),  // zero-width space
            ("日本語", 6),
            ("한국어", 6),
            ("ｆｕｌｌ", 8),  // full-width Latin
            ("日本 ok", 7),
            ("😀", 2),
            ("🎉 done", 7),
            ("🤖", 2),
            ("🚀", 2),
            ("🫠", 2),
            ("⚡", 2),
            ("✅", 2),
            ("❤", 1),  // text presentation by default
            ("🇩🇪", 2),  // two regional indicators
        ])
    func width(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    @Test(
        "truncate keeps text that fits and ends what it cuts with …",
        arguments: [
            ("Hello", 10, "Hello"),
            ("Hello", 5, "Hello"),
            ("Hello world", 5, "Hell…"),
            ("Hello world", 1, "…"),
            ("Hello world", 0, ""),
            ("", 0, ""),
            ("日本語テキスト", 5, "日本…"),
            ("日本語テキスト", 4, "日…"),
            ("日本語テキスト", 2, "…"),
            ("cafe\u{301} au lait", 5, "cafe\u{301}…"),
            ("😀😀😀", 4, "😀…"),
        ])
    func truncate(text: String, width: Int, expected: String) {
        let result = DisplayWidth.truncate(text, to: width)
        #expect(result == expected)
        #expect(Array(result.unicodeScalars) == Array(expected.unicodeScalars))
    }

    static let samples = [
        "Übungsblatt 3: Aufgaben zur linearen Algebra",
        "日本語のテキストと English words mixed",
        "cafe\u{301} cre\u{300}me bru\u{302}le\u{301}e",
        "😀 emoji 🎉 everywhere 🤖",
        "Averyveryveryverylongwordwithoutanyspaces and short",
        "a",
        "",
    ]

    @Test("truncate never exceeds the width, and anything cut ends with … after a prefix of the text", arguments: samples)
    func truncateBounds(text: String) {
        for width in 0...50 {
            let result = DisplayWidth.truncate(text, to: width)
            #expect(DisplayWidth.of(result) <= width, "width \(width): \(result)")
            if result != text, width > 0 {
                #expect(result.hasSuffix("…"))
                #expect(text.hasPrefix(String(result.dropLast())))
            }
        }
    }

    @Test(
        "pad fills to the width in columns and never cuts",
        arguments: [
            ("abc", 5, "abc  "),
            ("日本", 6, "日本  "),
            ("e\u{301}", 3, "e\u{301}  "),
            ("abcdef", 3, "abcdef"),
            ("日本", 4, "日本"),
        ])
    func pad(text: String, width: Int, expected: String) {
        #expect(Array(DisplayWidth.pad(text, to: width).unicodeScalars) == Array(expected.unicodeScalars))
    }

    @Test(
        "wrap breaks between words, and splits only words longer than a line",
        arguments: [
            ("the quick brown fox", 10, ["the quick", "brown fox"]),
            ("the quick brown fox", 100, ["the quick brown fox"]),
            ("", 10, [""]),
            ("a   b", 10, ["a   b"]),
            ("a   b c", 4, ["a b", "c"]),
            ("abcdefghij", 4, ["abcd", "efgh", "ij"]),
            ("see abcdefghij", 4, ["see", "abcd", "efgh", "ij"]),
            ("日本語テキスト", 5, ["日本", "語テ", "キス", "ト"]),
            ("a 日本 b", 1, ["a", "日", "本", "b"]),
            ("cafe\u{301} au lait", 2, ["ca", "fe\u{301}", "au", "la", "it"]),
            // Japanese breaks after its comma or colon (kept on the line), never at a no-break space.
            ("期限切れ\u{A0}10\u{A0}件、今日が期限\u{A0}6\u{A0}件", 16, ["期限切れ\u{A0}10\u{A0}件、", "今日が期限\u{A0}6\u{A0}件"]),
            ("要対応： 期限切れ 3 件", 13, ["要対応：", "期限切れ 3 件"]),
            ("要対応：期限切れ", 100, ["要対応：期限切れ"]),
            ("a、b c", 3, ["a、", "b c"]),
        ])
    func wrap(text: String, width: Int, expected: [String]) {
        let lines = DisplayWidth.wrap(text, to: width)
        #expect(lines.map { Array($0.unicodeScalars) } == expected.map { Array($0.unicodeScalars) })
    }

    @Test("wrap loses nothing and stays within the width, except a single character wider than it", arguments: samples)
    func wrapBounds(text: String) {
        let words = text.split(separator: " ").joined()
        for width in 1...50 {
            let lines = DisplayWidth.wrap(text, to: width)
            #expect(lines.joined(separator: " ").split(separator: " ").joined() == words, "width \(width)")
            for line in lines {
                #expect(DisplayWidth.of(line) <= width || line.count == 1, "width \(width): \(line)")
                #expect(!line.hasPrefix(" ") && !line.hasSuffix(" "))
            }
        }
    }

    @Test("ASCII takes a column a scalar, as the property rule says, and whole ASCII lines a column a byte")
    func asciiFastPaths() {
        for value in UInt32(1)..<0x80 {
            let scalar = Unicode.Scalar(value)!
            #expect(DisplayWidth.propertyWidth(scalar) == 1, "U+\(String(value, radix: 16))")
            #expect(DisplayWidth.width(scalar) == 1)
        }
        #expect(DisplayWidth.width("\u{0}") == 0)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let text = String(
                String.UnicodeScalarView(
                    (0..<Int.random(in: 0...40, using: &random)).map { _ in
                        Unicode.Scalar([0x00, 0x1B, 0x41, 0x6D, 0x5B, 0x20, 0xE9, 0x4E00, 0x301].randomElement(using: &random)!)!
                    }))
            var expected = 0
            var inSequence = false
            for scalar in text.unicodeScalars {
                if inSequence {
                    if scalar == "m" { inSequence = false }
                    continue
                }
                if scalar == "\u{1B}" {
                    inSequence = true
                    continue
                }
                expected += DisplayWidth.propertyWidth(scalar)
            }
            #expect(DisplayWidth.of(text) == expected, "\(text.unicodeScalars.map { $0.value })")
        }
    }
}
