import Foundation

/// The roll-ups in text: a course's assignments as one table, a student's tasks as another.
extension TextRenderer {
    /// A course's rows (ID when any row has one, ASSIGNMENT, DUE, STUDENTS, STATUS).
    static func assignmentTable(
        _ group: CourseGroup, zone: TimeZone, width: Int, style: TextStyle, lexicon: Lexicon = .english
    ) -> [String] {
        let withIDs = group.assignments.contains { !$0.assignmentID.isEmpty }
        let header = header((withIDs ? [.colID] : []) + [.colAssignment, .colDue, .colStudents, .colStatus], lexicon)
        let rows = group.assignments.map { row -> (cells: [String], bucket: Bucket) in
            var cells = [
                VisibleText.of(row.title), RollUpWords.due(row, zone: zone, lexicon) ?? "-", String(row.students),
                RollUpWords.status(row, lexicon),
            ]
            if withIDs { cells.insert(row.assignmentID.isEmpty ? "-" : VisibleText.of(row.assignmentID), at: 0) }
            return (cells, RollUpWords.urgent(row.counts))
        }
        // Without the header (the narrow layout), the due and the students say what they are.
        let (dueColumn, studentsColumn) = withIDs ? (2, 3) : (1, 2)
        return alignedTable(
            header: header, rows: rows, cut: withIDs ? 1 : 0, numeric: [studentsColumn], width: width, style: style,
            notes: rows.map { _ in nil }
        ) { column, cell in
            switch column {
            case dueColumn: return cell == "-" ? lexicon(.wordUndated) : lexicon(.dueOn, cell)
            case studentsColumn: return lexicon.count(.studentsCount, Int(cell) ?? 0)
            case 0 where withIDs: return cell == "-" ? lexicon(.noID) : lexicon(.idIs, cell)
            default: return cell
            }
        }
    }

    /// A list grouped by student: each student's heading and counts, then their tasks (ID,
    /// COURSE, TITLE, DUE, PRIORITY, STATUS), each due in its course's zone.
    static func students(_ groups: [StudentGroup], report: Report, width: Int, style: TextStyle) -> [String] {
        var lines: [String] = []
        let lexicon = report.query.lexicon
        for group in groups {
            lines += shown(RollUpWords.student(group, lexicon), to: width).map(style.strong)
            lines += shown(RollUpWords.studentSummary(group, lexicon), to: width - 2).map { "  " + $0 }
            lines += studentTable(group, report: report, width: width - 4, style: style).map { "    " + $0 }
            lines.append("")
        }
        return lines
    }

    static func studentTable(_ group: StudentGroup, report: Report, width: Int, style: TextStyle) -> [String] {
        var notes: [String?] = []
        let lexicon = report.query.lexicon
        let rows = group.tasks.map { item -> (cells: [String], bucket: Bucket) in
            let zone = zoneOf(item.course, report)
            let words = TaskRowWords(item.task, at: LocalAsOf(asOf: report.asOf, timeZone: zone), lexicon: lexicon)
            notes.append(words.override)
            let t = item.task
            return (
                [
                    VisibleText.of(t.task.taskID), VisibleText.of(item.course.code), VisibleText.of(t.task.title),
                    t.task.due.isEmpty ? "-" : lexicon.due(t.task.due, zone: zone), ReportWords.priority(t, lexicon),
                    RollUpWords.taskStatus(words),
                ],
                t.bucket
            )
        }
        return alignedTable(
            header: header([.colID, .colCourse, .colTitle, .colDue, .colPriority, .colStatus], lexicon), rows: rows, cut: 2,
            numeric: [], width: width, style: style, notes: notes)
    }

    /// Columns aligned by display width under `header`, the last one (a status in words) in its
    /// row's bucket colour. Only column `cut` is shortened (with …), and only when the others
    /// would not fit; when even that leaves too little room, each row takes two lines (that
    /// column, then the others) and nothing is cut. `numeric` columns are right-aligned. A row's
    /// note (an override's words) follows it on lines of its own, wrapped, never cut. `labelled`
    /// words a cell of the narrow layout, which has no header (by column and cell).
    static func alignedTable(
        header: [String], rows: [(cells: [String], bucket: Bucket)], cut: Int, numeric: Set<Int>, width: Int, style: TextStyle,
        notes: [String?], labelled: (Int, String) -> String = { $1 }
    ) -> [String] {
        func note(_ index: Int, indent: Int) -> [String] {
            guard index < notes.count, let text = notes[index] else { return [] }
            return shown(text, to: width - indent).map { String(repeating: " ", count: indent) + $0 }
        }
        var widths = header.map(DisplayWidth.of)
        for row in rows {
            for (i, cell) in row.cells.enumerated() { widths[i] = max(widths[i], DisplayWidth.of(cell)) }
        }
        let others = widths.reduce(0, +) - widths[cut] + 2 * (widths.count - 1)
        if width - others < 12 {
            return rows.enumerated().flatMap { index, row -> [String] in
                var rest = row.cells.enumerated().map { labelled($0, $1) }
                let first = rest.remove(at: cut)
                let status = rest.removeLast()
                return shown(first, to: width)
                    + flow(rest, status: status, bucket: row.bucket, width: width - 2, style: style).map { "  " + $0 }
                    + note(index, indent: 2)
            }
        }
        widths[cut] = min(widths[cut], width - others)
        func line(_ cells: [String], _ bucket: Bucket?) -> String {
            var cells = cells
            cells[cut] = DisplayWidth.truncate(cells[cut], to: widths[cut])
            let padded = cells.enumerated().map { i, cell -> String in
                if i == cells.count - 1 { return bucket.map { style.bucket(cell, $0) } ?? cell }
                let pad = String(repeating: " ", count: max(0, widths[i] - DisplayWidth.of(cell)))
                return numeric.contains(i) ? pad + cell : cell + pad
            }
            return trailingTrimmed(padded.joined(separator: "  "))
        }
        let noteIndent = min(widths[0] + 2, max(2, width / 3))
        return [line(header, nil)] + rows.enumerated().flatMap { [line($1.cells, $1.bucket)] + note($0, indent: noteIndent) }
    }
}
