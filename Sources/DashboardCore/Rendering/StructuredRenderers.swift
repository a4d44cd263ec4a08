import Foundation

/// Reports as JSON (`"schema": 2` since SPEC §11 moved submitted and excused work out of the
/// open buckets; documented in docs/json.md).
package enum JSONReportRenderer {
    package static func render(_ report: Report) -> String {
        var pairs: [(String, JSONValue)] = [
            ("schema", .int(ReportJSONSchema.version)), ("kind", .string(report.kind.rawValue)), ("as_of", .string(report.generatedAsOf)),
            ("state", .string(report.state.rawValue)), ("message", message(report)),
            ("stale", report.stale.map { staleJSON($0, wording: report.query.wording) } ?? .null),
            ("query", queryJSON(report.query)),
            (
                "unmatched",
                .array(
                    report.unmatched.map {
                        .object([
                            ("filter", .string($0.filter.rawValue)), ("value", .string($0.value)),
                            ("nearest", .array($0.nearest.map { .string($0) })),
                        ])
                    })
            ),
            ("total_tasks", .int(report.totalTasks)), ("matching_tasks", .int(report.matchingTasks)),
            ("hidden_tasks", .int(report.hiddenTasks)),
            ("scope_courses", .int(report.scopeCourses)), ("scope_tasks", .int(report.scopeTasks)),
            ("page", pageJSON(report.page)),
            ("changes", overnightJSON(report)),
        ]
        switch report.kind {
        case .grid:
            pairs.append(("totals", totalsJSON(report.gridTotals, query: report.query)))
            pairs.append(("courses", .array(report.cards.map { cardJSON($0, query: report.query) })))
        case .list where report.query.groupBy == .student:
            pairs.append(("students", .array(report.students.map { studentJSON($0, report) })))
        case .list: pairs.append(("courses", .array(report.groups.map { groupJSON($0, report) })))
        }
        return JSONValue.object(pairs).rendered() + "\n"
    }

    static func message(_ report: Report) -> JSONValue {
        switch report.state {
        case .ok: return .null
        case .noData: return .string(ReportMessages.noData() + " " + ReportMessages.noDataNext(report.query.wording))
        case .noCourses: return .string(ReportMessages.noCourses(report) + " " + ReportMessages.noCoursesNext(report))
        case .noMatch: return .string(ReportMessages.noMatch(report) + " " + ReportMessages.noMatchNext(report))
        }
    }

    static func staleJSON(_ stale: StaleNotice, wording: ReportWording) -> JSONValue {
        .object([
            ("data_as_of", .string(stale.dataAsOf)), ("age_hours", .int(stale.ageHours)),
            ("failed_batch", stale.failedBatch.map { .int($0) } ?? .null),
            ("failed_at", stale.failedBatch == nil ? .null : .string(stale.failedAt)),
            ("failure_reason", stale.failedBatch == nil ? .null : .string(stale.failureReason)),
            ("held_batch", stale.held.map { .int($0.batch) } ?? .null),
            ("held_since", stale.held.map { .string($0.since) } ?? .null),
            ("held_changes", stale.held.map { .int($0.changes) } ?? .null),
            ("no_export", .bool(stale.noExport)),
            ("message", .string(stale.message + " " + stale.nextStep(wording))),
        ])
    }

    static func queryJSON(_ q: ReportQuery) -> JSONValue {
        .object([
            ("search", .string(q.search)), ("course", .array(q.courses.map { .string($0) })),
            ("teacher", .array(q.teachers.map { .string($0) })), ("student", .array(q.students.map { .string($0) })),
            ("bucket", .array(q.buckets.map { .string($0.rawValue) })), ("priority", .array(q.priorities.map { .string($0.rawValue) })),
            ("status", .array(q.statuses.map { .string($0.rawValue) })), ("late", .bool(q.late)),
            ("include_completed", .bool(q.includeCompleted)), ("sort", .string(q.sort.rawValue)),
            ("due_within_days", .array(q.due.within.map { .int($0) })), ("due_before", .array(q.due.before.map { .string($0.isoText) })),
            ("due_after", .array(q.due.after.map { .string($0.isoText) })), ("sort_courses", .string(q.courseSort.rawValue)),
            ("group_by", .string(q.groupBy.rawValue)),
        ])
    }

    static func pageJSON(_ p: PageInfo) -> JSONValue {
        .object([
            ("page", .int(p.page)), ("page_count", .int(p.pageCount)), ("limit", p.limit.map { .int($0) } ?? .null),
            ("total_items", .int(p.totalItems)), ("first_item", .int(p.firstItem)), ("last_item", .int(p.lastItem)),
        ])
    }

    static func courseJSON(_ c: CourseRecord) -> [(String, JSONValue)] {
        [
            ("course_id", .string(c.courseID)), ("code", .string(c.code)), ("title", .string(c.title)), ("term", .string(c.term)),
            ("teacher", .string(c.teacher)), ("timezone", .string(c.timezone)),
        ]
    }

    /// What changed since the previous import: the window and, for a grid, the sum over its
    /// cards; null before any committed import.
    static func overnightJSON(_ report: Report) -> JSONValue {
        guard let overnight = report.overnight, report.state != .noData else { return .null }
        return .object([
            ("state", .string(overnight.state.rawValue)),
            ("since", overnight.since.map { .string(Timestamp.text($0)) } ?? .null),
            ("batch", overnight.batch.map { .int($0) } ?? .null),
            ("totals", report.kind == .grid ? report.gridTotals.changes.map(changesJSON) ?? .null : .null),
            ("words", OvernightWords.headline(report).map { .string($0) } ?? .null),
        ])
    }

    /// One course's changes (`CourseChanges`).
    static func changesJSON(_ c: CourseChanges) -> JSONValue {
        .object([
            ("new", .int(c.new)), ("now_overdue", .int(c.nowOverdue)), ("completed", .int(c.completed)), ("pinned", .int(c.pinned)),
            ("unpinned", .int(c.unpinned)), ("deleted", .int(c.deleted)), ("handed_in", .int(c.handedIn)),
            ("excused", .int(c.excused)),
        ])
    }

    static func cardJSON(_ card: CourseCard, query: ReportQuery) -> JSONValue {
        .object(
            courseJSON(card.course) + [
                ("counts", .object(Bucket.allCases.map { ($0.rawValue, .int(card.count($0))) })),
                ("total", .int(card.total)), ("completed", .int(card.count(.completed))),
                ("needs_attention", .bool(CourseAttention.needed(card.counts))),
                ("attention", CardWords.attention(card.counts).map { .string($0) } ?? .null),
                ("summary", .string(CardWords.summary(card, query: query))),
                ("changes", card.changes.map(changesJSON) ?? .null),
            ])
    }

    /// The grid's totals over every card it shows (every page together).
    static func totalsJSON(_ totals: GridTotals, query: ReportQuery) -> JSONValue {
        .object([
            ("courses", .int(totals.courses)), ("needing_attention", .int(totals.needingAttention)),
            ("counts", .object(Bucket.allCases.map { ($0.rawValue, .int(totals.counts[$0])) })), ("total", .int(totals.live)),
            ("words", .string(CardWords.totals(totals, query: query))),
        ])
    }

    static func groupJSON(_ group: CourseGroup, _ report: Report) -> JSONValue {
        let zone = zoneOf(group.course, report)
        if report.query.groupBy == .assignment { return assignmentGroupJSON(group, zone: zone) }
        return .object(
            courseJSON(group.course) + [
                ("times_in", .string(ReportWords.zoneName(zone))),
                ("live_tasks", .int(group.liveTasks)),
                ("changes", report.overnight?.cardChanges(group.course.courseID).map(changesJSON) ?? .null),
                ("sections", .array(group.sections.map { sectionJSON($0, local: LocalAsOf(asOf: report.asOf, timeZone: zone)) })),
            ])
    }
}

