import Foundation

extension Unicode.Scalar {
    /// Unicode's White_Space property (the same set as `properties.isWhitespace`), without the
    /// property table lookup that made normalizing a million non-ASCII titles slow.
    var isUnicodeWhitespace: Bool {
        switch value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }
}

extension String {
    /// Calls `body` with the string's UTF-8 bytes, in place for a native or small string (what
    /// the CSV reader makes), else from a copy. The normalizers' byte loops run over this rather
    /// than over `utf8`, whose generic iteration cost several per cent of the reading thread.
    @inline(__always)
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }

    /// True when every byte is ASCII.
    var isASCII: Bool {
        withUTF8Bytes { bytes in
            var all: UInt8 = 0
            for byte in bytes { all |= byte }
            return all < 0x80
        }
    }

    /// The string without leading and trailing Unicode whitespace (spaces, tabs, newlines,
    /// no-break spaces).
    package func trimmingUnicodeWhitespace() -> String {
        // Fast path: nothing to trim when both ends are visible ASCII (most fields).
        let visibleEnds = withUTF8Bytes { bytes in
            guard let first = bytes.first, let last = bytes.last else { return true }
            return first > 0x20 && first < 0x7F && last > 0x20 && last < 0x7F
        }
        if visibleEnds { return self }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isUnicodeWhitespace }) else { return "" }
        guard let last = scalars.lastIndex(where: { !$0.isUnicodeWhitespace }) else { return "" }
        if first == scalars.startIndex, last == scalars.index(before: scalars.endIndex) { return self }
        return String(scalars[first...last])
    }
}

/// The text rules applied to every field before it is validated or stored.
///
/// Policy (SPEC §3): ids are trimmed and otherwise kept exactly; free text (titles, teacher,
/// term) is trimmed, every run of whitespace and line breaks inside it becomes one space, and
/// everything is put in Unicode NFC.
package enum TextNormalizer {
    /// Trims and NFC-normalizes an id; case and inner spaces are kept.
    package static func id(_ raw: String) -> String {
        nfc(raw.trimmingUnicodeWhitespace())
    }

    /// Trims, collapses whitespace runs to one space, and NFC-normalizes free text.
    package static func text(_ raw: String) -> String {
        // Fast path for ASCII without doubled, leading or trailing white space: already normal.
        let alreadyNormal = raw.withUTF8Bytes { bytes in
            var clean = true
            var previousSpace = true
            for byte in bytes {
                if byte >= 0x80 { return false }
                let space = byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
                if space && (previousSpace || byte != 0x20) { clean = false }
                previousSpace = space
            }
            return clean && !previousSpace
        }
        if alreadyNormal { return raw }
        if raw.isEmpty { return raw }
        var result = ""
        result.unicodeScalars.reserveCapacity(raw.utf8.count)
        var pendingSpace = false
        for scalar in raw.unicodeScalars {
            if scalar.isUnicodeWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace {
                result.unicodeScalars.append(" ")
                pendingSpace = false
            }
            result.unicodeScalars.append(scalar)
        }
        return nfc(result)
    }

    /// Unicode NFC; text below U+0300 (ASCII, Latin-1, Latin Extended) is returned as is
    /// without any work: nothing there composes or decomposes (combining marks start at
    /// U+0300, and no character before them has a canonical decomposition that NFC keeps apart).
    package static func nfc(_ value: String) -> String {
        if value.isASCII { return value }
        if value.unicodeScalars.allSatisfy({ $0.value < 0x300 }) { return value }
        return value.precomposedStringWithCanonicalMapping
    }
}
