import Foundation

/// The report's folding (case, diacritics, width: `String.folding` with those options), fast
/// for the texts a school stores (issue 15: Foundation folds about 3 µs a title, and a search
/// or a sort by title folds every one).
///
/// How: a text is folded scalar by scalar from a table of what Foundation gives for each scalar
/// alone (as UTF-8), filled one block of 256 scalars at a time when first met. That equals
/// folding the whole text for the texts the dashboard stores (NFC, from the importer's
/// normalizer) as long as no scalar depends on its neighbours: a scalar that may join them into
/// one character (`FoldTable.joins`: a combining mark, a format character such as a zero-width
/// joiner, a Hangul jamo or syllable, anything beyond the Basic Multilingual Plane) or that
/// folds to a combining mark (half-width ﾞ) sends the whole text to Foundation.
/// `TextFoldTests` compares both on every scalar of the blocks a school's texts use and on
/// random texts mixing ASCII, Latin, Greek, Cyrillic, kana, CJK, full-width forms, ligatures
/// and the special casings (ß, İ, ı, ŉ, ǰ, ΐ).
package enum TextFold {
    /// What `String.folding(options: [.caseInsensitive, .diacriticInsensitive,
    /// .widthInsensitive], locale: nil)` gives for `text`.
    package static func fold(_ text: String) -> String { folded(text).text }

    /// A folded text, and whether it is **plain**: no scalar of it joins its neighbours into one
    /// character (a mark, a format character such as a zero-width joiner, a Hangul jamo or
    /// syllable, a prepended sign), so an ASCII word is in it exactly where its bytes are.
    struct Folded {
        var text: String
        var plain: Bool
    }

    /// `fold`, and whether the result is plain.
    static func folded(_ text: String) -> Folded {
        var isASCII = true
        for byte in text.utf8 where byte >= 0x80 {
            isASCII = false
            break
        }
        if isASCII, let ascii = table.ascii {
            // The common case: a table of 128 entries, one byte each.
            let folded = String(unsafeUninitializedCapacity: text.utf8.count) { buffer in
                var count = 0
                for byte in text.utf8 {
                    buffer[count] = ascii[Int(byte)]
                    count += 1
                }
                return count
            }
            return Folded(text: folded, plain: true)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 8)
        var plain = true
        let ascii = table.ascii
        for scalar in text.unicodeScalars {
            if scalar.value < 0x80, let ascii {
                bytes.append(ascii[Int(scalar.value)])
                continue
            }
            guard let entry = table.fold(scalar) else {
                let folded = foundation(text)
                return Folded(text: folded, plain: folded.unicodeScalars.allSatisfy { !FoldTable.joins($0) })
            }
            bytes.append(contentsOf: entry.utf8)
            plain = plain && entry.plain
        }
        return Folded(text: String(decoding: bytes, as: UTF8.self), plain: plain)
    }

    /// Foundation's folding (the reference).
    package static func foundation(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// True when the ASCII `word` is among the bytes of `text`: what `contains` gives when
    /// `text` is plain (`Folded.plain`: no scalar joins an ASCII one into a larger character;
    /// CR before LF is one character, but a word holds neither).
    static func asciiContains(_ text: String, _ word: String) -> Bool {
        var text = text
        var word = word
        return text.withUTF8 { t in
            word.withUTF8 { w in
                guard w.count <= t.count else { return false }
                guard let first = w.first else { return true }
                var start = 0
                let last = t.count - w.count
                while start <= last {
                    if t[start] == first {
                        var i = 1
                        while i < w.count, t[start + i] == w[i] { i += 1 }
                        if i == w.count { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }

    static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }

    /// The table's blocks copied for one thread's use (no lock per scalar): a search over a
    /// million titles folds them with one.
    final class Cache {
        private var blocks: [[FoldTable.Entry?]?] = Array(repeating: nil, count: 256)
        /// The folded bytes of the last text (reused).
        fileprivate var buffer: [UInt8] = []

        init() {}

        /// The bytes `foldPlain` (or `searchKey`'s `.folded`) left, valid until the next fold.
        func withFolded<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
            try buffer.withUnsafeBufferPointer(body)
        }

        fileprivate func entry(_ value: UInt32) -> FoldTable.Entry? {
            let block = Int(value >> 8)
            if blocks[block] == nil { blocks[block] = table.block(block) }
            return blocks[block]?[Int(value & 0xFF)]
        }
    }

    /// For a text given as UTF-8: whether its fold holds every one of the ASCII `words` (as
    /// `contains` finds them in a plain fold) but those `held` says are found elsewhere; nil
    /// when the fold is not plain, needs Foundation or the bytes are not UTF-8 (the caller then
    /// folds the `String`, as `String(decoding:as:)` reads the bytes).
    static func holdsAll(_ text: UnsafeBufferPointer<UInt8>, _ words: [[UInt8]], held: [Bool] = [], cache: Cache) -> Bool? {
        guard foldPlain(text, cache: cache) else { return nil }
        return cache.buffer.withUnsafeBufferPointer { folded in
            words.indices.allSatisfy { (held.indices.contains($0) && held[$0]) || contains(folded, words[$0]) }
        }
    }

    /// Folds a text given as UTF-8 into `cache`'s buffer (`Cache.folded`), scalar by scalar from
    /// the table: true when that fold is plain, so that an ASCII word is in the fold exactly
    /// where its bytes are (`holdsAll`); false (the buffer then holds nothing of use) when a
    /// scalar joins its neighbours, needs Foundation, lies beyond the BMP, or the bytes are not
    /// UTF-8.
    static func foldPlain(_ text: UnsafeBufferPointer<UInt8>, cache: Cache) -> Bool {
        guard let ascii = table.ascii else { return false }
        cache.buffer.removeAll(keepingCapacity: true)
        var i = 0
        let n = text.count
        while i < n {
            let lead = text[i]
            if lead < 0x80 {
                cache.buffer.append(ascii[Int(lead)])
                i += 1
                continue
            }
            // Two or three bytes (the BMP); anything else, or a broken sequence, goes the slow way.
            var value: UInt32
            if lead & 0xE0 == 0xC0, i + 1 < n, text[i + 1] & 0xC0 == 0x80 {
                value = UInt32(lead & 0x1F) << 6 | UInt32(text[i + 1] & 0x3F)
                guard value >= 0x80 else { return false }
                i += 2
            } else if lead & 0xF0 == 0xE0, i + 2 < n, text[i + 1] & 0xC0 == 0x80, text[i + 2] & 0xC0 == 0x80 {
                value = UInt32(lead & 0x0F) << 12 | UInt32(text[i + 1] & 0x3F) << 6 | UInt32(text[i + 2] & 0x3F)
                guard value >= 0x800, !(0xD800...0xDFFF).contains(value) else { return false }
                i += 3
            } else {
                return false
            }
            guard let entry = cache.entry(value), entry.plain else { return false }
            cache.buffer.append(contentsOf: entry.utf8)
        }
        return true
    }

    /// What a store keeps of a title so that SQL can decide a search of ASCII words on it
    /// (`TitleFolds`, `tasks.title_fold`).
    enum SearchKey: Equatable {
        /// ASCII bytes and no NUL: the fold is the title with its letters in lower case, so
        /// SQL's `LIKE` on the title itself decides (when `asciiFoldIsLowercase`).
        case ascii
        /// The title's plain fold (`foldPlain`), in `Cache.folded`: an ASCII word is in the fold
        /// exactly where its bytes are (SQL's `instr` on the bytes decides). Never empty.
        case folded
        /// SQL cannot decide: the fold is not plain (or empty, or the table's ASCII fold is not
        /// plain lower case); only Swift's fold of the whole title can.
        case swift
    }

    /// The `SearchKey` of a title given as UTF-8 (the folded bytes, for `.folded`, in `cache`).
    static func searchKey(_ text: UnsafeBufferPointer<UInt8>, cache: Cache) -> SearchKey {
        guard asciiFoldIsLowercase else { return .swift }
        if isPlainASCII(text) { return .ascii }
        guard foldPlain(text, cache: cache), !cache.buffer.isEmpty else { return .swift }
        return .folded
    }

    /// True when every byte of `text` is ASCII and none is NUL: the texts whose fold is their
    /// ASCII letters in lower case (`asciiFoldIsLowercase`) and that SQL's `LIKE` (SQLite's,
    /// which stops at a NUL) and `ILIKE` (PostgreSQL's, "C" collation) compare byte by byte,
    /// ASCII letters in any case.
    static func isPlainASCII(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in text where byte == 0 || byte >= 0x80 { return false }
        return true
    }

    /// True when `word` is among the bytes of `text`.
    static func contains(_ text: UnsafeBufferPointer<UInt8>, _ word: [UInt8]) -> Bool {
        guard word.count <= text.count else { return false }
        guard let first = word.first else { return true }
        var start = 0
        let last = text.count - word.count
        while start <= last {
            if text[start] == first {
                var i = 1
                while i < word.count, text[start + i] == word[i] { i += 1 }
                if i == word.count { return true }
            }
            start += 1
        }
        return false
    }

    /// True when an ASCII text folds to itself with its letters in lower case (a store may then
    /// test an ASCII word against ASCII titles in any case: `SearchWord`).
    static var asciiFoldIsLowercase: Bool { asciiIsLowercase }

    /// `asciiFoldIsLowercase`, decided once (the table does not change).
    private static let asciiIsLowercase =
        table.ascii == (0..<128).map { UInt8($0) >= 0x41 && UInt8($0) <= 0x5A ? UInt8($0) + 0x20 : UInt8($0) }

    fileprivate static let table = FoldTable()
}

/// The per-scalar folds, filled a block at a time under a lock (reports may fold on several
/// threads).
final class FoldTable: @unchecked Sendable {
    struct Entry {
        var utf8: [UInt8]
        /// No scalar of the fold joins its neighbours (`TextFold.Folded.plain`).
        var plain: Bool
    }

    /// Folded ASCII bytes, or nil when some ASCII scalar does not fold to one ASCII scalar
    /// (then ASCII texts take the per-scalar tables too).
    let ascii: [UInt8]?
    private let lock = NSLock()
    /// Per block of 256 BMP scalars: each scalar's fold, or nil when it sends the text to
    /// Foundation.
    private var blocks: [[Entry?]?] = Array(repeating: nil, count: 256)

    init() {
        let folded = (0..<128).map { Array(TextFold.foundation(String(Unicode.Scalar(UInt8($0)))).utf8) }
        ascii = folded.allSatisfy { $0.count == 1 && $0[0] < 0x80 } ? folded.map { $0[0] } : nil
    }

    func fold(_ scalar: Unicode.Scalar) -> Entry? {
        let value = Int(scalar.value)
        guard value < 0x1_0000 else { return nil }
        return block(value >> 8)[value & 0xFF]
    }

    /// Block `block` of the BMP (256 scalars), built when first asked for.
    func block(_ block: Int) -> [Entry?] {
        lock.lock()
        defer { lock.unlock() }
        if let built = blocks[block] { return built }
        let built = Self.build(block)
        blocks[block] = built
        return built
    }

    /// A combining mark (general category M).
    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// A scalar that may join its neighbours into one character: a mark, a format character
    /// (zero-width joiner and non-joiner, the prepended Arabic signs), a grapheme extender
    /// (half-width ﾞ), a Hangul jamo or syllable, the Malayalam dot reph, anything beyond the BMP.
    static func joins(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return false }
        if value >= 0x1_0000 || isMark(scalar) || scalar.properties.generalCategory == .format || scalar.properties.isGraphemeExtend {
            return true
        }
        return (0x1100...0x11FF).contains(value) || (0x3130...0x318F).contains(value) || (0xA960...0xA97F).contains(value)
            || (0xAC00...0xD7FF).contains(value) || value == 0x0D4E
    }

    private static func build(_ block: Int) -> [Entry?] {
        (0..<256).map { offset -> Entry? in
            guard let scalar = Unicode.Scalar(UInt32(block << 8 | offset)) else { return nil }
            // A scalar that may join its neighbours (a mark, a zero-width joiner, a jamo) folds
            // with them: the text goes to Foundation.
            if joins(scalar) { return nil }
            let folded = TextFold.foundation(String(scalar))
            // A scalar that folds to a combining mark (half-width ﾞ to U+3099) joins its neighbour.
            if folded.unicodeScalars.contains(where: isMark) { return nil }
            return Entry(utf8: Array(folded.utf8), plain: !folded.unicodeScalars.contains(where: joins))
        }
    }
}
