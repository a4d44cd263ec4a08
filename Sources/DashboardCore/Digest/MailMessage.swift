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
}
