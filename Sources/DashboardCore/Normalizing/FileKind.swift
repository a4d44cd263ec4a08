/// The two kinds of input file, told apart by their header.
public enum FileKind: String, Sendable, CaseIterable, Codable {
    case courses
    case tasks
}

/// A column the product stores, with the header names that map to it.
package enum Column: String, Sendable, CaseIterable {
    case courseID = "course_id"
    case title
    case code
    case term
    case teacher
    case timezone
    case taskID = "task_id"
    case studentID = "student_id"
    case due
    case priority
    case completed
    case assignmentID = "assignment_id"
    /// The address the course's teacher gets the morning digest at (issue 28).
    case teacherEmail = "teacher_email"
    /// The language the course's reports are written in, a BCP 47 tag (issue 29).
    case language
    /// Where the task stands with its student and teacher (SPEC §11, `SubmissionState`).
    case status
    /// When the student handed the task in: the forms of `due`, in the course's zone (§11).
    case submittedAt = "submitted_at"

    /// The column's position in `allCases`.
    var position: Int {
        switch self {
        case .courseID: return 0
        case .title: return 1
        case .code: return 2
        case .term: return 3
        case .teacher: return 4
        case .timezone: return 5
        case .taskID: return 6
        case .studentID: return 7
        case .due: return 8
        case .priority: return 9
        case .completed: return 10
        case .assignmentID: return 11
        case .teacherEmail: return 12
        case .language: return 13
        case .status: return 14
        case .submittedAt: return 15
        }
    }

    /// Header names accepted for this column, as people write them (docs/formats.md, the
    /// descriptions of `InputContract`); the first is the canonical name. A header cell names
    /// the column when it matches one of them ignoring case, spaces, `_` and `-` (`aliases`).
    package var headerNames: [String] {
        switch self {
        case .courseID: return ["course_id", "course", "course ref"]
        case .title: return ["title", "name", "task title", "task name", "course title", "course name", "assignment"]
        case .code: return ["code", "course code", "short name"]
        case .term: return ["term", "semester", "session", "presentation"]
        case .teacher: return ["teacher", "instructor", "tutor", "lecturer"]
        case .timezone: return ["timezone", "tz", "time zone name", "zone"]
        case .taskID: return ["task_id", "task"]
        case .studentID: return ["student_id", "student", "learner", "learner id"]
        case .due: return ["due", "due date", "deadline", "due at", "due on", "due datetime"]
        case .priority: return ["priority", "prio"]
        case .completed: return ["completed", "done", "complete", "is completed", "finished"]
        case .assignmentID:
            return ["assignment_id", "assessment id", "id assessment", "assignment ref", "assessment ref", "activity id", "item id"]
        case .teacherEmail:
            // Spaces, `_` and `-` are ignored: "Teacher E-Mail" is the first. No bare "email": in a
            // courses file it may be a department's address, in a tasks file a student's.
            return ["teacher_email", "teacher mail", "instructor email", "tutor email", "lecturer email"]
        case .language: return ["language", "lang", "locale", "course language", "teaching language"]
        case .status:
            // Canvas's workflow_state, Classroom's state, Moodle's submission status.
            return ["status", "state", "workflow state", "submission status", "submission state", "grading status"]
        case .submittedAt:
            // No bare "submitted" or "turned in": an export may use them for a yes/no column.
            return [
                "submitted_at", "submitted on", "submitted date", "submission date", "submission time", "date submitted",
                "turned in at", "handed in at",
            ]
        }
    }

    /// Header spellings accepted for this column in matching form (lowercase, no spaces, `_`
    /// or `-`): `headerNames` through `matchingKey`. The first is the canonical name's.
    package var aliases: [String] { headerNames.map(Column.matchingKey) }

    /// Turns a header cell into the form aliases are written in: case-insensitive, ignoring
    /// spaces (including no-break spaces), `_`, `-` and invisible format characters (a BOM
    /// left by a second export, a zero-width space: `InvisibleCharacters`), which never tell
    /// one column name from another.
    package static func matchingKey(_ header: String) -> String {
        String(
            header.lowercased().unicodeScalars.filter { scalar in
                !(scalar.properties.isWhitespace || scalar == "_" || scalar == "-" || InvisibleCharacters.isInvisible(scalar))
            }.map(Character.init))
    }

    private static let byAlias: [String: Column] = {
        var table: [String: Column] = [:]
        for column in Column.allCases {
            for alias in column.aliases { table[alias] = column }
        }
        return table
    }()

    /// The column a header cell names, or nil for an unknown column.
    package static func named(_ header: String) -> Column? {
        byAlias[matchingKey(header)]
    }
}

