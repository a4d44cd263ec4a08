import Foundation

/// The roll-ups (`--group-by assignment|student`) in JSON (docs/json.md, "Roll-ups").
extension JSONReportRenderer {
    /// A course of a roll-up by assignment: the course, `assignment_count` (its whole number
    /// of rows), `first` and `last` (the places of the rows shown) and its `assignments`.
    static func assignmentGroupJSON(_ group: CourseGroup, zone: TimeZone) -> JSONValue {
        .object(
            courseJSON(group.course) + [
                ("times_in", .string(ReportWords.zoneName(zone))), ("live_tasks", .int(group.liveTasks)),
                ("assignment_count", .int(group.assignmentTotal)), ("first", .int(group.assignments.isEmpty ? 0 : group.assignmentFirst)),
                ("last", .int(group.assignments.isEmpty ? 0 : group.assignmentFirst + group.assignments.count - 1)),
                ("assignments", .array(group.assignments.map { assignmentJSON($0, zone: zone) })),
            ])
    }

    /// One row: `due_first`/`due_last` as `due` is written (null when undated), `students`,
    /// `counts` per bucket of the listed tasks, `tasks` (their number), `live_tasks` (every
    /// task of the assignment), `days_late` (the most, null when none is late), `status` and
    /// `hand_ins` (of every live task: handed in, late, excused; null when its data says
    /// nothing of hand-ins, `HandIns.known`).
    static func assignmentJSON(_ row: AssignmentRow, zone: TimeZone) -> JSONValue {
        func due(_ text: String) -> JSONValue { text.isEmpty ? .null : .string(ReportWords.isoDue(text, zone: zone)) }
        return .object([
            ("assignment_id", .string(row.assignmentID)), ("title", .string(row.title)), ("due_first", due(row.firstDue)),
            ("due_last", due(row.lastDue)), ("students", .int(row.students)),
            ("counts", .object(Bucket.allCases.map { ($0.rawValue, .int(row.counts[$0])) })), ("tasks", .int(row.matching)),
            ("live_tasks", .int(row.live)), ("days_late", row.daysLate.map { .int($0) } ?? .null),
            ("status", .string(RollUpWords.status(row))),
            (
                "hand_ins",
                row.handIns.known
                    ? .object([
                        ("handed_in", .int(row.handIns.handedIn)), ("late", .int(row.handIns.late)), ("excused", .int(row.handIns.excused)),
                    ]) : .null
            ),
        ])
    }

    /// A student of a roll-up by student: `count` (every page together), `counts` per bucket,
    /// `shown`, `first`, `last` and the `tasks` (each with `course_code` and `course_title`).
    static func studentJSON(_ group: StudentGroup, _ report: Report) -> JSONValue {
        .object([
            ("student_id", .string(group.studentID)), ("count", .int(group.total)),
            ("counts", .object(Bucket.allCases.map { ($0.rawValue, .int(group.counts[$0])) })), ("shown", .int(group.tasks.count)),
            ("first", .int(group.first)), ("last", .int(group.last)),
            (
                "tasks",
                .array(
                    group.tasks.map { item in
                        let local = LocalAsOf(asOf: report.asOf, timeZone: zoneOf(item.course, report))
                        guard case .object(var fields) = taskJSON(item.task, local: local) else { return .null }
                        fields.insert(
                            contentsOf: [("course_code", .string(item.course.code)), ("course_title", .string(item.course.title))], at: 2)
                        return .object(fields)
                    })
            ),
        ])
    }
}

/// The roll-ups in CSV: one row per assignment; a list by student has the list's columns, its
/// rows in student order.
extension CSVReportRenderer {
    package static let assignmentHeader = [
        "course_id", "course_code", "assignment_id", "title", "due_first", "due_last", "students", "overdue", "today", "upcoming",
        "undated", "completed", "tasks", "live_tasks", "days_late", "status", "to_grade", "excused", "handed_in", "handed_in_late",
    ]

