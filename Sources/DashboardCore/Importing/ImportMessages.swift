/// Every problem and message text of an import run, in one place.
///
/// The importer's fold (`ImportFold`) and its planning step decide *what* happened (a blank
/// run, a repeated row, a course that is not there); the words for it are built here and
/// nowhere else, so a change of wording is one edit and the end-to-end goldens show it.
enum ImportMessages {
    /// The `unknown_column` warning of a file: every stray column of the header in one problem
    /// (a header of 100,000 stray columns is one problem, not 100,000).
    static func unknownColumns(_ unknown: [String], kind: FileKind, file: String, headerLine: Int) -> ImportProblem {
        let shown = unknown.prefix(10).map { $0.isEmpty ? "(no name)" : "\"\($0)\"" }.joined(separator: ", ")
        let more = unknown.count > 10 ? " and \(unknown.count - 10) more" : ""
        let message: String
        if unknown.count == 1 {
            message =
                unknown[0].isEmpty
                ? "a column without a name was ignored"
                : "column \"\(unknown[0])\" is not used by a \(kind.rawValue) file and was ignored"
        } else {
            message = "\(unknown.count) columns are not used by a \(kind.rawValue) file and were ignored: \(shown)\(more)"
        }
        return ImportProblem(
            code: .unknownColumn, file: file, line: headerLine, row: 0, column: unknown.count == 1 ? unknown[0] : "",
            value: unknown.count == 1 ? "" : unknown.joined(separator: ","), message: message,
            hint:
                "nothing to do if that is expected; rename \(unknown.count == 1 ? "it" : "a column") if it should be one of: \(kind.columns.map(\.rawValue).joined(separator: ", "))"
        )
    }

    /// The `blank_row` warning of a run of blank rows starting at `line` (`row`).
    static func blankRows(file: String, line: Int, row: Int, count: Int, lastLine: Int) -> ImportProblem {
        let message =
            count == 1
            ? "line \(line) is blank and was skipped"
            : "\(count) blank rows (lines \(line)–\(lastLine)) were skipped"
        return ImportProblem(
            code: .blankRow, file: file, line: line, row: row, message: message,
            hint: "remove blank lines from the export, or ignore this warning")
    }

    /// The `repeated_header` warning: a row that reads as the file's own header again.
    static func repeatedHeader(file: String, line: Int, row: Int, headerLine: Int) -> ImportProblem {
        ImportProblem(
            code: .repeatedHeader, file: file, line: line, row: row,
            message: "line \(line) repeats the header (line \(headerLine)) and was skipped",
            hint: "exports joined into one file (cat a.csv b.csv) repeat their header: remove the line, or ignore this warning")
    }

    /// The `mismatched_header` file error: a row that reads as the header of another layout,
    /// `value` the row's fields as `wrong_field_count` shows them.
    static func mismatchedHeader(_ other: HeaderLayout, of layout: HeaderLayout, file: String, line: Int, value: String) -> ImportProblem {
        let what =
            other.kind == layout.kind
            ? "a \(other.kind.rawValue) header of another layout (\(other.columnList))"
            : "the header of a \(other.kind.rawValue) file (\(other.columnList)) inside a \(layout.kind.rawValue) file"
        return ImportProblem(
            code: .mismatchedHeader, file: file, line: line, row: 0, value: value,
            message:
                "line \(line) is \(what): the rows after it cannot be read with the header on line \(layout.headerLine) "
                + "(\(layout.columnList))",
            hint:
                "split the file at line \(line) and import the two parts as two files; exports can be joined into one file only "
                + "when their headers are the same")
    }

    /// The `malformed_quote` problem of a row that breaks the quoting rules.
    static func malformedQuote(_ text: String) -> FieldProblem {
        FieldProblem(
            code: .malformedQuote, column: "", value: text,
            message: "the row breaks the quoting rules (a quote inside an unquoted value, or text after a closing quote)",
            hint: "put the whole value in quotes and double every quote inside it: \"say \"\"hi\"\"\"")
    }

    /// Where the first row of a repeated id was: `line 3` in the same file, else `a.csv line 3`.
    private static func place(of first: (file: String, line: Int), from file: String) -> String {
        first.file == file ? "line \(first.line)" : "\(first.file) line \(first.line)"
    }

