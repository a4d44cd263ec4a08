import Foundation

/// A whole list (`report list` without `--limit`) written as it is read: the frame (title,
/// banner, counts) first, then each course as soon as its tasks are read
/// (`ReportCourseStream`), then the end. The bytes are those of `ReportFormat.render` on the
/// whole report (the goldens and a test hold it); memory is bounded by the largest course.
package enum ReportListStream {
    /// Writes the list through `emit`, one piece per course.
    /// - Returns: the list's frame (state and banner, no groups).
    @discardableResult
    package static func write(
        _ reader: any ReportReading, facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone,
        format: ReportFormat, width: Int, style: TextStyle = .plain, emit: (String) -> Void
    ) throws -> Report {
        var whole = query
        whole.limit = nil
        whole.page = 1
        var writer: Writer?
        var held: [CourseGroup] = []
        var heldCompleted: [String: Int] = [:]
        let plan = try ReportCourseStream.forEachGroup(
            reader, facts: facts, query: whole, asOf: asOf, defaultTimeZone: defaultTimeZone, onlyCourses: query.courses
        ) { plan, group in
            // One course (or a state without courses) is rendered whole: it is one course.
            guard plan.shownCount > 1, plan.list.state == .ok else {
                held.append(group)
                heldCompleted.merge(plan.list.completedByCourse) { $1 }
                return
            }
            if writer == nil {
                let made = Writer(frame: plan.list, format: format, width: width, style: style)
                emit(made.head)
                writer = made
            }
            if let writer { emit(writer.body(group, frame: plan.list)) }
        }
        if let writer {
            emit(writer.tail)
        } else {
            var report = plan.list
            report.groups = held
            report.completedByCourse = heldCompleted
            emit(format.render(report, width: width, style: style))
        }
        return plan.list
    }

    /// A whole roll-up by student written as it is read: the frame, then each student as soon
    /// as their last task is read (`ReportRollUpStream.forEachStudent`), then the end. The bytes
    /// are those of `ReportFormat.render` on the whole report; memory is one student's tasks and
    /// a chunk of keys.
    @discardableResult
    package static func writeStudents(
        _ reader: any ReportReading, facts: ReportFacts, query: ReportQuery, asOf: Date, defaultTimeZone: TimeZone,
        format: ReportFormat, width: Int, style: TextStyle = .plain, emit: (String) -> Void
    ) throws -> Report {
        var writer: Writer?
        let frame = try ReportRollUpStream.forEachStudent(
            reader, facts: facts, query: query, asOf: asOf, defaultTimeZone: defaultTimeZone
        ) { frame, group in
            if writer == nil {
                let made = Writer(frame: frame, format: format, width: width, style: style)
                emit(made.head)
                writer = made
            }
            if let writer { emit(writer.body(group)) }
        }
        if let writer {
            emit(writer.tail)
        } else {
            emit(format.render(frame, width: width, style: style))
        }
        return frame
    }

    /// The pieces of one format: what comes before the courses, each course, what comes after.
    final class Writer {
        let frame: Report
        let format: ReportFormat
        let width: Int
        let style: TextStyle
        /// The frame rendered without courses.
        let empty: String
        var head = ""
        var tail = ""

        init(frame: Report, format: ReportFormat, width: Int, style: TextStyle = .plain) {
            let frame = frame.worded(for: format)
            self.frame = frame
            self.format = format
            self.width = max(20, width)
            self.style = style
            empty = format.render(frame, width: width, style: style)
            switch format {
            case .csv, .markdown:
                // The courses follow the frame, and nothing comes after them (no page line
                // for a whole list).
                head = empty
            case .text:
                // The frame without its final newline; each course's lines follow, each after
                // a newline; trailing blank lines are dropped (`tail`).
                head = String(empty.dropLast())
                tail = "\n"
            case .json:
                // `"courses": []` is the frame's last member.
                head = String(empty.dropLast("[]\n}\n".count)) + "["
                tail = "\n  ]\n}\n"
            case .html:
                let marker = "\u{1}courses\u{1}"
                let body = HTMLRenderer.stateAware(frame) {
                    frame.query.groupBy == .student ? HTMLRenderer.studentsHead(frame) + marker : marker
                }
                let name = RollUpWords.reportName(frame)
                let page = HTMLRenderer.page(
                    title: name, heading: name, report: frame, nav: nil, body: body, script: HTMLRenderer.script(frame, .list))
                let parts = page.components(separatedBy: marker)
                head = parts.first ?? ""
                tail = parts.count == 2 ? parts[1] : ""
            }
        }

        /// Blank lines held back by the text format (dropped when nothing follows them).
        private var blankLines = 1
        private var courses = 0

        /// One student of a roll-up by student.
        func body(_ group: StudentGroup) -> String {
            defer { courses += 1 }
            switch format {
            case .csv: return CSVReportRenderer.studentRows(group, frame)
            case .markdown: return MarkdownRenderer.studentMarkdown(group, frame)
            case .json: return indented(JSONReportRenderer.studentJSON(group, frame))
            case .html: return HTMLRenderer.studentHTML(group, frame)
            case .text: return textLines(TextRenderer.students([group], report: frame, width: width, style: style))
            }
        }

        /// A member of the frame's last array, 4 spaces deeper on each line (JSON strings hold
        /// no raw line break), after a comma but for the first.
        private func indented(_ value: JSONValue) -> String {
            var bytes = Array((courses > 0 ? ",\n    " : "\n    ").utf8)
            for byte in value.rendered().utf8 {
                bytes.append(byte)
                if byte == 10 { bytes += [32, 32, 32, 32] }
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Text lines after what came before, blank lines held back until a line follows them.
        private func textLines(_ lines: [String]) -> String {
            var out = ""
            for line in lines {
                if line.isEmpty {
                    blankLines += 1
                    continue
                }
                out += String(repeating: "\n", count: blankLines) + "\n" + line
                blankLines = 0
            }
            return out
        }

        /// One course; `frame` is the list's frame holding that course's count of completed tasks.
        func body(_ group: CourseGroup, frame: Report) -> String {
            var single = frame
            single.groups = [group]
            defer { courses += 1 }
            switch format {
            case .csv, .markdown:
                return String(format.render(single, width: width).dropFirst(empty.count))
            case .json:
                // The course at the depth of the `courses` array: 4 more spaces on each line
                // (JSON strings hold no raw line break).
                var bytes = Array((courses > 0 ? ",\n    " : "\n    ").utf8)
                for byte in JSONReportRenderer.groupJSON(group, frame).rendered().utf8 {
                    bytes.append(byte)
                    if byte == 10 { bytes += [32, 32, 32, 32] }
                }
                return String(decoding: bytes, as: UTF8.self)
            case .html:
                return HTMLRenderer.groupHTML(group, report: frame, underPageHeading: false)
            case .text:
                var out = ""
                for line in TextRenderer.list([group], report: frame, width: width, style: style) {
                    if line.isEmpty {
                        blankLines += 1
                        continue
                    }
                    out += String(repeating: "\n", count: blankLines) + "\n" + line
                    blankLines = 0
                }
                return out
            }
        }
    }
}
