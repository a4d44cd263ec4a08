/// The character encodings an input file may be declared to use.
///
/// Policy: files are UTF-8 unless the user says otherwise; a leading UTF-8 byte order mark
/// is dropped. Windows-1252 and Latin-1 files are transcoded to UTF-8 before parsing.
public enum InputEncoding: String, Sendable, CaseIterable {
    case utf8 = "utf-8"
    case windows1252 = "windows-1252"
    case latin1 = "latin1"

    /// Parses a user-supplied name (`utf8`, `UTF-8`, `cp1252`, `windows-1252`, `latin1`,
    /// `iso-8859-1`), or returns nil when the name is not supported.
    public init?(name: String) {
        let key = name.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " }
        switch key {
        case "utf8": self = .utf8
        case "windows1252", "cp1252": self = .windows1252
        case "latin1", "iso88591", "l1": self = .latin1
        default: return nil
        }
    }
}

/// Incremental UTF-8 validation (rejects overlong forms, surrogates and code points above
/// U+10FFFF), carried across chunk boundaries.
struct UTF8Validator {
    private var remaining = 0
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// True when no multi-byte sequence is left open.
    var isComplete: Bool { remaining == 0 }

    /// Feeds one byte; returns false when the byte makes the input invalid.
    @inline(__always)
    mutating func accept(_ byte: UInt8) -> Bool {
        if remaining == 0 {
            if byte < 0x80 { return true }
            switch byte {
            case 0xC2...0xDF: remaining = 1; lower = 0x80; upper = 0xBF
            case 0xE0: remaining = 2; lower = 0xA0; upper = 0xBF
            case 0xE1...0xEC, 0xEE...0xEF: remaining = 2; lower = 0x80; upper = 0xBF
            case 0xED: remaining = 2; lower = 0x80; upper = 0x9F
            case 0xF0: remaining = 3; lower = 0x90; upper = 0xBF
            case 0xF1...0xF3: remaining = 3; lower = 0x80; upper = 0xBF
            case 0xF4: remaining = 3; lower = 0x80; upper = 0x8F
            default: return false
            }
            return true
        }
        guard byte >= lower, byte <= upper else { return false }
        remaining -= 1
        lower = 0x80
        upper = 0xBF
        return true
    }
}

/// Transcodes single-byte legacy encodings to UTF-8.
enum LegacyTranscoder {
    /// Windows-1252 code points for bytes 0x80–0x9F (WHATWG mapping: the five undefined
    /// bytes map to the C1 control of the same value).
    static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    /// Appends the UTF-8 form of `bytes` (in `encoding`) to `output`.
    static func transcode(
        _ bytes: UnsafeBufferPointer<UInt8>, from encoding: InputEncoding, into output: inout [UInt8]
    ) {
        output.removeAll(keepingCapacity: true)
        output.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
                continue
            }
            var scalar = UInt32(byte)
            if encoding == .windows1252, byte < 0xA0 {
                scalar = windows1252High[Int(byte - 0x80)]
            }
            if scalar < 0x800 {
                output.append(UInt8(0xC0 | (scalar >> 6)))
                output.append(UInt8(0x80 | (scalar & 0x3F)))
            } else {
                output.append(UInt8(0xE0 | (scalar >> 12)))
                output.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
                output.append(UInt8(0x80 | (scalar & 0x3F)))
            }
        }
    }
}