    static func assignmentRows(_ group: CourseGroup, _ report: Report) -> String {
        let zone = zoneOf(group.course, report)
        return group.assignments.map { row in
            var fields: [String] = [
                group.course.courseID, group.course.code, row.assignmentID, row.title,
                row.firstDue.isEmpty ? "" : ReportWords.isoDue(row.firstDue, zone: zone),
                row.lastDue.isEmpty ? "" : ReportWords.isoDue(row.lastDue, zone: zone), String(row.students),
            ]
            fields += Bucket.original.map { String(row.counts[$0]) }
            fields += [String(row.matching), String(row.live), row.daysLate.map(String.init) ?? "", RollUpWords.status(row)]
            fields += Bucket.added.map { String(row.counts[$0]) }
            // The hand-ins of every live task; empty where the data says nothing of them.
            let handIns = row.handIns
            fields += handIns.known ? [String(handIns.handedIn), String(handIns.late)] : ["", ""]
            return CSVWriter.line(fields)
        }.joined()
    }

    static func studentRows(_ group: StudentGroup, _ report: Report) -> String {
        group.tasks.map { item in
            let zone = zoneOf(item.course, report)
            let t = item.task
            return CSVWriter.line(
                [
                    t.task.courseID, item.course.code, t.task.taskID, t.task.title, t.task.studentID,
                    t.task.due.isEmpty ? "" : ReportWords.isoDue(t.task.due, zone: zone), ReportWords.priority(t),
                    t.task.invalid.contains { $0.column == "completed" } ? "invalid" : t.task.completed ? "true" : "false",
                    t.bucket.rawValue, ReportWords.status(t),
                ] + rowCells(t, local: LocalAsOf(asOf: report.asOf, timeZone: zone)))
        }.joined()
    }
}

/// The roll-ups in Markdown.
extension MarkdownRenderer {
    /// A course's rows: a heading with their number, then a table.
    static func assignmentsMarkdown(_ group: CourseGroup, zone: TimeZone, lexicon: Lexicon = .english) -> String {
        var out = "### \(escape(RollUpWords.assignmentsHeading(group, lexicon)))\n\n"
        let titles: [Phrase] = [.titleOverdue, .titleToday, .titleUpcoming, .titleUndated, .titleCompleted]
        out += header([.colID, .colAssignment, .colDue, .colStudents] + titles + [.colStatus], lexicon, numeric: Set(3...8))
        for row in group.assignments {
            out += "| \(row.assignmentID.isEmpty ? "—" : escape(row.assignmentID)) | \(escape(row.title)) | "
            out += "\(escape(RollUpWords.due(row, zone: zone, lexicon) ?? "—")) | \(row.students) | "
            // The columns of the first version; to grade and excused are in the status words.
            out += Bucket.original.map { "\(row.counts[$0]) | " }.joined() + escape(RollUpWords.status(row, lexicon)) + " |\n"
        }
        return out + "\n"
    }

    /// Every student of the page: a heading, their counts, then a table of their tasks.
    static func studentsMarkdown(_ report: Report) -> String {
        studentsHead(report) + report.students.map { studentMarkdown($0, report) }.joined()
    }

    /// What comes before the students: the note on times (when there is a task to list).
    static func studentsHead(_ report: Report) -> String {
        RollUpWords.studentNotes(report).map { escape($0) + "\n\n" }.joined()
    }

    /// One student: a heading, their counts, then a table of their tasks.
    static func studentMarkdown(_ group: StudentGroup, _ report: Report) -> String {
        var out = ""
        let lexicon = report.query.lexicon
        out += "## \(escape(RollUpWords.student(group, lexicon)))\n\n\(escape(RollUpWords.studentSummary(group, lexicon)))\n\n"
        out += header([.colID, .colCourse, .colTitle, .colDue, .colPriority, .colStatus], lexicon)
        for item in group.tasks {
            let zone = zoneOf(item.course, report)
            let t = item.task
            let words = TaskRowWords(t, at: LocalAsOf(asOf: report.asOf, timeZone: zone), lexicon: lexicon)
            let due = t.task.due.isEmpty ? "—" : escape(lexicon.due(t.task.due, zone: zone))
            out += "| \(escape(t.task.taskID)) | \(escape(item.course.code)) | \(escape(t.task.title)) | \(due) | "
            out += "\(escape(ReportWords.priority(t, lexicon))) | \(escape(words.fullStatus)) |\n"
        }
        out += "\n"

        return out
    }
}