/// The zone a course's times are shown in: its own, by the rule of `CourseZones`.
func zoneOf(_ course: CourseRecord, _ report: Report) -> TimeZone {
    CourseZones.timeZone(named: course.timezone, default: report.defaultTimeZone)
}

/// Reports as CSV: one header, one row per task (list) or per course (grid); cells that a
/// spreadsheet would run as formulas are prefixed with `'`.
package enum CSVReportRenderer {
    /// The list's columns: the first ten since the first version, then those a list row adds
    /// (`rowColumns`), last so that a reader by position keeps working.
    package static let listHeader =
        [
            "course_id", "course_code", "task_id", "title", "student_id", "due", "priority", "completed", "bucket", "status",
        ] + rowColumns
    /// The grid's columns: the first twelve since the first version, then `needs_attention`
    /// (true when the card has an overdue task or one due today), then the six counts of what
    /// changed overnight (issue 28; empty when there is nothing to compare with), then (SPEC §11)
    /// the card's to grade and excused, and the window's handed in and excused.
    package static let gridHeader = [
        "course_id", "code", "title", "teacher", "term", "timezone", "overdue", "today", "upcoming", "undated", "completed", "total",
        "needs_attention", "new_since", "now_overdue_since", "completed_since", "pinned_since", "unpinned_since", "deleted_since",
        "to_grade", "excused", "handed_in_since", "excused_since",
    ]

    package static func render(_ report: Report) -> String {
        switch report.kind {
        case .list where report.query.groupBy == .assignment:
            return CSVWriter.line(assignmentHeader) + report.groups.map { assignmentRows($0, report) }.joined()
        case .list where report.query.groupBy == .student:
            return CSVWriter.line(listHeader) + report.students.map { studentRows($0, report) }.joined()
        case .list:
            var text = CSVWriter.line(listHeader)
            for group in report.groups {
                let zone = zoneOf(group.course, report)
                let local = LocalAsOf(asOf: report.asOf, timeZone: zone)
                for section in group.sections {
                    for t in section.tasks {
                        text += CSVWriter.line(
                            [
                                t.task.courseID, group.course.code, t.task.taskID, t.task.title, t.task.studentID,
                                t.task.due.isEmpty ? "" : ReportWords.isoDue(t.task.due, zone: zone), ReportWords.priority(t),
                                t.task.invalid.contains { $0.column == "completed" } ? "invalid" : t.task.completed ? "true" : "false",
                                t.bucket.rawValue, ReportWords.status(t),
                            ] + rowCells(t, local: local))
                    }
                }
            }
            return text
        case .grid:
            var text = CSVWriter.line(gridHeader)
            for card in report.cards {
                let c = card.course
                text += CSVWriter.line(
                    [c.courseID, c.code, c.title, c.teacher, c.term, c.timezone] + Bucket.original.map { String(card.count($0)) }
                        + [String(card.total), CourseAttention.needed(card.counts) ? "true" : "false"]
                        + (card.changes.map { [$0.new, $0.nowOverdue, $0.completed, $0.pinned, $0.unpinned, $0.deleted].map(String.init) }
                            ?? Array(repeating: "", count: 6)) + Bucket.added.map { String(card.count($0)) }
                        + (card.changes.map { [$0.handedIn, $0.excused].map(String.init) } ?? ["", ""]))
            }
            return text
        }
    }
}

