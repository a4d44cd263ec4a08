/// How serious a problem is: an error rejects a row (or a file), a warning only informs.
public enum ProblemSeverity: String, Sendable, Codable {
    case error
    case warning
}

/// The stable machine codes of every problem an import can report (SPEC §3).
public enum ProblemCode: String, Sendable, CaseIterable, Codable {
    // Row-level errors: the row is rejected.
    case missingValue = "missing_value"
    case wrongFieldCount = "wrong_field_count"
    case invalidDate = "invalid_date"
    case ambiguousDate = "ambiguous_date"
    case implausibleDate = "implausible_date"
    case invalidPriority = "invalid_priority"
    case invalidBoolean = "invalid_boolean"
    case invalidTimezone = "invalid_timezone"
    /// A courses row's `teacher_email` that is not one address (`EmailAddress`).
    case invalidEmail = "invalid_email"
    /// A courses row's `language` that is not a BCP 47 tag of a language the reports are
    /// written in (`ReportLanguage.tag`).
    case invalidLanguage = "invalid_language"
    /// A tasks row's `status` that names no state of SPEC §11 (`SubmissionStateParser`).
    case invalidStatus = "invalid_status"
    /// A tasks row whose `status` and `completed` contradict each other (SPEC §11).
    case conflictingStatus = "conflicting_status"
    case duplicateID = "duplicate_id"
    case unknownCourse = "unknown_course"
    case valueTooLong = "value_too_long"
    case malformedQuote = "malformed_quote"
    /// An id holding a Unicode format character (general category Cf: a BOM, a zero-width
    /// space, a bidi control, a soft hyphen…), which would make it look like another id.
    case invisibleCharacter = "invisible_character"
    // Warnings: the row (or file) is still imported.
    case duplicateRow = "duplicate_row"
    case unknownColumn = "unknown_column"
    case blankRow = "blank_row"
    /// A row that reads as the file's own header (two exports concatenated): skipped.
    case repeatedHeader = "repeated_header"
    // File-level errors: nothing of the run is committed.
    case missingColumn = "missing_column"
    case duplicateColumn = "duplicate_column"
    case unknownFileKind = "unknown_file_kind"
    case invalidEncoding = "invalid_encoding"
    case unterminatedQuote = "unterminated_quote"
    case emptyFile = "empty_file"
    case fieldTooLarge = "field_too_large"
    /// A record (the header or a row) of more than `CSVReader.maxFields` fields.
    case tooManyColumns = "too_many_columns"
    case unreadableFile = "unreadable_file"
    /// A row that reads as a header of another layout (other columns, another order, another
    /// kind of file): the rows after it cannot be read with the file's header.
    case mismatchedHeader = "mismatched_header"

    /// The severity this code always has.
    public var severity: ProblemSeverity {
        switch self {
        case .duplicateRow, .unknownColumn, .blankRow, .repeatedHeader: return .warning
        default: return .error
        }
    }

    /// True for problems that make the whole file (and so the whole run) fail.
    public var isFileLevel: Bool {
        switch self {
        case .missingColumn, .duplicateColumn, .unknownFileKind, .invalidEncoding,
            .unterminatedQuote, .emptyFile, .fieldTooLarge, .tooManyColumns, .unreadableFile, .mismatchedHeader:
            return true
        default: return false
        }
    }

