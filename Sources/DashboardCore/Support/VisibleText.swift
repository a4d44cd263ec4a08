/// User data made safe to show to a person: the one rule for every human-readable output.
///
/// A CSV value, a file name, `--reason`, `--actor` or anything read back from the database may
/// hold characters that act on the reader instead of being read: a terminal runs `ESC`
/// sequences (a title that sets the window title and clears the screen), `CR` rewrites the
/// line, `BEL` rings, and bidi controls or zero-width characters make text look like other
/// text (`U+202E` shows `exe.txt` as `txt.exe`). Every text report, every message on stderr,
/// `status`, `batches`, `audit` (text), Markdown and HTML show such characters as visible
/// escapes, always the same ones:
///
/// - C0 controls (U+0000–U+001F, TAB, LF and CR included) as their Unicode control pictures
///   (`ESC` → `␛`, `LF` → `␊`, `CR` → `␍`, `BEL` → `␇`, `TAB` → `␉`), DEL as `␡`;
/// - C1 controls (U+0080–U+009F), bidi controls (U+061C, U+200E, U+200F, U+202A–U+202E,
///   U+2066–U+2069), zero-width and other invisible format characters (U+200B–U+200D,
///   U+2060–U+2064, U+206A–U+206F, U+FEFF, U+180E, and every other character of Unicode's
///   general category Cf, such as the soft hyphen and the tag characters), the Hangul fillers
///   and the Unicode line and paragraph separators (U+2028, U+2029) as `<U+XXXX>`, the code
///   point in hex.
///
/// Two joiners stay as they are where they have a visible effect: U+200D between two emoji
/// (it draws `👩‍💻` as one picture) and U+200C or U+200D between two letters of a script that
/// joins its letters (Arabic, Syriac, N'Ko, the Indic scripts, Mongolian), where it changes the
/// letters' shapes. Everywhere else they are invisible and are escaped.
///
/// The escapes are for people; JSON and CSV keep the exact value (escaped only per their own
/// format), and the database always stores the exact value.
package enum VisibleText {
    /// `text` with every control, bidi and invisible character shown as a visible escape.
    /// Text without any is returned unchanged; the result never holds such a character, so
    /// applying it twice gives the same text as applying it once.
    package static func of(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.indices.contains(where: { hidden(scalars, at: $0) }) else { return text }
        var out = String.UnicodeScalarView()
        for index in scalars.indices {
            let scalar = scalars[index]
            guard hidden(scalars, at: index) else {
                out.append(scalar)
                continue
            }
            out.append(contentsOf: escape(scalar).unicodeScalars)
        }
        return String(out)
    }

    /// The visible form of one scalar that `needsEscape` reports: a control picture for C0
    /// and DEL, `<U+XXXX>` (at least four hex digits) for the rest.
    package static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0..<0x20: return String(Unicode.Scalar(0x2400 + scalar.value).map(Character.init) ?? "\u{FFFD}")
        case 0x7F: return "\u{2421}"
        default:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
        }
    }

    /// True for a control, bidi or invisible character, whatever surrounds it: the list above,
    /// every other format character (Unicode general category Cf: the soft hyphen U+00AD, the
    /// tag characters U+E0000–U+E007F that can smuggle hidden text, the interlinear annotation
    /// marks U+FFF9–U+FFFB, musical and shorthand format controls…) and the Hangul fillers
    /// (U+115F, U+1160, U+3164, U+FFA0), letters that draw nothing.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: return true
        case 0x061C, 0x180E, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064, 0x2066...0x206F, 0xFEFF: return true
        case 0x115F, 0x1160, 0x3164, 0xFFA0: return true
        case 0..<0xAD: return false
        default: return scalar.properties.generalCategory == .format
        }
    }

    /// True when `text` holds a character `of` would escape (ignoring the joiners it keeps).
    package static func hasHidden(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        return scalars.indices.contains(where: { hidden(scalars, at: $0) })
    }

    /// True when `text` holds a right-to-left letter (Hebrew, Arabic, Syriac, Thaana, N'Ko and
    /// the other right-to-left scripts, their presentation forms included): a value that, left
    /// alone, would reorder the left-to-right text around it. Text without any (and without
    /// bidi controls, which `of` escapes) cannot reorder its neighbours.
    package static func hasRightToLeft(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFE, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
            default: return false
            }
        }
    }

    // MARK: - Joiners

    /// Whether the scalar at `index` is shown escaped, looking at its neighbours for the joiners.
    static func hidden(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        let scalar = scalars[index]
        guard needsEscape(scalar) else { return false }
        guard scalar.value == 0x200C || scalar.value == 0x200D else { return true }
        guard index > 0, index + 1 < scalars.count else { return true }
        // An emoji's variation selector may sit between the emoji and the joiner (🏳️‍🌈).
        var before = index - 1
        if scalars[before].value == 0xFE0F, before > 0 { before -= 1 }
        let previous = scalars[before]
        let next = scalars[index + 1]
        if scalar.value == 0x200D, isEmoji(previous), isEmoji(next) { return false }
        if joinsLetters(previous), joinsLetters(next) { return false }
        return true
    }

    static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x7F && scalar.properties.isEmoji
    }

    /// A letter or mark of a script whose letters join or form conjuncts, where U+200C and
    /// U+200D change what is drawn.
    static func joinsLetters(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0600...0x06FF, 0x0700...0x074F, 0x0750...0x077F, 0x07C0...0x07FF, 0x0860...0x086F, 0x0870...0x08FF,
            0x0900...0x0DFF, 0x1800...0x18AF, 0xA8E0...0xA8FF, 0xFB50...0xFDFF, 0xFE70...0xFEFE:
            return scalar.properties.isAlphabetic || scalar.properties.generalCategory == .nonspacingMark
                || scalar.properties.generalCategory == .spacingMark
        default: return false
        }
    }
}
