/// A stored value of a task that breaks the contract (a hand edit, or a writable_schema edit
/// that slipped past the CHECK constraints), kept as it was found.
package struct InvalidStoredValue: Hashable, Sendable {
    /// `priority`, `completed` or `due`.
    package var column: String
    /// The stored value as text; nil for NULL.
    package var storedText: String?
    /// True when the stored value is a number (not text).
    package var storedNumber: Bool

    /// `invalid priority "urgent"`: the words every human-readable report shows. Anything but
    /// letters, digits and `-_.:+/ ` is written as `\u{…}`, so the words are safe as they are
    /// in text, Markdown, HTML and CSV alike.
    package var words: String {
        guard let text = storedText else { return "invalid \(column) NULL" }
        return "invalid \(column) " + (storedNumber ? Self.plain(text) : "\"" + Self.plain(text) + "\"")
    }

    static func plain(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(200) {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "-_.:+/ ".unicodeScalars.contains(scalar),
                !(0x202A...0x202E).contains(scalar.value), !(0x2066...0x2069).contains(scalar.value)
            {
                out.unicodeScalars.append(scalar)
            } else {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return out
    }
}