    /// The closest Frictionless error type, for suites built on Frictionless.
    public var frictionlessType: String {
        switch self {
        case .missingValue: return "constraint-error"
        case .wrongFieldCount: return "extra-cell"  // a row with fewer cells says missing-cell
        case .invalidDate, .ambiguousDate, .invalidPriority, .invalidBoolean, .invalidTimezone, .invalidEmail,
            .invalidLanguage, .invalidStatus:
            return "type-error"
        // Two cells of one row that cannot both be true: Frictionless's row constraint.
        case .conflictingStatus: return "row-constraint"
        // An invisible character breaks the id's pattern in `dashboard schema`.
        case .implausibleDate, .valueTooLong, .invisibleCharacter: return "constraint-error"
        case .duplicateID: return "primary-key"
        case .unknownCourse: return "foreign-key"
        case .malformedQuote: return "source-error"
        case .duplicateRow: return "duplicate-row"
        case .unknownColumn: return "extra-label"
        case .blankRow: return "blank-row"
        // Frictionless numbers the header as row 1: this row repeats it.
        case .repeatedHeader: return "duplicate-row"
        case .missingColumn: return "missing-label"
        case .duplicateColumn: return "duplicate-label"
        case .unknownFileKind, .mismatchedHeader: return "schema-error"
        case .invalidEncoding: return "encoding-error"
        case .unterminatedQuote, .emptyFile, .fieldTooLarge, .tooManyColumns: return "source-error"
        case .unreadableFile: return "scheme-error"
        }
    }
}

/// One problem found in an input file, with everything a user needs to find and fix it.
///
/// `line` is the physical line where the record starts (the header is line 1); `row` is the
/// 1-based index of the data row (0 for the header and for file-level problems).
public struct ImportProblem: Error, Equatable, Sendable {
    public var code: ProblemCode
    public var file: String
    public var line: Int
    public var row: Int
    public var column: String
    public var value: String
    public var message: String
    public var hint: String
    /// The Frictionless error type (usually `code.frictionlessType`).
    public var frictionlessType: String

    package init(
        code: ProblemCode, file: String, line: Int, row: Int, column: String = "", value: String = "",
        message: String, hint: String, frictionlessType: String? = nil
    ) {
        self.code = code
        self.file = file
        self.line = line
        self.row = row
        self.column = column
        self.value = value
        self.message = message
        self.hint = hint
        self.frictionlessType = frictionlessType ?? code.frictionlessType
    }

    public var severity: ProblemSeverity { code.severity }

    /// `file:line: error: message (code) hint`, the form used on stderr.
    public var formatted: String {
        var text = "\(file):\(line): \(severity.rawValue): "
        if !column.isEmpty { text += "\(column): " }
        text += message + " [\(code.rawValue)]"
        if !hint.isEmpty { text += " Hint: \(hint)" }
        return text
    }

    /// The one layout of a problem's line, `file:line: LABEL column: message [code] value: "…"`
    /// (the value when the message does not quote it, cut to `valueLimit` characters), every
    /// part from the data passed through `shown` (`VisibleText.of`), the label as given: stderr's
    /// line (a coloured `error: ` or `warning: `, values cut to 60 characters) and a JUnit
    /// failure's message (no label, the whole value) are this line.
    package func headline(label: String, valueLimit: Int = .max, shown: (String) -> String) -> String {
        var text = "\(shown(file)):\(line): \(label)"
        if !column.isEmpty { text += "\(shown(column)): " }
        text += shown(message) + " [\(code.rawValue)]"
        if !value.isEmpty, !message.contains(value) { text += " value: \"\(shown(String(value.prefix(valueLimit))))\"" }
        return text
    }
}

/// A problem of one field, before the file, line and row are known.
package struct FieldProblem: Error, Equatable, Sendable {
    package var code: ProblemCode
    package var column: String
    package var value: String
    package var message: String
    package var hint: String
    /// Overrides `code.frictionlessType` when the code alone cannot tell.
    package var frictionlessType: String?

    package init(code: ProblemCode, column: String, value: String, message: String, hint: String, frictionlessType: String? = nil) {
        self.code = code
        self.column = column
        self.value = value
        self.message = message
        self.hint = hint
        self.frictionlessType = frictionlessType
    }

    func located(file: String, line: Int, row: Int) -> ImportProblem {
        ImportProblem(
            code: code, file: file, line: line, row: row, column: column, value: value, message: message, hint: hint,
            frictionlessType: frictionlessType)
    }
}
