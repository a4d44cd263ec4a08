import Foundation

/// A list's sections and rows in JSON: the section's whole count with the places shown, and
/// each task with its lateness and override (docs/json.md, "Reports").
extension JSONReportRenderer {
    /// A section: `count` is the whole section's (every page together), `shown` the tasks on
    /// this page, `first` and `last` their places (1-based) in the whole section.
    static func sectionJSON(_ section: BucketSection, local: LocalAsOf) -> JSONValue {
        .object([
            ("bucket", .string(section.bucket.rawValue)), ("count", .int(section.total)), ("shown", .int(section.tasks.count)),
            ("first", .int(section.first)), ("last", .int(section.last)),
            ("tasks", .array(section.tasks.map { taskJSON($0, local: local) })),
        ])
    }

    /// A task in JSON. A stored value a hand edit made invalid is given as stored (its own
    /// JSON type) and named in `invalid`, a key present only then. `days_late` and `late` say
    /// how late an overdue task is (null otherwise); `override` is the override in force
    /// (`until` null without an end), null when the bucket is not pinned. Then SPEC §11's
    /// submission (issue 31): `status` (the state), `submitted_at` (as `due` is written, null
    /// when not handed in) and `submitted_late` (handed in after the due).
    package static func taskJSON(_ t: ReportTask, local: LocalAsOf) -> JSONValue {
        let zone = local.timeZone
        let words = TaskRowWords(t, at: local)
        let raw = Dictionary(t.task.invalid.map { ($0.column, $0.json) }, uniquingKeysWith: { first, _ in first })
        var fields: [(String, JSONValue)] = [
            ("task_id", .string(t.task.taskID)), ("course_id", .string(t.task.courseID)), ("title", .string(t.task.title)),
            ("student_id", .string(t.task.studentID)),
            ("due", raw["due"] ?? (t.task.due.isEmpty ? .null : .string(ReportWords.isoDue(t.task.due, zone: zone)))),
            ("priority", raw["priority"] ?? .string(t.task.priority.rawValue)),
            ("completed", raw["completed"] ?? .bool(t.task.completed)),
            ("bucket", .string(t.bucket.rawValue)), ("pinned", .bool(t.pinned)),
            ("days_late", words.daysLate.map { .int($0) } ?? .null), ("late", words.late.map { .string($0) } ?? .null),
            ("override", overrideJSON(t, zone: zone)),
            ("status", raw["status"] ?? .string(t.task.state.rawValue)),
            (
                "submitted_at",
                raw["submitted_at"] ?? (t.task.submittedAt.isEmpty ? .null : .string(ReportWords.isoDue(t.task.submittedAt, zone: zone)))
            ),
            ("submitted_late", .bool(ReportPipeline.handedInLate(t.task, zone: zone))),
        ]
        if !t.task.invalid.isEmpty { fields.append(("invalid", .array(t.task.invalid.map { .string($0.column) }))) }
        return .object(fields)
    }

    /// `{until, reason, actor, words}` of the override in force, or null. `until` is the end
    /// as `due` is written (a date, or a date-time with the course's offset), the stored text
    /// when it cannot be read, null without an end.
    static func overrideJSON(_ t: ReportTask, zone: TimeZone) -> JSONValue {
        guard t.pinned, let override = t.override else { return .null }
        return .object([
            ("until", override.until.isEmpty ? .null : .string(CSVReportRenderer.untilText(override, zone: zone))),
            ("reason", .string(override.reason)), ("actor", .string(override.actor)),
            ("words", .string(TaskRowWords.overrideWords(override, zone: zone))),
        ])
    }
}

/// A list row's added columns in CSV.
extension CSVReportRenderer {
    /// After `status`: how late (`days_late` a number, `late` its words; empty when not late)
    /// and the override in force (`override_until` as `due` is written, `override_reason`,
    /// `override_actor`; empty when not pinned); then SPEC §11's submission (issue 31):
    /// `submission_status` (the state: `status` names the row's words since the first
    /// version), `submitted_at` (as `due` is written, empty when not handed in),
    /// `submitted_late` (true or false).
    package static let rowColumns = [
        "days_late", "late", "override_until", "override_reason", "override_actor", "submission_status", "submitted_at", "submitted_late",
    ]

    static func rowCells(_ t: ReportTask, local: LocalAsOf) -> [String] {
        let words = TaskRowWords(t, at: local)
        let override = t.pinned ? t.override : nil
        return [
            words.daysLate.map(String.init) ?? "", words.late ?? "", override.map { untilText($0, zone: local.timeZone) } ?? "",
            override?.reason ?? "", override?.actor ?? "",
            t.task.invalid.contains { $0.column == "status" } ? "invalid" : t.task.state.rawValue,
            t.task.invalid.first { $0.column == "submitted_at" }?.storedText
                ?? (t.task.submittedAt.isEmpty ? "" : ReportWords.isoDue(t.task.submittedAt, zone: local.timeZone)),
            ReportPipeline.handedInLate(t.task, zone: local.timeZone) ? "true" : "false",
        ]
    }

    /// An override's end as `due` is written, or its stored text when that cannot be read.
    static func untilText(_ override: StoredOverride, zone: TimeZone) -> String {
        let iso = ReportWords.isoDue(override.until, zone: zone)
        return iso.isEmpty ? override.until : iso
    }
}

/// A list's section in Markdown.
extension MarkdownRenderer {
    /// The section's heading (whole count, and the places shown on a page that shows part of
    /// it), then its table: ID, title, student, due, priority, and the whole status (how late,
    /// "set by hand until …: reason").
    static func sectionMarkdown(_ section: BucketSection, zone: TimeZone, local: LocalAsOf, lexicon: Lexicon = .english) -> String {
        var out = "### \(escape(ReportWords.sectionHeading(section, lexicon)))\n\n"
        out += header([.colID, .colTitle, .colStudent, .colDue, .colPriority, .colStatus], lexicon)
        for t in section.tasks {
            let due = t.task.due.isEmpty ? "—" : escape(lexicon.due(t.task.due, zone: zone))
            let words = TaskRowWords(t, at: local, lexicon: lexicon)
            out += "| \(escape(t.task.taskID)) | \(escape(t.task.title)) | \(escape(t.task.studentID)) | \(due) | "
            out += "\(escape(ReportWords.priority(t, lexicon))) | \(escape(words.fullStatus)) |\n"
        }
        return out + "\n"
    }

    /// A table's header row and its rule: the columns in `lexicon`'s words, left-aligned.
    static func header(_ columns: [Phrase], _ lexicon: Lexicon, numeric: Set<Int> = []) -> String {
        "| " + columns.map { escape(lexicon($0)) + " |" }.joined(separator: " ") + "\n|"
            + columns.indices.map { numeric.contains($0) ? "---:|" : "---|" }.joined() + "\n"
    }
}