/// Reports as Markdown: a table for the grid, headings and tables for lists; `|` and other
/// Markdown characters in values are escaped.
package enum MarkdownRenderer {
    /// - Parameter link: the file of each course's page, for the grid (`--out`): the code links to it.
    /// - Parameter indexLink: the grid's file, for a course's page (`--out`): a link back to it.
    package static func render(_ report: Report, link: (CourseRecord) -> String? = { _ in nil }, indexLink: String? = nil) -> String {
        let lexicon = report.query.lexicon
        let zone = report.query.displayTimeZone
        var out = "# " + lexicon(.titleAsOf, RollUpWords.reportName(report), lexicon.asOf(report.asOf, in: zone)) + "\n\n"
        if let indexLink { out += "[\(escape(lexicon(.allCourses)))](\(linkTarget(indexLink)))\n\n" }
        if let stale = report.stale {
            out +=
                report.query.wording.forReaders
                ? "> **\(escape(lexicon(.note)))** \(escape(stale.readerMessage(lexicon, in: zone)))\n\n"
                : "> **Warning:** \(escape(stale.message + " " + stale.nextStep(report.query.wording)))\n\n"
        }
        switch report.state {
        case .noData:
            return out + escape(ReportMessages.noData(lexicon)) + "\n\n"
                + escape(ReportMessages.noDataNext(report.query.wording, lexicon)) + "\n"
        case .noCourses:
            return out + escape(ReportMessages.noCourses(report)) + "\n\n" + escape(ReportMessages.noCoursesNext(report)) + "\n"
        case .noMatch:
            return out + escape(ReportMessages.noMatch(report)) + "\n\n" + escape(ReportMessages.noMatchNext(report)) + "\n"
        case .ok: break
        }
        if let showing = ReportMessages.showing(report) { out += escape(showing) + "\n\n" }
        switch report.kind {
        case .grid:
            out += gridTable(report, link: link)
        case .list where report.query.groupBy == .student:
            out += studentsMarkdown(report)
        case .list:
            for group in report.groups {
                let zone = zoneOf(group.course, report)
                out += "## " + lexicon.markup(.courseTitle, escape(group.course.code), escape(group.course.title), escape: escape) + "\n\n"
                var about: [String] = []
                if !group.course.teacher.isEmpty { about.append(lexicon.markup(.teacherIs, escape(group.course.teacher), escape: escape)) }
                if !group.course.term.isEmpty { about.append(lexicon.markup(.termIs, escape(group.course.term), escape: escape)) }
                // A zone name as before: IANA letters, where an inner `_` is no emphasis in CommonMark.
                about.append(lexicon.markup(.timesIn, ReportWords.zoneName(zone), escape: escape))
                out += lexicon.markup(.sentence, about.joined(separator: escape(lexicon(.statusSeparator))), escape: escape) + "\n\n"
                if let note = ReportMessages.completedNotShown(group, report: report) { out += escape(note) + "\n\n" }
                if let changes = OvernightWords.course(group.course.courseID, report) { out += escape(changes) + "\n\n" }
                if report.query.groupBy == .assignment, !group.assignments.isEmpty {
                    out += assignmentsMarkdown(group, zone: zone, lexicon: lexicon)
                    continue
                }
                if group.sections.isEmpty {
                    out += escape(
                        group.liveTasks == 0
                            ? ReportMessages.courseWithoutTasks(
                                group.course, forReaders: report.query.wording.forReaders, lexicon: lexicon)
                            : ReportMessages.allCompleted(group, wording: report.query.wording, lexicon: lexicon))
                    out += "\n\n"
                }
                let local = LocalAsOf(asOf: report.asOf, timeZone: zone)
                for section in group.sections { out += sectionMarkdown(section, zone: zone, local: local, lexicon: lexicon) }
            }
        }
        let page = ReportMessages.page(report)
        if !page.isEmpty { out += escape(page) + "\n" }
        return out
    }

    /// Escapes the characters Markdown would read as markup, and `|` for tables, after showing
    /// the data's control, bidi and invisible characters as visible escapes (`VisibleText`).
    package static func escape(_ text: String) -> String {
        var out = ""
        for character in VisibleText.of(text) {
            if "\\`*_{}[]<>#+!|~&".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}

/// The grid in Markdown.
extension MarkdownRenderer {
    /// The totals line, then a table: code (a link to the course's page when it has one),
    /// title, what needs attention in bold, one column per counted bucket
    /// (`CardWords.gridCounted`: to grade too when a card has work to grade), then the card's
    /// summary.
    static func gridTable(_ report: Report, link: (CourseRecord) -> String?) -> String {
        let buckets = CardWords.gridCounted(report)
        let lexicon = report.query.lexicon
        var out = escape(CardWords.totals(report.gridTotals, query: report.query)) + "\n\n"
        if let headline = OvernightWords.headline(report) { out += escape(headline) + "\n\n" }
        let changes = report.overnight.map { $0.state != .firstImport } ?? false
        let columns =
            [lexicon(.colCode), lexicon(.colCourse), lexicon(.colNeedsAttention)] + buckets.map { ReportWords.title($0, lexicon) }
        out += "| " + (columns + [lexicon(.colSummary)]).map { escape($0) + " |" }.joined(separator: " ")
        out += (changes ? " \(escape(lexicon(.colChanges))) |" : "") + "\n"
        out += "|---|---|---|" + String(repeating: "---:|", count: buckets.count) + "---|" + (changes ? "---|" : "") + "\n"
        for card in report.cards { out += gridRow(card, link: link(card.course), report: report) }
        return out
    }

    /// One card's row of `gridTable`.
    static func gridRow(_ card: CourseCard, link: String?, report: Report) -> String {
        let query = report.query
        let code = escape(card.course.code)
        let attention = CardWords.attention(card.counts, query.lexicon).map { "**\(escape($0))**" } ?? "—"
        var row = "| \(link.map { "[\(code)](\(linkTarget($0)))" } ?? code) | \(escape(card.course.title)) | \(attention) | "
        for bucket in CardWords.gridCounted(report) { row += "\(card.count(bucket)) | " }
        row += escape(CardWords.summary(card, query: query)) + " |"
        if card.changes != nil { row += " " + (OvernightWords.card(card, report).map(escape) ?? "—") + " |" }
        return row + "\n"
    }

    /// A link's target: our file names hold only letters, digits, `-` and `.`; anything else
    /// is percent-encoded so the target never ends the link early.
    static func linkTarget(_ name: String) -> String {
        var out = ""
        for byte in name.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if c.isASCII, c.isLetter || c.isNumber || c == "-" || c == "." || c == "_" || c == "/" {
                out.append(c)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// The `schema` of the report documents (grid, list, the teachers' index).
///
/// Policy: 2 since issue 31 (SPEC §11): a submitted task counts in `to_grade` and an excused
/// one in `excused`, where schema 1 counted them in an open bucket by their due, so a consumer
/// that added up the keys it knew would count differently: a changed meaning is a new number.
/// Every key of schema 1 is still there with its name; docs/json.md says what moved.
package enum ReportJSONSchema {
    package static let version = 2
}
