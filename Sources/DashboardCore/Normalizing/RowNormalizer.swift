/// Turns the fields of one data row into a normalized record, or the list of everything wrong
/// with it.
///
/// Policy: every problem of a row is reported, not just the first (a value that is too long is
/// not parsed as well, the row's other values are). Fields longer than 4 KiB are
/// `value_too_long`; a row with a different number of fields than the header is
/// `wrong_field_count` (its other fields are not checked: they are probably shifted); an id
/// with an invisible format character is `invisible_character` (`InvisibleCharacters`). A row
/// that reads as a header (`HeaderLayout.headerRow`) is not data: the file's own header again
/// (`repeatedHeader`), or another layout's (`otherHeader`), before any of those checks.
package final class RowNormalizer: Sendable {
    /// Fields over this many bytes (UTF-8) are rejected.
    package static let maxFieldBytes = 4096

    package let layout: HeaderLayout
    package let dateOrder: DateOrder?
    /// How the hints of its problems name the shell's options (`ImportOptions.wording`).
    package let wording: ImportWording

    /// The stored columns with their field index, in field order (worked out once per file,
    /// not once per row).
    private let columnsInOrder: [(column: Column, index: Int)]
    /// The field index of each column by `Column.allCases` position; -1 when absent.
    private let fieldIndex: [Int]

    package init(layout: HeaderLayout, dateOrder: DateOrder? = nil, wording: ImportWording = .plain) {
        self.layout = layout
        self.dateOrder = dateOrder
        self.wording = wording
        columnsInOrder = layout.indexes.sorted { $0.value < $1.value }.map { ($0.key, $0.value) }
        fieldIndex = Column.allCases.map { layout.indexes[$0] ?? -1 }
    }

    /// The outcome for one row.
    package enum Outcome: Equatable, Sendable {
        case course(CourseRecord)
        case task(TaskRecord)
        case blank
        case rejected([FieldProblem])
        /// The file's header again (two exports concatenated): skipped with a warning.
        case repeatedHeader
        /// A header of another layout: the file cannot be read on from here.
        case otherHeader(HeaderLayout)
    }

    /// The normalized id of a row (`course_id` or `task_id`) when it can be trusted: the row
    /// has the header's field count and the id is not empty. A sync uses it to keep the live
    /// row of a rejected one; an id rejected for an invisible character counts as the id it
    /// reads without it, so the live row it was meant to be is kept.
    package func identity(_ fields: [String]) -> String? {
        guard fields.count == layout.fieldCount, let index = layout.indexes[layout.kind == .courses ? .courseID : .taskID] else {
            return nil
        }
        let id = TextNormalizer.id(InvisibleCharacters.removed(from: fields[index]))
        return id.isEmpty ? nil : id
    }

    /// The normalized `course_id` of a tasks row when it can be trusted (the header's field
    /// count, not empty, not too long): the importer checks it against the known courses for a
    /// rejected row too, so that `unknown_course` is reported with the row's other problems
    /// (for a course id with an invisible character, about the id it reads without it: the
    /// character is the row's `invisible_character`, not a second problem).
    package func courseReference(_ fields: [String]) -> String? {
        guard layout.kind == .tasks, fields.count == layout.fieldCount, let index = layout.indexes[.courseID],
            fields[index].utf8.count <= Self.maxFieldBytes
        else { return nil }
        let id = TextNormalizer.id(InvisibleCharacters.removed(from: fields[index]))
        return id.isEmpty ? nil : id
    }

    /// Parses a courses row's `teacher_email`: trimmed; empty is no address; else one address
    /// as `EmailAddress` accepts it, stored as written.
    /// - Throws: `FieldProblem` with code `invalid_email`.
    package static func teacherEmail(_ raw: String) throws(FieldProblem) -> String {
        let text = raw.trimmingUnicodeWhitespace()
        if text.isEmpty { return "" }
        if let address = EmailAddress(text) { return address.text }
        let several = text.contains(",") || text.contains(";") || text.split(whereSeparator: \.isWhitespace).count > 1
        throw FieldProblem(
            code: .invalidEmail, column: Column.teacherEmail.rawValue, value: raw,
            message: several ? "\"\(raw)\" is not one e-mail address" : "\"\(raw)\" is not an e-mail address",
            hint: several
                ? "give one address per course (the teacher's), such as amaka.okafor@school.example, without a name"
                : "write it as name@school.example (ASCII, no display name), or leave the cell empty for no digest")
    }

    /// Parses a courses row's `language`: trimmed; empty is "the database's default"; else a
    /// BCP 47 tag of a supported language (`ReportLanguage.tag`: `de_at` and `DE-at` are
    /// `de-AT`), stored in its canonical case.
    /// - Throws: `FieldProblem` with code `invalid_language`, for an ill-formed tag and for a
    ///   tag of a language the reports are not written in alike.
    package static func language(_ raw: String) throws(FieldProblem) -> String {
        if raw.trimmingUnicodeWhitespace().isEmpty { return "" }
        switch ReportLanguage.tag(raw) {
        case .success(let tag): return tag.text
        case .failure(let refusal):
            throw FieldProblem(
                code: .invalidLanguage, column: Column.language.rawValue, value: raw, message: "\"\(raw)\" \(refusal.reason)",
                hint: LanguageRefusal.hint)
        }
    }

    package func normalize(_ fields: [String]) -> Outcome {
        if fields.allSatisfy({ $0.trimmingUnicodeWhitespace().isEmpty }) { return .blank }
        switch layout.headerRow(fields) {
        case .same?: return .repeatedHeader
        case .other(let other)?: return .otherHeader(other)
        case nil: break
        }
        if fields.count != layout.fieldCount {
            return .rejected([Self.wrongFieldCount(fields, count: fields.count, expected: layout.fieldCount)])
        }
        var problems: [FieldProblem] = []
        // Only the columns the product stores: an ignored column may hold anything. A value
        // that is too long is not checked further; the other columns still are.
        var tooLong: Set<Column> = []
        for (column, index) in columnsInOrder where fields[index].utf8.count > Self.maxFieldBytes {
            let field = fields[index]
            tooLong.insert(column)
            problems.append(
                FieldProblem(
                    code: .valueTooLong, column: column.rawValue, value: String(field.prefix(80)) + "…",
                    message: "the value is \(field.utf8.count) bytes long (the limit is 4096)",
                    hint: "shorten the value; a field this long is usually two fields merged by a quote"))
        }

        func raw(_ column: Column) -> String {
            let index = fieldIndex[column.position]
            return index < 0 ? "" : fields[index]
        }
        func required(_ column: Column, _ value: String) {
            if value.isEmpty, !tooLong.contains(column) {
                problems.append(
                    FieldProblem(
                        code: .missingValue, column: column.rawValue, value: raw(column),
                        message: "\(column.rawValue) is empty", hint: "every \(layout.kind.rawValue) row needs a \(column.rawValue)"))
            }
        }
        /// The id of `column`, its invisible characters reported.
        func id(_ column: Column) -> String {
            let value = TextNormalizer.id(raw(column))
            if !tooLong.contains(column), let problem = InvisibleCharacters.problem(column, raw: raw(column), id: value) {
                problems.append(problem)
            }
            return value
        }

        switch layout.kind {
        case .courses:
            let courseID = id(.courseID)
            let title = TextNormalizer.text(raw(.title))
            required(.courseID, courseID)
            required(.title, title)
            let code = TextNormalizer.text(raw(.code))
            var timezone = ""
            if !tooLong.contains(.timezone) {
                do { timezone = try TimeZoneCatalog.parse(raw(.timezone)) } catch { problems.append(InvisibleCharacters.noted(error)) }
            }
            var email = ""
            if !tooLong.contains(.teacherEmail) {
                do { email = try Self.teacherEmail(raw(.teacherEmail)) } catch { problems.append(InvisibleCharacters.noted(error)) }
            }
            var language = ""
            if !tooLong.contains(.language) {
                do { language = try Self.language(raw(.language)) } catch { problems.append(InvisibleCharacters.noted(error)) }
            }
            if !problems.isEmpty { return .rejected(problems) }
            return .course(
                CourseRecord(
                    courseID: courseID, code: code.isEmpty ? courseID : code, title: title,
                    term: TextNormalizer.text(raw(.term)), teacher: TextNormalizer.text(raw(.teacher)), timezone: timezone,
                    teacherEmail: email, language: language))
        case .tasks:
            let taskID = id(.taskID)
            let courseID = id(.courseID)
            let title = TextNormalizer.text(raw(.title))
            required(.taskID, taskID)
            required(.courseID, courseID)
            required(.title, title)
            let studentID = id(.studentID)
            let assignmentID = id(.assignmentID)
            var due = ""
            var priority = Priority.normal
            var completed = false
            if !tooLong.contains(.due) {
                do {
                    due = try DueDateParser.parse(raw(.due), dateOrder: dateOrder, wording: wording)?.storageText ?? ""
                } catch {
                    problems.append(InvisibleCharacters.noted(error))
                }
            }
            if !tooLong.contains(.priority) {
                do { priority = try Priority.parse(raw(.priority)) } catch { problems.append(InvisibleCharacters.noted(error)) }
            }
            if !tooLong.contains(.completed) {
                do { completed = try CompletedParser.parse(raw(.completed)) } catch { problems.append(InvisibleCharacters.noted(error)) }
            }
            var state = SubmissionState(completed: completed)
            if layout.indexes[.status] != nil, !tooLong.contains(.status) {
                if let problem = Self.state(
                    &state, status: raw(.status), completed: layout.indexes[.completed] == nil ? nil : raw(.completed))
                {
                    problems.append(InvisibleCharacters.noted(problem))
                }
            }
            var submittedAt = ""
            if !tooLong.contains(.submittedAt) {
                do {
                    submittedAt =
                        try DueDateParser.parse(raw(.submittedAt), dateOrder: dateOrder, column: "submitted_at", wording: wording)?
                        .storageText ?? ""
                } catch {
                    problems.append(InvisibleCharacters.noted(error))
                }
            }
            if !problems.isEmpty { return .rejected(problems) }
            return .task(
                TaskRecord(
                    taskID: taskID, courseID: courseID, title: title, studentID: studentID, due: due, priority: priority,
                    completed: state == .completed, assignmentID: assignmentID, state: state, submittedAt: submittedAt))
        }
    }
}

