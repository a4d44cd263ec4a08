import Foundation

/// The one writer of every CSV the program produces: report CSVs (`--format csv`, stdout or
/// `--out`), the audit log (`audit --format csv`) and `--rejects` files.
///
/// Policy (SPEC §9), the same for every CSV and every field, headers included:
/// - formula protection: a field starting with `=`, `+`, `-`, `@`, a tab or a carriage return
///   gets a leading `'`, so a spreadsheet shows it as text instead of running it (OWASP's list
///   for CSV injection). File names and values are data like any other: a rejected value `=1+1`
///   is written `'=1+1`, a file named `=x.csv` is written `'=x.csv`;
/// - RFC 4180 quoting: a field holding a comma, a double quote, a line feed or a carriage return
///   is put in double quotes, with inner quotes doubled;
/// - every line, the header's too, ends with CRLF.
/// Files get `FileModes.file` from `SafeFolder`, which writes them.
package enum CSVWriter {
    /// One line: every field protected, then quoted, joined by commas, ended by CRLF.
    package static func line(_ fields: [String]) -> String {
        fields.map { field(protect($0)) }.joined(separator: ",") + "\r\n"
    }

    /// `value` with a leading `'` when a spreadsheet would read it as a formula.
    static func protect(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return value }
        return "'" + value
    }

    /// One field, quoted per RFC 4180 when it holds a comma, a quote or a line break.
    static func field(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
