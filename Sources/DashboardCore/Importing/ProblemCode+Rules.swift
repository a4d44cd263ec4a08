/// The rules a file is checked against: the problem codes (SPEC §3) that can be found in it,
/// by kind of file. The JUnit report (`JUnitReport`) has one test case per rule.
///
/// Policy:
/// - Every file is checked against the file-level rules, in the order reading meets them:
///   it can be opened (`unreadable_file`), it has bytes (`empty_file`), they are text
///   (`invalid_encoding`), its quotes close and its records have a sane size
///   (`unterminated_quote`, `field_too_large`, `too_many_columns`), its header names a kind
///   (`unknown_file_kind`) with every required column once (`missing_column`,
///   `duplicate_column`), and no header of another layout comes later (`mismatched_header`).
///   Breaking one stops the run: nothing is imported.
/// - Then each row, against the rules of its kind: a courses row has no due date, priority,
///   completed flag, submission state or course reference, so it is never checked for
///   `invalid_date`, `ambiguous_date`, `implausible_date`, `invalid_priority`,
///   `invalid_boolean`, `invalid_status`, `conflicting_status` or `unknown_course`; a tasks row has no time zone, teacher's address or language, so never
///   for `invalid_timezone`, `invalid_email` or `invalid_language`. The rest
///   (`missing_value`, `wrong_field_count`, `malformed_quote`, `value_too_long`,
///   `invisible_character`, `duplicate_id`) apply to both.
/// - Last the warnings, which reject nothing: `unknown_column`, `blank_row`,
///   `repeated_header`, `duplicate_row`.
/// - A file whose kind is not known (the run stopped before its header was read) is listed
///   with the file-level rules only.
extension ProblemCode {
    /// Checked on every file while it is opened and its header is read.
    package static let fileRules: [ProblemCode] = [
        .unreadableFile, .emptyFile, .invalidEncoding, .unterminatedQuote, .fieldTooLarge, .tooManyColumns, .unknownFileKind,
        .missingColumn, .duplicateColumn, .mismatchedHeader,
    ]

    /// Checked on every row of a file of `kind`; a row that breaks one is rejected.
    package static func rowRules(for kind: FileKind) -> [ProblemCode] {
        switch kind {
        case .courses:
            return [
                .missingValue, .wrongFieldCount, .malformedQuote, .valueTooLong, .invisibleCharacter, .invalidTimezone, .invalidEmail,
                .invalidLanguage, .duplicateID,
            ]
        case .tasks:
            return [
                .missingValue, .wrongFieldCount, .malformedQuote, .valueTooLong, .invisibleCharacter, .invalidDate, .ambiguousDate,
                .implausibleDate, .invalidPriority, .invalidBoolean, .invalidStatus, .conflictingStatus, .duplicateID, .unknownCourse,
            ]
        }
    }

    /// The warnings every file of a known kind is checked for.
    package static let warningRules: [ProblemCode] = [.unknownColumn, .blankRow, .repeatedHeader, .duplicateRow]

    /// Every rule a file of `kind` is checked against, in the order above; the file-level rules
    /// alone when the kind is not known.
    package static func rules(for kind: FileKind?) -> [ProblemCode] {
        guard let kind else { return fileRules }
        return fileRules + rowRules(for: kind) + warningRules
    }
}
