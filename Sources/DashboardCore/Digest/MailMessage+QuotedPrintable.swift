/// The bodies' transfer encoding: quoted-printable (RFC 2045 §6.7), with soft breaks, SMTP's
/// dot and mbox's `From ` escaped.
extension MailMessage {
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
}
