/// The titles and descriptions of the input contract's fields (`InputContract`): what each
/// column holds, its other header names, and what the dashboard does with a value beyond what
/// Frictionless checks, with the codes of the problems it reports.
enum FieldWords {
    static func title(_ column: Column, of kind: FileKind) -> String {
        switch column {
        case .courseID: return "Course id"
        case .title: return kind == .courses ? "Course title" : "Task title"
        case .code: return "Course code"
        case .term: return "Term"
        case .teacher: return "Teacher"
        case .timezone: return "Time zone"
        case .taskID: return "Task id"
        case .studentID: return "Student id"
        case .due: return "Due"
        case .priority: return "Priority"
        case .completed: return "Completed"
        case .assignmentID: return "Assignment id"
        case .teacherEmail: return "Teacher's e-mail"
        case .language: return "Language"
        case .status: return "Submission state"
        case .submittedAt: return "Submitted at"
        }
    }

    static func description(
        _ column: Column, of kind: FileKind, required: Bool, dateOrder: DateOrder?, wording: ContractWording
    ) -> String {
        var parts = [meaning(column, of: kind, dateOrder: dateOrder, wording: wording)]
        if required { parts.append("Required: empty or only white space is missing_value.") }
        let others = column.headerNames.dropFirst().map { "`\($0)`" }
        if !others.isEmpty { parts.append("The header may also say \(list(others)).") }
        parts.append(
            "At most \(RowNormalizer.maxFieldBytes) bytes of UTF-8 (value_too_long); maxLength counts characters, the closest "
                + "Frictionless can say.")
        return parts.joined(separator: " ")
    }

    static let idRule =
        "Trimmed of white space (no-break spaces included) and put in Unicode NFC, otherwise exact: case and inner spaces are kept. "
        + "An invisible format character anywhere in it (Unicode category Cf: a byte order mark, a zero-width space, a bidi "
        + "control, a soft hyphen) is invisible_character: the row is rejected."
    static let textRule = "Trimmed, every run of white space and line breaks inside becomes one space, Unicode NFC."
    static let keyRule =
        "Unique in the file (the primary key), compared after trimming: a later row with the same id and other values is "
        + "duplicate_id (the first row is kept), an exact repeat is a duplicate_row warning and is imported once."