extension FileKind {
    package var requiredColumns: [Column] {
        switch self {
        case .courses: return [.courseID, .title]
        case .tasks: return [.taskID, .courseID, .title]
        }
    }

    package var optionalColumns: [Column] {
        switch self {
        case .courses: return [.code, .term, .teacher, .timezone, .teacherEmail, .language]
        case .tasks: return [.studentID, .due, .priority, .completed, .assignmentID, .status, .submittedAt]
        }
    }

    package var columns: [Column] { requiredColumns + optionalColumns }
}

/// Where each known column sits in a file, read from its header.
package struct HeaderLayout: Equatable, Sendable {
    package let kind: FileKind
    /// Field index of each column present in the file.
    package let indexes: [Column: Int]
    /// Header cells that name no column of this kind (ignored, reported once).
    package let unknownColumns: [String]
    /// The number of fields in the header.
    package let fieldCount: Int
    /// The physical line of the header (1 unless blank lines come first).
    package var headerLine = 1

    /// Reads the header of a file.
    ///
    /// Policy: a header with `task_id` is a tasks file; one with `course_id` and `title` but no
    /// `task_id` is a courses file; the file name is only a hint when the header is unclear.
    /// Columns may come in any order. A column named twice (directly or through an alias) is a
    /// `duplicate_column` error; a missing required column is `missing_column`.
    /// - Throws: `ImportProblem` (file-level) naming the column.
    package init(header: [String], file: String, fileNameHint: FileKind? = nil) throws {
        var found: [Column: Int] = [:]
        var unknown: [(index: Int, name: String)] = []
        for (index, cell) in header.enumerated() {
            let name = cell.trimmingUnicodeWhitespace()
            guard let column = Column.named(name) else {
                unknown.append((index, name))
                continue
            }
            if let first = found[column] {
                throw ImportProblem(
                    code: .duplicateColumn, file: file, line: 1, row: 0, column: column.rawValue, value: name,
                    message: "column \(column.rawValue) appears twice (fields \(first + 1) and \(index + 1))",
                    hint: "keep one of the two columns, or rename the other")
            }
            found[column] = index
        }
        let kind: FileKind
        if found[.taskID] != nil {
            kind = .tasks
        } else if found[.courseID] != nil, found[.title] != nil,
            fileNameHint != .tasks
                || [Column.code, .term, .teacher, .timezone, .teacherEmail, .language].contains(where: { found[$0] != nil })
        {
            kind = .courses
        } else if let hint = fileNameHint, !found.isEmpty {
            // The name decides only between kinds the header could be: a header that names no
            // known column at all is not a tasks or courses file, whatever the file is called.
            kind = hint
        } else {
            let cells = header.prefix(6).joined(separator: ",")
            throw ImportProblem(
                code: .unknownFileKind, file: file, line: 1, row: 0, value: String(cells.prefix(200)),
                message: "the header names neither a courses file (course_id, title) nor a tasks file (task_id, course_id, title)",
                hint: "the first line must be the header; name the columns as in docs/formats.md")
        }
        for column in kind.requiredColumns where found[column] == nil {
            throw ImportProblem(
                code: .missingColumn, file: file, line: 1, row: 0, column: column.rawValue,
                message: "the \(kind.rawValue) file has no \(column.rawValue) column",
                hint: "add a \(column.rawValue) column (accepted names: \(column.aliases.joined(separator: ", ")))")
        }
        // Columns of the other kind (e.g. `code` in a tasks file) are not stored: unknown here.
        let allowed = Set(kind.columns)
        for (column, index) in found where !allowed.contains(column) {
            unknown.append((index, header[index].trimmingUnicodeWhitespace()))
            found[column] = nil
        }
        self.kind = kind
        self.indexes = found
        self.unknownColumns = unknown.sorted { $0.index < $1.index }.map(\.name)
        self.fieldCount = header.count
    }

    /// The kind a file name suggests (`courses*.csv`, `*tasks*.csv`), used only when the
    /// header alone cannot tell.
    package static func kindHint(fileName: String) -> FileKind? {
        let name = fileName.lowercased()
        if name.contains("course") { return .courses }
        if name.contains("task") { return .tasks }
        return nil
    }
}
