import Foundation

/// A morning-digest e-mail, written as RFC 5322 text with a MIME `multipart/alternative` body:
/// a `text/plain` and a `text/html` part. Pure: no clock, no I/O; the same value always renders
/// the same bytes.
///
/// Policy:
/// - The output is 7-bit ASCII: non-ASCII header text goes into RFC 2047 encoded words
///   (`B`, UTF-8), both bodies are quoted-printable (RFC 2045 §6.7).
/// - Every line fits in 78 characters before its line end (RFC 5322 §2.1.1). The one
///   exception is a single unbreakable token longer than a line (an address or a message id
///   of more than about 74 characters): RFC 5322 has no fold point inside it, so it keeps a
///   line of its own, still far under the hard limit of 998.
/// - No header value can break its line: control characters (CR and LF among them) and the
///   Unicode line and paragraph separators in the subject and display names become spaces,
///   and the message id keeps only the characters of an RFC 5322 `msg-id`.
/// - Headers in a fixed order: `Date`, `From`, `To`, `Subject`, `Message-ID`,
///   `MIME-Version`, `Auto-Submitted: auto-generated` (RFC 3834: vacation responders stay
///   quiet), `X-Auto-Response-Suppress: All` (the same for Exchange), `Content-Type`.
///   An empty `to` is written as the empty group `undisclosed-recipients:;`.
/// - The MIME boundary is `=_` and 24 hex digits of the SHA-256 of the message id: the same
///   message always has the same boundary, and since quoted-printable never writes `=_`
///   (an `=` is followed by two hex digits or ends a line), no body line can be mistaken for it.
package struct MailMessage: Sendable, Equatable {
    /// One address of a `From` or `To` header, with an optional display name.
    package struct Mailbox: Sendable, Equatable {
        package var name: String?
        package var address: EmailAddress

        package init(name: String?, address: EmailAddress) {
            self.name = name
            self.address = address
        }
    }

    package var from: Mailbox
    package var to: [Mailbox]
    package var subject: String
    package var date: Date
    /// The id-left@id-right without angle brackets.
    package var messageID: String
    /// The plain-text part; lines separated by "\n".
    package var text: String
    /// The HTML part (a whole document); lines separated by "\n".
    package var html: String

    package init(from: Mailbox, to: [Mailbox], subject: String, date: Date, messageID: String, text: String, html: String) {
        self.from = from
        self.to = to
        self.subject = subject
        self.date = date
        self.messageID = messageID
        self.text = text
        self.html = html
    }

    /// RFC 5322 §2.1.1: a line SHOULD have at most 78 characters before its line end.
    static let lineLimit = 78

    /// RFC 2045 §6.7 (5): a quoted-printable line has at most 76 characters.
    static let quotedPrintableLimit = 76

    /// The whole message, every line ending in `lineEnding` ("\r\n" for a file, "\n" for `sendmail -t -oi`).
    package func rendered(lineEnding: String = "\r\n") -> String {
        let boundary = Self.boundary(messageID: messageID)
        let lines =
            headerLines(boundary: boundary) + ["", "This is a message in MIME format.", ""]
            + Self.part(mediaType: "text/plain", body: text, boundary: boundary)
            + Self.part(mediaType: "text/html", body: html, boundary: boundary) + ["--" + boundary + "--"]
        return lines.joined(separator: lineEnding) + lineEnding
    }

    /// A Message-ID made from a stable seed (e.g. the teacher and the as-of): the first 32 hex
    /// digits of the SHA-256 of `seed`, `@`, then `domain` (the domain of `from`). Deterministic,
    /// so a digest sent twice for the same seed is recognisably the same message.
    package static func messageID(seed: String, domain: String) -> String {
        String(sha256Hex(seed).prefix(32)) + "@" + domain
    }

    // MARK: - Message structure

    /// The message's header lines, folded, in the policy's order.
    func headerLines(boundary: String) -> [String] {
        let subjectLines = Self.subjectLines(subject)
        let firstSubjectLine = subjectLines[0].isEmpty ? "Subject:" : "Subject: " + subjectLines[0]
        return ["Date: " + Self.date(date)]
            + Self.folded(name: "From", tokens: Self.mailboxTokens(from))
            + Self.folded(name: "To", tokens: Self.addressListTokens(to))
            + [firstSubjectLine] + subjectLines.dropFirst()
            + Self.folded(name: "Message-ID", tokens: ["<" + Self.messageIDText(messageID) + ">"])
            + [
                "MIME-Version: 1.0",
                "Auto-Submitted: auto-generated",
                "X-Auto-Response-Suppress: All",
                "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
            ]
    }

    /// One body part: its delimiter line, its headers, an empty line and the quoted-printable body.
    static func part(mediaType: String, body: String, boundary: String) -> [String] {
        [
            "--" + boundary,
            "Content-Type: \(mediaType); charset=UTF-8",
            "Content-Transfer-Encoding: quoted-printable",
            "",
        ] + quotedPrintableLines(body)
    }

    /// `=_` and 24 hex digits of the SHA-256 of the message id: 26 characters (RFC 2046 allows 70).
    static func boundary(messageID: String) -> String {
        "=_" + String(sha256Hex(messageID).prefix(24))
    }

    /// The message id as written between `<` and `>`: only ASCII `atext`, `.` and `@` are kept,
    /// so that a caller's id can never end the header or bring a non-ASCII byte.
    static func messageIDText(_ id: String) -> String {
        let kept = id.unicodeScalars.filter { scalar in
            scalar.isASCII && (EmailAddress.isAtext(UInt8(scalar.value)) || scalar == "." || scalar == "@")
        }
        return String(String.UnicodeScalarView(kept))
    }

    static func sha256Hex(_ text: String) -> String {
        let digest = SHA256()
        digest.update(Array(text.utf8))
        return digest.finalizeHex()
    }

    // MARK: - Structured headers (From, To, Message-ID)

    /// `name:` and the tokens separated by spaces, a space becoming a fold (CRLF + space) where
    /// the line would pass 78 characters. A token longer than a line gets a line of its own.
    static func folded(name: String, tokens: [String]) -> [String] {
        var lines = [name + ":"]
        for token in tokens {
            if lines[lines.count - 1].utf8.count + 1 + token.utf8.count <= lineLimit {
                lines[lines.count - 1] += " " + token
            } else {
                lines.append(" " + token)
            }
        }
        return lines
    }

    /// The mailboxes of a `To` header as fold tokens, a comma after each mailbox but the last;
    /// no mailbox at all is the empty group `undisclosed-recipients:;`.
    static func addressListTokens(_ boxes: [Mailbox]) -> [String] {
        guard !boxes.isEmpty else { return ["undisclosed-recipients:;"] }
        return boxes.enumerated().flatMap { index, box in
            var tokens = mailboxTokens(box)
            if index < boxes.count - 1 { tokens[tokens.count - 1] += "," }
            return tokens
        }
    }

    /// A mailbox as a header writes it: `address` alone when there is no name; otherwise the
    /// display name, a space and `<address>`.
    ///
    /// Policy: the name has its control characters and line separators replaced by spaces and
    /// its surrounding white space trimmed; an empty name writes the address alone. A printable
    /// ASCII name is always a quoted-string (`"` and `\` escaped by `\`), so no list of RFC 5322
    /// specials has to be right; a name that is not printable ASCII, contains `=?` (which a reader
    /// might decode as an encoded word) or whose quoted form would not fit a `From: ` line
    /// (72 characters) is written as encoded words.
    package static func mailbox(_ box: Mailbox) -> String {
        mailboxTokens(box).joined(separator: " ")
    }

    /// `mailbox(_:)` as fold tokens: the quoted name or each encoded word, then `<address>`.
    static func mailboxTokens(_ box: Mailbox) -> [String] {
        let name = headerSafe(box.name ?? "").trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return [box.address.text] }
        let quoted = quotedString(name)
        let fitsQuoted = isPlainASCII(name) && quoted.utf8.count <= lineLimit - "From: ".utf8.count
        return (fitsQuoted ? [quoted] : encodedWords(name)) + ["<" + box.address.text + ">"]
    }

    /// An RFC 5322 quoted-string: `text` between double quotes, `"` and `\` escaped by `\`.
    static func quotedString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

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

    // MARK: - Quoted-printable (RFC 2045 §6.7)

    /// RFC 2045 §6.7 quoted-printable of the UTF-8 bytes of `text`, lines joined by "\r\n".
    ///
    /// Policy: each "\n" of the text is a hard line break. Printable ASCII other than `=` is
    /// written as it is, and a space too unless it ends a line; everything else (`=`, tab, CR,
    /// other control characters, every byte of a non-ASCII character) is `=XX` with uppercase
    /// hex. A line longer than 76 characters is cut by soft breaks (`=` at the end of a line),
    /// never inside an `=XX`. A `.` that would start a physical line is `=2E` (SMTP's
    /// dot-stuffing never applies) and a `From ` that would start one begins `=46` (an mbox
    /// reader never sees a separator).
    package static func quotedPrintable(_ text: String) -> String {
        quotedPrintableLines(text).joined(separator: "\r\n")
    }

    /// `quotedPrintable(_:)` as physical lines.
    static func quotedPrintableLines(_ text: String) -> [String] {
        Array(text.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).flatMap { line in
            softBroken(quotedPrintableTokens(Array(line)))
        }
    }

    /// One line's bytes as tokens, one per byte: the character itself or `=XX`.
    static func quotedPrintableTokens(_ line: [UInt8]) -> [String] {
        line.enumerated().map { index, byte in
            let isLiteral = (33...126).contains(byte) && byte != UInt8(ascii: "=") || byte == 32 && index < line.count - 1
            return isLiteral ? String(Unicode.Scalar(byte)) : hexEscape(byte)
        }
    }

    /// The tokens of one line laid out in lines of at most 76 characters, every line but the
    /// last ending in the soft break `=`.
    static func softBroken(_ tokens: [String]) -> [String] {
        var lines: [String] = []
        var current = ""
        for index in tokens.indices {
            let room = index == tokens.count - 1 ? quotedPrintableLimit : quotedPrintableLimit - 1
            if !current.isEmpty, current.utf8.count + tokens[index].utf8.count > room {
                lines.append(current + "=")
                current = ""
            }
            current += current.isEmpty ? lineStart(tokens, at: index) : tokens[index]
        }
        return lines + [current]
    }

    /// The token at `index` when it begins a physical line: `.` becomes `=2E` and the `F` of
    /// `From ` becomes `=46`.
    static func lineStart(_ tokens: [String], at index: Int) -> String {
        if tokens[index] == "." { return "=2E" }
        if tokens[index...].starts(with: ["F", "r", "o", "m", " "]) { return "=46" }
        return tokens[index]
    }

    /// `=XX`, uppercase hex.
    static func hexEscape(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "=" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
    }

    // MARK: - Date (RFC 5322 §3.3)

    /// The RFC 5322 date of the instant in UTC, "Fri, 04 Dec 2026 02:00:00 +0000".
    ///
    /// Policy: computed by hand on the proleptic Gregorian calendar, so the day and month names
    /// are English whatever the process's locale; fractions of a second are dropped (rounded
    /// down) and instants outside the years 0001–9999 are clamped to them (a year has 4 digits).
    package static func date(_ date: Date) -> String {
        let seconds = clampedSeconds(date.timeIntervalSince1970)
        let secondOfDay = secondsOfDay(seconds)
        let days = (seconds - secondOfDay) / 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekday = weekdays[((days % 7) + 11) % 7]  // 1970-01-01 was a Thursday.
        let time = [secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60].map { padded($0, 2) }
        return "\(weekday), \(padded(day, 2)) \(months[month - 1]) \(padded(year, 4)) \(time.joined(separator: ":")) +0000"
    }

    /// Whole seconds since 1970 (rounded down), within 0001-01-01 and 9999-12-31T23:59:59.
    static func clampedSeconds(_ interval: TimeInterval) -> Int {
        let first = -62_135_596_800.0
        let last = 253_402_300_799.0
        guard !interval.isNaN else { return 0 }
        return Int(min(max(interval, first), last).rounded(.down))
    }

    /// The second of its UTC day, 0..<86400, also before 1970.
    static func secondsOfDay(_ seconds: Int) -> Int {
        ((seconds % 86_400) + 86_400) % 86_400
    }

    /// The Gregorian year, month (1–12) and day of a day count since 1970-01-01
    /// (Howard Hinnant's `civil_from_days`).
    static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `number` in decimal, zero-padded on the left to `width` digits.
    static func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
