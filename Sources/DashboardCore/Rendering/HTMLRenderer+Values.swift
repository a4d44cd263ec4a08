/// How HTML pages show text: every value escaped, a value that could reorder the text around it
/// isolated.
extension HTMLRenderer {
    /// Escapes text for HTML content and attribute values; the data's control, bidi and
    /// invisible characters are shown as visible escapes first (`VisibleText`).
    package static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in VisibleText.of(text) {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// A value of the data inside a sentence, a heading or a cell: escaped, and wrapped in
    /// `<bdi>` when it holds right-to-left letters or direction controls, so it is laid out on
    /// its own and cannot reorder the words, numbers or other values next to it. A value with
    /// neither (its direction controls are escaped anyway) cannot move its neighbours in a
    /// left-to-right page, so it is left unwrapped and the page stays as small as before.
    /// Attribute values (`aria-label`, `href`) use `escape`: they hold no markup.
    package static func value(_ text: String) -> String {
        let escaped = escape(text)
        guard VisibleText.hasRightToLeft(text) || VisibleText.hasHidden(text) else { return escaped }
        return "<bdi>" + escaped + "</bdi>"
    }
}
