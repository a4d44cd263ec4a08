import Foundation

extension String {
    /// The string without leading and trailing Unicode whitespace (spaces, tabs, newlines,
    /// no-break spaces).
    public func trimmingUnicodeWhitespace() -> String {
        // Fast path: nothing to trim when both ends are visible ASCII (most fields).
        let bytes = utf8
        if let first = bytes.first, let last = bytes.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F { return self }
        if bytes.isEmpty { return self }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        guard let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        if first == scalars.startIndex, last == scalars.index(before: scalars.endIndex) { return self }
        return String(scalars[first...last])
    }
}

/// The text rules applied to every field before it is validated or stored.
///
/// Policy (SPEC §3): ids are trimmed and otherwise kept exactly; free text (titles, teacher,
/// term) is trimmed, every run of whitespace and line breaks inside it becomes one space, and
/// everything is put in Unicode NFC.
public enum TextNormalizer {
    /// Trims and NFC-normalizes an id; case and inner spaces are kept.
    public static func id(_ raw: String) -> String {
        nfc(raw.trimmingUnicodeWhitespace())
    }

    /// Trims, collapses whitespace runs to one space, and NFC-normalizes free text.
    public static func text(_ raw: String) -> String {
        // Fast path for ASCII without doubled, leading or trailing white space: already normal.
        var ascii = true
        var clean = true
        var previousSpace = true
        for byte in raw.utf8 {
            if byte >= 0x80 { ascii = false; break }
            let space = byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
            if space && (previousSpace || byte != 0x20) { clean = false }
            previousSpace = space
        }
        if ascii && clean && !previousSpace { return raw }
        if raw.isEmpty { return raw }
        var result = ""
        result.unicodeScalars.reserveCapacity(raw.utf8.count)
        var pendingSpace = false
        for scalar in raw.unicodeScalars {
            if scalar.properties.isWhitespace {
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

    /// Unicode NFC; ASCII text is returned as is without any work.
    public static func nfc(_ value: String) -> String {
        if value.utf8.allSatisfy({ $0 < 0x80 }) { return value }
        return value.precomposedStringWithCanonicalMapping
    }
}
