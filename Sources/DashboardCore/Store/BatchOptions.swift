import Foundation

/// The reading options of an import run, as `batches.options` records them: strict, dry run,
/// the encoding, the delimiter and the date order (the mode, the delete limit and the actor
/// have columns of their own).
///
/// Policy (issue 32): the column holds values, never a command line. A batch is written as a
/// compact JSON object with only the options that differ from the defaults, keys in this order:
/// `{"strict":true,"dry_run":true,"encoding":"latin1","delimiter":"tab","date_order":"dmy"}`;
/// `{}` for a run with none. The delimiter is its character (`,`, `;`, `|`) or `tab`. Batches
/// written before hold the flags of the run as text (`--strict --dry-run --encoding latin1
/// --delimiter ; --date-order dmy`, empty for none), which `init(storedText:)` still reads: no
/// migration rewrites them (the column's type is the same TEXT). Whoever shows the options
/// words them (the command line as flags).
package struct BatchOptions: Equatable, Sendable {
    /// Any rejected row failed the whole run.
    package var strict = false
    /// The run validated and counted, and wrote no data.
    package var dryRun = false
    package var encoding: InputEncoding = .utf8
    /// nil: detected from each file's header.
    package var delimiter: UInt8?
    /// nil: slashed dates refused.
    package var dateOrder: DateOrder?

    package init(
        strict: Bool = false, dryRun: Bool = false, encoding: InputEncoding = .utf8, delimiter: UInt8? = nil,
        dateOrder: DateOrder? = nil
    ) {
        (self.strict, self.dryRun, self.encoding, self.delimiter, self.dateOrder) = (strict, dryRun, encoding, delimiter, dateOrder)
    }

    /// The options of a run.
    package init(_ options: ImportOptions) {
        self.init(
            strict: options.strict, dryRun: options.dryRun, encoding: options.encoding, delimiter: options.delimiter,
            dateOrder: options.dateOrder)
    }

    /// The text `batches.options` stores: the JSON object of the policy above.
    package var storedText: String {
        var pairs: [(String, JSONValue)] = []
        if strict { pairs.append(("strict", .bool(true))) }
        if dryRun { pairs.append(("dry_run", .bool(true))) }
        if encoding != .utf8 { pairs.append(("encoding", .string(encoding.rawValue))) }
        if let delimiter { pairs.append(("delimiter", .string(Self.delimiterName(delimiter)))) }
        if let dateOrder { pairs.append(("date_order", .string(dateOrder.rawValue))) }
        return JSONValue.object(pairs).rendered(indent: 0)
    }

    /// Reads a stored `batches.options`: the JSON object, or the flags text of batches written
    /// before it; nil for text that is neither (a hand edit).
    package init?(storedText text: String) {
        let trimmed = text.trimmingUnicodeWhitespace()
        guard let read = trimmed.hasPrefix("{") ? Self.fromJSON(trimmed) : Self.fromFlags(trimmed) else { return nil }
        self = read
    }

    /// `tab` for a tab, else the delimiter's character.
    static func delimiterName(_ delimiter: UInt8) -> String {
        delimiter == 9 ? "tab" : String(UnicodeScalar(delimiter))
    }

    /// The delimiter a stored name gives: `tab` or one ASCII character.
    static func delimiter(named name: String) -> UInt8? {
        if name == "tab" { return 9 }
        guard name.utf8.count == 1, let byte = name.utf8.first, byte < 0x80 else { return nil }
        return byte
    }

    // MARK: - The two stored forms

    /// The JSON object's keys (another key, from a later version, is ignored).
    private struct Stored: Decodable {
        var strict: Bool?
        var dryRun: Bool?
        var encoding: String?
        var delimiter: String?
        var dateOrder: String?

        enum CodingKeys: String, CodingKey {
            case strict
            case dryRun = "dry_run"
            case encoding, delimiter
            case dateOrder = "date_order"
        }
    }

    private static func fromJSON(_ text: String) -> BatchOptions? {
        guard let stored = try? JSONDecoder().decode(Stored.self, from: Data(text.utf8)) else { return nil }
        var options = BatchOptions(strict: stored.strict ?? false, dryRun: stored.dryRun ?? false)
        if let name = stored.encoding {
            guard let encoding = InputEncoding(rawValue: name) else { return nil }
            options.encoding = encoding
        }
        if let name = stored.delimiter {
            guard let delimiter = delimiter(named: name) else { return nil }
            options.delimiter = delimiter
        }
        if let name = stored.dateOrder {
            guard let order = DateOrder(rawValue: name) else { return nil }
            options.dateOrder = order
        }
        return options
    }

    /// The flags text of batches written before the JSON object: each option's name after two
    /// dashes, `strict` and `dry-run` alone, `encoding`, `delimiter` and `date-order` followed
    /// by their value, separated by single spaces.
    private static func fromFlags(_ text: String) -> BatchOptions? {
        var options = BatchOptions()
        var words = text.split(separator: " ").map(String.init)[...]
        while let word = words.popFirst() {
            guard word.hasPrefix("--") else { return nil }
            let name = word.dropFirst(2)
            switch name {
            case "strict": options.strict = true
            case "dry-run": options.dryRun = true
            case "encoding", "delimiter", "date-order":
                guard let value = words.popFirst() else { return nil }
                switch name {
                case "encoding":
                    guard let encoding = InputEncoding(rawValue: value) else { return nil }
                    options.encoding = encoding
                case "delimiter":
                    guard let delimiter = delimiter(named: value) else { return nil }
                    options.delimiter = delimiter
                default:
                    guard let order = DateOrder(rawValue: value) else { return nil }
                    options.dateOrder = order
                }
            default: return nil
            }
        }
        return options
    }
}
