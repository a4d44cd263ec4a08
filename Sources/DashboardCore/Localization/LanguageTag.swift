import Foundation

/// A well-formed BCP 47 language tag (RFC 5646), in its canonical case: `de-AT`, `zh-Hant-TW`,
/// `es-419`, `sr-Latn-RS`, `de-CH-1996`, `en-US-u-ca-gregory`.
///
/// Policy: a tag is read by the `langtag` production of RFC 5646 section 2.1, in any case, with
/// `_` accepted for `-` (`de_at`, as POSIX locales write it): a language subtag of 2–3 letters
/// (with up to three 3-letter extended subtags) or of 4–8 letters, an optional script (4
/// letters), an optional region (2 letters or 3 digits), variants (5–8 letters or digits, or a
/// digit and 3 letters or digits), extensions (a singleton other than `x`, then subtags of 2–8
/// letters or digits) and a private use part (`x`, then subtags of 1–8). Anything else is not a
/// tag (`de--AT`, `e`, `de AT`, `-de`, a non-ASCII letter). The tags that are nothing but a
/// private use part (`x-klingon`) or one of the grandfathered exceptions (`i-klingon`,
/// `en-GB-oed`) are not read: neither names a language a report could be written in. Only the
/// grammar is checked, not the IANA registry (`xx` is well-formed). The canonical case is the
/// registry's convention (section 2.1.1): the language lower case, the script in title case,
/// the region upper case, everything else lower case.
package struct LanguageTag: Hashable, Sendable, CustomStringConvertible {
    /// The primary language subtag, lower case (`de`).
    package let language: String
    /// Extended language subtags, lower case (`yue` of `zh-yue`); usually none.
    package let extendedLanguages: [String]
    /// The script subtag in title case (`Hant`), or nil.
    package let script: String?
    /// The region subtag, upper case (`AT`) or 3 digits (`419`), or nil.
    package let region: String?
    /// The rest, lower case, in order: variants, extensions and a private use part.
    package let rest: [String]

    /// English, the reports' language when nothing names one.
    package static let english = LanguageTag(language: "en", extendedLanguages: [], script: nil, region: nil, rest: [])

    private init(language: String, extendedLanguages: [String], script: String?, region: String?, rest: [String]) {
        (self.language, self.extendedLanguages, self.script, self.region, self.rest) = (
            language, extendedLanguages, script, region, rest
        )
    }

    /// Reads `text` as a tag (the whole of it: trim it first), nil when it is not one.
    package init?(_ text: String) {
        // ASCII letters and digits only: a check on bytes, so that no non-ASCII letter is
        // taken for one through case mapping (the Kelvin sign lowercases to `k`).
        guard !text.isEmpty, text.utf8.allSatisfy({ Self.isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        else { return nil }
        let subtags = text.lowercased().split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }.map(String.init)
        guard subtags.allSatisfy({ (1...8).contains($0.count) }) else { return nil }
        var index = 0
        func next(_ accepts: (String) -> Bool) -> String? {
            guard index < subtags.count, accepts(subtags[index]) else { return nil }
            index += 1
            return subtags[index - 1]
        }
        guard let language = next({ $0.count >= 2 && Self.letters($0) }) else { return nil }
        var extended: [String] = []
        if language.count <= 3 {
            while extended.count < 3, let subtag = next({ $0.count == 3 && Self.letters($0) }) { extended.append(subtag) }
        }
        let script = next { $0.count == 4 && Self.letters($0) }
        let region = next { ($0.count == 2 && Self.letters($0)) || ($0.count == 3 && Self.digits($0)) }
        var rest: [String] = []
        while let variant = next(Self.isVariant) { rest.append(variant) }
        while let singleton = next({ $0.count == 1 && $0 != "x" }) {
            guard let first = next({ $0.count >= 2 }) else { return nil }
            rest += [singleton, first]
            while let subtag = next({ $0.count >= 2 }) { rest.append(subtag) }
        }
        if next({ $0 == "x" }) != nil {
            guard index < subtags.count else { return nil }
            rest += ["x"] + subtags[index...]
            index = subtags.count
        }
        guard index == subtags.count else { return nil }
        self.init(
            language: language, extendedLanguages: extended, script: script.map { $0.prefix(1).uppercased() + $0.dropFirst() },
            region: region?.uppercased(), rest: rest)
    }

    /// The tag in its canonical case, subtags joined by `-`.
    package var text: String {
        ([language] + extendedLanguages + [script, region].compactMap { $0 } + rest).joined(separator: "-")
    }

    package var description: String { text }

    /// Foundation's locale of the tag, region and all: the dates and times a report in this
    /// language shows (`de-AT` writes `Jänner`, `de-DE` `Januar`).
    package var locale: Locale { Locale(identifier: text) }

    // MARK: - Subtags

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func letters(_ subtag: String) -> Bool {
        subtag.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
    }

    private static func digits(_ subtag: String) -> Bool {
        subtag.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// `5*8alphanum / (DIGIT 3alphanum)`.
    private static func isVariant(_ subtag: String) -> Bool {
        subtag.count >= 5 || (subtag.count == 4 && subtag.utf8.first.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } == true)
    }
}
