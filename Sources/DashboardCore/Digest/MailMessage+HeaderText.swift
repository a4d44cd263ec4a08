import Foundation

/// Header text: a `Subject` (unstructured, RFC 5322) folded or written as RFC 2047 encoded
/// words, and the encoded words a display name that is not printable ASCII needs.
extension MailMessage {
    // MARK: - Unstructured headers (Subject)

    /// A header value of unstructured text (a `Subject`), folded with "\r\n " where needed.
    ///
    /// Policy: control characters (CR and LF among them) and line separators first become spaces,
    /// so the value can never end its header. Printable ASCII without `=?` is kept as is, folded
    /// before a run of spaces where a `Subject: ` line would pass 78 characters; otherwise
    /// (non-ASCII, `=?`, or a word too long for a line) the whole value is encoded words of at
    /// most 68 octets, so that `Subject: ` and the first word still fit one line.
    package static func headerText(_ text: String) -> String {
        subjectLines(text).joined(separator: "\r\n")
    }

    /// `headerText(_:)` as physical lines: the first follows `Subject: `, each later one begins
    /// with white space (the fold).
    static func subjectLines(_ text: String) -> [String] {
        let safe = headerSafe(text)
        let firstRoom = lineLimit - "Subject: ".utf8.count
        if let lines = foldedASCII(safe, firstRoom: firstRoom) { return lines }
        let words = encodedWords(safe, octets: firstRoom)
        return words.isEmpty ? [""] : [words[0]] + words.dropFirst().map { " " + $0 }
    }

    /// Printable ASCII folded before runs of spaces, the first line holding `firstRoom`
    /// characters and the others 78; nil for other text, text with `=?`, a word too long for a
    /// line, or a fold that would leave a line of spaces only.
    static func foldedASCII(_ text: String, firstRoom: Int) -> [String]? {
        guard isPlainASCII(text) else { return nil }
        var lines = [""]
        for (index, piece) in foldPieces(text).enumerated() {
            let room = lines.count == 1 ? firstRoom : lineLimit
            if lines[lines.count - 1].utf8.count + piece.utf8.count <= room {
                lines[lines.count - 1] += piece
            } else if index > 0, piece.utf8.count <= lineLimit, piece.contains(where: { $0 != " " }) {
                lines.append(piece)
            } else {
                return nil
            }
        }
        return lines
    }

    /// `text` cut before each run of spaces that follows a non-space: "a  b c" is "a", "  b", " c".
    static func foldPieces(_ text: String) -> [String] {
        pieces(text) { previous, character in character == " " && previous != " " }
    }

    /// `text` cut before each character for which `cutBefore(previous, character)` holds.
    static func pieces(_ text: String, cutBefore: (Character?, Character) -> Bool) -> [String] {
        var pieces: [String] = []
        var previous: Character?
        for character in text {
            if pieces.isEmpty || cutBefore(previous, character) { pieces.append("") }
            pieces[pieces.count - 1].append(character)
            previous = character
        }
        return pieces
    }

    /// `text` with each control character (Unicode `Cc`: C0, DEL, C1) and each line or paragraph
    /// separator replaced by a space.
    static func headerSafe(_ text: String) -> String {
        let scalars = text.unicodeScalars.map { scalar -> Unicode.Scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return " "
            default: return scalar
            }
        }
        return String(String.UnicodeScalarView(scalars))
    }

    /// Printable ASCII (space to `~`) without `=?`: text a header can carry as it is.
    static func isPlainASCII(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) } && !text.contains("=?")
    }

    // MARK: - Encoded words (RFC 2047)

    /// RFC 2047 `B` encoded words, `=?UTF-8?B?...?=`, each at most 75 octets (45 bytes of text).
    ///
    /// Policy: a word of the text (up to and with the spaces after it) is kept in one encoded
    /// word when it fits one; a longer one is cut between grapheme clusters, and only a cluster
    /// longer than an encoded word (a letter with dozens of combining marks) between its Unicode
    /// scalars. So every encoded word decodes alone to valid UTF-8, and a decoder that wrongly
    /// keeps the space between two encoded words (Python 3.11's address parser, CPython
    /// gh-128110) shows a doubled space rather than a word cut in two. Empty text has no words.
    package static func encodedWords(_ text: String) -> [String] {
        encodedWords(text, octets: 75)
    }

    /// Encoded words of at most `octets` octets (at least 20: one 4-byte scalar's word).
    static func encodedWords(_ text: String, octets: Int) -> [String] {
        let capacity = max(4, (octets - "=?UTF-8?B??=".utf8.count) / 4 * 3)
        let units = spaceEndedWords(text).flatMap { cutUnits($0, capacity: capacity) }
        var chunks: [[UInt8]] = []
        for unit in units {
            if let last = chunks.last, last.count + unit.count <= capacity {
                chunks[chunks.count - 1] += unit
            } else {
                chunks.append(unit)
            }
        }
        return chunks.map { "=?UTF-8?B?" + Data($0).base64EncodedString() + "?=" }
    }

    /// The pieces `word` may be cut into: the whole word when it fits `capacity` bytes, else its
    /// grapheme clusters, a cluster longer than `capacity` as its Unicode scalars.
    static func cutUnits(_ word: String, capacity: Int) -> [[UInt8]] {
        guard word.utf8.count > capacity else { return [Array(word.utf8)] }
        return word.flatMap { character -> [[UInt8]] in
            character.utf8.count <= capacity ? [Array(character.utf8)] : character.unicodeScalars.map { Array(String($0).utf8) }
        }
    }

    /// `text` cut after each run of spaces: "a  b c" is "a  ", "b ", "c".
    static func spaceEndedWords(_ text: String) -> [String] {
        pieces(text) { previous, character in previous == " " && character != " " }
    }
}
