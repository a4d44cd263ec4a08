/// The PostgreSQL text of a statement the store writes once for both engines: only the
/// mechanical rewrites, translated once per statement text by the PostgreSQL connection.
///
/// What it rewrites, outside string literals, quoted identifiers and comments:
/// - parameters: `?NNN` is `$NNN`; a bare `?` is the largest number so far plus one (SQLite's
///   own rule), so `?, ?` and `?1, ?2` both become `$1, $2`;
/// - `LIMIT -1` is `LIMIT ALL`, and a bound limit that is negative is no limit, as in SQLite.
///
/// Nothing else: what the engines say differently (every table definition, temporary ones
/// included, the catalogue, `json_each`, `typeof`, PRAGMAs) each engine says itself
/// (`StoreSQL`: `SQLiteStoreSQL`, `PostgreSQLStoreSQL`); the store's shared SQL keeps to what
/// both read alike (`coalesce`, `ON CONFLICT … DO NOTHING`, `RETURNING`, `EXCEPT`, `UPDATE …
/// FROM`, unqualified names of temporary tables).
enum PGDialect {
    /// The translated statement(s) and the number of parameters they take.
    static func translate(_ sql: String) -> (sql: String, parameters: Int) {
        let bytes = Array(sql.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var highest = 0
        var index = 0
        // The statement's last word so far (uppercased), to know a LIMIT.
        var lastWord = ""
        func isWordByte(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b >= 0x80
        }
        func append(_ text: String) { out.append(contentsOf: text.utf8) }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x27, 0x22:  // a string literal or a quoted identifier, copied as it is
                let quote = byte
                out.append(byte)
                index += 1
                while index < bytes.count {
                    out.append(bytes[index])
                    if bytes[index] == quote {
                        if index + 1 < bytes.count, bytes[index + 1] == quote {
                            out.append(quote)
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    index += 1
                }
            case 0x2D where index + 1 < bytes.count && bytes[index + 1] == 0x2D:  // -- comment
                while index < bytes.count, bytes[index] != 0x0A {
                    out.append(bytes[index])
                    index += 1
                }
            case 0x3F:  // ? or ?NNN
                var end = index + 1
                while end < bytes.count, bytes[end] >= 0x30, bytes[end] <= 0x39 { end += 1 }
                let number = end > index + 1 ? Int(String(decoding: bytes[(index + 1)..<end], as: UTF8.self)) ?? 0 : highest + 1
                highest = max(highest, number)
                if lastWord == "LIMIT" {
                    // SQLite reads a negative limit as none; PostgreSQL refuses it and reads NULL so.
                    append("(CASE WHEN $\(number) < 0 THEN NULL ELSE $\(number) END)")
                } else {
                    append("$\(number)")
                }
                index = end
            case 0x3B:  // ;
                lastWord = ""
                out.append(byte)
                index += 1
            case 0x2D where index > 0 && isLimitBefore(out):  // LIMIT -1
                var end = index + 1
                while end < bytes.count, bytes[end] >= 0x30, bytes[end] <= 0x39 { end += 1 }
                if String(decoding: bytes[(index + 1)..<end], as: UTF8.self) == "1" {
                    append("ALL")
                } else {
                    out.append(contentsOf: bytes[index..<end])
                }
                index = end
            default:
                guard isWordByte(byte), index == 0 || !isWordByte(bytes[index - 1]) else {
                    out.append(byte)
                    index += 1
                    continue
                }
                var end = index
                while end < bytes.count, isWordByte(bytes[end]) { end += 1 }
                lastWord = String(decoding: bytes[index..<end], as: UTF8.self).uppercased()
                out.append(contentsOf: bytes[index..<end])
                index = end
            }
        }
        return (String(decoding: out, as: UTF8.self), highest)
    }

    /// True when the output so far ends with the word LIMIT and spaces (`LIMIT -1` follows).
    private static func isLimitBefore(_ out: [UInt8]) -> Bool {
        var end = out.count
        while end > 0, out[end - 1] == 0x20 { end -= 1 }
        guard end >= 5 else { return false }
        let word = String(decoding: out[(end - 5)..<end], as: UTF8.self).uppercased()
        return word == "LIMIT" && (end == 5 || out[end - 6] == 0x20 || out[end - 6] == 0x0A)
    }

    /// `values` as a PostgreSQL array literal of text (`{"a","b \\"c\\""}`), for one parameter
    /// `CAST(? AS text[])`: `column = ANY (…)` is an index condition, which a join with a set
    /// of rows under row-level security is not.
    static func arrayLiteral(_ values: [String]) -> String {
        var text = "{"
        for (index, value) in values.enumerated() {
            if index > 0 { text += "," }
            text += "\""
            // Scalar by scalar: a quote followed by a combining mark is one Character.
            for scalar in value.unicodeScalars {
                if scalar == "\"" || scalar == "\\" { text += "\\" }
                text.unicodeScalars.append(scalar)
            }
            text += "\""
        }
        return text + "}"
    }
}
