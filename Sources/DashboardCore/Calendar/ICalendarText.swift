import Foundation

/// The lexical rules of iCalendar (RFC 5545 §3.1, §3.3.11): content lines ended by CRLF and
/// folded at 75 octets, and TEXT values escaped. Pure.
package enum ICalendarText {
    /// The longest a physical line may be, in octets, without its CRLF (RFC 5545 §3.1).
    static let lineLimit = 75

    /// One content line, `NAME[;PARAM=…]:VALUE`, folded and ended by CRLF: every physical line
    /// at most 75 octets, a continuation line starting with one space, and never a UTF-8
    /// sequence cut in two (a scalar that would cross the limit moves whole to the next line).
    package static func line(_ nameAndParameters: String, _ value: String) -> String {
        fold(nameAndParameters + ":" + value)
    }

    /// Folds one unfolded line (RFC 5545 §3.1) and ends it with CRLF.
    package static func fold(_ line: String) -> String {
        let bytes = Array(line.utf8)
        guard bytes.count > lineLimit else { return line + "\r\n" }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 70 * 3 + 2)
        var start = 0
        var limit = lineLimit
        while start < bytes.count {
            var end = min(start + limit, bytes.count)
            // Back up to the start of a scalar: a continuation byte is 10xxxxxx.
            while end < bytes.count, end > start, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            if start > 0 { out.append(UInt8(ascii: " ")) }
            out.append(contentsOf: bytes[start..<end])
            out.append(contentsOf: [13, 10])
            start = end
            // A continuation line's leading space counts toward its 75 octets.
            limit = lineLimit - 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A TEXT value (RFC 5545 §3.3.11): `\` `;` `,` escaped with a backslash, a line break as
    /// `\n`; control characters (which TEXT cannot hold, tab aside) and bidi controls of user
    /// data as visible escapes, as in every human-readable output (`VisibleText`).
    package static func text(_ value: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(value.unicodeScalars.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            case "\r": continue
            case "\t": out.unicodeScalars.append(scalar)
            default:
                if VisibleText.needsEscape(scalar) {
                    out += VisibleText.escape(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Unfolds a feed's text into its content lines (CRLF or LF; a line starting with a space
    /// or a tab continues the one before). Read as bytes: a Swift `Character` holds CRLF whole.
    package static func unfold(_ text: String) -> [String] {
        var lines: [[UInt8]] = []
        for raw in text.utf8.split(separator: 10, omittingEmptySubsequences: false) {
            var piece = raw[...]
            if piece.last == 13 { piece = piece.dropLast() }
            if let first = piece.first, first == 32 || first == 9, !lines.isEmpty {
                lines[lines.count - 1] += piece.dropFirst()
            } else if !piece.isEmpty {
                lines.append(Array(piece))
            }
        }
        return lines.map { String(decoding: $0, as: UTF8.self) }
    }

    /// A local date as `YYYYMMDD`.
    static func date(_ date: CivilDate) -> String {
        String(date.year).leftPadded(to: 4) + pad2(date.month) + pad2(date.day)
    }

    /// A local date and time as `YYYYMMDDTHHMMSS`.
    static func dateTime(_ date: CivilDate, _ hour: Int, _ minute: Int, _ second: Int) -> String {
        Self.date(date) + "T" + pad2(hour) + pad2(minute) + pad2(second)
    }

    /// An instant as a UTC date-time, `YYYYMMDDTHHMMSSZ`.
    static func utc(_ instant: Date) -> String {
        let seconds = Int64(instant.timeIntervalSince1970.rounded(.down))
        let (day, second) = (floorDiv(seconds, 86_400), seconds - floorDiv(seconds, 86_400) * 86_400)
        let s = Int(second)
        return dateTime(CivilDate(daysSinceEpoch: Int(day)), s / 3600, s / 60 % 60, s % 60) + "Z"
    }

    /// A UTC offset as `±HHMM` (`±HHMMSS` when it has seconds), as TZOFFSETFROM/TO take it.
    static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let a = abs(seconds)
        let text = sign + pad2(a / 3600) + pad2(a / 60 % 60)
        return a % 60 == 0 ? text : text + pad2(a % 60)
    }
}