extension RowNormalizer {
    /// Sets `state` from a `status` cell and the row's `completed` cell (nil: the file has no
    /// such column), or returns the row problem (SPEC §11, `SubmissionStateParser`).
    static func state(_ state: inout SubmissionState, status raw: String, completed rawCompleted: String?) -> FieldProblem? {
        switch SubmissionStateParser.read(raw) {
        case .empty: return nil
        case .unknown:
            return FieldProblem(
                code: .invalidStatus, column: "status", value: raw, message: "\"\(raw)\" is not a submission state",
                hint: SubmissionStateParser.hint)
        case .state(let named):
            // An empty or unreadable completed cell says nothing beside a state (its own
            // problem, if any, is reported on its own).
            let completed = rawCompleted.flatMap { cell in
                cell.trimmingUnicodeWhitespace().isEmpty ? nil : try? CompletedParser.parse(cell)
            }
            guard let resolved = SubmissionStateParser.state(status: named, completed: completed) else {
                return FieldProblem(
                    code: .conflictingStatus, column: "status", value: raw,
                    message: "\"\(raw)\" (\(named.rawValue)) contradicts completed \"\(rawCompleted ?? "")\"",
                    hint: "make completed true only for completed or excused work, or leave one of the two columns empty")
            }
            state = resolved
            return nil
        }
    }
}
