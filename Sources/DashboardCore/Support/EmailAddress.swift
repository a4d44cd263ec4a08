import Foundation

/// An e-mail address as the digests accept it (a teacher's `email`, the `mail_from` setting):
/// an RFC 5322 addr-spec in its dot-atom form, ASCII only. Pure.
///
/// Policy: `local@domain`, at most 254 octets; the local part is dot-atoms of RFC 5322's
/// `atext` (letters, digits and ``!#$%&'*+-/=?^_`{|}~``), no leading, trailing or double dot,
/// at most 64 octets; the domain is labels of letters, digits and `-` (not at a label's ends),
/// 1–63 octets each, separated by dots. Quoted local parts, address literals (`[192.0.2.1]`),
/// comments, display names and non-ASCII addresses (SMTPUTF8) are refused: they are rare in
/// school exports, and each would be a header-injection risk to weigh. The domain is kept as
/// given but compared without case.
package struct EmailAddress: Sendable, Hashable {
    /// The address as stored and written in headers.
    package let text: String

    package init?(_ given: String) {
        let bytes = Array(given.utf8)
        guard bytes.count <= 254, let at = bytes.lastIndex(of: UInt8(ascii: "@")), at > 0, at < bytes.count - 1 else { return nil }
        let local = bytes[..<at]
        let domain = bytes[(at + 1)...]
        guard local.count <= 64, Self.isDotAtom(local), Self.isDomain(domain) else { return nil }
        text = given
    }

    /// RFC 5322 `atext`.
    static func isAtext(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default: return Array("!#$%&'*+-/=?^_`{|}~".utf8).contains(b)
        }
    }

    static func isDotAtom(_ bytes: ArraySlice<UInt8>) -> Bool {
        let atoms = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return atoms.allSatisfy { !$0.isEmpty && $0.allSatisfy(isAtext) }
    }

    static func isDomain(_ bytes: ArraySlice<UInt8>) -> Bool {
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            let ok = { (b: UInt8) in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "-")
            }
            return (1...63).contains(label.count) && label.allSatisfy(ok) && label.first != UInt8(ascii: "-")
                && label.last != UInt8(ascii: "-")
        }
    }
}