    /// The `duplicate_row` warning: a row that repeats an earlier one exactly.
    static func repeatedRow(
        file: String, line: Int, row: Int, idColumn: String, id: String, first: (file: String, line: Int)
    ) -> ImportProblem {
        ImportProblem(
            code: .duplicateRow, file: file, line: line, row: row, column: idColumn, value: id,
            message: "this row repeats \(place(of: first, from: file)) exactly and was imported once",
            hint: "remove the repeated row from the export, or ignore this warning")
    }

    /// The `duplicate_id` error: a row that reuses an earlier row's id with other values.
    static func conflictingRow(
        file: String, line: Int, row: Int, idColumn: String, id: String, first: (file: String, line: Int)
    ) -> ImportProblem {
        ImportProblem(
            code: .duplicateID, file: file, line: line, row: row, column: idColumn, value: id,
            message:
                "\(idColumn) \"\(id)\" was already used on \(place(of: first, from: file)) with different values; the first row was kept",
            hint: "give each row its own \(idColumn), or remove the outdated row")
    }

    /// The `unknown_course` problem of a tasks row (valid or not) whose course is neither in the
    /// database nor valid in this run.
    static func unknownCourse(_ courseID: String, ownRowRejected: Bool) -> FieldProblem {
        FieldProblem(
            code: .unknownCourse, column: "course_id", value: courseID,
            message: ownRowRejected
                ? "course \"\(courseID)\" is not in the database and its own row in this import was rejected"
                : "course \"\(courseID)\" is not in the database or in this import",
            hint: ownRowRejected
                ? "fix the course's row (see its error), then import again"
                : "import the course first (or in the same run), or correct the course_id")
    }

    /// The `unknown_course` problem of a held task whose course was deleted before approval.
    static func courseDeletedWhileHeld(_ courseID: String, file: String, line: Int) -> ImportProblem {
        ImportProblem(
            code: .unknownCourse, file: file, line: line, row: 0, column: "course_id", value: courseID,
            message: "course \"\(courseID)\" was deleted after this batch was held",
            hint: "import the course again, then the task")
    }
}

// MARK: - The delete guard and held batches

extension ImportMessages {
    /// Why a sync is held when rows of `kind` were too broken to read their ids.
    static func unidentifiedRows(_ unidentified: Int, kind: FileKind, deleted: Int) -> String {
        "\(unidentified) \(kind.rawValue) row(s) were too broken to read their ids (wrong field count or quotes), so a sync cannot tell whether the \(deleted) \(kind.rawValue) it would delete are really gone"
    }

    /// Why a sync is held when it would delete more than the limit allows.
    static func tooManyDeletes(_ deleted: Int, of live: Int, kind: FileKind, limit: DeleteLimit, wording: ImportWording) -> String {
        let share = live > 0 ? " (\(Int((Double(deleted) * 100 / Double(live)).rounded()))%)" : ""
        return "sync would delete \(deleted) of \(live) \(kind.rawValue)\(share), more than \(wording(.deleteLimit(limit)))"
    }

    /// The reason of a dry run (or check) that a real import would hold.
    static func wouldHold(_ guardReason: String) -> String { "a real import would be held: " + guardReason }

    /// What a held batch's reason says after the guard's reason (`held`), where `heldBecause`
    /// cuts it.
    static let heldOutcome = "; nothing was changed"

    /// The reason recorded for a held batch: the guard's, and how to go on.
    static func held(_ guardReason: String, batchID: Int, wording: ImportWording) -> String {
        guardReason + heldOutcome + ". " + wording(.reviewHeld(batchID: batchID))
    }

    /// The guard's reason in a held batch's stored reason (`held`), whichever shell worded the
    /// rest; the whole reason when it has no such end.
    static func heldBecause(_ storedReason: String) -> String {
        storedReason.components(separatedBy: heldOutcome).first ?? storedReason
    }

    /// The reason of a run a strict import refused.
    static func strictRejected(_ rejected: Int, wording: ImportWording) -> String {
        "\(wording(.strict)): \(rejected) row(s) rejected, nothing was imported"
    }
}
