/// A task's priority.
public enum Priority: String, Sendable, CaseIterable, Codable, Comparable {
    case low
    case normal
    case high

    /// Sort rank, high first.
    package var rank: Int {
        switch self {
        case .high: return 0
        case .normal: return 1
        case .low: return 2
        }
    }

    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rank > rhs.rank }

    /// Accepted spellings, case-insensitive, after trimming.
    ///
    /// Policy: empty means `normal`; `hi`, `urgent`, `important` → high; `med`, `medium`,
    /// `mid`, `default` → normal; `lo`, `minor` → low. Anything else is an error, never a guess.
    package static let synonyms: [String: Priority] = [
        "high": .high, "hi": .high, "urgent": .high, "important": .high,
        "normal": .normal, "med": .normal, "medium": .normal, "mid": .normal, "default": .normal, "": .normal,
        "low": .low, "lo": .low, "minor": .low,
    ]

    /// Parses a priority cell.
    /// - Throws: `FieldProblem` with code `invalid_priority`.
    package static func parse(_ raw: String) throws(FieldProblem) -> Priority {
        // A cell that is already a key (trimmed, lowercase) needs no copy.
        if let value = synonyms[raw] { return value }
        let key = raw.trimmingUnicodeWhitespace().lowercased()
        if let value = synonyms[key] { return value }
        throw FieldProblem(
            code: .invalidPriority, column: "priority", value: raw,
            message: "\"\(raw)\" is not a priority",
            hint: "use low, normal or high (also: hi, urgent, med, medium, lo, or empty for normal)")
    }
}

/// Parses the `completed` column into a boolean.
///
/// Policy: true/false, yes/no, y/n, 1/0, x/empty, done/open, ✓ (and ✔, ✗), case-insensitive.
/// Empty means not completed. Anything else is an `invalid_boolean` error.
package enum CompletedParser {
    package static let trueWords: Set<String> = ["true", "yes", "y", "1", "x", "done", "✓", "✔", "t", "completed"]
    package static let falseWords: Set<String> = ["false", "no", "n", "0", "", "open", "✗", "f", "todo"]

    /// - Throws: `FieldProblem` with code `invalid_boolean`.
    package static func parse(_ raw: String) throws(FieldProblem) -> Bool {
        // A cell that is already a word of the lists (trimmed, lowercase) needs no copy.
        if trueWords.contains(raw) { return true }
        if falseWords.contains(raw) { return false }
        let key = raw.trimmingUnicodeWhitespace().lowercased()
        if trueWords.contains(key) { return true }
        if falseWords.contains(key) { return false }
        throw FieldProblem(
            code: .invalidBoolean, column: "completed", value: raw,
            message: "\"\(raw)\" is not a yes/no value",
            hint: "use true/false, yes/no, y/n, 1/0, x/empty, done/open or ✓")
    }
}