    static func meaning(_ column: Column, of kind: FileKind, dateOrder: DateOrder?, wording: ContractWording) -> String {
        switch column {
        case .courseID where kind == .courses: return "The course's id, its identity. \(keyRule) \(idRule)"
        case .courseID:
            return "The task's course: a course_id of the courses file or of the database (unknown_course). \(idRule)"
        case .title: return "The \(kind == .courses ? "course" : "task")'s title. \(textRule)"
        case .code: return "The course's short code, shown on its card; empty means the course_id. \(textRule)"
        case .term: return "The term the course runs in. \(textRule)"
        case .teacher: return "The course's teacher (\(wording(.teacherFilter)) matches any word of it). \(textRule)"
        case .teacherEmail:
            return "The address the course's teacher gets the morning digest at (\(wording(.digest))): one address, "
                + "`local@domain` in ASCII (RFC 5322's dot-atom form), trimmed; anything else (two addresses, a display name, "
                + "a non-ASCII address) is invalid_email. Empty: the teacher gets no digest for this course. Never shown in "
                + "any report."
        case .language:
            return "The language the course's reports are written in: a BCP 47 tag (RFC 5646) whose language is one of "
                + "\(ReportLanguage.listed) (`de`, `de-AT`, `ja-JP`, `es-419`), in any case, "
                + "`_` accepted for `-`, trimmed, stored in its canonical case (`de_at` is `de-AT`); the region and the rest "
                + "of the tag choose how dates are written, the language the words. An ill-formed tag or one of another "
                + "language is invalid_language. Empty: the database's default language (settings language), else English."
        case .timezone:
            return "The course's time zone: a zone or link name of the machine's IANA time zone database (tzdata: "
                + "`Europe/Berlin`, `America/Argentina/Buenos_Aires`, `Etc/UTC`, `US/Eastern`, `UTC`, `EST5EDT`), in any case, "
                + "trimmed, stored in tzdata's spelling; an abbreviation tzdata does not name a zone by, such as `PST` or "
                + "`CEST`, is invalid_timezone. Empty: the database's default time zone. The pattern checks the shape of a "
                + "name, not that the time zone database has it."
        case .taskID: return "The task's id, its identity. \(keyRule) \(idRule)"
        case .studentID: return "The student the task is for. \(idRule)"
        case .due: return dueMeaning(dateOrder, wording: wording)
        case .priority:
            return "The task's priority, in any case, trimmed: "
                + grouped(
                    Priority.allCases.sorted { $0.rank < $1.rank }.map { priority in
                        (priority.rawValue, Priority.synonyms.filter { $0.value == priority }.map(\.key))
                    }) + ". Anything else is invalid_priority."
        case .completed:
            return "Whether the task is done, in any case, trimmed: "
                + grouped([("true", Array(CompletedParser.trueWords)), ("false", Array(CompletedParser.falseWords))])
                + ". Anything else is invalid_boolean."
        case .assignmentID:
            return "The assignment the task belongs to (\(wording(.groupByAssignment))); empty when the export has none. "
                + "\(idRule) (`assignment` alone names the title.)"
        case .status:
            return "Where the task stands (SPEC §11), in any case, `_`, `-` and spaces alike, trimmed: "
                + SubmissionStateParser.words.map { "\($0.state.rawValue) (\($0.words.joined(separator: ", ")))" }.joined(separator: "; ")
                + ". Anything else is invalid_status. Empty: the state completed says (true: completed, else open). A state "
                + "that contradicts completed (completed true and open or submitted, completed false and completed) is "
                + "conflicting_status. Only open tasks get a bucket; submitted ones wait to be graded, excused ones are never "
                + "overdue."
        case .submittedAt:
            return "When the student handed the task in, in the forms of due (the course's time zone unless `Z` or an "
                + "offset says otherwise); empty when not handed in. A submitted or completed task handed in after its due is "
                + "late (a date compares local dates). Errors are due's: invalid_date, ambiguous_date, implausible_date."
        }
    }

    static func dueMeaning(_ dateOrder: DateOrder?, wording: ContractWording) -> String {
        let years = DueDateParser.plausibleYears
        var text =
            "When the task is due; empty means undated, never an error. Accepted, trimmed: `YYYY-MM-DD` or `YYYY/MM/DD`, due "
            + "at the end of that day in the course's time zone; that date, then `T` or spaces, then `H:MM`, `HH:MM` or "
            + "`HH:MM:SS` with an optional fraction of a second (any number of digits, dropped): a local time of the course's "
            + "time zone; either followed by `Z`, `±HH:MM`, `±HHMM` or `±HH` (from -\(pad2(DueDateParser.maxOffsetHours)):00 "
            + "to +\(pad2(DueDateParser.maxOffsetHours)):00 inclusive, minutes 00–59): an exact instant. "
            + "The year must be within \(years.lowerBound)–\(years.upperBound) (implausible_date) and the day must exist "
            + "(invalid_date). "
        switch dateOrder {
        case nil:
            text +=
                "Slashed day-month dates (`11/29/2026`, `29.11.2026`) are ambiguous_date unless the dashboard is given "
                + "\(wording(.dateOrder(nil))); \(wording(.schemaForDateOrder)) prints the pattern for those."
        case .mdy?:
            text += "With \(wording(.dateOrder(.mdy))) also `MM/DD/YYYY` with `/`, `.` or `-`, optionally followed by a time."
        case .dmy?:
            text += "With \(wording(.dateOrder(.dmy))) also `DD/MM/YYYY` with `/`, `.` or `-`, optionally followed by a time."
        }
        return text
    }

    /// `high ← `hi`, `high`, …; normal ← …, empty`: each value with the words that give it,
    /// sorted, the empty word last.
    static func grouped(_ groups: [(value: String, words: [String])]) -> String {
        groups.map { group in
            let words = group.words.filter { !$0.isEmpty }.sorted().map { "`\($0)`" } + (group.words.contains("") ? ["empty"] : [])
            return "\(group.value) ← \(words.joined(separator: ", "))"
        }.joined(separator: "; ")
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
    }
}
